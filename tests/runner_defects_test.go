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
	t.Parallel()
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
	t.Parallel()
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

// TestJestInBandFirstFile: jest in band (-i), its cache cold then warm: a breakpoint in the
// code under test stops in every test file that loads it, the first one too, at its line, and
// binds there (the breakpoint event names that line, not the one before).
func TestJestInBandFirstFile(t *testing.T) {
	t.Parallel()
	needRunners(t)
	h := newHarness(t)
	cache := t.TempDir()
	for run := range 2 {
		s := h.debug(api.StartRequest{Target: "node_modules/jest/bin/jest.js", Args: []string{"-i", "--cacheDirectory", cache, "jest"}, Cwd: runnersDir,
			Breakpoints: api.BreakpointsAt("src/math.js:8")})
		files := map[string]bool{}
		var after uint64
		for {
			w := h.waitFor(s.ID, after, "pause,exit")
			if w.Event == nil || w.Event.Kind == "exit" {
				break
			}
			after = w.Event.Seq
			st := h.state(s.ID, "")
			wantPausedIn(t, st, "src/math.js", "scale", 8)
			if v := local(t, st, "scaled"); v.Value != "6" {
				t.Fatalf("run %d: scaled = %+v, want 6", run, v)
			}
			if len(st.Stack) > 1 {
				files[st.Stack[1].File] = true
			}
			h.exec(s.ID, "continue", api.ContinueRequest{WaitMs: new(int64)})
		}
		if !files["jest/math.test.js"] || !files["jest/more.test.js"] {
			t.Fatalf("run %d: stopped from %v, want both test files", run, files)
		}
		for _, e := range h.trace(s.ID, "breakpoint").Events {
			if l := e.Breakpoint.Location; l.File != "src/math.js" || l.Line != 8 {
				t.Fatalf("run %d: breakpoint event at %s:%d, want src/math.js:8", run, l.File, l.Line)
			}
		}
	}
}

// TestJestInBandPublished: the same on a published package's own suite (cron@2.3.0), whose jest
// config turns coverage on: jest runs lib/time.js instrumented, its line 159 thousands of lines
// down. A breakpoint there stops in both test files, the first one jest runs in band too, with
// its locals, and is named bound at lib/time.js:159 only, never where V8 first bound it by line
// in the instrumented code (it named lib/time.js:7621).
func TestJestInBandPublished(t *testing.T) {
	t.Parallel()
	needPublishedJest(t)
	h := newHarness(t)
	s := h.debug(api.StartRequest{Target: "../node_modules/jest/bin/jest.js", Cwd: publishedJestDir + "/cron", Env: map[string]string{"TZ": "UTC"},
		Args:        []string{"-i", "--cacheDirectory", t.TempDir(), "--coverageDirectory", t.TempDir()},
		Breakpoints: api.BreakpointsAt("lib/time.js:159")})
	files := map[string]bool{}
	var after uint64
	for {
		w := h.waitLong(s.ID, after, "pause,exit")
		if w.Event == nil || w.Event.Kind == "exit" {
			break
		}
		after = w.Event.Seq
		st := h.state(s.ID, "")
		wantPausedIn(t, st, "lib/time.js", "sendAt", 159)
		if v := local(t, st, "offset"); v.Value == "" {
			t.Fatalf("offset = %+v, want a value", v)
		}
		for _, f := range st.Stack {
			if strings.HasPrefix(f.File, "tests/") {
				files[f.File] = true
			}
		}
		h.exec(s.ID, "continue", api.ContinueRequest{WaitMs: new(int64)})
	}
	if !files["tests/crontime.test.js"] || !files["tests/cron.test.js"] {
		t.Fatalf("stopped from %v, want both test files", files)
	}
	evs := h.trace(s.ID, "breakpoint").Events
	for _, e := range evs {
		if l := e.Breakpoint.Location; l.File != "lib/time.js" || l.Line != 159 {
			t.Fatalf("breakpoint event at %s:%d, want lib/time.js:159", l.File, l.Line)
		}
	}
	if len(evs) == 0 {
		t.Fatal("no breakpoint event: the breakpoint was never named bound")
	}
}

// TestTsxImportStart: tsx as a loader (nodeArgs --import tsx): node's first-line break comes a
// second time, in code tsx's loader runs; it is start-up, never a pause: the first pause is the
// user's breakpoint, and the run has that one pause.
func TestTsxImportStart(t *testing.T) {
	t.Parallel()
	needRunners(t)
	h := newHarness(t)
	s := h.debug(api.StartRequest{Target: "tsx/app.ts", NodeArgs: []string{"--import", "tsx"}, Cwd: runnersDir,
		Breakpoints: api.BreakpointsAt("tsx/app.ts:4")})
	st, _ := h.waitPaused(s.ID, 0)
	if st.Reason != "breakpoint" {
		t.Fatalf("first pause %q at %+v, want the breakpoint", st.Reason, st.Location)
	}
	wantPausedIn(t, st, "tsx/app.ts", "total", 4)
	h.exec(s.ID, "continue", api.ContinueRequest{WaitMs: new(int64)})
	if sum := h.waitExit(s.ID); sum.ExitCode == nil || *sum.ExitCode != 0 || sum.Counts["pause"] != 1 {
		t.Fatalf("summary %+v, want exit 0 after the one pause", sum)
	}
}

// TestVitestStepInto: a step into the call of an imported function from a vitest test reaches
// the function at once, not vite-node's export getter in between (it took three steps).
func TestVitestStepInto(t *testing.T) {
	t.Parallel()
	needRunners(t)
	h := newHarness(t)
	s := h.debug(api.StartRequest{Target: "node_modules/vitest/vitest.mjs", Args: []string{"run", "failing/vi"}, Cwd: runnersDir,
		Breakpoints: api.BreakpointsAt("failing/vi.test.mjs:8")})
	h.waitPaused(s.ID, 0)
	st := h.exec(s.ID, "step?target="+h.state(s.ID, "").Target, api.StepRequest{Kind: "into"})
	if st.Location == nil || st.Location.File != "failing/lib.js" || st.Location.Function != "total" {
		t.Fatalf("step into stopped at %+v, want total in failing/lib.js", st.Location)
	}
}
