package tests

import (
	"net/http"
	"slices"
	"strings"
	"testing"

	"traced/api"
	"traced/internal/engine"
)

// startPaused starts a debug session that stands paused as start answers, and returns the answer.
func (h *harness) startPaused(req api.StartRequest) api.SessionResponse {
	h.t.Helper()
	req.Mode = api.ModeDebug
	var res api.SessionResponse
	if st := h.call("POST", "/api/trace/start", req, &res); st != http.StatusCreated {
		h.t.Fatalf("start %+v: status %d", req, st)
	}
	h.stopAtCleanup(res.Session.ID)
	if res.Session.Status != api.StatusPaused || res.State == nil || res.State.Status != api.StatusPaused || res.State.Location == nil {
		h.t.Fatalf("start answered %+v with state %+v, want paused with the state", res.Session, res.State)
	}
	return res
}

// TestDebugStatusSaysPaused: a session paused at its first line says paused in the start answer,
// the list, GET state and the wait, and running once continued.
func TestDebugStatusSaysPaused(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	res := h.startPaused(api.StartRequest{Target: "debugme.js", PauseOnStart: true})
	id := res.Session.ID
	var list api.ListResponse
	h.call("GET", "/api/trace/list", nil, &list)
	if i := slices.IndexFunc(list.Sessions, func(s api.Summary) bool { return s.ID == id }); i < 0 || list.Sessions[i].Status != api.StatusPaused {
		t.Fatalf("list %+v, want %s paused", list.Sessions, id)
	}
	if st := h.state(id, ""); st.Status != api.StatusPaused {
		t.Fatalf("GET state says %s", st.Status)
	}
	w := h.waitFor(id, 0, "pause")
	if w.Status != string(engine.StatusPaused) {
		t.Fatalf("wait for the pause says %s", w.Status)
	}
	st := h.exec(id, "continue", api.ContinueRequest{})
	if st.Status == api.StatusPaused {
		t.Fatalf("continue answered %+v, want it to run to the end", st)
	}
	if sum := h.waitExit(id); sum.Status != api.StatusExited {
		t.Fatalf("ended %+v", sum)
	}
}

// TestDebugStartAnswersThePause: pauseOnStart answers the state at the first line; the state
// carries the source and locals a GET state would.
func TestDebugStartAnswersThePause(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	res := h.startPaused(api.StartRequest{Target: "debugme.js", PauseOnStart: true})
	if l := res.State.Location; l.File != "debugme.js" || len(res.State.Source) == 0 || len(res.State.Stack) == 0 {
		t.Fatalf("start state %+v, want the first line of debugme.js with source and stack", res.State)
	}
	if n := h.trace(res.Session.ID, "").Session.Counts[api.KindConsole]; n != 0 || res.State.Output != nil {
		t.Fatalf("%d console calls, output %+v before the first line", n, res.State.Output)
	}
}

// TestDebugPauseOnFirstStatement: a first statement that is `debugger;`, and a start breakpoint
// on or before the first statement (a comment header above it), start and show that pause.
func TestDebugPauseOnFirstStatement(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	res := h.startPaused(api.StartRequest{Target: "firstdebugger.js"})
	if l := res.State.Location; l.File != "firstdebugger.js" || l.Line != 1 {
		t.Fatalf("paused at %+v, want firstdebugger.js:1", l)
	}
	st := h.exec(res.Session.ID, "continue", api.ContinueRequest{})
	if st.Output == nil || len(st.Output.Entries) == 0 || st.Output.Entries[0].Text != "after the first statement" {
		t.Fatalf("continue answered output %+v, want the line after the debugger statement", st.Output)
	}
	for _, line := range []string{"header.js:2", "header.js:3", "header.js:4"} {
		t.Run(line, func(t *testing.T) {
			res := h.with(t).startPaused(api.StartRequest{Target: "header.js", Breakpoints: api.BreakpointsAt(line)})
			if l := res.State.Location; l.File != "header.js" || l.Line != 4 || len(res.State.Hit) != 1 {
				t.Fatalf("paused at %+v (hit %v), want header.js:4 at the breakpoint", l, res.State.Hit)
			}
		})
	}
}

// TestDebugAttachAnswersThePause: an attach to a process started with --inspect-brk answers once
// the first-line break is known, paused, so a continue right after it is not refused.
func TestDebugAttachAnswersThePause(t *testing.T) {
	t.Parallel()
	p := startInspected(t, "--inspect-brk")
	h := newHarness(t)
	var res api.SessionResponse
	if st := h.call("POST", "/api/debug/attach", api.AttachRequest{WSURL: p.wsURL}, &res); st != http.StatusCreated {
		t.Fatalf("attach: status %d", st)
	}
	h.stopAtCleanup(res.Session.ID)
	if res.Session.Status != api.StatusPaused || res.State == nil || res.State.Location == nil || res.State.Location.File != "attachme.js" {
		t.Fatalf("attach answered %+v with state %+v, want paused in attachme.js", res.Session, res.State)
	}
	if st := h.exec(res.Session.ID, "continue", api.ContinueRequest{WaitMs: new(int64)}); st.Status != api.StatusRunning {
		t.Fatalf("continue right after attach: %+v", st)
	}
}

// TestDebugExecutionAnswersOutput: a continue answers what the program printed on the way to the
// next pause or the end; a chatty stretch is capped with a count of the rest.
func TestDebugExecutionAnswersOutput(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	s := h.debug(api.StartRequest{Target: "debugme.js", Breakpoints: api.BreakpointsAt("debugme.js:7")})
	_, _ = h.waitPaused(s.ID, 0)
	st := h.exec(s.ID, "continue", api.ContinueRequest{})
	if st.Output == nil || len(st.Output.Entries) != 1 || st.Output.Entries[0].Kind != api.KindConsole || st.Output.Entries[0].Text != "call 1 1" {
		t.Fatalf("continue to the next pause answered output %+v, want the console line of call 1 once", st.Output)
	}
	h.call("DELETE", "/api/debug/"+s.ID+"/breakpoints/bp1", nil, nil)
	st = h.exec(s.ID, "continue", api.ContinueRequest{})
	var texts []string
	for _, e := range st.Output.Entries {
		texts = append(texts, e.Text)
	}
	if want := "call 2 4,call 3 9,call 4 16,call 5 25,total 55"; strings.Join(texts, ",") != want {
		t.Fatalf("continue to the end answered output %q, want %q", texts, want)
	}

	// 300 lines: 20 shown, the rest counted.
	c := h.debug(api.StartRequest{Target: "chatty.js", Args: []string{"300", "10"}, PauseOnStart: true})
	_, _ = h.waitPaused(c.ID, 0)
	st = h.exec(c.ID, "continue", api.ContinueRequest{})
	if st.Output == nil || len(st.Output.Entries) != 20 || st.Output.More == 0 {
		t.Fatalf("a chatty run answered %+v, want 20 entries and a count of the rest", st.Output)
	}
}
