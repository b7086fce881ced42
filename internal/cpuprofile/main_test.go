package cpuprofile

import (
	"os"
	"testing"

	"traced/internal/leakcheck"
)

// TestMain fails the package when a node process or a goroutine outlives the tests.
func TestMain(m *testing.M) { os.Exit(leakcheck.Run(m)) }
