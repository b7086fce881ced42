package tests

import (
	"net/http"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"traced/api"
)

// TestLeakWindowsPerService: a leak window belongs to the service it was opened in. Session ids
// repeat across services (both first sessions here are s1), so a window kept by session id in
// the process let one service's end close the other's window.
func TestLeakWindowsPerService(t *testing.T) {
	t.Parallel()
	h1, h2 := newHarness(t), newHarness(t)
	s1 := h1.start(api.StartRequest{Target: "leaks/bus.js", Mode: "debug"})
	s2 := h2.start(api.StartRequest{Target: "leaks/bus.js", Mode: "debug"})
	h1.waitFor(s1.ID, 0, "console")
	h2.waitFor(s2.ID, 0, "console")
	if s1.ID != s2.ID {
		t.Logf("the services named their sessions %s and %s: the windows could not collide by id anyway", s1.ID, s2.ID)
	}
	var began api.LeakBeginResponse
	if st := h1.call("POST", "/api/debug/"+s1.ID+"/heap/leak/begin", nil, &began); st != http.StatusOK {
		t.Fatalf("begin in the first service: status %d", st)
	}
	if e := h2.errorOf(h2.request("POST", "/api/debug/"+s2.ID+"/heap/leak/end", api.LeakEndRequest{}), http.StatusConflict); e.Code != "not_started" {
		t.Errorf("end in the second service: %+v, want not_started", e)
	}
	var rep api.LeakReport
	if st := h1.call("POST", "/api/debug/"+s1.ID+"/heap/leak/end", api.LeakEndRequest{}, &rep); st != http.StatusOK || rep.Begin != began.Snapshot {
		t.Fatalf("end in the first service: status %d, began at %q, want %q", st, rep.Begin, began.Snapshot)
	}
}

// The leak hunt through every surface: the skill's recipe run as written (TestLeakRecipeCLI),
// the CLI's heap and leak commands (TestHeapCLI) and the MCP heap tool (TestHeapMCP), each
// against a leaking fixture, asserting the path, the pinch point and the allocating function.
// Each logs its calls and bytes of answers up to the leak report, and in all.

// heapTally counts a hunt's calls and bytes of answers, and where the answer was reached.
type heapTally struct {
	calls, bytes           int
	answerCalls, answerLen int
}

func (h *heapTally) add(out string) { h.calls++; h.bytes += len(out) }
func (h *heapTally) answered()      { h.answerCalls, h.answerLen = h.calls, h.bytes }
func (h heapTally) log(t *testing.T, fixture, surface string) {
	t.Helper()
	t.Logf("%s, %s: %d calls and %d bytes of answers to the leak report; %d calls, %d bytes in all",
		fixture, surface, h.answerCalls, h.answerLen, h.calls, h.bytes)
}

// recipe is the `traced` commands of a section of the skill, in order, each split into its
// arguments as a shell would (single and double quotes; a # outside quotes starts a comment).
func recipe(t *testing.T, section string) [][]string {
	t.Helper()
	skill := readFile(t, filepath.Join("..", "skills", "traced", "SKILL.md"))
	start := strings.Index(skill, "\n## "+section+"\n")
	if start < 0 {
		t.Fatalf("the skill has no %q section", section)
	}
	body := skill[start+1:]
	if end := strings.Index(body[3:], "\n## "); end >= 0 {
		body = body[:end+3]
	}
	var cmds [][]string
	inCode := false
	for _, line := range strings.Split(body, "\n") {
		switch {
		case strings.HasPrefix(line, "```"):
			inCode = !inCode
		case inCode && strings.HasPrefix(line, "traced "):
			args := shellWords(t, line)
			cmds = append(cmds, args[1:])
		}
	}
	return cmds
}

// shellWords splits a command line as sh does for the recipes: words, quotes, comments.
func shellWords(t *testing.T, line string) []string {
	t.Helper()
	var words []string
	var w strings.Builder
	inWord := false
	var quote rune
	for _, r := range line {
		switch {
		case quote != 0 && r == quote:
			quote = 0
		case quote != 0:
			w.WriteRune(r)
		case r == '\'' || r == '"':
			quote, inWord = r, true
		case r == '#' && !inWord:
			return append(words, flush(&w, inWord)...)
		case r == ' ' || r == '\t':
			words = append(words, flush(&w, inWord)...)
			inWord = false
		default:
			w.WriteRune(r)
			inWord = true
		}
	}
	if quote != 0 {
		t.Fatalf("unclosed quote in %q", line)
	}
	return append(words, flush(&w, inWord)...)
}

func flush(w *strings.Builder, inWord bool) []string {
	if !inWord {
		return nil
	}
	s := w.String()
	w.Reset()
	return []string{s}
}

// TestLeakRecipeCLI runs every command of the skill's leak hunt, as written, on leaks/bus.js
// (for the recipe's server.js): each must succeed, the report must name the holder and the
// function that allocated the leak, and leak run must stand alone (an end after it finds no
// window open, as the skill says).
func TestLeakRecipeCLI(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	c := newCLI(t).against(h)
	cmds := recipe(t, "Leak hunt")
	if len(cmds) < 6 {
		t.Fatalf("the leak hunt has %d commands: %q", len(cmds), cmds)
	}
	want := map[string][]string{
		"launch":         {"leak  debug  running", "ready"},
		"leak begin":     {"leak window open: hs1"},
		"leak end":       {"1,000 × (closure onSettings leaks/bus.js:20", "EventEmitter._events.settings[i]", "accumulates in:", "allocated in: handle leaks/bus.js:18"},
		"heap retainers": {"1,000 × Session", "EventEmitter._events.settings[i] → (closure onSettings"},
		"leak run":       {"1,000 × (closure onSettings leaks/bus.js:20", "accumulates in:", "allocated in: handle leaks/bus.js:18"},
		"instances":      {"instances of ", "Session {"},
		"eval":           {"undefined"},
	}
	var tally heapTally
	seen := map[string]bool{}
	for _, args := range cmds {
		for i, a := range args {
			if a == "server.js" {
				args[i] = "leaks/bus.js"
			}
		}
		res := c.ok(args)
		tally.add(res.stdout + res.stderr)
		name := args[0]
		if len(args) > 1 && (name == "leak" || name == "heap") {
			name += " " + args[1]
		}
		for _, w := range want[name] {
			if !strings.Contains(res.stdout, w) {
				t.Errorf("traced %s: lacks %q:\n%s", strings.Join(args, " "), w, res.stdout)
			}
		}
		if name == "leak end" {
			tally.answered()
		}
		if name == "leak run" { // it closed its own window
			res := c.fails(1, []string{"leak", "end"}, "no leak window is open", "hint: traced leak begin opens one", "traced leak run")
			tally.add(res.stderr)
		}
		seen[name] = true
	}
	for _, name := range []string{"launch", "leak begin", "eval", "leak end", "heap retainers", "leak run", "instances"} {
		if !seen[name] {
			t.Errorf("the skill's leak hunt has no %s", name)
		}
	}
	tally.log(t, "leaks/bus.js", "CLI, the skill's recipe")

	// The card's leak pattern is begin > load > end, with no leak run inside the window.
	card := c.ok([]string{"--help-agent"}, "leak: ").stdout
	pattern := card[strings.Index(card, "\nleak: "):]
	pattern = pattern[:strings.Index(pattern[1:], "\n")+1]
	if !inOrder(pattern, "leak begin", "(load it)", "leak end") || inOrder(pattern, "leak begin", "leak run", "leak end") {
		t.Errorf("--help-agent's leak pattern:%s", pattern)
	}
}

// TestHeapCLI: the CLI's leak window (begin, load, end) and one-call window (leak run) on
// leaks/kinds.js, then heap retainers by class and bare (the largest holders), each answer
// naming the path, the pinch point and the allocating function's line.
func TestHeapCLI(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	c := newCLI(t).against(h)
	var tally heapTally
	run := func(args []string, want ...string) string {
		t.Helper()
		res := c.ok(args, want...)
		tally.add(res.stdout + res.stderr)
		return res.stdout
	}
	run([]string{"launch", "--name", "kinds", "--", "leaks/kinds.js"}, "kinds  debug  running", "ready")
	run([]string{"leak", "begin"}, "leak window open: hs1")
	run([]string{"eval", "for (let i = 0; i < 300; i++) leakEmitter()"})
	rep := run([]string{"leak", "end"}, "300 × (closure anonymous leaks/kinds.js:24:", "allocated in: globalThis.leakEmitter leaks/kinds.js:24")
	tally.answered()
	if !inOrder(clusterBlock(rep, 1), ".context.bus → EventEmitter._events.change[i] → (closure", "accumulates in: ", "EventEmitter._events.change[i] (@") {
		t.Errorf("leak end: the first cluster's path or pinch point:\n%s", rep)
	}
	tally.log(t, "leaks/kinds.js leakEmitter", "CLI, leak begin/end")

	run([]string{"heap", "retainers", "hs2", "--class", "Subscriber"}, "300 × Subscriber", "EventEmitter._events.change[i] → (closure anonymous leaks/kinds.js:24:")

	var one heapTally
	res := c.ok([]string{"leak", "run", "leakBuffers()", "--iterations", "200"}, "200 × Frame", "allocated in: globalThis.leakBuffers leaks/kinds.js:29")
	one.add(res.stdout)
	one.answered()
	one.log(t, "leaks/kinds.js leakBuffers", "CLI, leak run (the session launched before)")
	if !inOrder(clusterBlock(res.stdout, 1), ".context.frames[i] → Frame", "accumulates in: ", ".context.frames[i] (@") {
		t.Errorf("leak run: the first cluster's path or pinch point:\n%s", res.stdout)
	}
	c.fails(1, []string{"leak", "end"}, "no leak window is open", "hint: traced leak begin opens one")

	// Bare, the classes by retained size and the largest holders: the frames array holds 200
	// frames of 32 KiB.
	largest := run([]string{"heap", "retainers", "hs4"}, "by retained size:", "largest holders:")
	holders := largest[strings.Index(largest, "largest holders:"):]
	if !strings.Contains(holders, "MB  id ") || !strings.Contains(holders, ".context.frames") {
		t.Errorf("heap retainers hs4: the largest holders do not name the frames array:\n%s", largest)
	}
}

// TestHeapMCP: the heap tool's leak window (leak-begin, eval, leak-end), its one-call window
// (leak) and its retainers by class, by live value and bare (the largest holders), on
// leaks/kinds.js.
func TestHeapMCP(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	c := connectMCP(t, h.svc.MCP)
	h.stopAtCleanup("kinds")
	c.ok("start", map[string]any{"target": "leaks/kinds.js", "name": "kinds"}, "ready")
	c.ok("heap", map[string]any{"action": "leak-begin"}, "leak window open: hs1")
	c.ok("eval", map[string]any{"expression": "for (let i = 0; i < 300; i++) leakMap()"})
	rep := c.ok("heap", map[string]any{"action": "leak-end"}, "300 × CacheEntry", "allocated in: globalThis.leakMap leaks/kinds.js:25")
	t.Logf("leaks/kinds.js leakMap, MCP, leak-begin/end: %d calls and %d bytes of text to the leak report:\n%s", c.calls, c.text, rep)
	if !inOrder(clusterBlock(rep, 1), ".context.cache → Map[entry] → CacheEntry", "accumulates in: ", ".context.cache → Map[entry] (@") {
		t.Errorf("leak-end: the first cluster's path or pinch point:\n%s", rep)
	}
	c.ok("heap", map[string]any{"action": "retainers", "ref": "hs2", "class": "CacheEntry"}, "300 × CacheEntry", ".context.cache → Map[entry] → CacheEntry")

	calls, text := c.calls, c.text
	rep = c.ok("heap", map[string]any{"action": "leak", "expression": "leakBuffers()", "iterations": 200},
		"200 × Frame", "allocated in: globalThis.leakBuffers leaks/kinds.js:29")
	t.Logf("leaks/kinds.js leakBuffers, MCP, leak: %d call and %d bytes of text:\n%s", c.calls-calls, c.text-text, rep)
	if !inOrder(clusterBlock(rep, 1), ".context.frames[i] → Frame", "accumulates in: ", ".context.frames[i] (@") {
		t.Errorf("leak: the first cluster's path or pinch point:\n%s", rep)
	}
	if e := c.refused("heap", map[string]any{"action": "leak-end"}, "no leak window is open"); strings.Contains(e, "/api/") {
		t.Errorf("leak-end without a window: the hint names a route, not the tool:\n%s", e)
	}

	// A live value's retainers, in a snapshot taken for the question; then, bare, the largest
	// holders of that snapshot: the frames array, 200 × 32 KiB.
	v := c.ok("eval", map[string]any{"expression": "globalThis.logLines"}, "Array(")
	ref := regexp.MustCompile(`ref: ([vo]\d+)`).FindStringSubmatch(v)
	if ref == nil {
		t.Fatalf("eval answered no ref:\n%s", v)
	}
	live := c.ok("heap", map[string]any{"action": "retainers", "value": ref[1]}, "global.logLines")
	snap := regexp.MustCompile(`\bhs\d+\b`).FindString(live)
	largest := c.ok("heap", map[string]any{"action": "retainers", "ref": snap}, "by retained size:", "largest holders:")
	holders := largest[strings.Index(largest, "largest holders:"):]
	if !strings.Contains(holders, "MB  id ") || !strings.Contains(holders, ".context.frames") {
		t.Errorf("heap retainers %s: the largest holders do not name the frames array:\n%s", snap, largest)
	}
	t.Logf("retainers of %s (%s):\n%s", ref[1], snap, live)
}
