package tests

import (
	"os"
	"testing"

	"traced/internal/leakcheck"
)

// TestMain fails the suite when a goroutine or a child process outlives the tests.
func TestMain(m *testing.M) { os.Exit(leakcheck.Run(m)) }
