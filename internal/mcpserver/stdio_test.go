package mcpserver

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// lineClient drives a server over LineTransport through pipes, one line at a time.
type lineClient struct {
	t   *testing.T
	in  *io.PipeWriter
	out *bufio.Reader
}

func newLineClient(t *testing.T, tr *LineTransport) *lineClient {
	t.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	tr.In, tr.Out = inR, outW
	s := mcp.NewServer(&mcp.Implementation{Name: "t", Version: "0"}, nil)
	mcp.AddTool(s, &mcp.Tool{Name: "big"}, func(_ context.Context, _ *mcp.CallToolRequest, in struct{ N int }) (*mcp.CallToolResult, any, error) {
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: strings.Repeat("x", in.N)}}}, nil, nil
	})
	// Not t.Context(): that ends before the cleanup that waits for the server.
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	done := make(chan error, 1)
	go func() {
		done <- s.Run(ctx, tr)
		outW.Close() // a server that ended answers EOF to the reads that follow
	}()
	t.Cleanup(func() {
		inW.Close() // the input's end ends the session
		select {
		case <-done:
		case <-ctx.Done():
			t.Error("the server did not end at its input's end")
		}
		cancel()
	})
	return &lineClient{t: t, in: inW, out: bufio.NewReader(outR)}
}

// send writes one line and reads the one answer line.
func (c *lineClient) send(line string) map[string]any {
	c.t.Helper()
	c.write(line)
	return c.read()
}

func (c *lineClient) write(line string) {
	c.t.Helper()
	if _, err := io.WriteString(c.in, line+"\n"); err != nil {
		c.t.Fatalf("write %q: %v", line, err)
	}
}

func (c *lineClient) read() map[string]any {
	c.t.Helper()
	b, err := c.out.ReadBytes('\n')
	if err != nil {
		c.t.Fatalf("read: %v", err)
	}
	var m map[string]any
	if strings.HasPrefix(string(b), "[") {
		var arr []any
		if err := json.Unmarshal(b, &arr); err != nil {
			c.t.Fatalf("answer %q: %v", b, err)
		}
		return map[string]any{"batch": arr}
	}
	if err := json.Unmarshal(b, &m); err != nil {
		c.t.Fatalf("answer %q: %v", b, err)
	}
	return m
}

func code(m map[string]any) float64 {
	e, _ := m["error"].(map[string]any)
	c, _ := e["code"].(float64)
	return c
}

const initLine = `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"%s","capabilities":{},"clientInfo":{"name":"x","version":"0"}}}`

// TestLineTransportMalformed: each malformed line is answered with its JSON-RPC error and the
// session goes on; the SDK's own transport ends at the first one.
func TestLineTransportMalformed(t *testing.T) {
	c := newLineClient(t, &LineTransport{MaxLine: 1 << 10})
	if m := c.send(fmt.Sprintf(initLine, "2025-03-26")); m["result"] == nil {
		t.Fatalf("initialize: %v", m)
	}
	c.write(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	cases := []struct {
		line string
		code float64
		id   any
	}{
		{"oops", -32700, nil},
		{"[]", -32600, nil},
		{"\x00\x01\xff\xfe", -32700, nil},
		{`{"jsonrpc":"2.0","id":7,"method":5}`, -32600, float64(7)},
		{`{"jsonrpc":"2.0","id":8,"method":"tools/list"`, -32700, nil},
		{`{"jsonrpc":"2.0","id":9,"method":"tools/list"} {"jsonrpc":"2.0","id":10,"method":"tools/list"}`, -32700, nil},
		{`42`, -32600, nil},
		{`{"jsonrpc":"2.0","id":{},"method":"tools/list"}`, -32600, nil},
		{strings.Repeat("[", 600) + strings.Repeat("]", 600), -32600, nil},
		{`{"jsonrpc":"2.0","id":11,"method":"` + strings.Repeat("x", 2<<10) + `"}`, -32600, nil},
		{`[{"jsonrpc":"2.0","id":1,"method":"tools/list"},{"jsonrpc":"2.0","id":1,"method":"tools/list"}]`, -32600, nil},
		{"[" + strings.TrimSuffix(strings.Repeat(`{"jsonrpc":"2.0","method":"x"},`, 51), ",") + "]", -32600, nil},
	}
	for _, tc := range cases {
		m := c.send(tc.line)
		if code(m) != tc.code || m["id"] != tc.id {
			t.Errorf("%.40q: answered %v, want code %v id %v", tc.line, m, tc.code, tc.id)
		}
	}
	// A batch with notifications is answered (the SDK waits for an answer to each member).
	m := c.send(`[{"jsonrpc":"2.0","method":"notifications/x"},{"jsonrpc":"2.0","id":"a","method":"tools/list"},{"jsonrpc":"2.0","method":"notifications/y"}]`)
	if b, _ := m["batch"].([]any); len(b) != 1 {
		t.Errorf("batch with notifications: %v", m)
	}
	// Still serving.
	if m := c.send(`{"jsonrpc":"2.0","id":12,"method":"tools/list"}`); m["result"] == nil || m["id"] != float64(12) {
		t.Errorf("tools/list after the malformed lines: %v", m)
	}
}

// TestLineTransportNoBatches: after an initialize of a version without batches, a batch is
// answered -32600 (the SDK ends the connection at it).
func TestLineTransportNoBatches(t *testing.T) {
	c := newLineClient(t, &LineTransport{})
	c.send(fmt.Sprintf(initLine, "2025-06-18"))
	if m := c.send(`[{"jsonrpc":"2.0","id":1,"method":"tools/list"}]`); code(m) != -32600 {
		t.Errorf("batch on 2025-06-18: %v", m)
	}
	if m := c.send(`{"jsonrpc":"2.0","id":2,"method":"tools/list"}`); m["result"] == nil {
		t.Errorf("tools/list after the batch: %v", m)
	}
}

// TestLineTransportAnswerCap: an answer over the cap is replaced by an error answer to its id.
func TestLineTransportAnswerCap(t *testing.T) {
	c := newLineClient(t, &LineTransport{MaxAnswer: 4 << 10})
	c.send(fmt.Sprintf(initLine, "2025-03-26"))
	c.write(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	m := c.send(`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"big","arguments":{"N":10000}}}`)
	if code(m) != -32603 || m["id"] != float64(3) || !strings.Contains(fmt.Sprint(m), "cap") {
		t.Errorf("an answer over the cap: %.300v", m)
	}
	m = c.send(`[{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"big","arguments":{"N":3000}}},{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"big","arguments":{"N":3000}}}]`)
	b, _ := m["batch"].([]any)
	if len(b) != 2 || code(b[0].(map[string]any)) != -32603 {
		t.Errorf("a batch answer over the cap: %.300v", m)
	}
	if m := c.send(`{"jsonrpc":"2.0","id":6,"method":"tools/call","params":{"name":"big","arguments":{"N":10}}}`); m["result"] == nil {
		t.Errorf("a small call after: %v", m)
	}
}
