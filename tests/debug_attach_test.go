package tests

import (
	"bufio"
	"context"
	"net"
	"net/http"
	"net/url"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"traced/api"
	"traced/internal/engine"
	"traced/internal/leakcheck"
)

// lineBeat is attachme.js's `beats++;` (in beat, every 20 ms).
const lineBeat = 4

// inspected is a node process the test started with --inspect, as a user would.
type inspected struct {
	pid   int
	wsURL string
	beats chan string // stdout lines, "beat N"
}

// startInspected runs node <flag>=127.0.0.1:0 attachme.js (flag --inspect or --inspect-brk) in
// tests/testdata and returns once its inspector listens; the process is killed and reaped at
// cleanup.
func startInspected(t *testing.T, flag string) *inspected {
	t.Helper()
	cmd := exec.Command(nodeOrSkip(t), flag+"=127.0.0.1:0", "attachme.js")
	cmd.Dir = "testdata"
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	p := &inspected{pid: cmd.Process.Pid, beats: make(chan string, 1024)}
	urls := make(chan string, 1)
	drained := make(chan struct{}, 2)
	go func() {
		defer func() { drained <- struct{}{} }()
		sc := bufio.NewScanner(stderr)
		found := false
		for sc.Scan() {
			if u := engine.ParseInspectorURL(sc.Text()); u != "" && !found {
				found = true
				urls <- u
			}
		}
		close(urls)
	}()
	go func() {
		defer func() { drained <- struct{}{} }()
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			select {
			case p.beats <- sc.Text():
			default: // nobody reads this far back
			}
		}
	}()
	t.Cleanup(func() {
		_ = syscall.Kill(-p.pid, syscall.SIGKILL)
		<-drained
		<-drained
		_ = cmd.Wait()
	})
	select {
	case u, ok := <-urls:
		if !ok {
			t.Fatal("node exited before its inspector listened")
		}
		p.wsURL = u
	case <-time.After(deadline):
		t.Fatalf("no inspector URL on node's stderr within %s", deadline)
	}
	return p
}

// port is the inspector's port.
func (p *inspected) port(t *testing.T) int {
	u, err := url.Parse(p.wsURL)
	if err != nil {
		t.Fatal(err)
	}
	n, err := strconv.Atoi(u.Port())
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// nextBeat waits for the next beat line node printed.
func (p *inspected) nextBeat(t *testing.T) string {
	t.Helper()
	select {
	case line := <-p.beats:
		return line
	case <-time.After(deadline):
		t.Fatalf("node printed no beat within %s", deadline)
		return ""
	}
}

// attach posts an attach request that must succeed and detaches at cleanup.
func (h *harness) attach(req api.AttachRequest) api.Summary {
	h.t.Helper()
	var res api.SessionResponse
	if st := h.call("POST", "/api/debug/attach", req, &res); st != http.StatusCreated {
		h.t.Fatalf("attach %+v: status %d", req, st)
	}
	h.stopAtCleanup(res.Session.ID)
	return res.Session
}

func TestAttachByURLAndDetach(t *testing.T) {
	t.Parallel()
	p := startInspected(t, "--inspect")
	h := newHarness(t)
	s := h.attach(api.AttachRequest{WSURL: p.wsURL, Name: "ext"})
	root, _ := filepath.Abs("testdata")
	if s.Mode != api.ModeDebug || s.Name != "ext" || s.PID != p.pid || s.Cwd != root ||
		filepath.Base(s.Target) != "attachme.js" || s.Status != api.StatusRunning {
		t.Fatalf("attached %+v, want a running debug session named ext on pid %d in %s", s, p.pid, root)
	}

	// Its console is captured like a launched session's.
	w := h.waitFor("ext", 0, "console")
	if w.Event == nil || !strings.HasPrefix(w.Event.Console.Text.Value, "beat ") {
		t.Fatalf("first console event %+v, want a beat", w.Event)
	}

	// A breakpoint relative to the process's own cwd pauses it.
	h.setBreakpoint("ext", api.BreakpointRequest{Location: "attachme.js:" + strconv.Itoa(lineBeat)})
	st, _ := h.waitPaused("ext", w.Event.Seq)
	wantPausedIn(t, st, "attachme.js", "beat", lineBeat)
	res := h.eval("ext", "beats", 0)
	before, err := strconv.Atoi(res.Value)
	if err != nil || res.Type != "number" {
		t.Fatalf("eval in the attached process: %+v", res)
	}

	// Stop detaches: the session is stopped, the process is alive and running again.
	var stopped api.SessionResponse
	if code := h.call("POST", "/api/trace/stop", api.StopRequest{ID: "ext"}, &stopped); code != http.StatusOK {
		t.Fatalf("stop: status %d", code)
	}
	if sum := stopped.Session; sum.Status != api.StatusStopped || sum.EndedAt == nil || !strings.Contains(sum.Error, "detached") {
		t.Fatalf("after stop %+v, want stopped, detached", sum)
	}
	if leakcheck.Dead(p.pid) {
		t.Fatal("stopping an attached session killed its process")
	}
	p.beatAfter(t, before) // the program runs again
	e := h.errorOf(h.request("POST", "/api/debug/ext/continue", api.ContinueRequest{}), http.StatusConflict)
	if e.Code != "finished" {
		t.Fatalf("continue after detach: %+v", e)
	}

	// The inspector takes a new client: attaching again works after the detach.
	again := h.attach(api.AttachRequest{WSURL: p.wsURL})
	if again.ID == s.ID || again.Status != api.StatusRunning {
		t.Fatalf("second attach %+v", again)
	}
}

func TestAttachByPortEndsWithTheProcess(t *testing.T) {
	t.Parallel()
	p := startInspected(t, "--inspect")
	h := newHarness(t)
	s := h.attach(api.AttachRequest{Port: p.port(t)})
	if s.PID != p.pid {
		t.Fatalf("attached by port to pid %d, want %d", s.PID, p.pid)
	}
	h.waitFor(s.ID, 0, "console")

	// The process dies under the session: it finishes as exited, without an exit code.
	if err := syscall.Kill(-p.pid, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	sum := h.waitExit(s.ID)
	if sum.Status != api.StatusExited || sum.ExitCode != nil {
		t.Fatalf("after the process died: %+v, want exited without a code", sum)
	}
}

func TestAttachRefuses(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	free := func() int { // a port nothing listens on
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		defer ln.Close()
		return ln.Addr().(*net.TCPAddr).Port
	}()
	for _, c := range []struct {
		name   string
		body   any
		status int
		code   string
	}{
		{"remote host", api.AttachRequest{WSURL: "ws://10.0.0.1:9229/x"}, http.StatusForbidden, "not_loopback"},
		{"name ending in a loopback", api.AttachRequest{WSURL: "ws://127.0.0.1.attacker.example:9229/x"}, http.StatusForbidden, "not_loopback"},
		{"another loopback spelling", api.AttachRequest{WSURL: "ws://0177.0.0.1:9229/x"}, http.StatusForbidden, "not_loopback"},
		{"not ws", api.AttachRequest{WSURL: "http://127.0.0.1:9229/x"}, http.StatusBadRequest, "bad_request"},
		{"no port in url", api.AttachRequest{WSURL: "ws://127.0.0.1/x"}, http.StatusBadRequest, "bad_request"},
		{"both", api.AttachRequest{WSURL: "ws://127.0.0.1:9229/x", Port: 9229}, http.StatusBadRequest, "bad_request"},
		{"neither", `{}`, http.StatusBadRequest, "bad_request"},
		{"port out of range", `{"port":70000}`, http.StatusBadRequest, "bad_request"},
		{"unknown field", `{"port":9229,"host":"10.0.0.1"}`, http.StatusBadRequest, "bad_request"},
		{"nothing listens", api.AttachRequest{Port: free}, http.StatusBadGateway, "attach_failed"},
		{"nothing listens at the url", api.AttachRequest{WSURL: "ws://127.0.0.1:" + strconv.Itoa(free) + "/x"}, http.StatusBadGateway, "attach_failed"},
	} {
		t.Run(c.name, func(t *testing.T) {
			e := h.with(t).errorOf(h.with(t).request("POST", "/api/debug/attach", c.body), c.status)
			if e.Code != c.code || e.Hint == "" {
				t.Fatalf("error %+v, want code %s with a hint", e, c.code)
			}
		})
	}
	if n := len(h.svc.Engine.List()); n != 0 {
		t.Fatalf("%d sessions retained after refused attaches", n)
	}
}

// TestAttachWaitingProcess: a process started with --inspect-brk waits for a debugger; attached,
// it stands paused at its first line until continued. A service shutdown detaches and leaves it
// running.
func TestAttachWaitingProcess(t *testing.T) {
	t.Parallel()
	p := startInspected(t, "--inspect-brk")
	h := newHarness(t)
	s := h.attach(api.AttachRequest{WSURL: p.wsURL})
	st, _ := h.waitPaused(s.ID, 0)
	if st.Status != api.StatusPaused || st.Location == nil || st.Location.File != "attachme.js" {
		t.Fatalf("state %+v, want paused in attachme.js", st)
	}
	if st := h.exec(s.ID, "continue", api.ContinueRequest{WaitMs: new(int64)}); st.Status != api.StatusRunning {
		t.Fatalf("after continue: %+v", st)
	}
	before, err := strconv.Atoi(h.eval(s.ID, "globalThis.beats ?? 0", 0).Value) // global: it runs
	if err != nil {
		t.Fatal(err)
	}

	// Shutting the engine down detaches: the session is stopped, the process beats on.
	ctx, cancel := context.WithTimeout(context.Background(), deadline)
	defer cancel()
	if err := h.svc.Engine.Shutdown(ctx); err != nil {
		t.Fatal(err)
	}
	if sum := h.trace(s.ID, "exit").Session; sum.Status != api.StatusStopped {
		t.Fatalf("after shutdown %+v, want stopped", sum)
	}
	if leakcheck.Dead(p.pid) {
		t.Fatal("shutdown killed the attached process")
	}
	p.beatAfter(t, before)
}

// beatAfter waits for a beat numbered above n; earlier ones may still be queued.
func (p *inspected) beatAfter(t *testing.T, n int) {
	t.Helper()
	for {
		line := p.nextBeat(t)
		got, err := strconv.Atoi(strings.TrimPrefix(line, "beat "))
		if err != nil {
			t.Fatalf("node printed %q", line)
		}
		if got > n {
			return
		}
	}
}
