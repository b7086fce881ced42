package tests

import (
	"strconv"
	"strings"
	"testing"
)

// TestCLIAttach: attach to a node a user started with --inspect, by port, pause it where it
// beats, read a value, and detach with stop, which leaves the program running.
func TestCLIAttach(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	c := newCLI(t).against(h)
	p := startInspected(t, "--inspect")

	c.ok([]string{"attach", strconv.Itoa(p.port(t)), "--name", "att"}, "s1 att  debug  running  ")
	h.stopAtCleanup("att")
	c.ok([]string{"break", "attachme.js:4"}, "bp1")
	c.ok([]string{"wait", "--kinds", "pause", "--timeout", "10s"}, "pause")
	c.ok([]string{"state", "-c"}, "paused at attachme.js:4")
	c.ok([]string{"eval", "typeof beats"}, "'number'  (string)")
	// An expression that throws is a failed command: exit 1, the exception on stdout.
	if res := c.run("eval", "nope.x"); res.code != 1 || !strings.Contains(res.stdout, "threw ReferenceError") {
		t.Fatalf("eval that throws: exit %d, stdout %q, want 1 and the exception", res.code, res.stdout)
	}
	c.ok([]string{"break-rm", "all"})
	c.ok([]string{"stop"}, "att")
	p.nextBeat(t) // detached, not killed: it beats on
}
