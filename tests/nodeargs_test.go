package tests

import (
	"net/http"
	"strings"
	"testing"

	"traced/api"
)

// TestStartNodeArgs: nodeArgs reach node before the target, and a restart passes them again.
func TestStartNodeArgs(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	s := h.start(api.StartRequest{Target: "flags.js", NodeArgs: []string{"--conditions=dev", "--no-warnings"}})
	h.waitExit(s.ID)
	if got := h.consoleTexts(s.ID); len(got) != 1 || got[0] != "flags --conditions=dev --no-warnings" {
		t.Fatalf("console %q, want the flags given", got)
	}
	if sum := h.trace(s.ID, "").Session; strings.Join(sum.NodeArgs, " ") != "--conditions=dev --no-warnings" {
		t.Fatalf("summary nodeArgs %q", sum.NodeArgs)
	}
}

// TestStartRefusesOwnedNodeArgs: inspector and debug flags are traced's own, and flags that
// replace the program run none of it: 400 naming the item.
func TestStartRefusesOwnedNodeArgs(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	for _, c := range []struct {
		args  []string
		field string
	}{
		{[]string{"--inspect=9229"}, "nodeArgs.0"},
		{[]string{"--no-warnings", "--inspect-brk"}, "nodeArgs.1"},
		{[]string{"--debug-port=1"}, "nodeArgs.0"},
		{[]string{"-e"}, "nodeArgs.0"},
		{[]string{"--eval=1"}, "nodeArgs.0"},
		{[]string{"--run"}, "nodeArgs.0"},
		{[]string{""}, "nodeArgs.0"},
	} {
		e := h.errorOf(h.request("POST", "/api/trace/start", api.StartRequest{Target: "flags.js", NodeArgs: c.args}), http.StatusBadRequest)
		if !strings.Contains(e.Message, c.field) {
			t.Errorf("nodeArgs %q: %+v, want the error to name %s", c.args, e, c.field)
		}
	}
}

// TestStartNodeTest: `node --test file` runs the file's tests; a failing test's file and line
// appear in the session's output, and it exits 1.
func TestStartNodeTest(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	s := h.start(api.StartRequest{Target: "runners/math.test.js", NodeArgs: []string{"--test"}})
	sum := h.waitExit(s.ID)
	if sum.ExitCode == nil || *sum.ExitCode != 1 {
		t.Fatalf("exit %+v, want 1 (a test failed)", sum)
	}
	out := h.printed(s.ID)
	if !strings.Contains(out, "math.test.js:10") {
		t.Fatalf("output has no math.test.js:10 (the failing assertion):\n%s", out)
	}
}

// TestDebugNodeTestBreakpoint: a breakpoint inside a test body pauses there with the test's
// locals.
func TestDebugNodeTestBreakpoint(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	s := h.debug(api.StartRequest{Target: "runners/math.test.js", NodeArgs: []string{"--test"}, Breakpoints: api.BreakpointsAt("runners/math.test.js:10")})
	st, _ := h.waitPaused(s.ID, 0)
	wantPausedIn(t, st, "runners/math.test.js", "", 10)
	if v := local(t, st, "product"); v.Value != "4" {
		t.Fatalf("product = %+v, want 4", v)
	}
}

// TestStartNodeTestManyFiles: under --test every test file runs in a process of its own, each a
// target (t0 is the runner's process or, when that opens no inspector in time, the first
// file's); none waits for a debugger or is left uncaptured, and in a debug session a breakpoint
// in the second file pauses in that file's process.
func TestStartNodeTestManyFiles(t *testing.T) {
	t.Parallel()
	for _, mode := range []string{api.ModeTrace, api.ModeDebug} {
		t.Run(mode, func(t *testing.T) {
			h := newHarness(t)
			req := api.StartRequest{Target: "runners/math.test.js", Args: []string{"runners/more.test.js"},
				NodeArgs: []string{"--test"}, Mode: mode}
			if mode == api.ModeDebug {
				req.Breakpoints = api.BreakpointsAt("runners/more.test.js:6")
			}
			s := h.start(req)
			if mode == api.ModeDebug {
				st, _ := h.waitPaused(s.ID, 0)
				wantPausedIn(t, st, "runners/more.test.js", "", 6)
				if v := local(t, st, "diff"); v.Value != "2" || h.targetKind(s.ID, st.Target) != "process" {
					t.Fatalf("paused in %s with diff %+v, want the second file's process with diff 2", st.Target, v)
				}
				h.exec(s.ID, "continue", api.ContinueRequest{WaitMs: new(int64)})
			}
			sum := h.waitExit(s.ID)
			if sum.ExitCode == nil || *sum.ExitCode != 1 {
				t.Fatalf("exit %+v, want 1 (a test failed)", sum)
			}
			out := h.printed(s.ID)
			if !strings.Contains(out, "subtracts") || !strings.Contains(out, "fails") {
				t.Fatalf("the output lacks a test of each file:\n%s", out)
			}
			if strings.Contains(out, "ws://") {
				t.Fatalf("an inspector URL reached the output:\n%s", out)
			}
			attached := 0
			for _, ev := range h.trace(s.ID, "target").Events {
				switch ev.TargetInfo.Status {
				case "released":
					t.Fatalf("target %+v released, want every file's process followed", ev.TargetInfo)
				case "attached":
					attached++
				}
			}
			if attached < 1 {
				t.Fatalf("%d attached targets, want the test files' processes", attached)
			}
		})
	}
}
