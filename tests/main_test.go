package tests

import (
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"go.uber.org/goleak"
)

// TestMain fails the suite when a goroutine or a child process outlives the tests.
func TestMain(m *testing.M) {
	code := m.Run()
	if code == 0 {
		if kids := waitNoChildren(10 * time.Second); len(kids) > 0 {
			fmt.Fprintf(os.Stderr, "child processes outlived the tests: %s\n", strings.Join(kids, "; "))
			code = 1
		}
		if err := goleak.Find(); err != nil {
			fmt.Fprintf(os.Stderr, "goroutines outlived the tests: %v\n", err)
			code = 1
		}
	}
	os.Exit(code)
}

// waitNoChildren returns the processes still parented by this test binary once the bound has
// passed (children killed at cleanup may need a moment to be reaped by their waiters).
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

// children lists "pid cmd" of the processes whose parent is ppid, from /proc.
func children(ppid int) []string {
	entries, _ := os.ReadDir("/proc")
	var out []string
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		stat, err := os.ReadFile("/proc/" + e.Name() + "/stat")
		if err != nil {
			continue
		}
		// Fields after the parenthesised command: state ppid ...
		s := string(stat)
		i := strings.LastIndexByte(s, ')')
		if i < 0 {
			continue
		}
		f := strings.Fields(s[i+1:])
		if len(f) < 2 {
			continue
		}
		if p, _ := strconv.Atoi(f[1]); p == ppid {
			cmd, _ := os.ReadFile("/proc/" + e.Name() + "/cmdline")
			out = append(out, fmt.Sprintf("%d %s", pid, strings.ReplaceAll(string(cmd), "\x00", " ")))
		}
	}
	return out
}
