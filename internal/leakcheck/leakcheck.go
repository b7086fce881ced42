// Package leakcheck tells a test binary what its tests left running: child processes (node, a
// built traced) and goroutines. Test mains call After once m.Run is done.
package leakcheck

import (
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"go.uber.org/goleak"
)

// reapBound is how long children killed at cleanup may take to be reaped by their waiters.
const reapBound = 10 * time.Second

// Run runs the tests, then fails the binary (exit code 1) when a goroutine or a child process
// outlived them. Test mains call os.Exit(leakcheck.Run(m)).
func Run(m *testing.M) int {
	code := m.Run()
	if code != 0 {
		return code
	}
	if err := After(); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	return 0
}

// After reports processes whose parent is this test binary and goroutines still running; nil
// when nothing outlived the tests.
func After() error {
	if kids := waitNoChildren(reapBound); len(kids) > 0 {
		return fmt.Errorf("child processes outlived the tests: %s", strings.Join(kids, "; "))
	}
	if err := goleak.Find(); err != nil {
		return fmt.Errorf("goroutines outlived the tests: %w", err)
	}
	return nil
}

// waitNoChildren returns this process's children still alive once bound has passed.
func waitNoChildren(bound time.Duration) []string {
	var kids []string
	WaitUntil(bound, func() bool {
		kids = Children(os.Getpid())
		return len(kids) == 0
	})
	return kids
}

// WaitUntil polls done until it holds or bound passes, and reports whether it held. For the
// process table only: there is no event to wait on there.
func WaitUntil(bound time.Duration, done func() bool) bool {
	end := time.Now().Add(bound)
	for {
		if done() {
			return true
		}
		if time.Now().After(end) {
			return false
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// Children lists "pid (state) cmdline" of the processes whose parent is ppid, zombies included.
func Children(ppid int) []string {
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

// Dead reports whether pid has exited: gone from /proc, or a zombie not reaped yet (a process
// reparented to init cannot be waited for by the test).
func Dead(pid int) bool {
	state, _, ok := procStat(pid)
	return !ok || state == 'Z' || state == 'X'
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
