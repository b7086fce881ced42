package tests

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
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
	t.Parallel()
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

// writeRecord writes a service record under the CLI's state directory, as a service started on
// demand would have.
func writeRecord(t *testing.T, c *cli, addr string, pid int) {
	t.Helper()
	dir := filepath.Join(c.stateDir(), "traced")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	tokenFile := filepath.Join(dir, "service-token")
	if err := os.WriteFile(tokenFile, []byte("secret-of-the-cli\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	rec, _ := json.Marshal(map[string]any{"addr": addr, "tokenFile": tokenFile, "pid": pid, "root": ".", "idleTimeout": "1s"})
	if err := os.WriteFile(filepath.Join(dir, "service.json"), rec, 0o600); err != nil {
		t.Fatal(err)
	}
}

// TestCLIStaleRecordForeign: a record naming a live pid that is not traced (this test) and a
// port another server holds gets no request, and no token: status says no service runs, and
// launch starts a fresh one.
func TestCLIStaleRecordForeign(t *testing.T) {
	t.Parallel()
	var mu sync.Mutex
	var seen []string
	foreign := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		seen = append(seen, r.Method+" "+r.URL.Path+" auth="+r.Header.Get("Authorization"))
		mu.Unlock()
		w.Write([]byte(`{"version":"x","sessions":[]}`))
	}))
	defer foreign.Close()
	c := newCLI(t, "TRACED_IDLE_TIMEOUT=1s")
	writeRecord(t, c, foreign.Listener.Addr().String(), os.Getpid())
	res := c.fails(3, []string{"status"}, "no traced service is running")
	if strings.Contains(res.stdout, "service  http://") {
		t.Errorf("status called a foreign server traced:\n%s", res.stdout)
	}
	res = c.run("launch", "--name", "fresh", "--", "spin.js")
	svc := serviceOf(t, c.stateDir())
	if res.code != 0 || !strings.Contains(res.stderr, "stale") || !strings.Contains(res.stderr, "started a service") {
		t.Fatalf("launch over a stale record: exit %d\nstdout: %s\nstderr: %s", res.code, res.stdout, res.stderr)
	}
	c.ok([]string{"stop"}, "fresh")
	svc.exited(deadline)
	mu.Lock()
	defer mu.Unlock()
	if len(seen) > 0 {
		t.Errorf("the foreign server was sent %d requests: %q", len(seen), seen)
	}
}

// TestCLIStaleRecordSilent: a recorded service that holds its port but never answers (stopped)
// holds a command for the first contact's bound, not the request bound: launch starts a fresh
// service within seconds.
func TestCLIStaleRecordSilent(t *testing.T) {
	t.Parallel()
	c := newCLI(t, "TRACED_IDLE_TIMEOUT=1s")
	c.ok([]string{"launch", "--brk", "--name", "first", "--", "spin.js"}, "first")
	stuck := serviceOf(t, c.stateDir())
	if err := unix.PidfdSendSignal(stuck.pidfd, syscall.SIGSTOP, nil, 0); err != nil {
		t.Fatal(err)
	}
	begin := time.Now()
	res := c.run("launch", "--name", "second", "--", "spin.js")
	took := time.Since(begin)
	fresh := serviceOf(t, c.stateDir())
	if res.code != 0 || fresh.pid == stuck.pid || !strings.Contains(res.stderr, "stale") {
		t.Fatalf("launch over a silent service: exit %d\nstdout: %s\nstderr: %s", res.code, res.stdout, res.stderr)
	}
	if took > deadline {
		t.Errorf("launch took %v next to a silent service", took)
	}
	c.ok([]string{"stop"}, "second")
	fresh.exited(deadline)
}
