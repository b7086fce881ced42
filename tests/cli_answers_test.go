package tests

import (
	"io"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestCLIAnswersNameWhatTheyAreAbout: in a session with a worker, eval, vars and state name
// the session and the target they are about; eval says how to reach what is out of scope
// (require, a module's own name while the program runs); a pending promise awaited while
// paused is said to be pending, not thrown; continue --all resumes every paused target.
func TestCLIAnswersNameWhatTheyAreAbout(t *testing.T) {
	t.Parallel()
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
	c.ok([]string{"vars", "--target", "t1"}, "s1 t1 frame f0:", "total  2")
	c.ok([]string{"eval", "total", "--target", "t1"}, "2  (number)  in s1 t1")
	// A module's name tick does not use is not in its frame: the hint names the frame option.
	if res := c.run("eval", "isMainThread", "--target", "t1"); res.code != 1 || !strings.Contains(res.stdout, "--frame f1") {
		t.Errorf("eval of a name outside the paused frame's scope: exit %d\n%s", res.code, res.stdout)
	}
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
	t.Parallel()
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
	t.Parallel()
	h := newHarness(t)
	c := newCLI(t).against(h)
	c.ok([]string{"launch", "--name", "deep", "--", "locals.js"}, "s1 deep")
	h.stopAtCleanup("deep")
	c.ok([]string{"wait", "--kinds", "pause", "--after", "0"}, "pause")
	c.ok([]string{"state"}, "tiers  Array(4) [ { min: 1, pct: 0 }, { min: 50, pct: 5 }, { min: 100, pct: 10 }",
		"cfg    { name: 'std', tiers: [ {…}, {…}, {…}, {…} ], limits: { low: 1, high: 9 } }")
	c.ok([]string{"eval", "cfg"}, "limits: { low: 1, high: 9 }")

	if res := c.ok([]string{"props", "v5", "--internal"}, "step (context)"); !regexp.MustCompile(`step \(context\) +2\n`).MatchString(res.stdout) {
		t.Errorf("props --internal of a closure: the context variable step=2 is missing:\n%s", res.stdout)
	}
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
	t.Parallel()
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

// yamlDump matches the generic key tree the text form falls back to ("  - ref: f1",
// "    url: node:..."): a CLI answer must have a layout of its own (issue 25, point 4).
var yamlDump = regexp.MustCompile(`(?m)^\s*- [a-zA-Z]+: |^ +[a-zA-Z]+: \S`)

func noDump(t *testing.T, what, out string) {
	t.Helper()
	if m := yamlDump.FindString(out); m != "" {
		t.Errorf("%s answers a key tree (%q), not its text form:\n%s", what, m, out)
	}
}

// TestCLIStartAnswersOutput: a launch with no breakpoint answers what the program printed first
// (a server's port), colour codes stripped; console is one line an entry; restart answers as
// launch does; POST /api/trace/start speaks text when asked (issue 25, points 3 and 4).
func TestCLIStartAnswersOutput(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	c := newCLI(t).against(h)

	res := c.ok([]string{"launch", "--name", "srv", "--", "listen.js"}, "srv  debug", "output:", "listening on :")
	h.stopAtCleanup("srv")
	if strings.Contains(res.stdout, "\x1b[") {
		t.Errorf("launch answered colour codes:\n%q", res.stdout)
	}
	// The first line is waited for; the second may or may not be out yet.
	console := c.ok([]string{"console"}, "log  listen.js:5  listening on :", "next: ")
	noDump(t, "console", console.stdout)

	res = c.ok([]string{"restart"}, "srv  debug", "(restart of ", "output:", "listening on :")
	noDump(t, "restart", res.stdout)
	if n := strings.Count(res.stdout, "\n"); n > 8 {
		t.Errorf("restart answered %d lines, want launch's few:\n%s", n, res.stdout)
	}

	// REST: the start's answer in text, as the CLI shows it.
	req := h.request("POST", "/api/trace/start", map[string]any{"target": "listen.js", "name": "srv-text"})
	req.Header.Set("Accept", "text/plain")
	resp, err := h.client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	h.stopAtCleanup("srv-text")
	if resp.StatusCode != http.StatusCreated || !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/plain") ||
		!strings.HasPrefix(string(body), "s") || !strings.Contains(string(body), "srv-text  trace") ||
		!strings.Contains(string(body), "listening on :") {
		t.Fatalf("start with Accept: text/plain: %d %s\n%s", resp.StatusCode, resp.Header.Get("Content-Type"), body)
	}
	if len(body) > 600 {
		t.Errorf("the start's text answer is %d bytes, want a few lines:\n%s", len(body), body)
	}
}

// TestCLICompactAnswers: vars, stack, hotpatch, heap snapshots and heap sample start answer
// their text forms, never a key tree (issue 25, point 4).
func TestCLICompactAnswers(t *testing.T) {
	t.Parallel()
	h, path := patchWorkspace(t)
	c := newCLI(t).against(h)
	c.dir = filepath.Dir(path)

	c.ok([]string{"launch", "--name", "cmp", "--break", "patchme.js:3", "--", "patchme.js"}, "paused at patchme.js:3")
	h.stopAtCleanup("cmp")
	res := c.ok([]string{"vars"}, "locals:", "a ", "b ")
	noDump(t, "vars", res.stdout)
	res = c.ok([]string{"stack"}, "stack:", "f0 add", "patchme.js:3")
	noDump(t, "stack", res.stdout)

	os.WriteFile(path, []byte(strings.Replace(readFile(t, path), "a - b", "a + b", 1)), 0o644)
	if h.nodeFeatures().LiveEdit {
		res = c.ok([]string{"hotpatch", "patchme.js"}, "hotpatch Ok")
		noDump(t, "hotpatch", res.stdout)
	}
	c.ok([]string{"break-rm", "all"})
	c.ok([]string{"continue", "--wait", "100ms"})

	res = c.ok([]string{"heap", "sample", "start"}, "heap sampling on, a sample every 32768 bytes")
	noDump(t, "heap sample start", res.stdout)
	res = c.ok([]string{"heap", "snapshot", "--top", "5"}, "hs1  ", " objects, ", "heap/snapshots/hs1")
	noDump(t, "heap snapshot", res.stdout)
	if strings.Contains(res.stdout, "nodeIds") || strings.Count(res.stdout, "\n") > 8 {
		t.Errorf("heap snapshot: want a summary line and the top 5 classes:\n%s", res.stdout)
	}
	res = c.ok([]string{"heap", "sample", "stop", "--top", "3"}, "sampled ")
	noDump(t, "heap sample stop", res.stdout)
}

// TestCLIEventsHideInternals: the text form of events leaves node's own scripts out unless
// --all asks for them (issue 25, point 5).
func TestCLIEventsHideInternals(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	c := newCLI(t).against(h)
	c.ok([]string{"trace", "--name", "ev", "--", "tapreport.js"}, "ev  trace  exited (code 0)")
	res := c.ok([]string{"events", "--limit", "1000"}, "script", "tapreport.js", "exit")
	if strings.Contains(res.stdout, "node:internal") {
		t.Errorf("events lists node's internal scripts without --all:\n%s", res.stdout)
	}
	c.ok([]string{"events", "--all", "--limit", "1000"}, "node:internal/", "tapreport.js")
	c.ok([]string{"timeline", "--all"}, "node:internal/")
	if res := c.ok([]string{"timeline"}); strings.Contains(res.stdout, "node:internal") {
		t.Errorf("timeline lists node's internal scripts without --all:\n%s", res.stdout)
	}
	// JSON lists every event whatever the flag says: the filter is the text form's.
	c.ok([]string{"--json", "events", "--limit", "1000"}, "node:internal/")

	// The live stream is text too, a line an event; --json gives the stream's messages.
	c.ok([]string{"launch", "--name", "ticks", "--", "forever.js"}, "ticks  debug")
	h.stopAtCleanup("ticks")
	res = c.ok([]string{"stream", "--session", "ticks", "--kinds", "console", "--max", "4", "--timeout", "20s"}, "console  log tick")
	if strings.Contains(res.stdout, "{") {
		t.Errorf("stream answered JSON without --json:\n%s", res.stdout)
	}
	c.ok([]string{"--json", "stream", "--session", "ticks", "--kinds", "console", "--max", "4", "--timeout", "20s"}, `"kind":"console"`)
}

// TestCLITraceOutput: traced trace answers the program's stdout and stderr lines, colour codes
// stripped, a console call's line once; traced run takes --timeout (issue 25, point 15).
func TestCLITraceOutput(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	c := newCLI(t).against(h)
	res := c.ok([]string{"trace", "--", "tapreport.js"}, "TAP version 13", "ok 1 - adds", "stderr", "warn: slow test", "log 1..1")
	if strings.Contains(res.stdout, "\x1b[") {
		t.Errorf("trace answered colour codes:\n%q", res.stdout)
	}
	if n := strings.Count(res.stdout, "1..1"); n != 1 {
		t.Errorf("the console call's line is listed %d times, want once:\n%s", n, res.stdout)
	}

	// traced run, in-process: the same lines, and a bound on a program that never ends.
	run := c.run("run", "--root", c.dir, "tapreport.js")
	if run.code != 0 || !strings.Contains(run.stderr, "ok 1 - adds") || strings.Contains(run.stderr, "\x1b[") {
		t.Errorf("traced run tapreport.js: exit %d\n%q", run.code, run.stderr)
	}
	run = c.run("run", "--root", c.dir, "--timeout", "1s", "forever.js")
	if run.code == 0 || !strings.Contains(run.stderr, "tick") || !strings.Contains(run.stderr, "stopped after") {
		t.Errorf("traced run --timeout 1s forever.js: exit %d\n%s", run.code, run.stderr)
	}
}

// TestCLIServiceStop: the service started on demand is stopped and reported from the CLI; --root
// against it is refused, never ignored; a target outside its root gets a hint that says what to
// do (issue 25, point 10).
func TestCLIServiceStop(t *testing.T) {
	t.Parallel()
	c := newCLI(t)
	res := c.run("launch", "--brk", "--name", "svc", "--", "spin.js")
	svc := serviceOf(t, c.stateDir())
	if res.code != 0 {
		t.Fatalf("launch: exit %d: %s", res.code, res.stderr)
	}
	c.ok([]string{"service", "status"}, "root     "+c.dir, "1 live")

	other := t.TempDir()
	c.fails(2, []string{"--root", other, "sessions"}, "--root "+other+" is ignored", "root "+c.dir, "traced service stop")
	c.ok([]string{"--root", c.dir, "sessions"}, "svc  debug") // the root it has: nothing ignored

	outside := filepath.Join(other, "x.js")
	os.WriteFile(outside, []byte("1\n"), 0o644)
	c.fails(1, []string{"launch", "--", outside}, "outside the workspace root", "serves "+c.dir, "traced service stop")

	c.ok([]string{"service", "stop"}, "stopped the service at "+svc.addr, "with SIGTERM", "ended live sessions s1")
	if !svc.exited(deadline) {
		t.Fatalf("the service (pid %d) still runs after service stop", svc.pid)
	}
	c.ok([]string{"service", "stop"}, "no service started on demand runs")
	c.fails(3, []string{"service", "status"}, "no traced service is running")
}

// TestCLIDocsAgree: what the docs say of launch --catch, launch's default wait, the status's
// sourceMaps and the skill's instances recipe is what the product does (issue 25, point 17).
func TestCLIDocsAgree(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	c := newCLI(t).against(h)

	// launch --catch uncaught answers the pause at the throw, as the skill's crash triage says.
	c.ok([]string{"launch", "--name", "crash", "--catch", "uncaught", "--", "crashsoon.js"},
		"crash  debug  paused", "paused at crashsoon.js:4 (exception)", "stack:")
	h.stopAtCleanup("crash")
	c.ok([]string{"eval", "item.sku"}, "'a'  (string)")

	// launch --help tells the waits launch applies.
	help := c.ok([]string{"launch", "--help"}, "--wait", "10s by default", "--catch alone 3s")
	if strings.Contains(help.stdout, "default 5s") {
		t.Errorf("launch --help names the execution commands' 5s wait:\n%s", help.stdout)
	}

	// The status says source maps are mapped, as they are.
	var st struct {
		SourceMaps bool `json:"sourceMaps"`
	}
	if code := h.call("GET", "/api/trace/status", nil, &st); code != http.StatusOK || !st.SourceMaps {
		t.Errorf("GET /api/trace/status: %d, sourceMaps %v; want true", code, st.SourceMaps)
	}

	// The skill's instances recipe for a module-scoped class works while the program runs; the
	// bare name does not, as the skill says.
	c.ok([]string{"launch", "--name", "shop", "--", "shop.js"}, "shop  debug  running")
	h.stopAtCleanup("shop")
	c.fails(1, []string{"--session", "shop", "instances", "Cart"}, "Cart is not defined")
	res := c.ok([]string{"--session", "shop", "instances", "process.mainModule.exports.Cart"}, "2 instances of ", "Cart { id: 1 }")
	noDump(t, "instances", res.stdout)
	skill := readFile(t, filepath.Join("..", "skills", "traced", "SKILL.md"))
	if !strings.Contains(skill, "traced instances 'process.mainModule.exports.Session'") {
		t.Errorf("the skill lost its instances recipe for a module-scoped class")
	}
}
