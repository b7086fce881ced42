package tests

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"traced/internal/mcpserver"
)

// mcpClient is an MCP client session on a server, with the bytes and time its tool calls took.
type mcpClient struct {
	t     *testing.T
	cs    *mcp.ClientSession
	calls int
	bytes int // of the results as JSON (what the transport carries, framing aside)
	text  int // of their text (what the agent reads)
	wall  time.Duration
}

// connectMCP connects the SDK's client to s over the in-memory transport.
func connectMCP(t *testing.T, s *mcp.Server) *mcpClient {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), deadline)
	defer cancel()
	ct, st := mcp.NewInMemoryTransports()
	ss, err := s.Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "0"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cs.Close()
		ss.Wait()
	})
	return &mcpClient{t: t, cs: cs}
}

// call calls a tool and returns its text and whether it is an error result.
func (c *mcpClient) call(name string, args map[string]any) (string, bool) {
	c.t.Helper()
	ctx, cancel := context.WithTimeout(c.t.Context(), deadline)
	defer cancel()
	start := time.Now()
	res, err := c.cs.CallTool(ctx, &mcp.CallToolParams{Name: name, Arguments: args})
	c.wall += time.Since(start)
	if err != nil {
		c.t.Fatalf("%s %v: %v", name, args, err)
	}
	raw, _ := json.Marshal(res)
	c.calls++
	c.bytes += len(raw)
	var b strings.Builder
	for _, ct := range res.Content {
		if tc, ok := ct.(*mcp.TextContent); ok {
			b.WriteString(tc.Text)
		}
	}
	c.text += b.Len()
	return b.String(), res.IsError
}

// ok calls a tool that must succeed and answer each of want.
func (c *mcpClient) ok(name string, args map[string]any, want ...string) string {
	c.t.Helper()
	text, isErr := c.call(name, args)
	if isErr {
		c.t.Fatalf("%s %v: error result:\n%s", name, args, text)
	}
	for _, w := range want {
		if !strings.Contains(text, w) {
			c.t.Fatalf("%s %v: want %q in:\n%s", name, args, w, text)
		}
	}
	return text
}

// refused calls a tool that must answer an error result holding each of want.
func (c *mcpClient) refused(name string, args map[string]any, want ...string) string {
	c.t.Helper()
	text, isErr := c.call(name, args)
	if !isErr {
		c.t.Fatalf("%s %v: want an error result, got:\n%s", name, args, text)
	}
	for _, w := range want {
		if !strings.Contains(text, w) {
			c.t.Fatalf("%s %v: want %q in the error:\n%s", name, args, w, text)
		}
	}
	return text
}

// TestMCPRetryHunt runs the CLI's retry hunt through the MCP tools, over the SDK's in-memory
// transport and over /mcp (Streamable HTTP), each answer checked, and logs its calls, bytes and
// time beside the REST hunt's (TestCLIRetryHunt logs the CLI's).
func TestMCPRetryHunt(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	mem := mcpHunt(t, h, connectMCP(t, h.svc.MCP), "hunt")
	web := mcpHunt(t, h, &mcpClient{t: t, cs: connectHTTP(t, h.base)}, "hunt-http")
	restBytes, restCalls, restWall := restHunt(t, h)
	for _, m := range []struct {
		how string
		c   *mcpClient
	}{{"in-memory transport", mem}, {"Streamable HTTP, /mcp", web}} {
		t.Logf("retry hunt: MCP (%s) %d tool calls, %d bytes of text (%d of JSON results), %v wall",
			m.how, m.c.calls, m.c.text, m.c.bytes, m.c.wall.Round(time.Millisecond))
	}
	t.Logf("retry hunt: REST %d requests, %d bytes of answers, %v wall (in-process client)", restCalls, restBytes, restWall.Round(time.Millisecond))
}

// mcpHunt is the hunt in five tool calls: stop in the retry loop on the second attempt, read
// the job, step, let it finish, read what it printed.
func mcpHunt(t *testing.T, h *harness, c *mcpClient, name string) *mcpClient {
	t.Helper()
	c.ok("start", map[string]any{"target": "retry.js", "name": name, "breakpoints": []string{"retry.js:4:job.retries === 2"}},
		name+"  debug  paused", "paused at retry.js:4 (bp1, hit 1)", "retries: 2", "f0 attempt")
	h.stopAtCleanup(name)
	c.ok("eval", map[string]any{"expression": "job.retries"}, "2  (number)")
	c.ok("step", nil, "paused at retry.js:5", "returns: false")
	c.ok("step", map[string]any{"action": "continue"}, "exited")
	c.ok("events", map[string]any{"kinds": "console"}, "retry 1", "retry 2", "done after 3")
	if c.calls > 5 {
		t.Errorf("the hunt took %d tool calls, want at most 5", c.calls)
	}
	return c
}

// TestMCPToolsBudget measures the tools/list answer of both tool sets: the whole list must stay
// under 12 KB, the core set must be a strict subset of it.
func TestMCPToolsBudget(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	sizes := map[string]int{}
	names := map[string][]string{}
	for _, set := range []string{"all", "core"} {
		s, err := mcpserver.New(mcpserver.Options{API: h.svc.Router, Token: testToken, Tools: set, Version: "test"})
		if err != nil {
			t.Fatal(err)
		}
		c := connectMCP(t, s)
		res, err := c.cs.ListTools(t.Context(), nil)
		if err != nil {
			t.Fatal(err)
		}
		raw, err := json.Marshal(res)
		if err != nil {
			t.Fatal(err)
		}
		sizes[set] = len(raw)
		for _, tl := range res.Tools {
			names[set] = append(names[set], tl.Name)
			if n := strings.Count(tl.Description, ". "); n > 1 || len(tl.Description) > 160 {
				t.Errorf("tool %s: description of %d bytes, %d sentences; keep it to one or two short lines", tl.Name, len(tl.Description), n+1)
			}
		}
	}
	t.Logf("tools/list: all %d tools %d bytes (%v); core %d tools %d bytes (%v)",
		len(names["all"]), sizes["all"], names["all"], len(names["core"]), sizes["core"], names["core"])
	if sizes["all"] >= 12*1024 {
		t.Errorf("tools/list is %d bytes, want under 12 KB", sizes["all"])
	}
	if len(names["core"]) >= len(names["all"]) || sizes["core"] >= sizes["all"] {
		t.Errorf("core set (%d tools, %d bytes) is not smaller than all (%d tools, %d bytes)", len(names["core"]), sizes["core"], len(names["all"]), sizes["all"])
	}
	for _, name := range names["core"] {
		if !slices.Contains(names["all"], name) {
			t.Errorf("core tool %s is not in the full set %v", name, names["all"])
		}
	}
	if _, err := mcpserver.New(mcpserver.Options{API: h.svc.Router, Tools: "most"}); err == nil {
		t.Error("tool set \"most\" was accepted")
	}
}
