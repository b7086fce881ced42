package tests

import (
	"fmt"
	"io"
	"net/http"
	"regexp"
	"strings"
	"testing"
)

// The three hunts of issue 25's bar, each through the CLI, REST (text form) and MCP: a server's
// 500 (testdata/hunts/server.js), a failing test (hunts/tests, node --test) and a worker's wrong
// answer (hunts/worker.js). Each must take at most 5 calls and 1,500 bytes of answers, and each
// answer must carry what the next step needs. The service's one-time "started a service" line is
// not counted: these run against an in-process service.

const (
	huntCalls = 5
	huntBytes = 1500
)

// huntTally counts a hunt's calls and answer bytes.
type huntTally struct {
	calls, bytes int
}

func (h *huntTally) add(answer string) { h.calls++; h.bytes += len(answer) }

func (h huntTally) check(t *testing.T, hunt, surface string) {
	t.Helper()
	t.Logf("%s hunt, %s: %d calls, %d bytes of answers", hunt, surface, h.calls, h.bytes)
	if h.calls > huntCalls || h.bytes > huntBytes {
		t.Errorf("%s hunt, %s: %d calls and %d bytes, want at most %d and %d", hunt, surface, h.calls, h.bytes, huntCalls, huntBytes)
	}
}

var listeningRE = regexp.MustCompile(`listening on (\d+)`)

// get500 asks the hunt server for cart b's total, which fails.
func get500(t *testing.T, answer string) {
	t.Helper()
	m := listeningRE.FindStringSubmatch(answer)
	if m == nil {
		t.Fatalf("the start answer names no port:\n%s", answer)
	}
	resp, err := http.Get(fmt.Sprintf("http://127.0.0.1:%s/total?cart=b", m[1]))
	if err != nil {
		t.Fatal(err)
	}
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusInternalServerError {
		t.Fatalf("GET /total?cart=b: %d, want the planted 500", resp.StatusCode)
	}
}

func TestHuntsCLI(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	c := newCLI(t).against(h)
	run := func(tally *huntTally, code int, args []string, want ...string) string {
		t.Helper()
		res := c.run(args...)
		out := res.stdout + res.stderr
		if res.code != code {
			t.Fatalf("traced %s: exit %d, want %d\n%s", strings.Join(args, " "), res.code, code, out)
		}
		for _, w := range want {
			if !strings.Contains(out, w) {
				t.Fatalf("traced %s: lacks %q:\n%s", strings.Join(args, " "), w, out)
			}
		}
		tally.add(out)
		return out
	}

	var server huntTally
	get500(t, run(&server, 0, []string{"launch", "--name", "srv", "--", "hunts/server.js"}, "srv  debug  running", "listening on"))
	run(&server, 0, []string{"evidence"}, "TypeError", "server.js:11", "item={ sku: 'gift' }", "correlation, not causation")
	run(&server, 0, []string{"stop"}, "stopped")
	server.check(t, "server", "CLI")

	var test huntTally
	run(&test, 1, []string{"trace", "--node-arg", "--test", "--", "hunts/tests/price.test.js"},
		"fail 1", "failing tests (1): this one: expected 12, received 14.4")
	run(&test, 0, []string{"launch", "--break", "hunts/tests/price.js:4:rate > 0", "--node-arg", "--test", "--", "hunts/tests/price.test.js"},
		"paused at hunts/tests/price.js:4", "gross  12", "rate   0.2")
	run(&test, 0, []string{"stop"}, "stopped")
	test.check(t, "test", "CLI")

	var worker huntTally
	run(&worker, 0, []string{"launch", "--break", "hunts/worker.js:10", "--", "hunts/worker.js"}, "paused in t1 at hunts/worker.js:10", "n    4", "sum  14")
	run(&worker, 0, []string{"eval", "[n, sum, n * (n + 1) * (2 * n + 1) / 6]"}, "[ 4, 14, 30 ]", "in ", " t1")
	run(&worker, 0, []string{"continue"}, "sum of squares 1..4: 14 WRONG", "exited")
	worker.check(t, "worker", "CLI")
}

func TestHuntsREST(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	call := func(tally *huntTally, method, path string, body any, want ...string) string {
		t.Helper()
		resp, err := h.client.Do(h.request(method, path, body))
		if err != nil {
			t.Fatalf("%s %s: %v", method, path, err)
		}
		raw, err := io.ReadAll(resp.Body)
		resp.Body.Close()
		if err != nil || resp.StatusCode >= 300 {
			t.Fatalf("%s %s: %d %v\n%s", method, path, resp.StatusCode, err, raw)
		}
		for _, w := range want {
			if !strings.Contains(string(raw), w) {
				t.Fatalf("%s %s: lacks %q:\n%s", method, path, w, raw)
			}
		}
		tally.add(string(raw))
		return string(raw)
	}

	var server huntTally
	h.stopAtCleanup("srv")
	get500(t, call(&server, "POST", "/api/trace/start?format=text", map[string]any{"target": "hunts/server.js", "name": "srv", "mode": "debug"}, "listening on"))
	call(&server, "GET", "/api/trace/evidence?id=srv&format=text", nil, "TypeError", "server.js:11", "item={ sku: 'gift' }")
	call(&server, "POST", "/api/trace/stop", map[string]any{"id": "srv"}, "stopped")
	server.check(t, "server", "REST")

	var test huntTally
	call(&test, "POST", "/api/trace/start?format=text", map[string]any{"target": "hunts/tests/price.test.js", "name": "tst", "nodeArgs": []string{"--test"}}, "tst")
	call(&test, "GET", "/api/trace/wait?id=tst&kinds=exit&after=0&timeoutMs=60000&format=text", nil, "exit")
	call(&test, "GET", "/api/trace/evidence?id=tst&format=text", nil, "failing tests (1): this one: expected 12, received 14.4")
	h.stopAtCleanup("tst2")
	call(&test, "POST", "/api/trace/start?format=text", map[string]any{"target": "hunts/tests/price.test.js", "name": "tst2", "mode": "debug",
		"nodeArgs": []string{"--test"}, "waitMs": 20000, "breakpoints": []any{map[string]any{"location": "hunts/tests/price.js:4", "condition": "rate > 0"}}},
		"paused at hunts/tests/price.js:4", "gross  12")
	test.check(t, "test", "REST")

	var worker huntTally
	h.stopAtCleanup("wrk")
	call(&worker, "POST", "/api/trace/start?format=text", map[string]any{"target": "hunts/worker.js", "name": "wrk", "mode": "debug", "waitMs": 20000,
		"breakpoints": []any{map[string]any{"location": "hunts/worker.js:10"}}}, "paused in t1 at hunts/worker.js:10", "sum  14")
	call(&worker, "POST", "/api/debug/wrk/eval?format=text", map[string]any{"expression": "[n, sum, n * (n + 1) * (2 * n + 1) / 6]"}, "[ 4, 14, 30 ]")
	call(&worker, "POST", "/api/debug/wrk/continue?format=text", map[string]any{}, "14 WRONG", "exited")
	worker.check(t, "worker", "REST")
}

func TestHuntsMCP(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	c := connectMCP(t, h.svc.MCP)
	tally := func(before *mcpClient, calls, text int) huntTally {
		return huntTally{calls: before.calls - calls, bytes: before.text - text}
	}

	calls, text := c.calls, c.text
	h.stopAtCleanup("srv")
	get500(t, c.ok("start", map[string]any{"target": "hunts/server.js", "name": "srv"}, "listening on"))
	c.ok("evidence", map[string]any{"session": "srv"}, "TypeError", "server.js:11", "item={ sku: 'gift' }")
	c.ok("stop", map[string]any{"session": "srv"}, "stopped")
	tally(c, calls, text).check(t, "server", "MCP")

	calls, text = c.calls, c.text
	h.stopAtCleanup("tst")
	c.ok("start", map[string]any{"target": "hunts/tests/price.test.js", "name": "tst", "mode": "trace", "nodeArgs": []string{"--test"}}, "tst")
	c.ok("wait", map[string]any{"session": "tst", "kinds": "exit", "after": 0, "timeoutMs": 60000}, "exit")
	c.ok("evidence", map[string]any{"session": "tst"}, "failing tests (1): this one: expected 12, received 14.4")
	h.stopAtCleanup("tst2")
	c.ok("start", map[string]any{"target": "hunts/tests/price.test.js", "name": "tst2", "nodeArgs": []string{"--test"},
		"breakpoints": []string{"hunts/tests/price.js:4:rate > 0"}}, "paused at hunts/tests/price.js:4", "gross  12")
	tally(c, calls, text).check(t, "test", "MCP")

	calls, text = c.calls, c.text
	h.stopAtCleanup("wrk")
	c.ok("start", map[string]any{"target": "hunts/worker.js", "name": "wrk", "breakpoints": []string{"hunts/worker.js:10"}}, "paused in t1 at hunts/worker.js:10", "sum  14")
	c.ok("eval", map[string]any{"session": "wrk", "expression": "[n, sum, n * (n + 1) * (2 * n + 1) / 6]"}, "[ 4, 14, 30 ]")
	c.ok("step", map[string]any{"session": "wrk", "action": "continue"}, "14 WRONG", "exited")
	tally(c, calls, text).check(t, "worker", "MCP")
}
