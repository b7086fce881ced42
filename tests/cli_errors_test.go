package tests

import (
	"testing"
)

// TestCLIErrors: a refusal is `error: ...` on stderr with a hint naming the next command in CLI
// words, and the exit code says which kind of failure: 1 refused, 2 usage, 3 no service.
func TestCLIErrors(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	c := newCLI(t).against(h)

	c.ok([]string{"launch", "--brk", "--name", "errs", "--", "spin.js"}, "paused at spin.js:2", "v1 ")
	h.stopAtCleanup("errs")
	c.ok([]string{"continue", "--wait", "0"}, "running")

	// Stepping while it runs.
	c.fails(1, []string{"step"}, "error: process is running", "hint: process is running; traced pause")

	// A value ref of an earlier pause.
	c.ok([]string{"pause"}, "paused at ") // in spin.js, or node's timers around it (node 22)
	c.fails(1, []string{"props", "v1"}, "error: stale ref", "traced state gives fresh ones")

	// An unknown session, named.
	c.fails(1, []string{"--session", "nosuch", "state"}, "error: ", "hint: traced sessions")

	// Usage: exit 2 and the command's usage.
	c.fails(2, []string{"break"}, "error: break takes", "usage: traced break FILE:LINE")
	c.fails(2, []string{"step", "sideways"}, "error: step takes over, into or out")
	c.fails(2, []string{"frobnicate"}, `error: unknown command "frobnicate"`)
	c.fails(2, []string{"state", "--bogus"}, "error: state: unknown flag --bogus")
	// A node flag the service refuses: the API's 400, naming the item.
	c.fails(1, []string{"launch", "--node-arg", "--inspect=9229", "--", "spin.js"}, "error: nodeArgs.0")

	// No service: at an address nothing listens on, and with nothing started on demand.
	gone := newCLI(t, "TRACED_ADDR="+closedAddr(t), "TRACED_TOKEN="+testToken)
	gone.fails(3, []string{"state"}, "error: no traced service answers at", "hint: traced launch -- app.js starts one")
	none := newCLI(t)
	none.fails(3, []string{"sessions"}, "error: no traced service is running", "hint: traced launch -- app.js starts one")
}
