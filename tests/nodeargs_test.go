package tests

import (
	"net/http"
	"strings"
	"testing"

	"traced/api"
)

// TestStartNodeArgs: nodeArgs reach node before the target, and a restart passes them again.
func TestStartNodeArgs(t *testing.T) {
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
	h := newHarness(t)
	s := h.debug(api.StartRequest{Target: "runners/math.test.js", NodeArgs: []string{"--test"}, Breakpoints: api.BreakpointsAt("runners/math.test.js:10")})
	st, _ := h.waitPaused(s.ID, 0)
	wantPausedIn(t, st, "runners/math.test.js", "", 10)
	if v := local(t, st, "product"); v.Value != "4" {
		t.Fatalf("product = %+v, want 4", v)
	}
}

// TestStartNodeTestManyFiles: under --test every test file runs in a process of its own that
// inherits the runner's inspector flags; traced debugs the first and lets each later one run at
// once (a released target), so the run ends instead of waiting on the second file forever.
func TestStartNodeTestManyFiles(t *testing.T) {
	for _, mode := range []string{api.ModeTrace, api.ModeDebug} {
		t.Run(mode, func(t *testing.T) {
			h := newHarness(t)
			s := h.start(api.StartRequest{Target: "runners/math.test.js", Args: []string{"runners/more.test.js"},
				NodeArgs: []string{"--test"}, Mode: mode})
			sum := h.waitExit(s.ID)
			if sum.ExitCode == nil || *sum.ExitCode != 1 {
				t.Fatalf("exit %+v, want 1 (a test failed)", sum)
			}
			var out strings.Builder
			for _, ev := range h.trace(s.ID, "stdout").Events {
				out.WriteString(ev.Output.Text.Value + "\n")
			}
			if !strings.Contains(out.String(), "subtracts") || !strings.Contains(out.String(), "fails") {
				t.Fatalf("stdout lacks a test of each file:\n%s", out.String())
			}
			// The runner passes the files' inspector banners on as TAP comments: never shown.
			if strings.Contains(out.String(), "ws://") {
				t.Fatalf("an inspector URL reached the output:\n%s", out.String())
			}
			var released int
			for _, ev := range h.trace(s.ID, "target").Events {
				if ev.TargetInfo.Kind == "process" && ev.TargetInfo.Status == "released" {
					released++
				}
			}
			if released != 1 {
				t.Fatalf("%d released processes, want the second file's", released)
			}
		})
	}
}
