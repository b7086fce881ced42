package tests

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os/exec"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// bearer adds the test token to every request of the MCP client.
type bearer struct{ base http.RoundTripper }

func (b bearer) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+testToken)
	return b.base.RoundTrip(r)
}

// connectHTTP connects the SDK's client to /mcp of the service at base (http://host:port) over
// Streamable HTTP, with the test token; the session and its connections end with tb.
func connectHTTP(tb testing.TB, base string) *mcp.ClientSession {
	tb.Helper()
	tr := &http.Transport{}
	tb.Cleanup(tr.CloseIdleConnections)
	ctx, cancel := context.WithTimeout(tb.Context(), deadline)
	defer cancel() // bounds the connect only: the session's own context is detached from it
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "0"}, nil).Connect(ctx,
		&mcp.StreamableClientTransport{Endpoint: base + "/mcp", HTTPClient: &http.Client{Transport: bearer{tr}}}, nil)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { cs.Close() })
	return cs
}

// TestMCPOverHTTP drives /mcp of a running service with the SDK's Streamable HTTP client: a
// session started through MCP is the service's, seen by the REST API, and the tools answer as
// over any transport.
func TestMCPOverHTTP(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	cs := connectHTTP(t, h.base)
	if !strings.Contains(cs.InitializeResult().Instructions, "start -> wait -> state -> step/eval -> evidence") {
		t.Errorf("instructions do not teach the workflow:\n%s", cs.InitializeResult().Instructions)
	}
	c := &mcpClient{t: t, cs: cs}
	c.ok("start", map[string]any{"target": "retry.js", "name": "http", "brk": true}, "http  debug  paused", "paused at retry.js:")
	h.stopAtCleanup("http")
	var list struct {
		Sessions []struct{ Name, Status string }
	}
	h.call("GET", "/api/trace/list", nil, &list)
	if len(list.Sessions) != 1 || list.Sessions[0].Name != "http" {
		t.Fatalf("the REST API does not see the session MCP started: %+v", list.Sessions)
	}
	c.ok("breakpoints", map[string]any{"action": "set", "location": "retry.js:9"}, "bp1", "retry.js:9")
	c.ok("step", map[string]any{"action": "continue"}, "paused at retry.js:9 (bp1")
	c.ok("eval", map[string]any{"expression": "job.retries * 10"}, "10  (number)")
	c.ok("stop", nil, "http  debug  stopped")
}

// TestMCPGuard: /mcp is behind the same Host, Origin and token checks as the API.
func TestMCPGuard(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	init := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"x","version":"0"}}}`
	cases := []struct {
		name   string
		edit   func(*http.Request)
		status int
	}{
		{"no token", func(r *http.Request) { r.Header.Del("Authorization") }, http.StatusUnauthorized},
		{"wrong token", func(r *http.Request) { r.Header.Set("Authorization", "Bearer nope") }, http.StatusUnauthorized},
		{"foreign origin", func(r *http.Request) { r.Header.Set("Origin", "https://evil.example") }, http.StatusForbidden},
		{"rebinding host", func(r *http.Request) { r.Host = "evil.example:80" }, http.StatusForbidden},
		{"token", func(r *http.Request) {}, http.StatusOK},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			req := h.with(t).request("POST", "/mcp", init)
			req.Header.Set("Accept", "application/json, text/event-stream")
			tc.edit(req)
			resp, err := h.client.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
			if resp.StatusCode != tc.status {
				t.Errorf("%s: %d, want %d", tc.name, resp.StatusCode, tc.status)
			}
		})
	}
}

// TestMCPStdio launches `traced mcp` as an MCP client would, rooted at tests/testdata, and runs
// a program to its exit through it; closing the client ends the server and its node.
func TestMCPStdio(t *testing.T) {
	t.Parallel()
	bin := newCLI(t).bin
	ctx, cancel := context.WithTimeout(t.Context(), deadline)
	defer cancel()
	cmd := exec.Command(bin, "mcp", "--tools", "core")
	cmd.Dir = "testdata"
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "0"}, nil).Connect(ctx,
		&mcp.CommandTransport{Command: cmd, TerminateDuration: 10 * time.Second}, nil)
	if err != nil {
		t.Fatal(err)
	}
	// A failed step ends the test before the close below: the server and its node end anyway.
	closeOnce := sync.OnceValue(cs.Close)
	t.Cleanup(func() { closeOnce() })
	c := &mcpClient{t: t, cs: cs}
	tools, err := cs.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(tools.Tools) != 9 {
		t.Errorf("--tools core lists %d tools, want 9", len(tools.Tools))
	}
	c.ok("start", map[string]any{"target": "retry.js", "mode": "trace"}, "trace", "retry.js")
	// A trace runs at once: its line and exit may precede the waits, which read from the start.
	c.ok("wait", map[string]any{"kinds": "console", "match": "done after [0-9]+", "after": 0}, "done after 3")
	c.ok("wait", map[string]any{"kinds": "exit", "after": 0}, "exit  code 0")
	// Without a cursor, a wait on the ended session names the match it came too late for.
	c.ok("wait", map[string]any{"kinds": "exit"}, "finished: the session ended", "earlier: seq ", "window: 10000ms from the call")
	c.refused("state", nil, "trace session", `the tool start {"mode":"debug"}`)
	c.ok("start", map[string]any{"target": "forever.js", "name": "left"}, "left  debug")
	// Closing stdin ends `traced mcp`, which stops the session it still runs (leakcheck would see
	// its node otherwise).
	if err := closeOnce(); err != nil {
		t.Errorf("close: %v", err)
	}
	if cmd.ProcessState == nil || !cmd.ProcessState.Success() {
		t.Errorf("traced mcp did not exit cleanly: %v", cmd.ProcessState)
	}
}

// TestMCPHTTPOneValue: a POST to /mcp is one JSON-RPC message or batch, as a REST body is one
// value: trailing data (a second message the SDK would silently drop) and an oversized batch
// are refused with 400 and a JSON-RPC error.
func TestMCPHTTPOneValue(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	list := `{"jsonrpc":"2.0","id":%d,"method":"tools/list"}`
	batch := make([]string, 51)
	for i := range batch {
		batch[i] = fmt.Sprintf(list, i+1)
	}
	cases := []struct {
		name, body string
		status     int
		code       float64
	}{
		{"trailing message", fmt.Sprintf(list, 1) + fmt.Sprintf(list, 2), http.StatusBadRequest, -32700},
		{"trailing garbage", fmt.Sprintf(list, 1) + " oops", http.StatusBadRequest, -32700},
		{"empty batch", `[]`, http.StatusBadRequest, -32600},
		{"numeric method", `{"jsonrpc":"2.0","id":1,"method":5}`, http.StatusBadRequest, -32600},
		{"batch of 51", "[" + strings.Join(batch, ",") + "]", http.StatusBadRequest, -32600},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			req := h.with(t).request("POST", "/mcp", tc.body)
			req.Header.Set("Accept", "application/json, text/event-stream")
			resp, err := h.client.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			var answer struct {
				Error struct{ Code float64 }
			}
			if err := json.NewDecoder(resp.Body).Decode(&answer); err != nil {
				t.Fatalf("answer: %v", err)
			}
			if resp.StatusCode != tc.status || answer.Error.Code != tc.code {
				t.Errorf("%d %+v, want %d with code %v", resp.StatusCode, answer, tc.status, tc.code)
			}
		})
	}
}

// TestMCPStdioMalformed: `traced mcp` answers each malformed line with its JSON-RPC error and
// goes on serving the client, whose session keeps running.
func TestMCPStdioMalformed(t *testing.T) {
	t.Parallel()
	bin := newCLI(t).bin
	cmd := exec.Command(bin, "mcp")
	cmd.Dir = "testdata"
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	t.Cleanup(func() {
		stdin.Close() // the input's end ends traced mcp and the sessions it runs
		select {
		case err := <-exited:
			if err != nil {
				t.Errorf("traced mcp did not exit cleanly: %v", err)
			}
		case <-time.After(deadline):
			cmd.Process.Kill()
			<-exited
			t.Error("traced mcp did not end at its input's end")
		}
	})
	answers := bufio.NewReader(stdout)
	send := func(line string) map[string]any {
		t.Helper()
		if _, err := io.WriteString(stdin, line+"\n"); err != nil {
			t.Fatalf("write %q: %v", line, err)
		}
		b, err := answers.ReadBytes('\n') // traced mcp answers every line but a notification
		if err != nil {
			t.Fatalf("after %q: %v (traced mcp ended)", line, err)
		}
		var m map[string]any
		if err := json.Unmarshal(b, &m); err != nil {
			t.Fatalf("after %q: %q: %v", line, b, err)
		}
		return m
	}
	send(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"x","version":"0"}}}`)
	io.WriteString(stdin, `{"jsonrpc":"2.0","method":"notifications/initialized"}`+"\n")
	start := send(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"start","arguments":{"target":"forever.js","name":"kept"}}}`)
	if !strings.Contains(fmt.Sprint(start["result"]), "kept") {
		t.Fatalf("start: %v", start)
	}
	for line, want := range map[string]float64{
		"oops": -32700, "[]": -32600, "\x00\xff\xfe binary": -32700,
		`{"jsonrpc":"2.0","id":2,"method":5}`:              -32600,
		`{"jsonrpc":"2.0","id":3,"method":"tools/list"`:    -32700,
		`[{"jsonrpc":"2.0","id":4,"method":"tools/list"}]`: -32600, // no batches in 2025-06-18
	} {
		m := send(line)
		if e, _ := m["error"].(map[string]any); e["code"] != want {
			t.Errorf("%q: answered %v, want code %v", line, m, want)
		}
	}
	state := send(`{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"sessions","arguments":{}}}`)
	if !strings.Contains(fmt.Sprint(state["result"]), "kept") {
		t.Errorf("the session did not outlive the malformed lines: %v", state)
	}
}
