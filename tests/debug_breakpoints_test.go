package tests

import (
	"net/http"
	"strings"
	"testing"

	"traced/api"
)

// bpmore.js lines the tests stop at.
const (
	lineEntry   = 5  // globalThis.entries++;   (counted's first line)
	lineBlank   = 6  // a blank line in counted
	lineReturn  = 8  // return helper.twice(n);
	lineCallOut = 12 // out += counted(i);
	lineAfter   = 13 // out += 1;
	lineTwice   = 3  // bpmore_lib.js: const r = n * 2;
)

func TestDebugURLRegexBreakpoint(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	s := h.debug(api.StartRequest{Target: "bpmore.js", PauseOnStart: true})
	h.waitPaused(s.ID, 0)
	bp := h.setBreakpoint(s.ID, api.BreakpointRequest{URLRegex: `bpmore_lib\.js$`, Line: lineTwice})
	if bp.URLRegex == "" || !bp.Enabled {
		t.Fatalf("breakpoint %+v", bp)
	}
	st := h.exec(s.ID, "continue", api.ContinueRequest{})
	wantPausedIn(t, st, "bpmore_lib.js", "twice", lineTwice)

	e := h.errorOf(h.request("POST", "/api/debug/"+s.ID+"/breakpoints", map[string]any{"location": "bpmore.js:5", "urlRegex": "x", "line": 1}), http.StatusBadRequest)
	if e.Code != "bad_request" {
		t.Fatalf("both location and urlRegex: %+v", e)
	}
}

func TestDebugNotBreakableLine(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	s := h.debug(api.StartRequest{Target: "bpmore.js", PauseOnStart: true})
	h.waitPaused(s.ID, 0)
	e := h.errorOf(h.request("POST", "/api/debug/"+s.ID+"/breakpoints", api.BreakpointRequest{Location: "bpmore.js:6"}), http.StatusBadRequest)
	if e.Code != "not_breakable" || !strings.Contains(e.Hint, "bpmore.js:5") || !strings.Contains(e.Hint, "bpmore.js:8") {
		t.Fatalf("blank line: %+v, want not_breakable naming lines 5 and 8", e)
	}
	if refs := h.breakpointRefs(s.ID); refs != "" {
		t.Fatalf("a refused breakpoint stayed: %s", refs)
	}
	var br api.BreakableResponse
	if st := h.call("GET", "/api/debug/"+s.ID+"/breakable?location=bpmore.js:4-9", nil, &br); st != http.StatusOK {
		t.Fatalf("breakable: %d", st)
	}
	var lines []int
	for _, l := range br.Lines {
		lines = append(lines, l.Line)
	}
	if len(lines) == 0 || lines[0] != lineEntry {
		t.Fatalf("breakable lines %v", lines)
	}
	for _, l := range lines {
		if l == lineBlank || l == 7 {
			t.Fatalf("breakable lines %v include the blank or comment line", lines)
		}
	}
}

func TestDebugToggleAndActive(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	s := h.debug(api.StartRequest{Target: "bpmore.js", PauseOnStart: true})
	h.waitPaused(s.ID, 0)
	base := "/api/debug/" + s.ID
	bp := h.setBreakpoint(s.ID, api.BreakpointRequest{Location: "bpmore.js:5"})
	var res api.BreakpointResponse
	if st := h.call("POST", base+"/breakpoints/"+bp.Ref+"/toggle", map[string]any{}, &res); st != http.StatusOK || res.Breakpoint.Enabled {
		t.Fatalf("toggle off: %d %+v", st, res)
	}
	// Off: the program runs to the breakpoint in the lib module instead.
	h.setBreakpoint(s.ID, api.BreakpointRequest{URLRegex: `bpmore_lib\.js$`, Line: lineTwice})
	st := h.exec(s.ID, "continue", api.ContinueRequest{})
	wantPausedIn(t, st, "bpmore_lib.js", "twice", lineTwice)
	if res := h.eval(s.ID, "n", 0); res.Value != "1" {
		t.Fatalf("n = %s", res.Value)
	}
	on := true
	if st := h.call("POST", base+"/breakpoints/"+bp.Ref+"/toggle", api.ToggleRequest{Enabled: &on}, &res); st != http.StatusOK || !res.Breakpoint.Enabled {
		t.Fatalf("toggle on: %d %+v", st, res)
	}
	st = h.exec(s.ID, "continue", api.ContinueRequest{})
	wantPausedIn(t, st, "bpmore.js", "counted", lineEntry)
	if res := h.eval(s.ID, "n", 0); res.Value != "2" {
		t.Fatalf("n = %s, want 2", res.Value)
	}
	off := false
	var act api.ActiveResponse
	if st := h.call("POST", base+"/breakpoints/active", api.ActiveRequest{Active: &off}, &act); st != http.StatusOK || act.Active {
		t.Fatalf("active false: %d %+v", st, act)
	}
	h.runToEnd(s.ID, 3)
}

func TestDebugFunctionBreakpointAndRestartFrame(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	s := h.debug(api.StartRequest{Target: "bpmore.js", PauseOnStart: true})
	h.waitPaused(s.ID, 0)
	base := "/api/debug/" + s.ID
	var res api.BreakpointResponse
	if st := h.call("POST", base+"/breakpoints/function", api.FunctionBreakpointRequest{Expression: "counted"}, &res); st != http.StatusCreated {
		t.Fatalf("function breakpoint: %d", st)
	}
	st := h.exec(s.ID, "continue", api.ContinueRequest{})
	wantPausedIn(t, st, "bpmore.js", "counted", lineEntry)
	st = h.exec(s.ID, "step", api.StepRequest{})
	st = h.exec(s.ID, "step", api.StepRequest{})
	if st.Location == nil || st.Location.Line != lineReturn {
		t.Fatalf("after two steps: %+v", st.Location)
	}
	if r := h.eval(s.ID, "globalThis.entries", 0); r.Value != "1" {
		t.Fatalf("entries %s", r.Value)
	}
	st = h.exec(s.ID, "restart-frame", api.RestartFrameRequest{Frame: "f0"})
	wantPausedIn(t, st, "bpmore.js", "counted", lineEntry)
	st = h.exec(s.ID, "step", api.StepRequest{})
	if r := h.eval(s.ID, "globalThis.entries", 0); r.Value != "2" {
		t.Fatalf("entries %s after restart, want 2: the function ran again", r.Value)
	}
	h.call("DELETE", base+"/breakpoints/all", nil, nil)
	h.exec(s.ID, "continue", api.ContinueRequest{})
	h.waitExit(s.ID)
	e := h.errorOf(h.request("POST", base+"/restart-frame", api.RestartFrameRequest{}), http.StatusConflict)
	if e.Code != "finished" {
		t.Fatalf("restart after exit: %+v", e)
	}
}

func TestDebugBlackboxAndHooks(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	s := h.debug(api.StartRequest{Target: "bpmore.js", PauseOnStart: true})
	h.waitPaused(s.ID, 0)
	base := "/api/debug/" + s.ID
	var bb api.BlackboxResponse
	if st := h.call("POST", base+"/blackbox", api.BlackboxRequest{Patterns: []string{`bpmore_lib\.js$`}}, &bb); st != http.StatusOK || len(bb.Patterns) != 1 || len(bb.Suggested) == 0 {
		t.Fatalf("blackbox: %d %+v", st, bb)
	}
	var hooks api.HooksResponse
	if st := h.call("POST", base+"/hooks", api.HookRequest{Name: "onJob"}, &hooks); st != http.StatusCreated || len(hooks.Hooks) != 1 {
		t.Fatalf("hooks: %d %+v", st, hooks)
	}
	h.setBreakpoint(s.ID, api.BreakpointRequest{Location: "bpmore.js:8"})
	st := h.exec(s.ID, "continue", api.ContinueRequest{})
	wantPausedIn(t, st, "bpmore.js", "counted", lineReturn)
	st = h.exec(s.ID, "step", api.StepRequest{Kind: api.StepInto})
	if st.Location == nil || st.Location.File != "bpmore.js" {
		t.Fatalf("step into a blackboxed call landed in %+v", st.Location)
	}
	h.call("DELETE", base+"/breakpoints/all", nil, nil)
	h.exec(s.ID, "continue", api.ContinueRequest{})
	w := h.waitFor(s.ID, 0, "hook")
	if w.Event == nil || w.Event.Hook == nil || w.Event.Hook.Payload.Value != "out=15" {
		t.Fatalf("hook event %+v", w.Event)
	}
	h.waitExit(s.ID)
}

func TestDebugBreakOnLoad(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	s := h.debug(api.StartRequest{Target: "onload.js", PauseOnStart: true})
	h.waitPaused(s.ID, 0)
	var res api.OnLoadResponse
	if st := h.call("POST", "/api/debug/"+s.ID+"/breakpoints/on-load", map[string]any{}, &res); st != http.StatusOK || !res.Enabled {
		t.Fatalf("on-load: %d %+v", st, res)
	}
	st := h.exec(s.ID, "continue", api.ContinueRequest{})
	if st.Reason != "instrumentation" {
		t.Fatalf("after continue: %+v, want an instrumentation pause as vm runs a script", st)
	}
	off := false
	h.call("POST", "/api/debug/"+s.ID+"/breakpoints/on-load", api.OnLoadRequest{Enabled: &off}, &res)
	h.exec(s.ID, "continue", api.ContinueRequest{})
	h.waitExit(s.ID)
}
