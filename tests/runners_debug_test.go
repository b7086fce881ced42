package tests

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"traced/api"
)

// TestRunnerBreakpointsInTargets: breakpoints in a test body and in the code under test pause the
// runner's worker process or thread that runs the test, as a target of its own, with the test's
// locals; each pause is continued in its target (?target=) while the others run or stand paused.
func TestRunnerBreakpointsInTargets(t *testing.T) {
	t.Parallel()
	needRunners(t)
	cases := []struct {
		name, bin string
		args      []string
		testLine  int    // the failing assertion of math.test.js
		kind      string // the kind of target the tests run in
	}{
		{"mocha --parallel", "mocha/bin/mocha.js", []string{"--parallel", "mocha"}, 10, "process"},
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

// TestTsxBreakpoint: the tsx CLI runs a TypeScript file in a child process it starts; a
// breakpoint on a line of the .ts file (pending: no script maps it yet) binds in that child
// through the inline source map before the module runs, and pauses in the function the
// module's top level calls, with its locals, at the original line.
func TestTsxBreakpoint(t *testing.T) {
	t.Parallel()
	needRunners(t)
	h := newHarness(t)
	s := h.debug(api.StartRequest{Target: "node_modules/tsx/dist/cli.mjs", Args: []string{"tsx/app.ts"}, Cwd: runnersDir,
		Breakpoints: api.BreakpointsAt("tsx/app.ts:4")})
	st, _ := h.waitPaused(s.ID, 0)
	wantPausedIn(t, st, "tsx/app.ts", "total", 4)
	if st.Target == "" || st.Target == "t0" || h.targetKind(s.ID, st.Target) != "process" {
		t.Fatalf("paused in %q, want tsx's child process", st.Target)
	}
	if v := local(t, st, "o"); !strings.Contains(v.Value, "qty: 2") {
		t.Fatalf("o = %+v, want the order", v)
	}
	h.exec(s.ID, "continue", api.ContinueRequest{WaitMs: new(int64)})
	if sum := h.waitExit(s.ID); sum.ExitCode == nil || *sum.ExitCode != 0 {
		t.Fatalf("exit %+v, want 0", sum)
	}
	if out := h.printed(s.ID); !strings.Contains(out, "total 6") {
		t.Fatalf("output %q lacks the program's line", out)
	}
}

// TestNpmRunBreakpoint: a program that runs `npm run greet` (npm, a shell, node) never hangs,
// and a breakpoint in the script npm starts pauses in that process, with its locals.
func TestNpmRunBreakpoint(t *testing.T) {
	t.Parallel()
	needRunners(t)
	h := newHarness(t)
	s := h.debug(api.StartRequest{Target: "npmrun.js", Cwd: runnersDir, Breakpoints: api.BreakpointsAt("src/greet.js:3")})
	st, _ := h.waitPaused(s.ID, 0)
	wantPausedIn(t, st, "src/greet.js", "", 3)
	if v := local(t, st, "who"); v.Value != "'npm'" {
		t.Fatalf("who = %+v, want 'npm'", v)
	}
	if kind := h.targetKind(s.ID, st.Target); kind != "process" {
		t.Fatalf("paused in %s, a %s; want the process npm started", st.Target, kind)
	}
	h.exec(s.ID, "continue", api.ContinueRequest{WaitMs: new(int64)})
	if sum := h.waitExit(s.ID); sum.ExitCode == nil || *sum.ExitCode != 0 {
		t.Fatalf("exit %+v, want 0", sum)
	}
	if out := h.printed(s.ID); !strings.Contains(out, "hello from npm") || !strings.Contains(out, "npm exited 0") {
		t.Fatalf("output %q, want the greeting and npm's exit", out)
	}
}

// TestJestTransformedInPlace: jest runs a test file transformed (babel-jest hoists jest.mock
// above the requires) under its own path with an inline source map. A breakpoint on the file's
// line stops at that original line in the test body, not where the line landed in the
// transformed code (during collection); one set once the file is loaded binds through the map
// too, instead of being refused as not breakable.
func TestJestTransformedInPlace(t *testing.T) {
	t.Parallel()
	needRunners(t)
	h := newHarness(t)
	s := h.debug(api.StartRequest{Target: "node_modules/jest/bin/jest.js", Args: []string{"--no-cache", "hoisted"}, Cwd: runnersDir,
		Breakpoints: api.BreakpointsAt("hoisted/scale.test.js:11")})
	st, _ := h.waitPaused(s.ID, 0)
	if st.Location == nil || st.Location.File != "hoisted/scale.test.js" || st.Location.Line != 11 {
		t.Fatalf("paused at %+v, want hoisted/scale.test.js:11", st.Location)
	}
	if v := local(t, st, "got"); v.Value != "6" {
		t.Fatalf("got = %+v, want 6", v)
	}
	bp := h.setBreakpoint(s.ID, api.BreakpointRequest{Location: "hoisted/scale.test.js:10"})
	if len(bp.Resolved) == 0 || bp.Resolved[0].Line != 10 {
		t.Fatalf("breakpoint on line 10 resolved at %+v", bp.Resolved)
	}
	var list api.BreakpointsResponse
	h.call("GET", "/api/debug/"+s.ID+"/breakpoints", nil, &list)
	for _, b := range list.Breakpoints {
		for _, r := range b.Resolved {
			if want, _ := strings.CutPrefix(b.Location, "hoisted/scale.test.js:"); fmt.Sprint(r.Line) != want {
				t.Fatalf("%s listed at line %d", b.Ref, r.Line)
			}
		}
	}
	h.exec(s.ID, "continue", api.ContinueRequest{WaitMs: new(int64)})
	if sum := h.waitExit(s.ID); sum.ExitCode == nil || *sum.ExitCode == 0 || sum.Counts["pause"] != 1 {
		t.Fatalf("summary %+v, want the test's failure after one pause", sum)
	}
}
