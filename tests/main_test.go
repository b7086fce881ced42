package tests

import (
	"fmt"
	"os"
	"testing"

	"traced/internal/leakcheck"
)

// TestMain fails the suite when a goroutine or a child process outlives the tests.
func TestMain(m *testing.M) {
	code := m.Run()
	if code == 0 {
		if err := leakcheck.After(); err != nil {
			fmt.Fprintln(os.Stderr, err)
			code = 1
		}
	}
	os.Exit(code)
}
