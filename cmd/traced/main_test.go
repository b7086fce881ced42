package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"go.uber.org/goleak"
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

	code := m.Run()
	if code != 0 {
		return code
	}
	if kids := waitNoChildren(10 * time.Second); len(kids) > 0 {
		fmt.Fprintf(os.Stderr, "child processes outlived the tests: %s\n", strings.Join(kids, "; "))
		return 1
	}
	if err := goleak.Find(); err != nil {
		fmt.Fprintf(os.Stderr, "goroutines outlived the tests: %v\n", err)
		return 1
	}
	return 0
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

// waitNoChildren returns the processes still parented by this test binary once the bound has
// passed (a process killed at cleanup may need a moment to be reaped by its waiter).
func waitNoChildren(bound time.Duration) []string {
	end := time.Now().Add(bound)
	for {
		kids := children(os.Getpid())
		if len(kids) == 0 || time.Now().After(end) {
			return kids
		}
		time.Sleep(50 * time.Millisecond) // polling the process table: there is no event to wait on
	}
}

// children lists "pid (state) cmdline" of the processes whose parent is ppid.
func children(ppid int) []string {
	entries, _ := os.ReadDir("/proc")
	var out []string
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		if state, parent, ok := procStat(pid); ok && parent == ppid {
			cmd, _ := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", pid)) // empty for a zombie
			out = append(out, fmt.Sprintf("%d (%c) %s", pid, state, strings.ReplaceAll(string(cmd), "\x00", " ")))
		}
	}
	return out
}

// procStat reads a process's state letter and parent from /proc/<pid>/stat; ok is false when
// the process no longer exists.
func procStat(pid int) (state byte, ppid int, ok bool) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0, 0, false
	}
	// The command is parenthesised and may hold spaces or parentheses: fields start after the
	// last ')'. They are: state ppid ...
	s := string(b)
	i := strings.LastIndexByte(s, ')')
	if i < 0 {
		return 0, 0, false
	}
	f := strings.Fields(s[i+1:])
	if len(f) < 2 || len(f[0]) != 1 {
		return 0, 0, false
	}
	ppid, err = strconv.Atoi(f[1])
	if err != nil {
		return 0, 0, false
	}
	return f[0][0], ppid, true
}
