package tests

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"traced/internal/service"
)

// TestMCPDebugTools: breakpoints in each action, wait with match on a logpoint's lines, inspect
// a ref, restart-frame-free stepping to a line, and hot-patching a loaded script, each answer
// checked.
func TestMCPDebugTools(t *testing.T) {
	t.Parallel()
	h, path := patchWorkspace(t)
	c := connectMCP(t, h.svc.MCP)

	c.ok("start", map[string]any{"target": "patchme.js", "name": "tools"}, "tools  debug")
	h.stopAtCleanup("tools")
	c.ok("breakpoints", map[string]any{"action": "logpoint", "location": "patchme.js:6", "template": "adding ${2}+${3}"}, "lp1")
	c.ok("wait", map[string]any{"kinds": "console,logpoint", "match": "adding 2\\+3"}, "adding 2+3")
	// Breakpoints and logpoints share their numbering: this is bp2.
	c.ok("breakpoints", map[string]any{"action": "set", "location": "patchme.js:3", "condition": "a === 2"}, "bp2  patchme.js:3", "if a === 2")
	c.ok("wait", map[string]any{"kinds": "pause"}, "pause")
	c.ok("state", map[string]any{"lines": 1}, "paused at patchme.js:3 (bp2", "a  2")
	obj := c.ok("eval", map[string]any{"expression": "({sum: a + b})"}, "(object)", "ref: v")
	ref := strings.Fields(obj[strings.Index(obj, "ref: ")+len("ref: "):])[0]
	c.ok("inspect", map[string]any{"ref": ref}, "sum", "5")
	c.ok("eval", map[string]any{"expression": ref + ".sum * 2"}, "10  (number)") // refs are names in an expression
	c.ok("breakpoints", map[string]any{"action": "list"}, "bp2", "lp1")
	c.ok("breakpoints", map[string]any{"action": "toggle", "ref": "bp2"}, "bp2")
	c.ok("breakpoints", map[string]any{"action": "catch", "mode": "uncaught"}, "uncaught")
	c.refused("breakpoints", map[string]any{"action": "remove"}, "needs a ref", `breakpoints {"action":"list"}`)
	c.ok("breakpoints", map[string]any{"action": "remove", "ref": "all"}, "bp2", "lp1")
	c.ok("step", map[string]any{"action": "continue", "waitMs": 200}, "running")

	// The fix is saved, then patched in (node 26 has no live edit: restart runs it): the next sums are right.
	os.WriteFile(path, []byte(strings.Replace(readFile(t, path), "a - b", "a + b", 1)), 0o644)
	if h.nodeFeatures().LiveEdit {
		c.ok("patch", map[string]any{"action": "hotpatch", "file": "patchme.js"}, "Ok")
		// match is over the console text ("sum 5"); the event's line is wanted, not "sum 5"
		// alone, which a timed-out answer also holds (it echoes match).
		c.ok("wait", map[string]any{"kinds": "console", "match": "^sum 5"}, "console  log sum 5")
	} else {
		c.refused("patch", map[string]any{"action": "hotpatch", "file": "patchme.js"}, "error: ", `the tool patch {"action":"restart"}`)
	}
	c.refused("patch", map[string]any{"action": "hotpatch", "file": "../outside.js"}, "error: ", "hint: ")
	c.ok("patch", map[string]any{"action": "restart", "waitMs": 100}, "tools", "running")
	c.ok("wait", map[string]any{"kinds": "console", "match": "^sum 5"}, "console  log sum 5")
}

// TestMCPProfileTools: CPU profile, coverage, heap usage, snapshots and their diff answer
// summaries naming the artefact by ref and URL, never the artefact itself; save writes it into
// the workspace and refuses a path outside it.
func TestMCPProfileTools(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	copyFile(t, filepath.Join("testdata", "forever.js"), filepath.Join(root, "forever.js"))
	h := newHarness(t, func(o *service.Options) { o.Engine.Root = root })
	c := connectMCP(t, h.svc.MCP)
	c.ok("start", map[string]any{"target": "forever.js", "name": "prof"}, "prof  debug")
	h.stopAtCleanup("prof")

	c.ok("profile", map[string]any{"action": "cpu-start"})
	c.ok("wait", map[string]any{"kinds": "console"}, "tick")
	cpu := c.ok("profile", map[string]any{"action": "cpu-stop", "top": 3}, "cpu1", "cpu/profiles/cpu1", `profile {"action":"save","ref":"cpu1"}`)
	if len(cpu) > 4000 || strings.Contains(cpu, `"nodes"`) {
		t.Errorf("cpu-stop inlined the profile (%d bytes):\n%.500s", len(cpu), cpu)
	}
	c.ok("profile", map[string]any{"action": "save", "ref": "cpu1"}, "saved cpu1 to "+filepath.Join(root, "cpu1.cpuprofile"))
	if fi, err := os.Stat(filepath.Join(root, "cpu1.cpuprofile")); err != nil || fi.Size() == 0 {
		t.Errorf("the saved profile: %v", err)
	}
	c.refused("profile", map[string]any{"action": "save", "ref": "cpu1", "path": "../x.cpuprofile"}, "outside the workspace root")
	c.refused("profile", map[string]any{"action": "cpu-stop"}, "not started", `the tool profile {"action":"cpu-start"}`)

	c.ok("profile", map[string]any{"action": "coverage-start"})
	now := nextCursor(t, c.ok("events", map[string]any{"limit": 1000}, "next: "))
	c.ok("wait", map[string]any{"kinds": "console", "after": now}, "tick") // a tick since coverage began
	c.ok("profile", map[string]any{"action": "coverage-stop", "file": "forever.js"}, "forever.js")

	c.ok("heap", map[string]any{"action": "usage"}, "used")
	snap := c.ok("heap", map[string]any{"action": "snapshot", "tag": "before", "top": 3}, "hs1", "heap/snapshots/hs1", `heap {"action":"save","ref":"hs1"}`)
	if len(snap) > 4000 {
		t.Errorf("the snapshot answer is %d bytes: a summary, not the snapshot, is wanted", len(snap))
	}
	c.ok("heap", map[string]any{"action": "snapshot", "tag": "after", "top": 3}, "hs2")
	c.ok("heap", map[string]any{"action": "diff", "from": "before", "to": "after", "top": 3})
	c.ok("heap", map[string]any{"action": "save", "ref": "hs1", "path": "before.heapsnapshot"}, "saved hs1")
	if fi, err := os.Stat(filepath.Join(root, "before.heapsnapshot")); err != nil || fi.Size() == 0 {
		t.Errorf("the saved snapshot: %v", err)
	}
	c.refused("heap", map[string]any{"action": "save", "ref": "hs9"}, "error: ")
	if _, err := os.Stat(filepath.Join(root, "hs9.heapsnapshot")); !os.IsNotExist(err) {
		t.Errorf("a refused save left a file: %v", err)
	}
}

// TestMCPRefusals: debug-only tools refuse trace sessions with the REST API's reason and a hint
// naming the tool to call; an unknown session, an unknown action and a bad input say what to do.
func TestMCPRefusals(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	c := connectMCP(t, h.svc.MCP)
	c.refused("state", nil, "no session", "the tool start")
	c.ok("start", map[string]any{"target": "forever.js", "mode": "trace", "name": "tr"}, "tr  trace")
	h.stopAtCleanup("tr")
	for _, call := range []struct {
		tool string
		args map[string]any
	}{
		{"state", nil}, {"step", nil}, {"eval", map[string]any{"expression": "1"}}, {"inspect", map[string]any{"ref": "o1"}},
		{"breakpoints", map[string]any{"action": "set", "location": "forever.js:2"}}, {"profile", map[string]any{"action": "cpu-start"}},
		{"heap", map[string]any{"action": "usage"}}, {"patch", map[string]any{"action": "restart"}},
	} {
		c.refused(call.tool, call.args, "trace session", `the tool start {"mode":"debug"}`)
	}
	c.refused("state", map[string]any{"session": "nope"}, "not found", "the tool sessions")
	c.refused("step", map[string]any{"session": "tr", "action": "sideways"}, "sideways", "continue") // the schema's enum
	c.refused("start", map[string]any{"target": "forever.js", "breakpoints": []string{"forever.js"}}, "not file:line")
	c.refused("wait", map[string]any{"match": "("}, "match", "RE2")

	// A timeout states its window and the cursor to go on from.
	c.ok("wait", map[string]any{"session": "tr", "kinds": "exception", "timeoutMs": 100},
		"timed out", "window: 100ms from the call for kinds=exception", "after=")
	c.ok("wait", map[string]any{"session": "tr", "kinds": "console"}, "tick") // one tick at least, for the page
	next := nextCursor(t, c.ok("events", map[string]any{"session": "tr", "kinds": "console", "limit": 1}, "tick", "next: "))
	after := c.ok("wait", map[string]any{"session": "tr", "kinds": "console", "after": next}, "tick")
	if seq, _ := strconv.Atoi(strings.Fields(strings.Split(after, "\n")[1])[0]); seq <= next {
		t.Fatalf("wait after %d answered seq %d:\n%s", next, seq, after)
	}
}

// nextCursor reads the cursor an answer ends with ("next: 12").
func nextCursor(t *testing.T, text string) int {
	t.Helper()
	i := strings.LastIndex(text, "next: ")
	if i < 0 {
		t.Fatalf("no cursor in:\n%s", text)
	}
	n, err := strconv.Atoi(strings.Fields(text[i+len("next: "):])[0])
	if err != nil {
		t.Fatalf("no cursor in:\n%s", text)
	}
	return n
}

// TestMCPAttach: attach to a node a user started with --inspect, pause it at a breakpoint, read
// a value, and detach with stop, which leaves the program running.
func TestMCPAttach(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	c := connectMCP(t, h.svc.MCP)
	p := startInspected(t, "--inspect")
	c.ok("attach", map[string]any{"port": p.port(t), "name": "att"}, "att  debug  running")
	h.stopAtCleanup("att")
	c.ok("sessions", nil, "att  debug")
	c.ok("breakpoints", map[string]any{"action": "set", "location": "attachme.js:4"}, "bp1")
	c.ok("wait", map[string]any{"kinds": "pause"}, "pause")
	c.ok("eval", map[string]any{"expression": "typeof beats"}, "'number'  (string)")
	c.ok("breakpoints", map[string]any{"action": "remove", "ref": "all"}, "bp1")
	c.ok("stop", nil, "att")
	p.nextBeat(t) // detached, not killed: it beats on
}

// TestMCPWaitGap: a wait whose cursor fell out of the event ring says so (the gap), whether it
// answers an event or, with a match nothing meets, that the session ended.
func TestMCPWaitGap(t *testing.T) {
	t.Parallel()
	h := newHarness(t, func(o *service.Options) { o.Engine.MaxEvents = 100 })
	c := connectMCP(t, h.svc.MCP)
	c.ok("start", map[string]any{"target": "chatty.js", "args": []string{"300", "10"}, "mode": "trace"}, "trace")
	c.ok("wait", map[string]any{"kinds": "exit"}, "exit  code 0")
	c.ok("wait", map[string]any{"kinds": "console", "after": 1}, "console", "gap: seqs 2-")
	c.ok("wait", map[string]any{"kinds": "console", "after": 1, "match": "no such line"},
		"finished: the session ended without a matching event", "gap: seqs 2-", `match="no such line"`)
}

// TestMCPSaveSymlinks: save resolves the workspace's symlinks: a directory link to outside the
// root is outside, whatever the path reads; an existing entry (a file, or a link to a file
// outside) is replaced only when asked, and then the entry itself, never the link's target.
func TestMCPSaveSymlinks(t *testing.T) {
	t.Parallel()
	root, outside := t.TempDir(), t.TempDir()
	copyFile(t, filepath.Join("testdata", "forever.js"), filepath.Join(root, "forever.js"))
	if err := os.Symlink(outside, filepath.Join(root, "linkdir")); err != nil {
		t.Fatal(err)
	}
	victim := filepath.Join(outside, "victim")
	if err := os.WriteFile(victim, []byte("keep"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(victim, filepath.Join(root, "link.cpuprofile")); err != nil {
		t.Fatal(err)
	}
	h := newHarness(t, func(o *service.Options) { o.Engine.Root = root })
	c := connectMCP(t, h.svc.MCP)
	c.ok("start", map[string]any{"target": "forever.js", "name": "links"}, "links  debug")
	h.stopAtCleanup("links")
	c.ok("profile", map[string]any{"action": "cpu-start"})
	c.ok("wait", map[string]any{"kinds": "console"}, "tick")
	c.ok("profile", map[string]any{"action": "cpu-stop", "top": 1}, "cpu1")

	save := func(path string, overwrite bool) map[string]any {
		args := map[string]any{"action": "save", "ref": "cpu1", "path": path}
		if overwrite {
			args["overwrite"] = true
		}
		return args
	}
	c.refused("profile", save("linkdir/x.cpuprofile", false), "outside the workspace root")
	c.refused("profile", save(filepath.Join(root, "linkdir", "x.cpuprofile"), true), "outside the workspace root")
	if left, _ := os.ReadDir(outside); len(left) != 1 {
		t.Errorf("a save through linkdir wrote outside the root: %v", left)
	}
	c.ok("profile", save("p.cpuprofile", false), "saved cpu1 to "+filepath.Join(root, "p.cpuprofile"))
	c.refused("profile", save("p.cpuprofile", false), "exists", `"overwrite":true`)
	c.ok("profile", save("p.cpuprofile", true), "saved cpu1")
	c.refused("profile", save("link.cpuprofile", false), "exists")
	c.ok("profile", save("link.cpuprofile", true), "saved cpu1")
	if b, err := os.ReadFile(victim); err != nil || string(b) != "keep" {
		t.Errorf("the link's target outside the root was written: %q, %v", b, err)
	}
	if fi, err := os.Lstat(filepath.Join(root, "link.cpuprofile")); err != nil || !fi.Mode().IsRegular() {
		t.Errorf("the replaced link is not the saved file: %v, %v", fi, err)
	}
	if left, _ := filepath.Glob(filepath.Join(root, ".*")); len(left) > 0 {
		t.Errorf("temporary files left: %q", left)
	}
}
