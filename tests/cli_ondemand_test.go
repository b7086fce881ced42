package tests

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// onDemand is a service the CLI started: its record and a pidfd to wait on its exit (it is not
// the test's child, so Wait cannot).
type onDemand struct {
	pid   int
	addr  string
	pidfd int
}

// serviceOf reads the record the CLI wrote under stateDir and opens the service's pidfd; the
// service is killed at cleanup if it is still there.
func serviceOf(t *testing.T, stateDir string) *onDemand {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(stateDir, "traced", "service.json"))
	if err != nil {
		t.Fatalf("service record: %v", err)
	}
	var rec struct {
		Addr string `json:"addr"`
		PID  int    `json:"pid"`
	}
	if err := json.Unmarshal(b, &rec); err != nil || rec.PID <= 0 {
		t.Fatalf("service record %s: %v", b, err)
	}
	fd, err := unix.PidfdOpen(rec.PID, 0)
	if err != nil {
		t.Fatalf("pidfd of the service (pid %d): %v", rec.PID, err)
	}
	s := &onDemand{pid: rec.PID, addr: rec.Addr, pidfd: fd}
	t.Cleanup(func() {
		if !s.exited(0) {
			unix.PidfdSendSignal(fd, syscall.SIGKILL, nil, 0)
			if !s.exited(deadline) {
				t.Errorf("service pid %d outlived SIGKILL by %v", s.pid, deadline)
			}
		}
		unix.Close(fd)
	})
	return s
}

// exited waits up to bound for the service's exit: a pidfd turns readable when it ends.
func (s *onDemand) exited(bound time.Duration) bool {
	end := time.Now().Add(bound)
	for {
		fds := []unix.PollFd{{Fd: int32(s.pidfd), Events: unix.POLLIN}}
		n, err := unix.Poll(fds, int(max(time.Until(end).Milliseconds(), 0)))
		if errors.Is(err, unix.EINTR) {
			continue
		}
		return err == nil && n > 0
	}
}

func (c *cli) stateDir() string {
	for _, kv := range c.env {
		if d, ok := strings.CutPrefix(kv, "XDG_STATE_HOME="); ok {
			return d
		}
	}
	return ""
}

// TestCLIServiceOnDemand: with no service, launch starts one (loopback, token file 0600, a
// record); a second invocation reuses it; two shells starting at once get one service; once no
// session is live for the idle timeout it exits and its record goes with it.
func TestCLIServiceOnDemand(t *testing.T) {
	const idle = "1s"
	c := newCLI(t, "TRACED_IDLE_TIMEOUT="+idle)
	// Read the record before any check: a failed check must still end the service at cleanup
	// (its paused session would keep it from ever going idle).
	res := c.run("launch", "--brk", "--name", "od", "--", "spin.js")
	svc := serviceOf(t, c.stateDir())
	if res.code != 0 || !strings.Contains(res.stdout, "od  debug  paused") || !strings.Contains(res.stdout, "paused at spin.js:2") {
		t.Fatalf("launch: exit %d\nstdout: %s\nstderr: %s", res.code, res.stdout, res.stderr)
	}
	if !strings.Contains(res.stderr, "started a service at 127.0.0.1:") {
		t.Fatalf("launch did not say it started a service: %q", res.stderr)
	}
	tokenInfo, err := os.Stat(filepath.Join(c.stateDir(), "traced", "service-token"))
	if err != nil || tokenInfo.Mode().Perm() != 0o600 {
		t.Fatalf("token file: %v, mode %v; want 0600", err, tokenInfo)
	}

	// The second invocation finds it through the record: no new service.
	res = c.ok([]string{"status"}, "http://"+svc.addr, fmt.Sprintf("pid %d", svc.pid), "1 live", "od  debug  ")
	if strings.Contains(res.stderr, "started a service") {
		t.Fatalf("status started another service: %q", res.stderr)
	}
	c.ok([]string{"sessions"}, "od  debug")

	// Stopping the last live session starts the idle clock; the service then exits by itself.
	c.ok([]string{"stop"}, "od  debug  stopped")
	if !svc.exited(deadline) {
		t.Fatalf("the service (pid %d) still runs %v after its last session ended (idle timeout %s)", svc.pid, deadline, idle)
	}
	if _, err := os.Stat(filepath.Join(c.stateDir(), "traced", "service.json")); !os.IsNotExist(err) {
		t.Errorf("the record outlived its service: %v", err)
	}
	c.fails(3, []string{"state"}, "error: no traced service is running")

	// Two shells at once: the lock makes one service, both sessions in it.
	two := newCLI(t, "TRACED_IDLE_TIMEOUT="+idle)
	var wg sync.WaitGroup
	runs := make([]cliRun, 2)
	for i := range runs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			runs[i] = two.run("launch", "--brk", "--name", fmt.Sprintf("shell%d", i), "--", "spin.js")
		}()
	}
	wg.Wait()
	shared := serviceOf(t, two.stateDir())
	started := 0
	for i, r := range runs {
		if r.code != 0 {
			t.Fatalf("shell %d: exit %d: %s", i, r.code, r.stderr)
		}
		started += strings.Count(r.stderr, "started a service")
	}
	if started != 1 {
		t.Errorf("%d services started by two shells at once, want 1", started)
	}
	two.ok([]string{"sessions"}, "shell0", "shell1")
	two.ok([]string{"--session", "shell0", "stop"}, "stopped")
	two.ok([]string{"--session", "shell1", "stop"}, "stopped")
	if !shared.exited(deadline) {
		t.Fatalf("the shared service (pid %d) outlived its idle timeout", shared.pid)
	}
}
