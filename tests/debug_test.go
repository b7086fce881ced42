package tests

import (
	"net/http"
	"strconv"
	"strings"
	"testing"

	"traced/api"
)

func TestDebugTraceSessionRefuses(t *testing.T) {
	t.Parallel()
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
	if sum := h.trace(s.ID, "").Session; sum.Status != api.StatusRunning {
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
	t.Parallel()
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
	t.Parallel()
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
	t.Parallel()
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
	t.Parallel()
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
	if sum.ExitCode == nil || *sum.ExitCode != 0 || sum.Counts[api.KindConsole] != 6 {
		t.Fatalf("summary %+v, want exit 0 after 6 console calls", sum)
	}
	if n := len(h.trace(s.ID, "pause").Events); n != 2 {
		t.Fatalf("%d pause events, want 2: the start and i === 4", n)
	}
}

func TestDebugHitCount(t *testing.T) {
	t.Parallel()
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
	t.Parallel()
	h := newHarness(t)
	s := h.debug(api.StartRequest{Target: "debugme.js", PauseOnStart: true})
	st, _ := h.waitPaused(s.ID, 0)
	if st.Reason != "Break on start" || st.Location == nil || st.Location.File != "debugme.js" {
		t.Fatalf("state %+v, want paused on start in debugme.js", st)
	}
	if n := h.trace(s.ID, "").Session.Counts[api.KindConsole]; n != 0 {
		t.Fatalf("%d console calls before the first line", n)
	}
}

func TestDebugStepping(t *testing.T) {
	t.Parallel()
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
	t.Parallel()
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
	if st := h.state(s.ID, ""); st.Status != api.StatusRunning || st.Location != nil {
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
	t.Parallel()
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
	if sum.ExitCode == nil || *sum.ExitCode != 0 || sum.Counts[api.KindConsole] != 6 {
		t.Fatalf("summary %+v, want exit 0 after 6 console calls", sum)
	}

	// After the end: execution answers finished, its hint naming the restart; state and the
	// list still read, and the breakpoints can still be edited for the restart.
	for _, c := range []struct {
		method, op string
		body       any
	}{
		{"POST", "continue", api.ContinueRequest{}},
		{"POST", "step", api.StepRequest{}},
		{"POST", "pause", api.PauseRequest{}},
		{"POST", "eval", api.EvalRequest{Expression: "1"}},
		{"POST", "pause-on-exceptions", api.PauseOnExceptionsRequest{Mode: api.ExceptionsNone}},
		{"POST", "run-to", api.RunToRequest{Location: "debugme.js:7"}},
		{"POST", "kill-execution", api.KillExecutionRequest{}},
	} {
		e := h.errorOf(h.request(c.method, base+"/"+c.op, c.body), http.StatusConflict)
		if e.Code != "finished" || !strings.Contains(e.Hint, base+"/restart") {
			t.Fatalf("%s %s after exit: %+v, want finished with the restart in its hint", c.method, c.op, e)
		}
	}
	var set api.LogpointResponse
	if st := h.call("POST", base+"/logpoints", api.LogpointRequest{Location: "debugme.js:7", Template: "x"}, &set); st != http.StatusCreated {
		t.Fatalf("a logpoint set after exit: %d, want 201", st)
	}
	if st := h.call("DELETE", base+"/breakpoints/"+set.Logpoint.Ref, nil, nil); st != http.StatusOK {
		t.Fatalf("a logpoint removed after exit: %d, want 200", st)
	}
	if st := h.state(s.ID, ""); st.Status != api.StatusExited || st.Location != nil {
		t.Fatalf("state after exit: %+v", st)
	}
	if lps := h.logpoints(s.ID); len(lps) != 0 {
		t.Fatalf("logpoints after exit: %+v", lps)
	}
}

// TestDebugPauseRightAfterStart: a start answers once the program runs, so a pause sent at once
// lands in the user's program, not in node's bootstrap before the first line. spin.js runs its
// loop in turns of the event loop: a pause that comes between two (V8 stops at the next
// statement, node's processImmediate) is after the first line too; the next one is tried then.
func TestDebugPauseRightAfterStart(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	s := h.debug(api.StartRequest{Target: "spin.js"})
	for try := 1; try <= 3; try++ {
		st := h.exec(s.ID, "pause", api.PauseRequest{})
		between := len(st.Stack) > 0 && st.Stack[0].Function == "processImmediate" && st.Stack[0].URL == "node:internal/timers"
		for _, f := range st.Stack {
			if f.File == "spin.js" {
				return
			}
		}
		if !between {
			t.Fatalf("paused with no spin.js frame on the stack: reason %q, stack %+v", st.Reason, st.Stack)
		}
		t.Logf("pause %d came between two turns of spin's loop: %+v", try, st.Stack)
		h.exec(s.ID, "continue", api.ContinueRequest{})
	}
	t.Fatal("three pauses in a row came between turns of spin's loop")
}

// TestDebugStatusAtEveryPause: the state of a paused program says paused, both in the answer of
// a step and in GET state once the pause event is out.
func TestDebugStatusAtEveryPause(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	s := h.debug(api.StartRequest{Target: "debugme.js", Breakpoints: api.BreakpointsAt("debugme.js:3")})
	var after uint64
	for n := 1; n <= 5; n++ {
		st, seq := h.waitPaused(s.ID, after)
		after = seq
		if st.Status != api.StatusPaused {
			t.Fatalf("pause %d: GET state after the pause event says %s: %+v", n, st.Status, st)
		}
		for range 8 {
			if st = h.exec(s.ID, "step", api.StepRequest{Kind: api.StepInto}); st.Location != nil && st.Status != api.StatusPaused {
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
	t.Parallel()
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

// TestDebugPauseOnExceptions: all (and caught, which V8 runs as all) pause at a caught throw and
// at an uncaught one, uncaught only at the latter, none at neither.
func TestDebugPauseOnExceptions(t *testing.T) {
	t.Parallel()
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
			if sum.ExitCode == nil || *sum.ExitCode != 1 || sum.Counts[api.KindPause] != 1+len(c.before) {
				t.Fatalf("summary %+v, want exit 1 (the uncaught throw) after %d pauses", sum, 1+len(c.before))
			}
			if console := h.consoleTexts(s.ID); strings.Join(console, "|") != "handled thrown|done" {
				t.Fatalf("console %q, want the catch's line then done", console)
			}
		})
	}
}
