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
