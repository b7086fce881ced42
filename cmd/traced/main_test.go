package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"traced/internal/leakcheck"
)

// tracedBin is the traced binary, built once by TestMain for every black-box test here.
var tracedBin string

// TestMain builds the binary, runs the tests, and fails the suite when a goroutine or a child
// process outlives them.
func TestMain(m *testing.M) {
	os.Exit(testMain(m))
}

// testMain returns the exit code, so that its deferred removal of the build directory runs.
func testMain(m *testing.M) int {
	dir, err := os.MkdirTemp("", "traced-cmd-test-")
	if err != nil {
		fmt.Fprintln(os.Stderr, "build directory:", err)
		return 1
	}
	defer os.RemoveAll(dir)
	if tracedBin, err = build(dir); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}

	return leakcheck.Run(m)
}

// build compiles this package into dir and returns the binary's path.
func build(dir string) (string, error) {
	pkg, err := os.Getwd() // go test runs a package's tests in its own directory
	if err != nil {
		return "", fmt.Errorf("package directory: %w", err)
	}
	bin := filepath.Join(dir, "traced")
	cmd := exec.Command("go", "build", "-o", bin, ".")
	cmd.Dir = pkg
	if out, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("go build: %w\n%s", err, out)
	}
	return bin, nil
}
