// Package mcpserver serves traced's debugger as Model Context Protocol tools: task-sized tools
// (start, step, state, eval, wait, evidence...) that are each a few calls of traced's own REST
// API, sent in process through the service's handler. The tools are therefore as thin as the CLI:
// the same contract checks, the same errors (their hints naming tools), the same compact text.
package mcpserver

import (
	"context"
	"fmt"
	"net/http"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"traced/internal/apiclient"
)

// Options configure the MCP server.
type Options struct {
	// API is traced's REST API (the service's router); the tools call it in process.
	API http.Handler
	// Token is the service's bearer token ("" when auth is off).
	Token string
	// Tools is "all" (the default) or "core", the smaller set an agent needs for a hunt.
	Tools   string
	Version string
}

// CheckTools refuses a tool set other than all, core or "" (all). New checks it; a command
// checks its flag with it before anything it cannot undo.
func CheckTools(set string) error {
	switch set {
	case "", "all", "core":
		return nil
	}
	return fmt.Errorf("tool set %q: want all or core", set)
}

// tool is one tool of the server: its definition, whether it is in the core set, and how it
// registers its handler.
type tool struct {
	core bool
	add  func(*mcp.Server, *caller)
}

// New builds the server with the tools of o.Tools.
func New(o Options) (*mcp.Server, error) {
	if err := CheckTools(o.Tools); err != nil {
		return nil, err
	}
	s := mcp.NewServer(&mcp.Implementation{Name: "traced", Version: o.Version},
		&mcp.ServerOptions{Instructions: instructions})
	c := newCaller(o.API, o.Token)
	for _, t := range tools() {
		if o.Tools != "core" || t.core {
			t.add(s, c)
		}
	}
	return s, nil
}

// HTTPHandler serves s over the Streamable HTTP transport, stateless: every POST is a whole
// exchange, no MCP session outlives its request, and debug sessions (which are traced's, named by
// id) are shared with every other client of the service.
// Each POST body is checked first (checkedPOST).
func HTTPHandler(s *mcp.Server) http.Handler {
	return checkedPOST(mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s },
		&mcp.StreamableHTTPOptions{Stateless: true, JSONResponse: true}))
}

// sessionIn is the session field every session tool takes.
type sessionIn struct {
	Session string `json:"session,omitempty" jsonschema:"id or name; default: the newest session, live or ended"`
}

func (s sessionIn) named() string { return s.Session }

// inSession makes the handler of a session tool: it resolves the session the input names (else
// the default) and hands its id to h, so that no tool repeats that step.
func inSession[In interface{ named() string }](c *caller, h func(context.Context, string, In) *mcp.CallToolResult) func(context.Context, In) *mcp.CallToolResult {
	return func(ctx context.Context, in In) *mcp.CallToolResult {
		sid, err := c.api.Session(ctx, in.named())
		if err != nil {
			return failure(err)
		}
		return h(ctx, sid, in)
	}
}

// debugPath is the path of a debug route of a session.
func debugPath(sid, op string) string { return apiclient.DebugPath(sid, op) }
