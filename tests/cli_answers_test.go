package tests

import (
	"strings"
	"testing"
)

// TestCLIAnswersNameWhatTheyAreAbout: in a session with a worker, eval, vars and state name
// the session and the target they are about; eval says how to reach what is out of scope
// (require, a module's own name while the program runs); a pending promise awaited while
// paused is said to be pending, not thrown; continue --all resumes every paused target.
func TestCLIAnswersNameWhatTheyAreAbout(t *testing.T) {
	h := newHarness(t)
	c := newCLI(t).against(h)
	c.ok([]string{"launch", "--name", "named", "--", "bpcheck.js"}, "s1 named")
	h.stopAtCleanup("named")
	c.ok([]string{"wait", "--kinds", "console", "--match", "worker up", "--after", "0"}, "worker up")

	// Running: an evaluation is global.
	res := c.run("eval", "tiers")
	if res.code != 1 || !strings.Contains(res.stdout, "threw ReferenceError: tiers is not defined  in s1 t0") ||
		!strings.Contains(res.stdout, "hint: tiers is not a global") || !strings.Contains(res.stdout, "pause it, or stop at a breakpoint") {
		t.Fatalf("eval of a module's own name while running: exit %d\n%s", res.code, res.stdout)
	}
	res = c.run("eval", `require("node:path")`)
	if res.code != 1 || !strings.Contains(res.stdout, "process.mainModule.require") {
		t.Fatalf("eval of require: exit %d\n%s", res.code, res.stdout)
	}
	c.ok([]string{"eval", `process.mainModule.require("node:path").basename("/a/b.js")`}, "'b.js'  (string)  in s1 t0")

	// Both threads stop in tick; the answers say which one they are about.
	c.ok([]string{"break", "bpcheck.js:7"}, "bound in t0, t1")
	c.ok([]string{"wait", "--kinds", "pause", "--target", "t0", "--after", "0"}, "pause")
	c.ok([]string{"wait", "--kinds", "pause", "--target", "t1", "--after", "0"}, "pause")
	c.ok([]string{"state", "--target", "t1"}, "s1  paused in t1 at bpcheck.js:7 (bp1", "also paused: t0")
	c.ok([]string{"vars", "--target", "t1"}, "session: s1", "target: t1", "name: total")
	c.ok([]string{"eval", "total", "--target", "t1"}, "2  (number)  in s1 t1")
	res = c.ok([]string{"eval", "new Promise(() => {})", "--await"}, "Promise { <pending> }", "hint: the promise is pending")
	if strings.Contains(res.stdout, "threw") {
		t.Errorf("a pending promise reads as a throw:\n%s", res.stdout)
	}

	c.ok([]string{"break-rm", "bp1"}, "bp1")
	c.ok([]string{"continue", "--all", "--wait", "0"}, "s1  running")
	for _, target := range []string{"t0", "t1"} {
		if res := c.ok([]string{"state", "--target", target}, "s1  running in "+target); strings.Contains(res.stdout, "paused") {
			t.Fatalf("continue --all left a target paused:\n%s", res.stdout)
		}
	}
}

// TestCLIDefaultSessionStays: a bare command acts on the newest session and names it; once
// that session has ended, the next bare command says so instead of moving to an older session
// that still runs.
func TestCLIDefaultSessionStays(t *testing.T) {
	h := newHarness(t)
	c := newCLI(t).against(h)
	c.ok([]string{"launch", "--name", "older", "--", "bpcheck.js"}, "s1 older")
	h.stopAtCleanup("older")
	c.ok([]string{"launch", "--name", "newer", "--brk", "--", "retry.js"}, "s2 newer", "s2  paused at retry.js:")
	h.stopAtCleanup("newer")
	c.ok([]string{"state"}, "s2  paused at retry.js:")
	c.ok([]string{"continue"}, "s2  exited")
	c.ok([]string{"state"}, "s2  exited")
	c.fails(1, []string{"eval", "1"}, "s2", "traced restart")
	c.ok([]string{"eval", "1", "--session", "older"}, "1  (number)  in s1")
}

// TestCLILocalsOneLevelDeep: locals show small nested arrays and objects one level deep; props
// --internal of a closure lists the variables it holds, and no depth dumps the global scope.
func TestCLILocalsOneLevelDeep(t *testing.T) {
	h := newHarness(t)
	c := newCLI(t).against(h)
	c.ok([]string{"launch", "--name", "deep", "--", "locals.js"}, "s1 deep")
	h.stopAtCleanup("deep")
	c.ok([]string{"wait", "--kinds", "pause", "--after", "0"}, "pause")
	c.ok([]string{"state"}, "tiers  Array(4) [ { min: 1, pct: 0 }, { min: 50, pct: 5 }, { min: 100, pct: 10 }",
		"cfg    { name: 'std', tiers: [ {…}, {…}, {…}, {…} ], limits: { low: 1, high: 9 } }")
	c.ok([]string{"eval", "cfg"}, "limits: { low: 1, high: 9 }")

	c.ok([]string{"props", "v5", "--internal"}, "name: step\n    kind: context\n    type: number\n    value: 2")
	for _, ref := range []string{"v5", "v4"} {
		res := c.ok([]string{"props", ref, "--internal", "--depth", "3"})
		if strings.Contains(res.stdout, "Global") || strings.Contains(res.stdout, "structuredClone") {
			t.Fatalf("props %s --depth 3 dumps the global scope:\n%s", ref, res.stdout)
		}
	}
}

// TestCLIProcessExitIsNotATargets: continuing a worker's pause until the whole program ends
// answers that the program exited, not that the worker did ("exited in t2").
func TestCLIProcessExitIsNotATargets(t *testing.T) {
	h := newHarness(t)
	c := newCLI(t).against(h)
	c.ok([]string{"launch", "--name", "wk", "--", "workers.js"}, "s1 wk")
	h.stopAtCleanup("wk")
	c.ok([]string{"wait", "--kinds", "pause", "--after", "0"}, "s1  paused in t2 at workers.js:15")
	for _, args := range [][]string{{"continue"}, {"state"}} {
		if res := c.ok(args, "s1  exited"); strings.Contains(res.stdout, "exited in") {
			t.Fatalf("traced %s: the program's exit is said of a target:\n%s", args[0], res.stdout)
		}
	}
}
