package tests

import (
	"strings"
	"testing"
)

// TestCLIBreakpointChecks: what a breakpoint cannot do is said when it is set, not found later
// by waiting for a stop that never comes. A file that does not exist is refused (naming the
// loaded script of that name); a condition or template that does not parse is refused with
// V8's message; a line of top-level code that already ran says where it ran and what to do; a
// breakpoint bound in several targets says in which.
func TestCLIBreakpointChecks(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	c := newCLI(t).against(h)
	c.ok([]string{"launch", "--name", "bpc", "--", "bpcheck.js"}, "bpc")
	h.stopAtCleanup("bpc")
	c.ok([]string{"wait", "--kinds", "console", "--match", "worker up", "--after", "0"}, "worker up")

	c.ok([]string{"break", "bpcheck.js:4"}, "bp1", "bound in t0, t1",
		"warning: bpcheck.js:4 is top-level code that already ran in t0, t1; restart to stop there")
	c.ok([]string{"logpoint", "bpcheck.js:3", "w=${typeof Worker}"}, "lp2  bpcheck.js:3  w=${typeof Worker}  emitted 0 of 100", "bound in t0, t1",
		"warning: bpcheck.js:3 is top-level code that already ran in t0, t1; it emits only if that code runs again")
	res := c.ok([]string{"break", "bpcheck.js:6"}, "bp3", "at bpcheck.js:6  bound in t0, t1")
	if strings.Contains(res.stdout, "warning") {
		t.Errorf("a line in a function warns as top-level code:\n%s", res.stdout)
	}

	c.fails(1, []string{"break", "nosuch.js:3"}, "no file", "nosuch.js")
	c.fails(1, []string{"break", "lib/bpcheck.js:6"}, "no file", "the nearest loaded script is bpcheck.js", "did you mean bpcheck.js?")
	c.fails(1, []string{"break", "bpcheck.js:7", "--condition", "n ==="}, `condition "n ===" does not parse: SyntaxError`)
	c.fails(1, []string{"logpoint", "bpcheck.js:7", "n=${n"}, `template "n=${n" does not parse: SyntaxError`)
	c.fails(1, []string{"logpoint", "bpcheck.js:7", "n=${n}", "--condition", "n >"}, `condition "n >" does not parse`)
	c.ok([]string{"break-ls"}, "bp1", "bp3", "lp2")
	// The same checks at launch, before the program runs.
	c.fails(1, []string{"launch", "--break", "nosuch.js:3", "--", "retry.js"}, "breakpoints.0: nosuch.js:3: no file")
	c.fails(1, []string{"launch", "--break", "retry.js:4:job.retries ===", "--", "retry.js"},
		`breakpoints.0: condition "job.retries ===" does not parse`)

	// The command's own lines; the flags every command shares follow from --session on.
	help := c.run("logpoint", "--help")
	own, _, _ := strings.Cut(help.stdout+help.stderr, "--session")
	if strings.Contains(own, "paus") || !strings.Contains(own, "runs on") {
		t.Errorf("logpoint --help speaks of pausing:\n%s", own)
	}
}

// TestCLIFinishedBreakpoints: a session whose program ended keeps its breakpoints as the set
// its restart runs with: they can be listed, removed and added, and the errors of commands that
// need a live program name restart.
func TestCLIFinishedBreakpoints(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	c := newCLI(t).against(h)
	c.ok([]string{"launch", "--name", "fin", "--break", "retry.js:4", "--", "retry.js"}, "paused at retry.js:4")
	h.stopAtCleanup("fin")
	c.ok([]string{"break", "retry.js:5"}, "bp2")
	c.ok([]string{"stop"}, "fin")

	c.ok([]string{"break-ls"}, "bp1  retry.js:4", "bp2  retry.js:5")
	c.ok([]string{"break-rm", "bp1"}, "bp1")
	c.ok([]string{"break", "retry.js:9", "--condition", "job.retries === 2"}, "bp3", "restart runs it again")
	c.ok([]string{"logpoint", "retry.js:3", "try ${job.retries}"}, "lp4")
	c.fails(1, []string{"break", "nosuch.js:3"}, "no file")
	c.fails(1, []string{"break", "retry.js:5"}, "bp2 is already at retry.js:5")
	res := c.ok([]string{"break-ls"}, "bp2  retry.js:5", "bp3  retry.js:9", "lp4")
	if strings.Contains(res.stdout, "bp1") {
		t.Fatalf("bp1 still listed after break-rm:\n%s", res.stdout)
	}
	c.fails(1, []string{"continue"}, "has finished", "hint: ", "traced restart")

	// With no V8 to ask, a condition set there is checked when the restart sets it.
	c.ok([]string{"break", "retry.js:10", "--condition", "job.retries ==="}, "bp5")
	c.fails(1, []string{"restart"}, `condition "job.retries ===" does not parse`)
	c.ok([]string{"break-rm", "bp5"}, "bp5")

	c.ok([]string{"restart"}, "fin")
	res = c.ok([]string{"break-ls"}, "retry.js:5", "retry.js:9  hits", "if job.retries === 2", "retry.js:3")
	if strings.Contains(res.stdout, "retry.js:4") {
		t.Fatalf("the removed breakpoint came back with the restart:\n%s", res.stdout)
	}
}
