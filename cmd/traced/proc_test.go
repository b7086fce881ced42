package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
	"traced/internal/leakcheck"
)

// testdata is the fixtures' directory, relative to this package (the tests' and children's cwd).
const testdata = "../../tests/testdata"

// Bounds of the waits below: generous, since node starts slowly on a loaded machine under -race.
const (
	startBound = 20 * time.Second // a traced process prints its first lines
	exitBound  = 15 * time.Second // a traced process ends (covers shutdownGrace, 5s)
	goneBound  = 10 * time.Second // a killed node child disappears
)

// requireNode skips a test that spawns node when there is none.
func requireNode(t *testing.T) {
	t.Helper()
	if _, err := exec.LookPath("node"); err != nil {
		t.Skip("node not on PATH")
	}
}

// tracedEnv is this process's environment without the variables traced reads, plus extra.
func tracedEnv(extra ...string) []string {
	var env []string
	for _, kv := range os.Environ() {
		if strings.HasPrefix(kv, "TRACED_TOKEN=") || strings.HasPrefix(kv, "XDG_STATE_HOME=") {
			continue
		}
		env = append(env, kv)
	}
	return append(env, extra...)
}

// result is how a finished traced command ended.
type result struct {
	code           int
	stdout, stderr string
}

// runTraced runs the traced binary to completion within exitBound and returns its exit code
// and output; a command that outlives the bound fails the test.
func runTraced(t *testing.T, args ...string) result {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), exitBound)
	defer cancel()
	cmd := exec.CommandContext(ctx, tracedBin, args...)
	cmd.Env = tracedEnv()
	cmd.WaitDelay = time.Second // bound the output copying should anything else hold the pipes
	var stdout, stderr strings.Builder
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	res := result{stdout: stdout.String(), stderr: stderr.String()}
	var exit *exec.ExitError
	switch {
	case ctx.Err() != nil:
		t.Fatalf("traced %s: still running after %v\nstderr:\n%s", strings.Join(args, " "), exitBound, res.stderr)
	case errors.As(err, &exit):
		res.code = exit.ExitCode()
	case err != nil:
		t.Fatalf("traced %s: %v", strings.Join(args, " "), err)
	}
	return res
}

// proc is a traced process running in the background; t.Cleanup kills and reaps it.
type proc struct {
	cmd    *exec.Cmd
	stderr *lineLog
	done   chan struct{} // closed once Wait has returned
}

// startTraced starts the traced binary with env, its stderr collected line by line.
func startTraced(t *testing.T, env []string, args ...string) *proc {
	t.Helper()
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(tracedBin, args...)
	cmd.Env = env
	cmd.Stderr = w // an *os.File: handed over as is, so Wait has no copying to wait for
	if err := cmd.Start(); err != nil {
		r.Close()
		w.Close()
		t.Fatal(err)
	}
	w.Close() // the child holds its copy: EOF on r now means the child has exited
	p := &proc{cmd: cmd, stderr: readLines(r), done: make(chan struct{})}
	go func() {
		cmd.Wait()
		close(p.done)
	}()
	t.Cleanup(func() {
		_ = cmd.Process.Kill() // an error only says it has already exited
		select {
		case <-p.done:
		case <-time.After(exitBound):
			t.Errorf("traced pid %d not reaped %v after SIGKILL", cmd.Process.Pid, exitBound)
			return
		}
		if err := p.stderr.waitEOF(exitBound); err != nil {
			t.Errorf("traced pid %d: stderr: %v", cmd.Process.Pid, err)
		}
	})
	return p
}

// signal sends sig to the traced process.
func (p *proc) signal(t *testing.T, sig os.Signal) {
	t.Helper()
	if err := p.cmd.Process.Signal(sig); err != nil {
		t.Fatalf("signal %v: %v", sig, err)
	}
}

// exit waits up to bound for the process to end and returns its exit code, -1 when a signal
// ended it. The stderr collected so far is in the failure message.
func (p *proc) exit(t *testing.T, bound time.Duration) int {
	t.Helper()
	select {
	case <-p.done:
	case <-time.After(bound):
		t.Fatalf("traced still running after %v\nstderr:\n%s", bound, p.stderr)
	}
	if err := p.stderr.waitEOF(bound); err != nil {
		t.Fatalf("stderr: %v", err)
	}
	return p.cmd.ProcessState.ExitCode()
}

// lineLog collects the lines of one output stream and lets tests wait for one.
type lineLog struct {
	mu    sync.Mutex
	lines []string
	err   error         // why reading ended: io.EOF normally
	grew  chan struct{} // closed and replaced whenever a line arrives or reading ends
}

// readLines collects r's lines in a goroutine that ends (closing r) at the end of the stream.
func readLines(r *os.File) *lineLog {
	l := &lineLog{grew: make(chan struct{})}
	go func() {
		defer r.Close()
		sc := bufio.NewScanner(r)
		sc.Buffer(make([]byte, 0, 64<<10), 1<<20)
		for sc.Scan() {
			l.mu.Lock()
			l.lines = append(l.lines, sc.Text())
			close(l.grew)
			l.grew = make(chan struct{})
			l.mu.Unlock()
		}
		err := sc.Err()
		if err == nil {
			err = io.EOF
		}
		l.mu.Lock()
		l.err = err
		close(l.grew)
		l.mu.Unlock()
	}()
	return l
}

// waitFor returns the first line, already read or yet to come, that match accepts; it fails
// when the stream ends or bound passes first.
func (l *lineLog) waitFor(match func(string) bool, bound time.Duration) (string, error) {
	deadline := time.NewTimer(bound)
	defer deadline.Stop()
	for i := 0; ; {
		l.mu.Lock()
		for ; i < len(l.lines); i++ {
			if match(l.lines[i]) {
				line := l.lines[i]
				l.mu.Unlock()
				return line, nil
			}
		}
		err, grew := l.err, l.grew
		l.mu.Unlock()
		if err != nil {
			return "", fmt.Errorf("stream ended (%v) before the line", err)
		}
		select {
		case <-grew:
		case <-deadline.C:
			return "", fmt.Errorf("no such line within %v", bound)
		}
	}
}

// waitEOF waits up to bound for the stream to end.
func (l *lineLog) waitEOF(bound time.Duration) error {
	deadline := time.NewTimer(bound)
	defer deadline.Stop()
	for {
		l.mu.Lock()
		err, grew := l.err, l.grew
		l.mu.Unlock()
		if err != nil {
			return nil
		}
		select {
		case <-grew:
		case <-deadline.C:
			return fmt.Errorf("still open after %v", bound)
		}
	}
}

// String is every line read so far.
func (l *lineLog) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return strings.Join(l.lines, "\n")
}

// waitGone waits until gone(pid) holds, up to bound; it reports whether it did.
func waitGone(pid int, bound time.Duration, gone func(int) bool) bool {
	return leakcheck.WaitUntil(bound, func() bool { return gone(pid) })
}

// groupGone reports whether no process is left in process group pgid.
func groupGone(pgid int) bool {
	return errors.Is(syscall.Kill(-pgid, 0), syscall.ESRCH)
}

// processDead reports whether pid has exited.
func processDead(pid int) bool { return leakcheck.Dead(pid) }
