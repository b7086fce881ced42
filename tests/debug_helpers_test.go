package tests

import (
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"traced/api"
)

// debugme.js lines the tests stop at.
const (
	lineSquare = 3  // const result = n * n;   (in square)
	lineLabel  = 7  // const label = "call " + i;   (in work)
	lineValue  = 8  // const value = square(i);   (in work)
	lineCall   = 14 // total += work(i);   (in the loop)
	lineLog    = 9  // console.log(label, value);   (in work)
)

// Lines of the other fixtures the tests stop at.
const (
	lineLoopBody = 6 // logloop.js: sum += i;   (in the loop, 10 times)
	lineLoopNext = 7 // logloop.js: last = i;   (in the loop, after the body's first line)
	lineLoopEnd  = 9 // logloop.js: console.log("sum", sum, "last", last);   (after the loop)
	lineThrow    = 4 // exceptions.js: throw new Error("thrown");   (in risky: caught, then not)
	lineSpin     = 9 // killme.js: for (;;) globalThis.spins++;   (in spin)
)

// debug starts a debug session of req.Target; the harness stops it at cleanup.
func (h *harness) debug(req api.StartRequest) api.Summary {
	h.t.Helper()
	req.Mode = api.ModeDebug
	s := h.start(req)
	if s.Mode != api.ModeDebug {
		h.t.Fatalf("started %+v, want mode debug", s)
	}
	return s
}

// waitPaused waits for the session's first pause event after the cursor and returns the state
// then, with the event's seq for the next wait.
func (h *harness) waitPaused(id string, after uint64) (api.State, uint64) {
	h.t.Helper()
	w := h.waitFor(id, after, "pause")
	if w.Event == nil {
		h.t.Fatalf("session %s finished without pausing", id)
	}
	return h.state(id, ""), w.Event.Seq
}

// state reads GET /api/debug/{id}/state with an optional query.
func (h *harness) state(id, query string) api.State {
	h.t.Helper()
	var st api.State
	path := "/api/debug/" + id + "/state"
	if query != "" {
		path += "?" + query
	}
	if status := h.call("GET", path, nil, &st); status != http.StatusOK {
		h.t.Fatalf("GET %s: status %d", path, status)
	}
	return st
}

// exec posts an execution command (continue, step, pause) and returns the state it answers.
func (h *harness) exec(id, op string, body any) api.State {
	h.t.Helper()
	var st api.State
	if status := h.call("POST", "/api/debug/"+id+"/"+op, body, &st); status != http.StatusOK {
		h.t.Fatalf("POST %s: status %d", op, status)
	}
	return st
}

// eval evaluates expression in frame of the session.
func (h *harness) eval(id, expression string, frame int) api.EvalResult {
	h.t.Helper()
	var res api.EvalResult
	if status := h.call("POST", "/api/debug/"+id+"/eval", api.EvalRequest{Expression: expression, Frame: frame}, &res); status != http.StatusOK {
		h.t.Fatalf("eval %q: status %d", expression, status)
	}
	return res
}

// setBreakpoint sets a breakpoint and returns it.
func (h *harness) setBreakpoint(id string, req api.BreakpointRequest) api.Breakpoint {
	h.t.Helper()
	var res api.BreakpointResponse
	if status := h.call("POST", "/api/debug/"+id+"/breakpoints", req, &res); status != http.StatusCreated {
		h.t.Fatalf("set breakpoint %s: status %d", req.Location, status)
	}
	return res.Breakpoint
}

// wantPausedAt fails unless st is paused in debugme.js at function:line. It goes by the location
// alone: that the status says paused too is TestDebugStatusAtEveryPause's (a known engine bug).
func wantPausedAt(t *testing.T, st api.State, function string, line int) {
	t.Helper()
	wantPausedIn(t, st, "debugme.js", function, line)
}

// wantPausedIn fails unless st is paused in file at function:line.
func wantPausedIn(t *testing.T, st api.State, file, function string, line int) {
	t.Helper()
	if st.Location == nil {
		t.Fatalf("state %+v, want paused", st)
	}
	if l := st.Location; l.File != file || l.Line != line || l.Function != function {
		t.Fatalf("paused at %s %s:%d, want %s %s:%d", l.Function, l.File, l.Line, function, file, line)
	}
}

// local returns the value of the named variable of a state, failing when it is absent.
func local(t *testing.T, st api.State, name string) api.Variable {
	t.Helper()
	for _, v := range st.Locals {
		if v.Name == name {
			return v
		}
	}
	t.Fatalf("no local %q in %+v", name, st.Locals)
	return api.Variable{}
}

// unquote strips the quotes of a previewed string ('x' or "x").
func unquote(preview string) string { return strings.Trim(preview, `'"`) }

// rawBody names a test case by its body when the body is raw JSON text.
func rawBody(body any) string {
	s, _ := body.(string)
	return s
}

// setLogpoint sets a logpoint and returns it.
func (h *harness) setLogpoint(id string, req api.LogpointRequest) api.Logpoint {
	h.t.Helper()
	var res api.LogpointResponse
	if status := h.call("POST", "/api/debug/"+id+"/logpoints", req, &res); status != http.StatusCreated {
		h.t.Fatalf("set logpoint %s: status %d", req.Location, status)
	}
	return res.Logpoint
}

// logpoints lists the session's logpoints.
func (h *harness) logpoints(id string) []api.Logpoint {
	h.t.Helper()
	var res api.LogpointsResponse
	if status := h.call("GET", "/api/debug/"+id+"/logpoints", nil, &res); status != http.StatusOK {
		h.t.Fatalf("list logpoints: status %d", status)
	}
	return res.Logpoints
}

// breakpointRefs lists the refs of the session's breakpoints with their pause counts, e.g. "bp1:2".
func (h *harness) breakpointRefs(id string) string {
	h.t.Helper()
	var list api.BreakpointsResponse
	if status := h.call("GET", "/api/debug/"+id+"/breakpoints", nil, &list); status != http.StatusOK {
		h.t.Fatalf("list breakpoints: status %d", status)
	}
	var refs []string
	for _, bp := range list.Breakpoints {
		refs = append(refs, bp.Ref+":"+strconv.Itoa(bp.Hits))
	}
	return strings.Join(refs, ",")
}

// emissions returns the logpoint events of a session, in order.
func (h *harness) emissions(id string) []api.LogpointInfo {
	h.t.Helper()
	var out []api.LogpointInfo
	for _, ev := range h.trace(id, "logpoint").Events {
		if ev.Logpoint == nil {
			h.t.Fatalf("logpoint event %d without its payload: %+v", ev.Seq, ev)
		}
		out = append(out, *ev.Logpoint)
	}
	return out
}

// printed is what a session's program printed, from every target: its output lines and console
// calls, a line each, in order, ANSI colour codes removed (runners colour their reports whenever
// CI is set in the environment: picocolors, chalk).
func (h *harness) printed(id string) string {
	h.t.Helper()
	var out strings.Builder
	for _, ev := range h.trace(id, "stdout,stderr,console").Events {
		switch {
		case ev.Output != nil:
			out.WriteString(ev.Output.Text.Value + "\n")
		case ev.Console != nil:
			out.WriteString(ev.Console.Text.Value + "\n")
		}
	}
	return ansiCodes.ReplaceAllString(out.String(), "")
}

var ansiCodes = regexp.MustCompile(`\x1b\[[0-9;]*m`)

// consoleTexts returns the text of every console event of a session, in order.
func (h *harness) consoleTexts(id string) []string {
	h.t.Helper()
	var out []string
	for _, ev := range h.trace(id, "console").Events {
		out = append(out, ev.Console.Text.Value)
	}
	return out
}

// runToEnd continues a paused session that has nothing left to pause it and waits for its exit:
// it must end with status 0, having paused only where the test says.
func (h *harness) runToEnd(id string, pauses int) api.Summary {
	h.t.Helper()
	if st := h.exec(id, "continue", api.ContinueRequest{}); st.Location != nil {
		h.t.Fatalf("paused again: %+v", st)
	}
	sum := h.waitExit(id)
	if sum.ExitCode == nil || *sum.ExitCode != 0 || sum.Counts[api.KindPause] != pauses {
		h.t.Fatalf("summary %+v, want exit 0 after %d pauses", sum, pauses)
	}
	return sum
}
