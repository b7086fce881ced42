package tests

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"traced/api"
)

// The npm test runners live in testdata/runners/npm, installed from its lockfile by make test
// (npm ci); a missing install is a failure, not a skip, so CI cannot pass without them.
const runnersDir = "runners/npm"

func needRunners(t *testing.T) {
	t.Helper()
	if _, err := os.Stat(filepath.Join("testdata", runnersDir, "node_modules", ".package-lock.json")); err != nil {
		t.Fatalf("the runner fixtures are not installed (make test runs npm ci in tests/testdata/%s): %v", runnersDir, err)
	}
}

// TestRunnersTraced: each runner shape runs to its end under traced (no process or thread
// waits for a debugger), fails as its failing tests say, and the failing assertion's file and
// line reach the session, from whichever target ran the test.
func TestRunnersTraced(t *testing.T) {
	t.Parallel()
	needRunners(t)
	cases := []struct {
		name, bin string
		args      []string
		failure   []string // file:line of each failing assertion
		targets   string   // the kind of target the tests run in, "" for the main process
	}{
		{"mocha", "mocha/bin/mocha.js", []string{"mocha"}, []string{"math.test.js:10", "more.test.js:10"}, ""},
		{"mocha --parallel", "mocha/bin/mocha.js", []string{"--parallel", "mocha"}, []string{"math.test.js:10", "more.test.js:10"}, "process"},
		// Two workers on two cores; without a cache of timings jest does not fall back to one process.
		{"jest -w 2", "jest/bin/jest.js", []string{"-w", "2", "--no-cache", "jest"}, []string{"math.test.js:9", "more.test.js:9"}, "process"},
		{"vitest (forks)", "vitest/vitest.mjs", []string{"run", "vitest"}, []string{"math.test.js:10", "more.test.js:10"}, "process"},
		{"vitest --pool=threads", "vitest/vitest.mjs", []string{"run", "--pool=threads", "vitest"}, []string{"math.test.js:10", "more.test.js:10"}, "worker"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			h := newHarness(t)
			s := h.start(api.StartRequest{Target: filepath.Join("node_modules", c.bin), Args: c.args, Cwd: runnersDir})
			sum := h.waitExit(s.ID)
			if sum.ExitCode == nil || *sum.ExitCode == 0 {
				t.Fatalf("exit %+v, want a failure (two tests fail)", sum)
			}
			out := h.printed(s.ID)
			for _, f := range c.failure {
				if !strings.Contains(out, f) {
					t.Fatalf("the session's output lacks %s:\n%s", f, out)
				}
			}
			kinds := map[string]int{}
			for _, ev := range h.trace(s.ID, "target").Events {
				if ev.TargetInfo.Status == "attached" {
					kinds[ev.TargetInfo.Kind]++
				}
			}
			if c.targets != "" && kinds[c.targets] == 0 {
				t.Fatalf("attached targets %v, want the tests' %s", kinds, c.targets)
			}
			t.Logf("attached targets: %v", kinds)
		})
	}
}

// TestRunnerBreakpointMocha: a breakpoint in a mocha test body (mocha runs tests in its own
// process) pauses there with the test's locals, and one in the code under test too.
func TestRunnerBreakpointMocha(t *testing.T) {
	t.Parallel()
	needRunners(t)
	h := newHarness(t)
	s := h.debug(api.StartRequest{Target: "node_modules/mocha/bin/mocha.js", Args: []string{"mocha/math.test.js"},
		Cwd: runnersDir, Breakpoints: api.BreakpointsAt("mocha/math.test.js:10", "src/math.js:8")})
	st, seq := h.waitPaused(s.ID, 0)
	wantPausedIn(t, st, "src/math.js", "scale", 8)
	if v := local(t, st, "scaled"); v.Value != "6" {
		t.Fatalf("scaled = %+v, want 6", v)
	}
	h.exec(s.ID, "continue", api.ContinueRequest{WaitMs: new(int64)})
	st, _ = h.waitPaused(s.ID, seq)
	wantPausedIn(t, st, "mocha/math.test.js", "", 10)
	if v := local(t, st, "got"); v.Value != "6" {
		t.Fatalf("got = %+v, want 6", v)
	}
}
