package tests

import (
	"net/http"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"traced/api"
)

// TestAsyncFrames: an awaited fs.promises.readFile rejecting (node's own code makes the
// rejection) is placed at the user's awaiting frame, as node's stderr shows it
// ("at async loadConfig (awaitreject.mjs:5:16)"): the exception, its stack, the evidence and the pause of pauseOnExceptions uncaught, at ESM top level (whose pause comes
// through traced's preload) and in async CommonJS code; never node's internals nor traced's
// preload. All with async-depth left at 0.
func TestAsyncFrames(t *testing.T) {
	t.Parallel()
	cases := []struct {
		file   string
		caller string // the awaiting caller's function and line
		line   int
	}{
		{"awaitreject.mjs", "", 9},
		{"awaitreject.cjs", "main", 10},
	}
	for _, c := range cases {
		t.Run(c.file, func(t *testing.T) {
			// Node 26's fs errors carry no stack: node names no user frame, nor can traced.
			out, _ := exec.CommandContext(t.Context(), "node", filepath.Join("testdata", c.file)).CombinedOutput()
			named := strings.Contains(string(out), "at async loadConfig")
			h := newHarness(t)
			s := h.start(api.StartRequest{Target: c.file})
			h.waitExit(s.ID)
			if named {
				tr := h.trace(s.ID, "exception")
				if len(tr.Events) == 0 {
					t.Fatalf("no exception in %+v", tr.Events)
				}
				x := tr.Events[0].Exception
				if x.File != c.file || x.Line != 5 {
					t.Fatalf("exception at %s:%d, want the awaiting frame %s:5", x.File, x.Line, c.file)
				}
				wantAwaitChain(t, x.Stack, c.file, c.caller, c.line)
				f := h.evidenceOf(s.ID).Failure
				if f.Location == nil || f.Location.File != c.file || f.Location.Line != 5 {
					t.Fatalf("failure %+v at %+v, want %s:5", f, f.Location, c.file)
				}
			}

			d := h.debug(api.StartRequest{Target: c.file, PauseOnExceptions: "uncaught"})
			st, _ := h.waitPaused(d.ID, 0)
			for _, sf := range st.Stack {
				if strings.Contains(sf.URL, "preload") || sf.Function == "tracedUncaught" {
					t.Fatalf("stack %+v shows traced's own frames", st.Stack)
				}
			}
			if !named {
				return
			}
			wantPausedIn(t, st, c.file, "loadConfig", 5)
			var frames []api.Frame
			for _, sf := range st.Stack {
				if sf.Internal {
					t.Fatalf("stack %+v shows node's own frames", st.Stack)
				}
				frames = append(frames, sf.Frame)
			}
			wantAwaitChain(t, frames, c.file, c.caller, c.line)
			if v, ok := localOf(st, "error"); ok { // the preload's monitor stop: the error is f0's
				if !strings.Contains(v, "ENOENT") {
					t.Fatalf("local error %q, want the ENOENT error", v)
				}
				if r := h.eval(d.ID, "error.code", 0); r.Value != "'ENOENT'" {
					t.Fatalf("eval error.code in f0: %+v", r)
				}
			}
			e := h.errorOf(h.request("POST", "/api/debug/"+d.ID+"/eval", api.EvalRequest{Expression: "1", Frame: 1}), http.StatusBadRequest)
			if !strings.Contains(e.Message, "awaiting frame") {
				t.Fatalf("eval in an awaiting frame: %+v", e)
			}
		})
	}
}

func localOf(st api.State, name string) (string, bool) {
	for _, v := range st.Locals {
		if v.Name == name {
			return v.Value, true
		}
	}
	return "", false
}

// wantAwaitChain checks that a stack holds loadConfig at line 5 and its caller, as await frames.
func wantAwaitChain(t *testing.T, stack []api.Frame, file, caller string, line int) {
	t.Helper()
	i := slices.IndexFunc(stack, func(f api.Frame) bool { return f.Function == "loadConfig" })
	if i < 0 || i+1 >= len(stack) {
		t.Fatalf("stack %+v, want loadConfig then its caller", stack)
	}
	l, up := stack[i], stack[i+1]
	if l.File != file || l.Line != 5 || l.Async != "await" || up.File != file || up.Function != caller || up.Line != line || up.Async != "await" {
		t.Fatalf("await chain %+v, %+v; want loadConfig %s:5 then %q %s:%d, both await", l, up, file, caller, file, line)
	}
}

// TestAsyncFramesAtBreakpoint: with async-depth left at 0, a pause after an await shows the
// awaiting caller (V8's zero-cost async stack) in the stack and in stack?asyncDepth=N; 0 shows none.
func TestAsyncFramesAtBreakpoint(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	s := h.debug(api.StartRequest{Target: "asyncme.js", Breakpoints: []api.StartBreakpoint{{Location: "asyncme.js:5"}}})
	st, _ := h.waitPaused(s.ID, 0)
	wantPausedIn(t, st, "asyncme.js", "inner", 5)
	for _, q := range []string{"", "stack?asyncDepth=4"} {
		stack := st.Stack
		if q != "" {
			var res api.StackResponse
			h.get(s.ID, q, &res)
			stack = res.Stack
		}
		i := slices.IndexFunc(stack, func(f api.StackFrame) bool { return f.Async != "" })
		if i < 0 || stack[i].Function != "outer" || stack[i].Line != 8 || stack[i].Async != "await" {
			t.Fatalf("%s: stack %+v, want outer at line 8 as an await frame", q, stack)
		}
	}
	var none api.StackResponse
	h.get(s.ID, "stack?asyncDepth=0", &none)
	if slices.ContainsFunc(none.Stack, func(f api.StackFrame) bool { return f.Async != "" }) {
		t.Fatalf("stack?asyncDepth=0 has async frames: %+v", none)
	}
	h.runToEnd(s.ID, 1)
}

// TestAsyncFramesOfThrow: a throw after an await, caught by its awaiting caller, is a throw event
// whose stack goes on past the await to that caller.
func TestAsyncFramesOfThrow(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	s := h.start(api.StartRequest{Target: "awaitthrow.js"})
	h.waitExit(s.ID)
	tr := h.trace(s.ID, "throw")
	if len(tr.Events) != 1 || tr.Events[0].Throw.Location == nil || tr.Events[0].Throw.Location.Line != 4 {
		t.Fatalf("throw events %+v, want one at awaitthrow.js:4", tr.Events)
	}
	stack := tr.Events[0].Throw.Stack
	i := slices.IndexFunc(stack, func(f api.Frame) bool { return f.Function == "run" })
	if i < 0 || stack[i].Line != 8 || stack[i].Async != "await" {
		t.Fatalf("stack %+v, want run at awaitthrow.js:8 as an await frame", stack)
	}
}
