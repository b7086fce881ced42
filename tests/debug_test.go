package tests

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"traced/api"
	"traced/internal/engine"
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

func TestDebugTraceSessionRefuses(t *testing.T) {
	h := newHarness(t)
	s := h.start(api.StartRequest{Target: "forever.js"})
	base := "/api/debug/" + s.ID
	for _, c := range []struct {
		method, path string
		body         any
	}{
		{"POST", base + "/eval", api.EvalRequest{Expression: "1 + 1"}},
		{"POST", base + "/breakpoints", api.BreakpointRequest{Location: "forever.js:2"}},
		{"GET", base + "/breakpoints", nil},
		{"DELETE", base + "/breakpoints/all", nil},
		{"POST", base + "/continue", api.ContinueRequest{}},
		{"POST", base + "/step", api.StepRequest{Kind: api.StepInto}},
		{"POST", base + "/pause", api.PauseRequest{}},
		{"GET", base + "/state", nil},
		{"POST", base + "/logpoints", api.LogpointRequest{Location: "forever.js:2", Template: "x"}},
		{"GET", base + "/logpoints", nil},
		{"DELETE", base + "/breakpoints/lp1", nil},
		{"POST", base + "/pause-on-exceptions", api.PauseOnExceptionsRequest{Mode: api.ExceptionsAll}},
		{"POST", base + "/run-to", api.RunToRequest{Location: "forever.js:2"}},
		{"POST", base + "/kill-execution", api.KillExecutionRequest{}},
	} {
		t.Run(c.method+" "+c.path, func(t *testing.T) {
			e := h.with(t).errorOf(h.with(t).request(c.method, c.path, c.body), http.StatusForbidden)
			if e.Code != "trace_session" || !strings.Contains(e.Hint, `"mode":"debug"`) {
				t.Fatalf("error %+v, want trace_session with a hint to start a debug session", e)
			}
		})
	}
	if sum := h.trace(s.ID, "").Session; sum.Status != engine.StatusRunning {
		t.Fatalf("the trace session is %s after the refusals, want running", sum.Status)
	}

	for _, req := range []api.StartRequest{
		{Target: "debugme.js", Breakpoints: api.BreakpointsAt("debugme.js:7")},
		{Target: "debugme.js", PauseOnStart: true},
		{Target: "debugme.js", Mode: api.ModeTrace, PauseOnExceptions: "all"},
	} {
		e := h.errorOf(h.request("POST", "/api/trace/start", req), http.StatusBadRequest)
		if !strings.Contains(e.Message, `mode "debug"`) {
			t.Errorf("start %+v: message %q does not name the mode", req, e.Message)
		}
	}
}

func TestDebugRequestsAreChecked(t *testing.T) {
	h := newHarness(t)
	template := func(n int) string { return `{"location":"debugme.js:7","template":"` + strings.Repeat("x", n) + `"}` }
	for _, c := range []struct {
		method, path string
		body         any
		status       int
		code         string
	}{
		{"GET", "/api/debug/s999/state", nil, http.StatusNotFound, "not_found"},
		{"POST", "/api/debug/nosuch/continue", api.ContinueRequest{}, http.StatusNotFound, "not_found"},
		{"DELETE", "/api/debug/s999/breakpoints/bp1", nil, http.StatusNotFound, "not_found"},
		{"POST", "/api/debug/s1/breakpoints", `{"location":"debugme.js"}`, http.StatusBadRequest, "bad_request"},
		{"POST", "/api/debug/s1/breakpoints", `{"location":"debugme.js:7","hitCount":0}`, http.StatusBadRequest, "bad_request"},
		{"POST", "/api/debug/s1/breakpoints", `{"location":"debugme.js:7","bogus":1}`, http.StatusBadRequest, "bad_request"},
		{"POST", "/api/debug/s1/step", `{"kind":"sideways"}`, http.StatusBadRequest, "bad_request"},
		{"POST", "/api/debug/s1/continue", `{"waitMs":60001}`, http.StatusBadRequest, "bad_request"},
		{"POST", "/api/debug/s1/pause", `{"waitMs":-1}`, http.StatusBadRequest, "bad_request"},
		{"POST", "/api/debug/s1/eval", `{}`, http.StatusBadRequest, "bad_request"},
		{"POST", "/api/debug/s1/eval", `{"expression":"1","frame":-1}`, http.StatusBadRequest, "bad_request"},
		{"GET", "/api/debug/s1/state?lines=51", nil, http.StatusBadRequest, "bad_request"},
		{"GET", "/api/debug/s1/state?frame=x", nil, http.StatusBadRequest, "bad_request"},
		{"POST", "/api/trace/start", `{"target":"debugme.js","mode":"replay"}`, http.StatusBadRequest, "bad_request"},
		{"POST", "/api/trace/start", `{"target":"debugme.js","mode":"debug","breakpoints":["debugme.js"]}`, http.StatusBadRequest, "bad_request"},
		{"POST", "/api/trace/start", `{"target":"debugme.js","mode":"debug","pauseOnExceptions":"some"}`, http.StatusBadRequest, "bad_request"},
		{"POST", "/api/debug/s1/pause-on-exceptions", `{}`, http.StatusBadRequest, "bad_request"},
		{"POST", "/api/debug/s1/pause-on-exceptions", `{"mode":"sometimes"}`, http.StatusBadRequest, "bad_request"},
		{"POST", "/api/debug/s1/pause-on-exceptions", `{"mode":"all","extra":1}`, http.StatusBadRequest, "bad_request"},
		{"POST", "/api/debug/s999/pause-on-exceptions", `{"mode":"caught"}`, http.StatusNotFound, "not_found"},
		{"POST", "/api/debug/s1/run-to", `{}`, http.StatusBadRequest, "bad_request"},
		{"POST", "/api/debug/s1/run-to", `{"location":"debugme.js"}`, http.StatusBadRequest, "bad_request"},
		{"POST", "/api/debug/s1/run-to", `{"location":"debugme.js:9","waitMs":-1}`, http.StatusBadRequest, "bad_request"},
		{"POST", "/api/debug/s999/run-to", `{"location":"debugme.js:9","waitMs":60000}`, http.StatusNotFound, "not_found"},
		{"POST", "/api/debug/s1/kill-execution", `{"waitMs":60001}`, http.StatusBadRequest, "bad_request"},
		{"POST", "/api/debug/s1/kill-execution", `{"force":true}`, http.StatusBadRequest, "bad_request"},
		{"POST", "/api/debug/s999/kill-execution", `{}`, http.StatusNotFound, "not_found"},
		{"POST", "/api/debug/s1/logpoints", `{"location":"debugme.js:7"}`, http.StatusBadRequest, "bad_request"},
		{"POST", "/api/debug/s1/logpoints", `{"template":"i=${i}"}`, http.StatusBadRequest, "bad_request"},
		{"POST", "/api/debug/s1/logpoints", template(0), http.StatusBadRequest, "bad_request"},
		{"POST", "/api/debug/s1/logpoints", template(4097), http.StatusBadRequest, "bad_request"},
		{"POST", "/api/debug/s999/logpoints", template(4096), http.StatusNotFound, "not_found"}, // the longest passes the checks
		{"POST", "/api/debug/s1/logpoints", `{"location":"debugme.js:7","template":"x","max":0}`, http.StatusBadRequest, "bad_request"},
		{"POST", "/api/debug/s1/logpoints", `{"location":"debugme.js:7","template":"x","max":10001}`, http.StatusBadRequest, "bad_request"},
		{"POST", "/api/debug/s999/logpoints", `{"location":"debugme.js:7","template":"x","max":10000}`, http.StatusNotFound, "not_found"},
		{"POST", "/api/debug/s1/logpoints", `{"location":"debugme.js:7","template":"x","hitCount":2}`, http.StatusBadRequest, "bad_request"},
		{"GET", "/api/debug/s999/logpoints", nil, http.StatusNotFound, "not_found"},
	} {
		name := rawBody(c.body)
		if len(name) > 80 {
			name = name[:80] + "..."
		}
		t.Run(c.method+" "+c.path+" "+name, func(t *testing.T) {
			e := h.with(t).errorOf(h.with(t).request(c.method, c.path, c.body), c.status)
			if e.Code != c.code {
				t.Fatalf("error %+v, want code %s", e, c.code)
			}
		})
	}
}

func TestDebugBreakpointAtStart(t *testing.T) {
	h := newHarness(t)
	s := h.debug(api.StartRequest{Target: "debugme.js", Name: "dbg", Breakpoints: api.BreakpointsAt("debugme.js:7")})
	h.waitPaused(s.ID, 0)

	st := h.state("dbg", "lines=2") // by name, two lines either side
	wantPausedAt(t, st, "work", lineLabel)
	if st.Session != s.ID || st.Reason == "" || st.Frame != "f0" || strings.Join(st.Hit, ",") != "bp1" {
		t.Fatalf("state %+v, want session %s, a reason, frame f0, hit bp1", st, s.ID)
	}
	var lines, current []int
	for _, l := range st.Source {
		lines = append(lines, l.Line)
		if l.Current {
			current = append(current, l.Line)
			if l.Text != `  const label = "call " + i;` {
				t.Fatalf("current line text %q", l.Text)
			}
		}
	}
	if len(lines) != 5 || lines[0] != 5 || lines[4] != 9 || len(current) != 1 || current[0] != lineLabel {
		t.Fatalf("source lines %v with current %v, want 5..9 with 7 current", lines, current)
	}
	if i := local(t, st, "i"); i.Value != "1" || i.Type != "number" || i.Scope != "local" {
		t.Fatalf("local i = %+v, want the number 1", i)
	}
	// Not yet declared: shown as such on every node line (22+ send them without a value, 20 as
	// undefined), each with its ref, so refs do not shift between lines.
	for _, name := range []string{"label", "value"} {
		if v := local(t, st, name); v.Type != "uninitialized" || v.Value != "<uninitialized>" || v.Ref == "" {
			t.Fatalf("local %s = %+v, want uninitialized with a ref", name, v)
		}
	}
	if len(st.Stack) < 2 || st.Stack[0].Ref != "f0" || st.Stack[0].Function != "work" ||
		st.Stack[1].Ref != "f1" || st.Stack[1].File != "debugme.js" || st.Stack[1].Line != lineCall {
		t.Fatalf("stack %+v, want f0 work, f1 debugme.js:%d", st.Stack, lineCall)
	}

	// The caller's frame: its own source and variables.
	f1 := h.state(s.ID, "frame=1")
	if f1.Frame != "f1" || local(t, f1, "total").Value != "0" {
		t.Fatalf("frame f1: %+v", f1)
	}
	for _, l := range f1.Source {
		if l.Current != (l.Line == lineCall) {
			t.Fatalf("frame f1 marks line %d current=%v", l.Line, l.Current)
		}
	}
	e := h.errorOf(h.request("GET", "/api/debug/"+s.ID+"/state?frame=99", nil), http.StatusNotFound)
	if e.Code != "no_such_ref" || !strings.Contains(e.Hint, "/state") {
		t.Fatalf("frame 99: %+v", e)
	}

	var list api.BreakpointsResponse
	h.call("GET", "/api/debug/"+s.ID+"/breakpoints", nil, &list)
	if len(list.Breakpoints) != 1 {
		t.Fatalf("breakpoints %+v", list.Breakpoints)
	}
	bp := list.Breakpoints[0]
	if bp.Ref != "bp1" || bp.Location != "debugme.js:7" || bp.Hits != 1 || len(bp.Resolved) != 1 ||
		bp.Resolved[0].File != "debugme.js" || bp.Resolved[0].Line != lineLabel {
		t.Fatalf("breakpoint %+v, want bp1 resolved at debugme.js:7 with 1 hit", bp)
	}
}

func TestDebugEval(t *testing.T) {
	h := newHarness(t)
	s := h.debug(api.StartRequest{Target: "debugme.js", Breakpoints: api.BreakpointsAt("debugme.js:7")})
	h.waitPaused(s.ID, 0)

	for _, c := range []struct {
		expression string
		frame      int
		typ, value string
		exception  string // a substring; "" when none is expected
	}{
		{"i + 1", 0, "number", "2", ""},
		{`"x" + i`, 0, "string", "x1", ""},
		{"total", 1, "number", "0", ""},
		{"[i, i * 2]", 0, "array", "", ""},
		{"nope.x", 0, "", "", "ReferenceError"},
		{"(() => { throw new Error('boom') })()", 0, "", "", "boom"},
	} {
		t.Run(c.expression, func(t *testing.T) {
			res := h.with(t).eval(s.ID, c.expression, c.frame)
			switch {
			case c.exception != "":
				if !strings.Contains(res.Exception, c.exception) {
					t.Fatalf("result %+v, want an exception with %q", res, c.exception)
				}
			case res.Exception != "" || res.Type != c.typ || (c.value != "" && unquote(res.Value) != c.value):
				t.Fatalf("result %+v, want %s %s", res, c.typ, c.value)
			}
		})
	}
	e := h.errorOf(h.request("POST", "/api/debug/"+s.ID+"/eval", api.EvalRequest{Expression: "1", Frame: 99}), http.StatusNotFound)
	if e.Code != "no_such_ref" {
		t.Fatalf("eval in frame 99: %+v", e)
	}
}

func TestDebugConditionalBreakpoint(t *testing.T) {
	h := newHarness(t)
	s := h.debug(api.StartRequest{Target: "debugme.js", PauseOnStart: true})
	h.waitPaused(s.ID, 0)
	bp := h.setBreakpoint(s.ID, api.BreakpointRequest{Location: "debugme.js:7", Condition: "i === 4"})
	if bp.Ref != "bp1" || bp.Condition != "i === 4" || len(bp.Resolved) != 1 || bp.Resolved[0].Line != lineLabel {
		t.Fatalf("breakpoint %+v, want bp1 resolved at line 7 (the script is loaded)", bp)
	}

	st := h.exec(s.ID, "continue", api.ContinueRequest{})
	wantPausedAt(t, st, "work", lineLabel)
	if i := local(t, st, "i").Value; i != "4" {
		t.Fatalf("paused with i = %s, want 4: the condition was false", i)
	}
	// Calls 1 to 3 ran without pausing: their console calls came before this pause.
	if n := len(h.trace(s.ID, "console").Events); n != 3 {
		t.Fatalf("%d console events before the pause, want 3", n)
	}

	// i === 4 never holds again: the program runs to its end.
	st = h.exec(s.ID, "continue", api.ContinueRequest{})
	if st.Location != nil {
		t.Fatalf("paused again: %+v", st)
	}
	sum := h.waitExit(s.ID)
	if sum.ExitCode == nil || *sum.ExitCode != 0 || sum.Counts[engine.KindConsole] != 6 {
		t.Fatalf("summary %+v, want exit 0 after 6 console calls", sum)
	}
	if n := len(h.trace(s.ID, "pause").Events); n != 2 {
		t.Fatalf("%d pause events, want 2: the start and i === 4", n)
	}
}

func TestDebugHitCount(t *testing.T) {
	h := newHarness(t)
	s := h.debug(api.StartRequest{Target: "debugme.js", PauseOnStart: true})
	h.waitPaused(s.ID, 0)
	h.setBreakpoint(s.ID, api.BreakpointRequest{Location: "debugme.js:7", HitCount: 3})

	st := h.exec(s.ID, "continue", api.ContinueRequest{})
	wantPausedAt(t, st, "work", lineLabel)
	if i := local(t, st, "i").Value; i != "3" {
		t.Fatalf("paused with i = %s, want 3 (the third call)", i)
	}
	var list api.BreakpointsResponse
	h.call("GET", "/api/debug/"+s.ID+"/breakpoints", nil, &list)
	if b := list.Breakpoints[0]; b.HitCount != 3 || b.Hits != 1 {
		t.Fatalf("breakpoint %+v, want hitCount 3 and 1 pause", b)
	}
}

func TestDebugPauseOnStart(t *testing.T) {
	h := newHarness(t)
	s := h.debug(api.StartRequest{Target: "debugme.js", PauseOnStart: true})
	st, _ := h.waitPaused(s.ID, 0)
	if st.Reason != "Break on start" || st.Location == nil || st.Location.File != "debugme.js" {
		t.Fatalf("state %+v, want paused on start in debugme.js", st)
	}
	if n := h.trace(s.ID, "").Session.Counts[engine.KindConsole]; n != 0 {
		t.Fatalf("%d console calls before the first line", n)
	}
}

func TestDebugStepping(t *testing.T) {
	h := newHarness(t)
	s := h.debug(api.StartRequest{Target: "debugme.js", Breakpoints: api.BreakpointsAt("debugme.js:7")})
	h.waitPaused(s.ID, 0)

	// continue answers the state at the next pause: the breakpoint in the second call.
	st := h.exec(s.ID, "continue", api.ContinueRequest{})
	wantPausedAt(t, st, "work", lineLabel)
	if i := local(t, st, "i").Value; i != "2" || strings.Join(st.Hit, ",") != "bp1" {
		t.Fatalf("after continue: i = %s, hit %v; want 2, bp1", i, st.Hit)
	}

	st = h.exec(s.ID, "step", api.StepRequest{}) // over is the default
	wantPausedAt(t, st, "work", lineValue)
	if label := local(t, st, "label"); label.Type != "string" || unquote(label.Value) != "call 2" {
		t.Fatalf("after step over: label = %+v", label)
	}

	st = h.exec(s.ID, "step", api.StepRequest{Kind: api.StepInto})
	wantPausedAt(t, st, "square", lineSquare)
	if n := local(t, st, "n").Value; n != "2" || len(st.Stack) < 3 || st.Stack[1].Function != "work" {
		t.Fatalf("after step into: n = %s, stack %+v", n, st.Stack)
	}

	// Out of square: back in work, on the call's line or, as V8 has no break position after a
	// call that ends its statement, on the next one with the returned value assigned.
	st = h.exec(s.ID, "step", api.StepRequest{Kind: api.StepOut})
	if st.Location == nil || st.Location.Function != "work" {
		t.Fatalf("after step out: %+v, want paused in work", st)
	}
	switch l := st.Location.Line; {
	case l == lineValue:
	case l == lineValue+1:
		if v := local(t, st, "value"); v.Value != "4" {
			t.Fatalf("after step out: value = %+v, want 4", v)
		}
	default:
		t.Fatalf("after step out: line %d, want %d or %d", l, lineValue, lineValue+1)
	}
	if len(st.Hit) != 0 || len(st.Stack) < 2 || st.Stack[1].Line != lineCall {
		t.Fatalf("after step out: hit %v, stack %+v", st.Hit, st.Stack)
	}
}

func TestDebugPauseRunningProgram(t *testing.T) {
	h := newHarness(t)
	s := h.debug(api.StartRequest{Target: "spin.js"})
	base := "/api/debug/" + s.ID
	h.waitFor(s.ID, 0, "console") // "spinning": the program is in its own code, and the loop follows

	for _, op := range []string{"step", "continue"} {
		e := h.errorOf(h.request("POST", base+"/"+op, map[string]any{}), http.StatusConflict)
		if e.Code != "running" || e.Hint != "process is running; POST "+base+"/pause" {
			t.Fatalf("%s while running: %+v", op, e)
		}
	}
	if st := h.state(s.ID, ""); st.Status != engine.StatusRunning || st.Location != nil {
		t.Fatalf("state while running: %+v", st)
	}
	if res := h.eval(s.ID, "typeof process", 0); unquote(res.Value) != "object" {
		t.Fatalf("global eval while running: %+v", res)
	}

	// The pause lands at the next statement the program runs: in spin.js's loop, or in node's
	// timers that call it (node 22 does not take a pause inside a loop it optimised in place);
	// from there stepping in reaches spin.js.
	st := h.exec(s.ID, "pause", api.PauseRequest{})
	if st.Location == nil || len(st.Stack) == 0 || *st.Location != st.Stack[0].Frame {
		t.Fatalf("pause answered %+v, want paused with the top frame as location", st)
	}
	user := -1
	for step := 0; user < 0; step++ {
		for i, f := range st.Stack {
			if f.File == "spin.js" {
				user = i
				break
			}
		}
		if user < 0 && step == 50 {
			t.Fatalf("no spin.js frame 50 steps after the pause: %+v", st.Stack)
		}
		if user < 0 {
			st = h.exec(s.ID, "step", api.StepRequest{Kind: api.StepInto})
		}
	}
	if res := h.eval(s.ID, "spins >= 0", user); res.Type != "boolean" || res.Value != "true" {
		t.Fatalf("eval in spin.js's frame f%d while paused: %+v", user, res)
	}
	if again := h.exec(s.ID, "pause", api.PauseRequest{}); again.Location == nil || *again.Location != *st.Location {
		t.Fatalf("pausing a paused program moved it: %+v then %+v", st.Location, again.Location)
	}
}

func TestDebugRemoveBreakpointRunsToEnd(t *testing.T) {
	h := newHarness(t)
	s := h.debug(api.StartRequest{Target: "debugme.js", Breakpoints: api.BreakpointsAt("debugme.js:7", "debugme.js:3")})
	h.waitPaused(s.ID, 0)
	base := "/api/debug/" + s.ID

	e := h.errorOf(h.request("DELETE", base+"/breakpoints/bp9", nil), http.StatusNotFound)
	if e.Code != "no_such_ref" || e.Hint != "GET "+base+"/breakpoints lists them" {
		t.Fatalf("unknown ref: %+v", e)
	}
	var rm api.RemoveBreakpointResponse
	if st := h.call("DELETE", base+"/breakpoints/BP%231", nil, &rm); st != http.StatusOK || strings.Join(rm.Removed, ",") != "bp1" {
		t.Fatalf("DELETE BP#1: status %d, removed %v", st, rm.Removed)
	}
	// bp2 (in square) still pauses; then remove every breakpoint.
	wantPausedAt(t, h.exec(s.ID, "continue", api.ContinueRequest{}), "square", lineSquare)
	if st := h.call("DELETE", base+"/breakpoints/all", nil, &rm); st != http.StatusOK || strings.Join(rm.Removed, ",") != "bp2" {
		t.Fatalf("DELETE all: status %d, removed %v", st, rm.Removed)
	}
	var list api.BreakpointsResponse
	if h.call("GET", base+"/breakpoints", nil, &list); len(list.Breakpoints) != 0 {
		t.Fatalf("breakpoints left: %+v", list.Breakpoints)
	}

	st := h.exec(s.ID, "continue", api.ContinueRequest{})
	if st.Location != nil {
		t.Fatalf("paused again after removing every breakpoint: %+v", st)
	}
	sum := h.waitExit(s.ID)
	if sum.ExitCode == nil || *sum.ExitCode != 0 || sum.Counts[engine.KindConsole] != 6 {
		t.Fatalf("summary %+v, want exit 0 after 6 console calls", sum)
	}

	// After the end: execution and breakpoints answer finished; state and the list still read.
	for _, c := range []struct {
		method, op string
		body       any
	}{
		{"POST", "continue", api.ContinueRequest{}},
		{"POST", "step", api.StepRequest{}},
		{"POST", "pause", api.PauseRequest{}},
		{"POST", "eval", api.EvalRequest{Expression: "1"}},
		{"POST", "breakpoints", api.BreakpointRequest{Location: "debugme.js:7"}},
		{"DELETE", "breakpoints/all", nil},
		{"POST", "logpoints", api.LogpointRequest{Location: "debugme.js:7", Template: "x"}},
		{"POST", "pause-on-exceptions", api.PauseOnExceptionsRequest{Mode: api.ExceptionsNone}},
		{"POST", "run-to", api.RunToRequest{Location: "debugme.js:7"}},
		{"POST", "kill-execution", api.KillExecutionRequest{}},
	} {
		e := h.errorOf(h.request(c.method, base+"/"+c.op, c.body), http.StatusConflict)
		if e.Code != "finished" || e.Hint == "" {
			t.Fatalf("%s %s after exit: %+v", c.method, c.op, e)
		}
	}
	if st := h.state(s.ID, ""); st.Status != engine.StatusExited || st.Location != nil {
		t.Fatalf("state after exit: %+v", st)
	}
	if lps := h.logpoints(s.ID); len(lps) != 0 {
		t.Fatalf("logpoints after exit: %+v", lps)
	}
}

// TestDebugPauseRightAfterStart: a start answers once the program runs, so a pause sent at once
// lands in the user's program, not in node's bootstrap before the first line.
func TestDebugPauseRightAfterStart(t *testing.T) {
	h := newHarness(t)
	s := h.debug(api.StartRequest{Target: "spin.js"})
	st := h.exec(s.ID, "pause", api.PauseRequest{})
	for _, f := range st.Stack {
		if f.File == "spin.js" {
			return
		}
	}
	t.Fatalf("paused with no spin.js frame on the stack: reason %q, stack %+v", st.Reason, st.Stack)
}

// TestDebugStatusAtEveryPause: the state of a paused program says paused, both in the answer of
// a step and in GET state once the pause event is out.
func TestDebugStatusAtEveryPause(t *testing.T) {
	h := newHarness(t)
	s := h.debug(api.StartRequest{Target: "debugme.js", Breakpoints: api.BreakpointsAt("debugme.js:3")})
	var after uint64
	for n := 1; n <= 5; n++ {
		st, seq := h.waitPaused(s.ID, after)
		after = seq
		if st.Status != engine.StatusPaused {
			t.Fatalf("pause %d: GET state after the pause event says %s: %+v", n, st.Status, st)
		}
		for range 8 {
			if st = h.exec(s.ID, "step", api.StepRequest{Kind: api.StepInto}); st.Location != nil && st.Status != engine.StatusPaused {
				t.Fatalf("pause %d: a step answered status %s at %+v", n, st.Status, *st.Location)
			}
		}
		after = h.trace(s.ID, "").Session.LastSeq
		h.exec(s.ID, "continue", api.ContinueRequest{})
	}
}

// TestDebugContinueWithoutWait: continue with waitMs 0 answers at once with a running state (or
// the next pause), never the pause it left.
func TestDebugContinueWithoutWait(t *testing.T) {
	h := newHarness(t)
	s := h.debug(api.StartRequest{Target: "debugme.js", Breakpoints: api.BreakpointsAt("debugme.js:7")})
	_, after := h.waitPaused(s.ID, 0)
	zero := int64(0)
	for call := 1; call < 5; call++ {
		// A 500 fails inside exec: the contract declares no 500 for continue.
		st := h.exec(s.ID, "continue", api.ContinueRequest{WaitMs: &zero})
		if st.Location != nil && local(t, st, "i").Value == strconv.Itoa(call) {
			t.Fatalf("continue %d answered the pause it left: %+v", call, st)
		}
		_, after = h.waitPaused(s.ID, after) // the next call's pause, whenever it comes
	}
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
// calls, a line each, in order.
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
	return out.String()
}

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
	if sum.ExitCode == nil || *sum.ExitCode != 0 || sum.Counts[engine.KindPause] != pauses {
		h.t.Fatalf("summary %+v, want exit 0 after %d pauses", sum, pauses)
	}
	return sum
}

// TestDebugLogpoint: a logpoint on a line of a 10-iteration loop emits one event per run of the
// line, with its template interpolated in the line's scope, and never pauses the program; a
// condition filters, max disables it at the Max-th emission and says so.
func TestDebugLogpoint(t *testing.T) {
	every := make([]string, 0, 10)
	for i := 1; i <= 10; i++ {
		every = append(every, fmt.Sprintf("i=%d of 10, sum %d", i, i*(i-1)/2)) // sum before the line runs
	}
	for _, c := range []struct {
		name     string
		req      api.LogpointRequest // Location is logloop.js's loop body
		want     []string
		max      int
		disabled bool
	}{
		{"every run", api.LogpointRequest{Template: "i=${i} of ${n}, sum ${sum}"}, every, engine.DefaultLogpointMax, false},
		{"flood guard", api.LogpointRequest{Template: "i=${i}", Max: 3}, []string{"i=1", "i=2", "i=3"}, 3, true},
		{"condition", api.LogpointRequest{Template: "i=${i}", Condition: "i % 3 === 0"}, []string{"i=3", "i=6", "i=9"}, engine.DefaultLogpointMax, false},
		{"condition and max", api.LogpointRequest{Template: "${i}", Condition: "i > 4", Max: 2}, []string{"5", "6"}, 2, true},
		{"quotes and escapes", api.LogpointRequest{Template: "`${i}` \\ ${'x'}", Condition: "i === 1"}, []string{"`1` \\ x"}, engine.DefaultLogpointMax, false},
		{"template throws", api.LogpointRequest{Template: "${nope.x}", Max: 1}, []string{"logpoint error: ReferenceError: nope is not defined"}, 1, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			h := newHarness(t)
			s := h.debug(api.StartRequest{Target: "logloop.js", PauseOnStart: true})
			h.waitPaused(s.ID, 0)
			req := c.req
			req.Location = "logloop.js:" + strconv.Itoa(lineLoopBody)
			lp := h.setLogpoint(s.ID, req)
			if lp.Ref != "lp1" || lp.Location != req.Location || lp.Template != req.Template || lp.Condition != req.Condition ||
				lp.Max != c.max || lp.Emitted != 0 || lp.Disabled || len(lp.Resolved) != 1 || lp.Resolved[0].Line != lineLoopBody {
				t.Fatalf("logpoint %+v, want lp1 with max %d resolved at line %d (the script is loaded)", lp, c.max, lineLoopBody)
			}

			// The program runs to its end: the start was its only pause.
			sum := h.runToEnd(s.ID, 1)
			if sum.Counts[engine.KindLogpoint] != len(c.want) {
				t.Errorf("summary counts %d logpoint events, want %d", sum.Counts[engine.KindLogpoint], len(c.want))
			}
			var got []string
			for k, e := range h.emissions(s.ID) {
				got = append(got, e.Text.Value)
				if last := k == len(c.want)-1; e.Ref != "lp1" || e.Text.Truncated || e.Disabled != (c.disabled && last) {
					t.Errorf("emission %d: %+v, want ref lp1, disabled only on the last when the guard trips", k+1, e)
				}
			}
			if strings.Join(got, "|") != strings.Join(c.want, "|") {
				t.Fatalf("emitted %q, want %q", got, c.want)
			}
			// A logpoint writes nothing into the program's console.
			if console := h.consoleTexts(s.ID); strings.Join(console, "|") != "sum 55 last 10" {
				t.Errorf("console %q, want only the program's own line", console)
			}
			lps := h.logpoints(s.ID)
			if len(lps) != 1 || lps[0].Ref != "lp1" || lps[0].Emitted != len(c.want) || lps[0].Disabled != c.disabled || lps[0].Max != c.max {
				t.Fatalf("logpoints %+v, want lp1 emitted %d, disabled %v", lps, len(c.want), c.disabled)
			}
		})
	}
}

// TestDebugRemoveLogpoint: DELETE breakpoints/{ref} removes logpoints by ref or alias, and all
// removes both kinds.
func TestDebugRemoveLogpoint(t *testing.T) {
	h := newHarness(t)
	s := h.debug(api.StartRequest{Target: "logloop.js", PauseOnStart: true})
	h.waitPaused(s.ID, 0)
	base := "/api/debug/" + s.ID
	lp1 := h.setLogpoint(s.ID, api.LogpointRequest{Location: "logloop.js:" + strconv.Itoa(lineLoopBody), Template: "a${i}"})
	bp := h.setBreakpoint(s.ID, api.BreakpointRequest{Location: "logloop.js:" + strconv.Itoa(lineLoopEnd)})
	lp2 := h.setLogpoint(s.ID, api.LogpointRequest{Location: "logloop.js:" + strconv.Itoa(lineLoopNext), Template: "b${i}"})
	if lp1.Ref != "lp1" || !strings.HasPrefix(bp.Ref, "bp") || !strings.HasPrefix(lp2.Ref, "lp") || lp2.Ref == lp1.Ref {
		t.Fatalf("refs %s, %s and %s, want lp1, a bp ref and another lp ref", lp1.Ref, bp.Ref, lp2.Ref)
	}

	e := h.errorOf(h.request("DELETE", base+"/breakpoints/lp9", nil), http.StatusNotFound)
	if e.Code != "no_such_ref" || e.Hint != "GET "+base+"/logpoints lists them" {
		t.Fatalf("unknown logpoint: %+v", e)
	}
	var rm api.RemoveBreakpointResponse
	if st := h.call("DELETE", base+"/breakpoints/LP%231", nil, &rm); st != http.StatusOK || strings.Join(rm.Removed, ",") != "lp1" {
		t.Fatalf("DELETE LP#1: status %d, removed %v", st, rm.Removed)
	}
	if lps := h.logpoints(s.ID); len(lps) != 1 || lps[0].Ref != lp2.Ref {
		t.Fatalf("logpoints after removing lp1: %+v", lps)
	}

	// Only lp2 emits on the way to bp1.
	wantPausedIn(t, h.exec(s.ID, "continue", api.ContinueRequest{}), "logloop.js", "", lineLoopEnd)
	emitted := h.emissions(s.ID)
	for k, e := range emitted {
		if e.Ref != lp2.Ref || e.Text.Value != "b"+strconv.Itoa(k+1) {
			t.Fatalf("emission %d: %+v, want %s's b%d", k+1, e, lp2.Ref, k+1)
		}
	}
	if len(emitted) != 10 {
		t.Fatalf("%d emissions, want %s's 10", len(emitted), lp2.Ref)
	}

	if st := h.call("DELETE", base+"/breakpoints/all", nil, &rm); st != http.StatusOK {
		t.Fatalf("DELETE all: status %d", st)
	}
	want := []string{bp.Ref, lp2.Ref}
	slices.Sort(rm.Removed)
	slices.Sort(want)
	if !slices.Equal(rm.Removed, want) {
		t.Fatalf("DELETE all removed %v, want %v", rm.Removed, want)
	}
	if lps, bps := h.logpoints(s.ID), h.breakpointRefs(s.ID); len(lps) != 0 || bps != "" {
		t.Fatalf("left after DELETE all: logpoints %+v, breakpoints %s", lps, bps)
	}
	h.runToEnd(s.ID, 2)
}

// TestDebugPointsShareALine: V8 keeps one breakpoint per location, so a second logpoint or a
// breakpoint on a line that has one is refused (409 location_taken, naming the first), and the
// first goes on emitting at every run of the line.
func TestDebugPointsShareALine(t *testing.T) {
	h := newHarness(t)
	s := h.debug(api.StartRequest{Target: "logloop.js", PauseOnStart: true})
	h.waitPaused(s.ID, 0)
	line := "logloop.js:" + strconv.Itoa(lineLoopBody)
	a := h.setLogpoint(s.ID, api.LogpointRequest{Location: line, Template: "a${i}"})
	for _, c := range []struct {
		path string
		body any
	}{
		{"/logpoints", api.LogpointRequest{Location: line, Template: "b${i}"}},
		{"/breakpoints", api.BreakpointRequest{Location: line, Condition: "i === 4"}},
	} {
		e := h.errorOf(h.request("POST", "/api/debug/"+s.ID+c.path, c.body), http.StatusConflict)
		if e.Code != "location_taken" || !strings.Contains(e.Message, a.Ref) || e.Hint == "" {
			t.Fatalf("second point on %s: %+v, want 409 location_taken naming %s", line, e, a.Ref)
		}
	}
	h.runToEnd(s.ID, 1)
	count := map[string]int{}
	for _, e := range h.emissions(s.ID) {
		count[e.Ref]++
	}
	if count[a.Ref] != 10 || len(count) != 1 {
		t.Fatalf("emissions per logpoint %v, want 10 from %s", count, a.Ref)
	}
}

// TestDebugPauseOnExceptions: all (and caught, which V8 runs as all) pause at a caught throw and
// at an uncaught one, uncaught only at the latter, none at neither.
func TestDebugPauseOnExceptions(t *testing.T) {
	for _, c := range []struct {
		mode   string
		before []int // for each exception pause, the console calls made before it
	}{
		{api.ExceptionsAll, []int{0, 2}},
		{api.ExceptionsCaught, []int{0, 2}},
		{api.ExceptionsUncaught, []int{2}},
		{api.ExceptionsNone, nil},
	} {
		t.Run(c.mode, func(t *testing.T) {
			h := newHarness(t)
			s := h.debug(api.StartRequest{Target: "exceptions.js", PauseOnStart: true})
			_, after := h.waitPaused(s.ID, 0)
			var res api.PauseOnExceptionsResponse
			if st := h.call("POST", "/api/debug/"+s.ID+"/pause-on-exceptions", api.PauseOnExceptionsRequest{Mode: c.mode}, &res); st != http.StatusOK || res.Mode != c.mode {
				t.Fatalf("pause-on-exceptions %s: status %d, answer %+v", c.mode, st, res)
			}
			for n, before := range c.before {
				h.exec(s.ID, "continue", api.ContinueRequest{WaitMs: new(int64)})
				var st api.State
				st, after = h.waitPaused(s.ID, after)
				wantPausedIn(t, st, "exceptions.js", "risky", lineThrow)
				if st.Reason != "exception" {
					t.Fatalf("pause %d: reason %q, want exception", n+1, st.Reason)
				}
				if got := len(h.consoleTexts(s.ID)); got != before {
					t.Fatalf("pause %d: after %d console calls, want %d", n+1, got, before)
				}
			}
			if st := h.exec(s.ID, "continue", api.ContinueRequest{}); st.Location != nil {
				t.Fatalf("paused again: %+v", st)
			}
			sum := h.waitExit(s.ID)
			if sum.ExitCode == nil || *sum.ExitCode != 1 || sum.Counts[engine.KindPause] != 1+len(c.before) {
				t.Fatalf("summary %+v, want exit 1 (the uncaught throw) after %d pauses", sum, 1+len(c.before))
			}
			if console := h.consoleTexts(s.ID); strings.Join(console, "|") != "handled thrown|done" {
				t.Fatalf("console %q, want the catch's line then done", console)
			}
		})
	}
}

// TestDebugRunTo: run-to stops at the line asked, or at a breakpoint met first, and leaves no
// breakpoint behind.
func TestDebugRunTo(t *testing.T) {
	h := newHarness(t)
	s := h.debug(api.StartRequest{Target: "debugme.js", Breakpoints: api.BreakpointsAt("debugme.js:7")})
	h.waitPaused(s.ID, 0)
	base := "/api/debug/" + s.ID

	st := h.exec(s.ID, "run-to", api.RunToRequest{Location: "debugme.js:" + strconv.Itoa(lineLog)})
	wantPausedAt(t, st, "work", lineLog)
	if v := local(t, st, "value").Value; v != "1" || len(st.Hit) != 0 {
		t.Fatalf("after run-to: value = %s, hit %v; want 1 (the first call) and no breakpoint", v, st.Hit)
	}
	if refs := h.breakpointRefs(s.ID); refs != "bp1:1" {
		t.Fatalf("breakpoints after run-to: %s, want bp1 alone, paused once", refs)
	}

	// square runs next in the second call, but bp1 comes first on the way.
	square := api.RunToRequest{Location: "debugme.js:" + strconv.Itoa(lineSquare)}
	st = h.exec(s.ID, "run-to", square)
	wantPausedAt(t, st, "work", lineLabel)
	if i := local(t, st, "i").Value; i != "2" || strings.Join(st.Hit, ",") != "bp1" {
		t.Fatalf("run-to across bp1: i = %s, hit %v; want 2, bp1", i, st.Hit)
	}
	st = h.exec(s.ID, "run-to", square)
	wantPausedAt(t, st, "square", lineSquare)
	if n := local(t, st, "n").Value; n != "2" {
		t.Fatalf("run-to square: n = %s, want 2", n)
	}

	// Neither target stayed: continue stops at bp1 in the third call.
	st = h.exec(s.ID, "continue", api.ContinueRequest{})
	wantPausedAt(t, st, "work", lineLabel)
	if i := local(t, st, "i").Value; i != "3" {
		t.Fatalf("continue after run-to: i = %s, want 3", i)
	}
	if refs := h.breakpointRefs(s.ID); refs != "bp1:3" {
		t.Fatalf("breakpoints: %s, want bp1 alone, paused 3 times", refs)
	}

	for _, loc := range []string{"nosuch.js:1", "debugme.js:0"} {
		e := h.errorOf(h.request("POST", base+"/run-to", api.RunToRequest{Location: loc}), http.StatusBadRequest)
		if e.Code != "bad_request" || !strings.Contains(e.Hint, "kinds=script") {
			t.Fatalf("run-to %s: %+v, want bad_request naming the loaded scripts", loc, e)
		}
	}
	if st := h.state(s.ID, ""); st.Location == nil || st.Location.Line != lineLabel {
		t.Fatalf("a refused run-to moved the program: %+v", st)
	}
}

// waitSpinning waits until killme.js is in its loop. The console event of "spinning" is not
// enough: it comes as console.log starts, and a kill inside console.log's first write (which loads
// node's net module) breaks stdout for good. Evaluation runs between the loop's turns.
func (h *harness) waitSpinning(id string) {
	h.t.Helper()
	for end := time.Now().Add(deadline); time.Now().Before(end); {
		if res := h.eval(id, "globalThis.spins > 0", 0); res.Value == "true" {
			return
		}
	}
	h.t.Fatalf("killme.js did not spin within %s", deadline)
}

// TestDebugKillExecution: kill-execution ends a callback stuck in an infinite loop, running or
// paused in it; the process, its timers and the session go on.
func TestDebugKillExecution(t *testing.T) {
	for _, c := range []struct {
		name  string
		where string // killme.js's argument: where it spins
		pause bool   // pause in the loop before the kill
	}{
		{"timeout", "timeout", false},
		{"io callback", "io", false},
		{"main script", "main", false},
		{"paused", "io", true},
	} {
		t.Run(c.name, func(t *testing.T) {
			h := newHarness(t)
			s := h.debug(api.StartRequest{Target: "killme.js", Args: []string{c.where}})
			base := "/api/debug/" + s.ID
			w := h.waitFor(s.ID, 0, "console")
			if text := w.Event.Console.Text.Value; text != "spinning" {
				t.Fatalf("first console call %q, want spinning", text)
			}
			h.waitSpinning(s.ID)
			if c.pause {
				wantPausedIn(t, h.exec(s.ID, "pause", api.PauseRequest{}), "killme.js", "spin", lineSpin)
			} else {
				e := h.errorOf(h.request("POST", base+"/run-to", api.RunToRequest{Location: "killme.js:5"}), http.StatusConflict)
				if e.Code != "running" {
					t.Fatalf("run-to while running: %+v", e)
				}
			}

			// Bounded: an engine that never answers fails here rather than at the test timeout. The
			// answer comes at once, or after the default 5s wait when the kill resumes a pause.
			ctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
			defer cancel()
			status, raw := h.send(h.request("POST", base+"/kill-execution", api.KillExecutionRequest{}).WithContext(ctx))
			var st api.State
			if err := json.Unmarshal(raw, &st); status != http.StatusOK || err != nil || st.Status != engine.StatusRunning || st.Location != nil {
				t.Fatalf("kill-execution answered %d %s, want a running state", status, raw)
			}
			// The loop is over: the interval, starved until now, says alive.
			alive := h.waitFor(s.ID, w.Event.Seq, "console")
			if alive.Event == nil || alive.Event.Console.Text.Value != "alive" {
				t.Fatalf("after kill-execution: %+v, want an alive console event", alive)
			}
			if res := h.eval(s.ID, "6 * 7", 0); res.Exception != "" || res.Value != "42" {
				t.Fatalf("eval after kill-execution: %+v", res)
			}
			// The debugger still works: a pause lands in the program again.
			if st := h.exec(s.ID, "pause", api.PauseRequest{}); st.Location == nil {
				t.Fatalf("pause after kill-execution: %+v", st)
			}
			h.exec(s.ID, "continue", api.ContinueRequest{WaitMs: new(int64)})
			if sum := h.trace(s.ID, "").Session; sum.Status.Finished() {
				t.Fatalf("session after kill-execution: %+v, want it live", sum)
			}
		})
	}
}
