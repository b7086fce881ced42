package tests

import (
	"os/exec"
	"strings"
	"testing"

	"traced/api"
)

// TestNodeTestFolder: node --test given a folder (node 20 and 26 run the tests in it; 22, 24 refuse it
// themselves) is started, not refused; where node runs them, the failing test is named once and
// its throw recorded once: the test file's process, whose inspector node 20's runner relays as a
// TAP comment too, is attached once (it was t0 and t1 with the same pid, every event doubled).
func TestNodeTestFolder(t *testing.T) {
	out, _ := exec.CommandContext(t.Context(), "node", "--test", "testdata/nodetest").CombinedOutput()
	runs := strings.Contains(string(out), "pass 1") // TAP (node 20) or the spec reporter (26)
	h := newHarness(t)
	for i := range 6 { // the double attach was a race: 2 runs in 6
		target := "nodetest"
		if i%2 == 1 {
			target = "nodetest/mul.test.js"
		}
		s := h.start(api.StartRequest{Target: target, NodeArgs: []string{"--test"}})
		if sum := h.waitExit(s.ID); sum.ExitCode == nil || *sum.ExitCode == 0 {
			t.Fatalf("run %d: exit %+v, want the failing test's", i, sum)
		}
		if !runs && target == "nodetest" {
			if p := h.printed(s.ID); !strings.Contains(p, "Cannot find module") {
				t.Fatalf("output %q, want node's own refusal of the folder", p)
			}
			continue
		}
		ev := h.evidenceOf(s.ID)
		if len(ev.FailingTests) != 1 || ev.FailingTests[0].Name != "multiplies" || ev.FailingTests[0].Location == nil ||
			ev.FailingTests[0].Location.File != "nodetest/mul.test.js" || ev.FailingTests[0].Location.Line != 6 {
			t.Fatalf("run %d: failing tests %+v, want multiplies at nodetest/mul.test.js:6", i, ev.FailingTests)
		}
		if th := h.trace(s.ID, "throw").Events; len(th) != 1 {
			t.Fatalf("run %d: %d throw events, want the one (the test file attached once)", i, len(th))
		}
	}
}

// TestRunnerOutputOnce: a continue answer lists mocha's failure block once (a console call of
// many lines, whose stdout lines were listed again), vitest's lines carry no terminal codes
// (its Expected/Received diff is coloured into a pipe too), and jest's failed assertion, which
// expect throws again from handleError, is one throw event.
func TestRunnerOutputOnce(t *testing.T) {
	needRunners(t)
	t.Run("mocha", func(t *testing.T) {
		h := newHarness(t)
		s := h.debug(api.StartRequest{Target: "node_modules/mocha/bin/mocha.js", Args: []string{"failing/mo.test.js"}, Cwd: runnersDir,
			Breakpoints: api.BreakpointsAt("failing/mo.test.js:8")})
		h.waitPaused(s.ID, 0)
		st := h.exec(s.ID, "continue", api.ContinueRequest{})
		if st.Output == nil {
			t.Fatalf("continue answered no output: %+v", st)
		}
		n := 0
		for _, e := range st.Output.Entries {
			n += strings.Count(e.Text, "4 !== 11")
		}
		if n != 1 {
			t.Fatalf("the failure block shows %d times in %+v, want once", n, st.Output.Entries)
		}
	})
	t.Run("vitest", func(t *testing.T) {
		h := newHarness(t)
		s := h.start(api.StartRequest{Target: "node_modules/vitest/vitest.mjs", Args: []string{"run", "failing/vi"}, Cwd: runnersDir})
		h.waitExit(s.ID)
		diff := false
		for _, e := range h.trace(s.ID, "stdout,stderr").Events {
			if strings.Contains(e.Output.Text.Value, "\x1b") {
				t.Fatalf("line %q has terminal codes", e.Output.Text.Value)
			}
			diff = diff || e.Output.Text.Value == "- Expected"
		}
		if !diff {
			t.Fatal("no '- Expected' line: vitest's diff is missing")
		}
	})
	t.Run("jest", func(t *testing.T) {
		h := newHarness(t)
		s := h.start(api.StartRequest{Target: "node_modules/jest/bin/jest.js", Args: []string{"--no-cache", "failing/je"}, Cwd: runnersDir})
		h.waitExit(s.ID)
		n := 0
		for _, e := range h.trace(s.ID, "throw").Events {
			if e.Throw.Class == "JestAssertionError" {
				n++
			}
		}
		if n != 1 {
			t.Fatalf("%d throw events of the failed assertion, want one", n)
		}
	})
}
