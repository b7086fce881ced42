package tests

import (
	"fmt"
	"path/filepath"
	"testing"

	"traced/api"
)

// TestRunnerBreakpointsInTargets: breakpoints in a test body and in the code under test pause the
// runner's worker process or thread that runs the test, as a target of its own, with the test's
// locals; each pause is continued in its target (?target=) while the others run or stand paused.
func TestRunnerBreakpointsInTargets(t *testing.T) {
	needRunners(t)
	cases := []struct {
		name, bin string
		args      []string
		testLine  int    // the failing assertion of math.test.js
		kind      string // the kind of target the tests run in
	}{
		{"jest -w 2", "jest/bin/jest.js", []string{"-w", "2", "--no-cache", "jest"}, 9, "process"},
		{"vitest (forks)", "vitest/vitest.mjs", []string{"run", "vitest"}, 10, "process"},
		{"vitest --pool=threads", "vitest/vitest.mjs", []string{"run", "--pool=threads", "vitest"}, 10, "worker"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			h := newHarness(t)
			testFile := c.args[len(c.args)-1] + "/math.test.js"
			s := h.debug(api.StartRequest{Target: filepath.Join("node_modules", c.bin), Args: c.args, Cwd: runnersDir,
				Breakpoints: api.BreakpointsAt(fmt.Sprintf("%s:%d", testFile, c.testLine), "src/math.js:8")})
			kinds := map[string]string{} // target ref -> kind
			seen := map[string]bool{}
			var after uint64
			for {
				w := h.waitFor(s.ID, after, "pause,exit")
				if w.Event == nil || w.Event.Kind == "exit" {
					break
				}
				after = w.Event.Seq
				ref := w.Event.Target
				st := h.state(s.ID, "target="+ref)
				if ref == "" || st.Target != ref || st.Location == nil {
					t.Fatalf("pause event in target %q, state %+v: want a worker's or child's pause", ref, st)
				}
				if kinds[ref] == "" {
					kinds[ref] = h.targetKind(s.ID, ref)
				}
				switch where := fmt.Sprintf("%s:%d", st.Location.File, st.Location.Line); where {
				case "src/math.js:8":
					if v := local(t, st, "scaled"); v.Value != "6" {
						t.Fatalf("scaled = %+v in %s, want 6", v, ref)
					}
					seen[where] = true
				case fmt.Sprintf("%s:%d", testFile, c.testLine):
					if v := local(t, st, "got"); v.Value != "6" {
						t.Fatalf("got = %+v in %s, want 6", v, ref)
					}
					seen[where] = true
				default:
					t.Fatalf("paused in %s at %s, not at a breakpoint", ref, where)
				}
				h.exec(s.ID, "continue?target="+ref, api.ContinueRequest{WaitMs: new(int64)})
			}
			if len(seen) != 2 {
				t.Fatalf("paused at %v, want both breakpoints", seen)
			}
			for ref, kind := range kinds {
				if kind != c.kind {
					t.Fatalf("paused in %s, a %s; want the tests' %s", ref, kind, c.kind)
				}
			}
			if sum := h.waitExit(s.ID); sum.ExitCode == nil || *sum.ExitCode == 0 {
				t.Fatalf("exit %+v, want the failure of the failing tests", sum)
			}
		})
	}
}

// targetKind is the kind of a session's target, from GET targets.
func (h *harness) targetKind(id, ref string) string {
	h.t.Helper()
	var targets api.TargetsResponse
	h.call("GET", "/api/debug/"+id+"/targets", nil, &targets)
	for _, tg := range targets.Targets {
		if tg.Ref == ref {
			return tg.Kind
		}
	}
	h.t.Fatalf("no target %s in %+v", ref, targets.Targets)
	return ""
}
