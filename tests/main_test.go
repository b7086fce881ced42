package tests

import (
	"os"
	"testing"

	"traced/internal/leakcheck"
	"traced/internal/shim"
)

// TestMain fails the suite when a goroutine or a child process outlives the tests. Started with
// shim.Arg, the test binary is a session's shim, as the traced binary is: the harness's sessions
// run under one, as a served session does.
func TestMain(m *testing.M) {
	if len(os.Args) > 1 && os.Args[1] == shim.Arg {
		os.Exit(shim.Main(os.Args[2:]))
	}
	os.Exit(leakcheck.Run(m))
}

// testShim is the shim the harness's services start (TestMain above).
func testShim(t testing.TB) string {
	t.Helper()
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	return self
}
