package tests

import (
	"net/http"
	"slices"
	"strings"
	"testing"

	"traced/api"
)

// TestAliveFixtures: one call names, in each target's first line, what keeps a running
// program's event loop alive: a forgotten interval with its callback's line, a server with
// its address, a child process, an open socket, a MessagePort, a worker; an unref'd timer is
// listed apart, as not keeping it alive.
func TestAliveFixtures(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	for _, c := range []struct {
		script string
		first  []string // in t0's first line
		check  func(t *testing.T, rep api.AliveReport)
	}{
		{"alive/interval.js", []string{"still running because: interval 1000 ms poll at alive/interval.js:3"}, nil},
		{"alive/server.js", []string{"server listening on 127.0.0.1:"}, nil},
		{"alive/child.js", []string{"child process ", "(sleep 30)"}, nil},
		{"alive/socket.js", []string{"socket to 127.0.0.1:"}, nil},
		{"alive/port.js", []string{"MessagePort with a listener"}, nil},
		{"alive/unref.js", []string{"interval 1000 ms keep at alive/unref.js:5"}, checkUnref},
		{"alive/worker.js", []string{"worker thread 1"}, nil},
	} {
		t.Run(c.script, func(t *testing.T) {
			h := h.with(t)
			s := h.debug(api.StartRequest{Target: c.script})
			if w := h.waitFor(s.ID, 0, "stdout"); w.Event == nil {
				t.Fatalf("%s ended before it was ready", c.script)
			}
			var rep api.AliveReport
			if status := h.call("GET", "/api/debug/"+s.ID+"/alive", nil, &rep); status != http.StatusOK {
				t.Fatalf("alive: status %d", status)
			}
			t.Logf("%d bytes:\n%s", len(rep.Text), rep.Text)
			first, _, _ := strings.Cut(rep.Text, "\n")
			if !strings.HasPrefix(first, "t0 main ") {
				t.Fatalf("first line %q, want t0's", first)
			}
			for _, s := range c.first {
				if !strings.Contains(first, s) {
					t.Errorf("first line %q lacks %q", first, s)
				}
			}
			if len(rep.Text) > 2048 {
				t.Errorf("text of %d bytes, more than 2 KB", len(rep.Text))
			}
			if c.check != nil {
				c.check(t, rep)
			}
		})
	}
}

// checkUnref: the unref'd timer is in notKeeping, with its callback, and the text says so
// apart from the first line.
func checkUnref(t *testing.T, rep api.AliveReport) {
	t.Helper()
	main := rep.Targets[0]
	if !slices.ContainsFunc(main.NotKeeping, func(h api.AliveHandle) bool { return h.Kind == "timeout" && h.Callback == "late" && !h.Ref }) {
		t.Errorf("notKeeping %+v lacks the unref'd timer late", main.NotKeeping)
	}
	if slices.ContainsFunc(main.Keeping, func(h api.AliveHandle) bool { return h.Callback == "late" }) {
		t.Errorf("keeping %+v holds the unref'd timer", main.Keeping)
	}
	first, rest, _ := strings.Cut(rep.Text, "\n")
	if strings.Contains(first, "late") || !strings.Contains(rest, "not keeping it alive") || !strings.Contains(rest, "timeout 60.0 s late at alive/unref.js:4") {
		t.Errorf("text %q: the unref'd timer belongs apart", rep.Text)
	}
}

// TestWaitStillRunning: a wait that times out on a running debug session says what keeps the
// program running, in JSON and in the text form.
func TestWaitStillRunning(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	s := h.debug(api.StartRequest{Target: "alive/interval.js"})
	if w := h.waitFor(s.ID, 0, "stdout"); w.Event == nil {
		t.Fatalf("interval.js ended before it was ready")
	}
	var w api.WaitResponse
	h.call("GET", "/api/trace/wait?kinds=pause&timeoutMs=200&id="+s.ID, nil, &w)
	if !w.TimedOut || !strings.Contains(w.StillRunning, "still running because: interval 1000 ms poll at alive/interval.js:3") {
		t.Fatalf("wait %+v, want a timeout saying the interval keeps it running", w)
	}
	_, text := h.send(h.request("GET", "/api/trace/wait?kinds=pause&timeoutMs=200&format=text&id="+s.ID, nil))
	if !strings.Contains(string(text), "timed out: no matching event yet\nt0 main interval.js (pid ") {
		t.Fatalf("text %q", text)
	}
}

// TestAliveAtFirstLine: alive on a program paused at its first line (node's bootstrap just
// done, process.stdout not yet made) answers, and leaves process.stdout unmade: the
// program's own first write makes it.
func TestAliveAtFirstLine(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	res := h.startPaused(api.StartRequest{Target: "alive/interval.js", PauseOnStart: true})
	var rep api.AliveReport
	if status := h.call("GET", "/api/debug/"+res.Session.ID+"/alive", nil, &rep); status != http.StatusOK {
		t.Fatalf("alive at the first line: status %d", status)
	}
	t.Logf("%d bytes:\n%s", len(rep.Text), rep.Text)
	if len(rep.Targets) == 0 || rep.Targets[0].Error != "" || !strings.HasPrefix(rep.Text, "t0 main ") {
		t.Fatalf("alive at the first line: %+v", rep)
	}
	st := h.exec(res.Session.ID, "continue", api.ContinueRequest{})
	if w := h.waitFor(res.Session.ID, 0, "stdout"); w.Event == nil {
		t.Fatalf("no output after alive at the first line: %+v", st)
	}
}

// TestAliveMidBootstrap: alive on a program paused in a module node loads with --require,
// before its bootstrap is over, answers what keeps it alive and makes none of process's lazy
// streams (stdin, stdout, stderr): making one there runs node's stream set-up early, and fails
// while node:net loads ("net.Socket is not a constructor").
func TestAliveMidBootstrap(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	res := h.startPaused(api.StartRequest{Target: "alive/interval.js", NodeArgs: []string{"--require", "./alive/early.js"},
		Breakpoints: api.BreakpointsAt("alive/early.js:7")})
	if l := res.State.Location; l.File != "alive/early.js" || l.Line != 7 {
		t.Fatalf("paused at %+v, want alive/early.js:7", l)
	}
	const loaded = "['net', 'tty'].filter((m) => process.moduleLoadList.includes('NativeModule ' + m)).join()"
	before := h.eval(res.Session.ID, loaded, 0)
	var rep api.AliveReport
	status := h.call("GET", "/api/debug/"+res.Session.ID+"/alive", nil, &rep)
	t.Logf("%d: %d bytes:\n%s", status, len(rep.Text), rep.Text)
	if status != http.StatusOK || len(rep.Targets) == 0 || rep.Targets[0].Error != "" ||
		!strings.HasPrefix(rep.Text, "t0 main ") || !strings.Contains(rep.Text, "still running because: MessagePort with a listener") {
		t.Fatalf("alive mid-bootstrap: status %d, %+v", status, rep)
	}
	if after := h.eval(res.Session.ID, loaded, 0); after.Value != before.Value {
		t.Fatalf("alive loaded node's stream modules: %v before, %v after", before.Value, after.Value)
	}
	h.exec(res.Session.ID, "continue", api.ContinueRequest{})
	if w := h.waitFor(res.Session.ID, 0, "stdout"); w.Event == nil || w.Event.Output == nil || w.Event.Output.Text.Value != "ready" {
		t.Fatalf("the program's first write after alive: %+v", w.Event)
	}
}

// TestTraceTimeoutStillRunning: a trace session its timeoutMs stops says what kept it running
// then, in its summary and in the text form of its trace; `traced trace --timeout` prints it and
// exits 0: the program was stopped, it did not fail.
func TestTraceTimeoutStillRunning(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	const want = "still running because: interval 1000 ms poll at alive/interval.js:3"
	s := h.start(api.StartRequest{Target: "alive/interval.js", TimeoutMs: 1500})
	sum := h.waitExit(s.ID)
	if sum.Status != api.StatusStopped || !strings.HasPrefix(sum.StillRunning, "t0 main interval.js (pid ") || !strings.Contains(sum.StillRunning, want) {
		t.Fatalf("summary %+v, want stopped with stillRunning naming the interval", sum)
	}
	_, text := h.send(h.request("GET", "/api/trace?format=text&id="+s.ID, nil))
	if !strings.Contains(string(text), "stopped after timeoutMs=1500:\nt0 main interval.js (pid ") {
		t.Fatalf("trace text %q lacks what kept it running", text)
	}
	res := newCLI(t).against(h).run("trace", "--timeout", "1500ms", "--", "alive/interval.js")
	if !strings.Contains(res.stdout, "stopped after timeoutMs=1500:\nt0 main interval.js (pid ") || !strings.Contains(res.stdout, want) {
		t.Fatalf("traced trace --timeout: stdout %q lacks what kept it running", res.stdout)
	}
	if res.code != 0 || strings.Contains(res.stderr, "the program failed") || !strings.Contains(res.stderr, "was stopped, not failed") {
		t.Fatalf("traced trace --timeout: exit %d, stderr %q; want 0 and stopped, not failed", res.code, res.stderr)
	}
}

// TestAliveCreationStacks: in a session started with creationStacks, alive names where the
// program created each handle that keeps it alive (the first frame of the program's), in JSON
// and in the text; without it, nowhere.
func TestAliveCreationStacks(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	for _, c := range []struct {
		script, kind, at string
	}{
		{"alive/interval.js", "interval", "alive/interval.js:3"},
		{"alive/server.js", "server", "alive/server.js:5"},
		{"alive/child.js", "child", "alive/child.js:5"},
		{"alive/port.js", "message-port", "alive/port.js:4"},
		{"alive/worker.js", "worker", "alive/worker.js:4"},
	} {
		t.Run(c.script, func(t *testing.T) {
			h := h.with(t)
			for _, on := range []bool{true, false} {
				s := h.debug(api.StartRequest{Target: c.script, CreationStacks: on})
				if w := h.waitFor(s.ID, 0, "stdout"); w.Event == nil {
					t.Fatalf("%s ended before it was ready", c.script)
				}
				var rep api.AliveReport
				if status := h.call("GET", "/api/debug/"+s.ID+"/alive", nil, &rep); status != http.StatusOK {
					t.Fatalf("alive: status %d", status)
				}
				t.Logf("creationStacks %v: %d bytes:\n%s", on, len(rep.Text), rep.Text)
				i := slices.IndexFunc(rep.Targets[0].Keeping, func(x api.AliveHandle) bool { return x.Kind == c.kind })
				if i < 0 {
					t.Fatalf("keeping %+v lacks a %s", rep.Targets[0].Keeping, c.kind)
				}
				got := rep.Targets[0].Keeping[i]
				switch {
				case !on && got.CreatedAt != "":
					t.Errorf("without creationStacks: createdAt %q", got.CreatedAt)
				case on && (got.CreatedAt != c.at || len(got.Creation) == 0 || !strings.HasSuffix(got.Creation[0], c.at)):
					t.Errorf("%s created at %q (%v), want %s", c.kind, got.CreatedAt, got.Creation, c.at)
				case on && c.kind != "interval" && !strings.Contains(rep.Text, "(created at "+c.at+")"):
					t.Errorf("text %q lacks where the %s was created", rep.Text, c.kind)
				}
				if c.kind == "worker" && on { // the worker's own interval, created in its eval'd script
					if len(rep.Targets) < 2 || len(rep.Targets[1].Keeping) == 0 || rep.Targets[1].Keeping[0].CreatedAt == "" {
						t.Errorf("the worker's interval has no creation site: %+v", rep.Targets[1:])
					}
				}
			}
		})
	}
}
