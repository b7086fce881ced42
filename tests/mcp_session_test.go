package tests

import "testing"

// TestMCPDefaultSessionStays: the MCP tools, like the CLI, act on the newest session when none
// is named, and keep to it once it has ended (its answers say so) instead of moving silently
// to an older session that still runs.
func TestMCPDefaultSessionStays(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	c := connectMCP(t, h.svc.MCP)
	c.ok("start", map[string]any{"target": "bpcheck.js", "name": "older"}, "s1 older")
	h.stopAtCleanup("older")
	c.ok("start", map[string]any{"target": "retry.js", "name": "newer", "brk": true}, "s2 newer", "s2  paused at retry.js:")
	h.stopAtCleanup("newer")
	c.ok("step", map[string]any{"action": "continue"}, "s2  exited")
	c.ok("state", nil, "s2  exited")
	c.refused("eval", map[string]any{"expression": "1"}, "s2")
	c.ok("eval", map[string]any{"expression": "1", "session": "older"}, "1  (number)  in s1")
}
