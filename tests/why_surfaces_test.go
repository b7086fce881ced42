package tests

import (
	"testing"

	"traced/api"
)

// TestWhySurfaces: the CLI's traced alive and traced slow, and the MCP profile tool's alive and
// slow actions, answer the routes' text: what keeps a forgotten interval's program alive, and
// that the program is idle.
func TestWhySurfaces(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	t.Run("cli", func(t *testing.T) {
		h := h.with(t)
		c := newCLI(t).against(h)
		s := h.debug(api.StartRequest{Target: "alive/interval.js", Name: "why"})
		if w := h.waitFor(s.ID, 0, "console,stdout"); w.Event == nil {
			t.Fatalf("interval.js ended before it was ready")
		}
		c.ok([]string{"alive", "--session", "why"}, "t0 main interval.js (pid ", "still running because: interval 1000 ms poll at alive/interval.js:3")
		c.ok([]string{"slow", "--session", "why", "--window", "1s"}, "t0 main interval.js: idle: ")
	})
	t.Run("mcp", func(t *testing.T) {
		h := h.with(t)
		c := connectMCP(t, h.svc.MCP)
		c.ok("start", map[string]any{"target": "alive/interval.js", "name": "whymcp"}, "whymcp  debug")
		h.stopAtCleanup("whymcp")
		c.ok("wait", map[string]any{"kinds": "console,stdout", "after": 0}, "ready")
		c.ok("profile", map[string]any{"action": "alive"}, "still running because: interval 1000 ms poll at alive/interval.js:3")
		c.ok("profile", map[string]any{"action": "slow", "windowMs": 1000}, "t0 main interval.js: idle: ")
	})
}
