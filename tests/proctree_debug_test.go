package tests

import (
	"net/http"
	"slices"
	"testing"

	"traced/api"
)

// TestChildBreakpoints: breakpoints given at start bind in every child process as it starts
// (fork and fork of a fork); each child pauses at its own line as a target of its own, listed
// with the breakpoint's resolved locations per target; ?target= reaches a paused child while the
// main thread runs, an unknown target answers 404 naming GET targets, and a logpoint set while a
// child is paused emits in the grandchild; the event reads filter by target.
func TestChildBreakpoints(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	s := h.debug(api.StartRequest{Target: "forks.js", Breakpoints: api.BreakpointsAt("forks.js:17")})
	st, seq := h.waitPaused(s.ID, 0)
	child := st.Target
	if child == "" || child == "t0" || st.Location == nil || st.Location.Line != 17 {
		t.Fatalf("state %+v, want a child paused at forks.js:17", st)
	}
	if kind := h.targetKind(s.ID, child); kind != "process" {
		t.Fatalf("paused in %s, a %s; want a process", child, kind)
	}
	if v := local(t, st, "role"); v.Value != "'child'" {
		t.Fatalf("role = %+v, want 'child'", v)
	}
	if main := h.state(s.ID, "target=t0"); main.Status != api.StatusRunning || !slices.Equal(main.AlsoPaused, []string{child}) {
		t.Fatalf("t0's state %+v, want running with %s paused", main, child)
	}
	var bps api.BreakpointsResponse
	h.call("GET", "/api/debug/"+s.ID+"/breakpoints", nil, &bps)
	if len(bps.Breakpoints) != 1 || !slices.ContainsFunc(bps.Breakpoints[0].Resolved, func(f api.Frame) bool { return f.Target == child && f.Line == 17 }) {
		t.Fatalf("breakpoints %+v, want bp1 resolved in %s at line 17", bps.Breakpoints, child)
	}
	if e := h.errorOf(h.request("GET", "/api/debug/"+s.ID+"/state?target=t99", nil), http.StatusNotFound); e.Code != "no_such_target" {
		t.Fatalf("unknown target: %+v, want no_such_target", e)
	}
	h.setLogpoint(s.ID, api.LogpointRequest{Location: "forks.js:19", Template: "grandchild ${role}"})
	h.exec(s.ID, "continue?target="+child, api.ContinueRequest{WaitMs: new(int64)})
	w := h.waitFor(s.ID, seq, "logpoint")
	if w.Event == nil || w.Event.Logpoint.Text.Value != "grandchild grandchild" || w.Event.Target == "" || w.Event.Target == child {
		t.Fatalf("logpoint event %+v, want the grandchild's emission from its own target", w.Event)
	}
	if sum := h.waitExit(s.ID); sum.ExitCode == nil || *sum.ExitCode != 0 || sum.Counts[api.KindPause] != 1 {
		t.Fatalf("summary %+v, want exit 0 after one pause", sum)
	}
	// The reads take a target: the child's console calls alone, then the main thread's first.
	var page api.EventsResponse
	h.call("GET", "/api/trace/events?id="+s.ID+"&kinds=console&target="+child, nil, &page)
	var texts []string
	for _, ev := range page.Events {
		texts = append(texts, ev.Target+" "+ev.Console.Text.Value)
	}
	if want := []string{child + " child: hello", child + " child: grandchild exited 0"}; !slices.Equal(texts, want) {
		t.Fatalf("the child's console %q, want %q", texts, want)
	}
	var w0 api.WaitResponse
	h.call("GET", "/api/trace/wait?id="+s.ID+"&after=0&kinds=console&target=t0", nil, &w0)
	if w0.Event == nil || w0.Event.Target != "" || w0.Event.Console.Text.Value == "child: hello" {
		t.Fatalf("wait target=t0: %+v, want the main thread's first console call", w0.Event)
	}
}
