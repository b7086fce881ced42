package tests

import (
	"io"

	"net"
	"strings"
	"testing"
	"time"
)

// TestCLIRetryHunt is the conditional-breakpoint hunt an agent runs from a shell: stop in the
// retry loop on the second attempt, read the job, step, let it finish, read what it printed; in
// five commands, each answer checked. The same hunt through the REST API is timed beside it.
func TestCLIRetryHunt(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	c := newCLI(t).against(h)

	type step struct {
		args []string
		want []string
	}
	hunt := []step{
		{[]string{"launch", "--name", "hunt", "--break", "retry.js:4:job.retries === 2", "--", "retry.js"},
			[]string{"hunt  debug  paused", "paused at retry.js:4 (bp1, hit 1)", "retries: 2", "f0 attempt"}},
		{[]string{"eval", "job.retries"}, []string{"2  (number)"}},
		{[]string{"step"}, []string{"paused at retry.js:5", "returns: false"}},
		{[]string{"continue"}, []string{"exited"}},
		{[]string{"events", "--kinds", "console"}, []string{"retry 1", "retry 2", "done after 3"}},
	}
	var bytes int
	var wall time.Duration
	for _, s := range hunt {
		res := c.ok(s.args, s.want...)
		bytes += len(res.stdout) + len(res.stderr)
		wall += res.wall
	}
	if len(hunt) > 5 {
		t.Errorf("the hunt took %d commands, want at most 5", len(hunt))
	}

	// The same hunt over REST, as an agent with curl would send it.
	restBytes, restCalls, restWall := restHunt(t, h)
	t.Logf("retry hunt: CLI %d commands, %d bytes of output, %v wall (process start to exit); REST %d requests, %d bytes of answers, %v wall (in-process client)",
		len(hunt), bytes, wall.Round(time.Millisecond), restCalls, restBytes, restWall.Round(time.Millisecond))
}

// restHunt runs the hunt through the API with the text form, returning the answer bytes, the
// request count and the time spent in requests.
func restHunt(t *testing.T, h *harness) (int, int, time.Duration) {
	t.Helper()
	type req struct {
		method, path string
		body         any
		want         string
	}
	steps := []req{
		{"POST", "/api/trace/start", map[string]any{"target": "retry.js", "name": "hunt-rest", "mode": "debug",
			"breakpoints": []any{map[string]any{"location": "retry.js:4", "condition": "job.retries === 2"}}}, `"id"`},
		{"GET", "/api/trace/wait?id=hunt-rest&kinds=pause&timeoutMs=10000&format=text", nil, "pause"},
		{"GET", "/api/debug/hunt-rest/state?format=text", nil, "paused at retry.js:4"},
		{"POST", "/api/debug/hunt-rest/eval?format=text", map[string]any{"expression": "job.retries"}, "2  (number)"},
		{"POST", "/api/debug/hunt-rest/step?format=text", map[string]any{}, "paused at retry.js:5"},
		{"POST", "/api/debug/hunt-rest/continue?format=text", map[string]any{}, "exited"},
		{"GET", "/api/trace/events?id=hunt-rest&kinds=console&format=text", nil, "done after 3"},
	}
	var total int
	var wall time.Duration
	for _, s := range steps {
		r := h.request(s.method, s.path, s.body)
		start := time.Now()
		resp, err := h.client.Do(r)
		if err != nil {
			t.Fatalf("%s %s: %v", s.method, s.path, err)
		}
		body, err := io.ReadAll(resp.Body)
		resp.Body.Close()
		wall += time.Since(start)
		if err != nil || resp.StatusCode >= 300 || !strings.Contains(string(body), s.want) {
			t.Fatalf("%s %s: %d %v, want %q in:\n%s", s.method, s.path, resp.StatusCode, err, s.want, body)
		}
		total += len(body)
	}
	h.stopAtCleanup("hunt-rest")
	return total, len(steps), wall
}

// closedAddr is a loopback address nothing listens on.
func closedAddr(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	return addr
}
