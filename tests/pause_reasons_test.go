package tests

import (
	"testing"

	"traced/api"
)

// TestPauseReasons: a pause says why in a user's words, never V8's catch-all "other": a
// breakpoint (with its ref), a step, a run-to, a debugger statement, a pause that was asked for.
func TestPauseReasons(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	s := h.debug(api.StartRequest{Target: "reasons.js", Breakpoints: api.BreakpointsAt("reasons.js:4")})
	st, _ := h.waitPaused(s.ID, 0)
	if st.Reason != "breakpoint" || len(st.Hit) != 1 || st.Hit[0] != "bp1" {
		t.Fatalf("at the breakpoint: reason %q hit %v, want breakpoint bp1", st.Reason, st.Hit)
	}
	if st = h.exec(s.ID, "step", api.StepRequest{Kind: "over"}); st.Reason != "step" {
		t.Fatalf("after a step: reason %q, want step", st.Reason)
	}
	if st = h.exec(s.ID, "run-to", api.RunToRequest{Location: "reasons.js:6"}); st.Reason != "run-to" || st.Location == nil || st.Location.Line != 6 {
		t.Fatalf("after a run-to: reason %q at %+v, want run-to at line 6", st.Reason, st.Location)
	}
	if st = h.exec(s.ID, "continue", api.ContinueRequest{}); st.Reason != "debugger statement" || st.Location == nil || st.Location.Line != 7 {
		t.Fatalf("at the debugger statement: reason %q at %+v, want debugger statement at line 7", st.Reason, st.Location)
	}
	var running api.State
	h.call("POST", "/api/debug/"+s.ID+"/continue", api.ContinueRequest{WaitMs: new(int64)}, &running)
	if st = h.exec(s.ID, "pause", nil); st.Reason != "pause" {
		t.Fatalf("after a pause request: reason %q, want pause", st.Reason)
	}
	for _, ev := range h.trace(s.ID, "pause").Events {
		if ev.Pause.Reason == "other" {
			t.Fatalf("pause event %d says other", ev.Seq)
		}
	}
}

// TestWaitStartsNow: a wait without a cursor answers the next matching event, never an old
// one; a wait on pauses answers the pause the program stands in now, with the state there.
func TestWaitStartsNow(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	s := h.debug(api.StartRequest{Target: "reasons.js", Breakpoints: api.BreakpointsAt("reasons.js:4")})
	h.waitPaused(s.ID, 0)
	wait := func(query string) api.WaitResponse {
		t.Helper()
		var w api.WaitResponse
		h.call("GET", "/api/trace/wait?id="+s.ID+"&"+query, nil, &w)
		return w
	}
	w := wait("kinds=pause&timeoutMs=2000")
	if w.Event == nil || w.State == nil || w.State.Reason != "breakpoint" || w.State.Location.Line != 4 {
		t.Fatalf("wait while paused at the breakpoint: %+v state %+v, want that pause with its state", w.Event, w.State)
	}
	h.exec(s.ID, "continue", api.ContinueRequest{})
	w = wait("kinds=pause&timeoutMs=2000")
	if w.Event == nil || w.State == nil || w.State.Reason != "debugger statement" {
		t.Fatalf("wait while paused at the debugger statement: %+v state %+v, want the pause there, not the breakpoint's", w.Event, w.State)
	}
	if w = wait("kinds=resume&timeoutMs=300"); w.Event != nil || !w.TimedOut {
		t.Fatalf("wait for a resume while paused: %+v, want a time-out (the resume of the continue is old)", w.Event)
	}
}
