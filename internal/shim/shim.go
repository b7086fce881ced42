// Package shim is the small process that stands between the service and a session's node, as
// containerd-shim does for a container: the child subreaper of the session's process tree, it
// kills the whole tree when the service dies, even one killed by SIGKILL.
//
// The service starts the traced binary with Arg as its first argument, the node command after
// it, fd 3 the write end of a status pipe, and PR_SET_PDEATHSIG set to SIGTERM. The shim starts
// node (its own process group, PR_SET_PDEATHSIG SIGKILL) and writes on fd 3:
//
//	pid N       node runs as pid N
//	error E M   node could not be started: errno E, message M
//	exit W      node ended with wait status W
//
// It then reaps every process of the tree, orphans included (setsid ones too: a subreaper gets
// them), and exits once none is left. SIGTERM, SIGINT or SIGHUP (the service's death among them)
// make it kill every descendant; the walk goes by parent links in /proc, which hold for a
// process that left node's group or session, since its orphaned ancestors were reparented here.
package shim

import (
	"errors"
	"fmt"
	"os"
	"os/signal"
	"runtime"
	"strconv"
	"strings"
	"syscall"

	"golang.org/x/sys/unix"

	"traced/internal/proctab"
)

// Arg is the hidden first argument that makes the traced binary a shim.
const Arg = "__traced-shim"

// statusFD is the status pipe's descriptor in the shim.
const statusFD = 3

// killPasses bounds the kill walk: each pass kills what the last left (a process may fork
// while it runs); one that finds none alive ends it.
const killPasses = 200

// Main runs the shim on args (node's path, then its arguments) and returns its exit code.
func Main(args []string) int {
	// node's PR_SET_PDEATHSIG follows the thread that forks it: this one, for the shim's life.
	runtime.LockOSThread()
	status := os.NewFile(statusFD, "status")
	if status == nil || len(args) == 0 {
		fmt.Fprintln(os.Stderr, "traced: the shim is started by traced serve, not by hand")
		return 2
	}
	unix.CloseOnExec(statusFD) // node must not hold it: EOF tells the service the shim is gone
	report := func(format string, a ...any) { fmt.Fprintf(status, format+"\n", a...) }
	// Before node exists, so that no death signal is missed once it does.
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, syscall.SIGTERM, syscall.SIGINT, syscall.SIGHUP)
	signal.Ignore(syscall.SIGPIPE) // a dead service's pipe answers EPIPE
	if err := unix.Prctl(unix.PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0); err != nil {
		report("error %d %s", errnoOf(err), oneLine("child subreaper: "+err.Error()))
		return 1
	}
	node, err := syscall.ForkExec(args[0], args, &syscall.ProcAttr{
		Env:   os.Environ(),
		Files: []uintptr{0, 1, 2},
		Sys:   &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL},
	})
	if err != nil {
		report("error %d %s", errnoOf(err), oneLine(err.Error()))
		return 1
	}
	report("pid %d", node)
	go func() {
		<-sigs
		killAll(node)
	}()
	for {
		var ws unix.WaitStatus
		pid, err := unix.Wait4(-1, &ws, 0, nil)
		if errors.Is(err, unix.EINTR) {
			continue
		}
		if err != nil { // ECHILD: nothing of the tree is left
			return 0
		}
		if pid == node {
			report("exit %d", uint32(ws))
		}
	}
}

// killAll kills node's process group and every descendant of the shim until none is alive.
func killAll(node int) {
	_ = syscall.Kill(-node, syscall.SIGKILL)
	self := os.Getpid()
	for range killPasses {
		tree := proctab.Descendants(self)
		if len(tree) == 0 {
			return
		}
		for _, pid := range tree {
			_ = syscall.Kill(pid, syscall.SIGKILL)
		}
	}
}

func errnoOf(err error) int {
	var errno syscall.Errno
	if errors.As(err, &errno) {
		return int(errno)
	}
	return 0
}

func oneLine(s string) string { return strings.ReplaceAll(s, "\n", " ") }

// ParseLine reads one status line: its word and the rest.
func ParseLine(line string) (word string, n int, rest string) {
	word, tail, _ := strings.Cut(strings.TrimRight(line, "\n"), " ")
	num, rest, _ := strings.Cut(tail, " ")
	n, _ = strconv.Atoi(num)
	return word, n, rest
}
