package mcpserver

import (
	"context"
	"fmt"
	"net/url"
	"strconv"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"traced/api"
	"traced/internal/apiclient"
	"traced/internal/locspec"
	"traced/internal/textform"
)

// tools is every tool, in the order tools/list shows them.
func tools() []tool {
	return append(append(sessionTools(), debugTools()...), profileTools()...)
}

type startIn struct {
	Target      string            `json:"target" jsonschema:"script path, relative to cwd"`
	Cwd         string            `json:"cwd,omitempty" jsonschema:"working directory, relative to the workspace root or absolute inside it (default: the root)"`
	Args        []string          `json:"args,omitempty"`
	Mode        string            `json:"mode,omitempty" jsonschema:"default debug; trace only observes"`
	Breakpoints []string          `json:"breakpoints,omitempty" jsonschema:"file:line or file:line:condition"`
	Logpoints   []string          `json:"logpoints,omitempty" jsonschema:"file:line:template, e.g. app.js:9:i=${i}"`
	Brk         bool              `json:"brk,omitempty" jsonschema:"pause at the first line"`
	Catch       string            `json:"catch,omitempty" jsonschema:"which exceptions pause"`
	NodeArgs    []string          `json:"nodeArgs,omitempty"`
	Env         map[string]string `json:"env,omitempty"`
	Name        string            `json:"name,omitempty"`
	WaitMs      int64             `json:"waitMs,omitempty" jsonschema:"wait for the first pause (default 10000)"`
	// CreationStacks: profile alive then names where each handle was created (debug; costly).
	CreationStacks bool `json:"creationStacks,omitempty" jsonschema:"debug: record where each timer, server, socket... is created, for profile alive (slows programs making many)"`
}

type attachIn struct {
	Port  int    `json:"port,omitempty" jsonschema:"inspector port on 127.0.0.1"`
	WSURL string `json:"wsUrl,omitempty"`
	Name  string `json:"name,omitempty"`
}

type waitIn struct {
	sessionIn
	Kinds     string  `json:"kinds,omitempty" jsonschema:"e.g. pause,exception,console,exit; default any"`
	Match     string  `json:"match,omitempty" jsonschema:"RE2 the event's text line must match"`
	Target    string  `json:"target,omitempty" jsonschema:"t0 main thread, t1... workers and children"`
	After     *uint64 `json:"after,omitempty" jsonschema:"cursor: only events after this seq (0: from the start); absent: from now"`
	TimeoutMs int64   `json:"timeoutMs,omitempty" jsonschema:"at most 60000 (default 10000)"`
}

type eventsIn struct {
	sessionIn
	Kinds  string `json:"kinds,omitempty"`
	Target string `json:"target,omitempty"`
	After  uint64 `json:"after,omitempty"`
	Limit  int    `json:"limit,omitempty" jsonschema:"1-1000"`
}

// enums are the fields that take one of a few words, by tool: the schema lists them, so a
// client can check an action before it calls.
var enums = map[string]map[string][]any{
	"start":       {"mode": {"debug", "trace"}, "catch": {"none", "uncaught", "caught", "all"}},
	"step":        {"action": {"over", "into", "out", "continue", "to", "pause", "kill", "restart-frame"}},
	"breakpoints": {"action": {"set", "remove", "list", "logpoint", "catch", "toggle"}, "mode": {"none", "uncaught", "caught", "all"}},
	"profile":     {"action": {"slow", "alive", "cpu-start", "cpu-stop", "coverage-start", "coverage-take", "coverage-stop", "save"}},
	"heap":        {"action": {"usage", "gc", "snapshot", "diff", "sample-start", "sample-stop", "job", "save", "retainers", "leak-begin", "leak-end", "leak"}},
	"patch":       {"action": {"hotpatch", "restart"}},
}

// add registers a tool whose handler answers a result (errors are results with isError). The
// input schema is inferred from In, with the enums of the tool.
func add[In any](s *mcp.Server, name, desc string, h func(context.Context, In) *mcp.CallToolResult) {
	schema, err := jsonschema.For[In](nil)
	if err != nil {
		panic(fmt.Sprintf("tool %s: input schema: %v", name, err)) // a programming error, caught by any test
	}
	for field, values := range enums[name] {
		p := schema.Properties[field]
		if p == nil {
			panic(fmt.Sprintf("tool %s: no field %s for its enum", name, field))
		}
		p.Enum = values
	}
	mcp.AddTool(s, &mcp.Tool{Name: name, Description: desc, InputSchema: schema},
		func(ctx context.Context, _ *mcp.CallToolRequest, in In) (*mcp.CallToolResult, any, error) {
			return h(ctx, in), nil, nil
		})
}

func sessionTools() []tool {
	return []tool{
		{core: true, add: func(s *mcp.Server, c *caller) {
			add(s, "start", "Run a Node.js program under traced (debug or trace); with brk or breakpoints answers the state at the first pause.", c.start)
		}},
		{add: func(s *mcp.Server, c *caller) {
			add(s, "attach", "Debug a node already running with --inspect (port or wsUrl).", c.attach)
		}},
		{add: func(s *mcp.Server, c *caller) {
			add(s, "sessions", "List sessions: id, name, mode, status, target.", func(ctx context.Context, _ struct{}) *mcp.CallToolResult {
				return answer(c.text(ctx, "GET", "/api/trace/list", nil, nil))
			})
		}},
		{core: true, add: func(s *mcp.Server, c *caller) {
			add(s, "stop", "Stop a session: SIGTERM, SIGKILL after 2 s (an attached one is detached).", inSession(c, c.stop))
		}},
		{add: func(s *mcp.Server, c *caller) {
			add(s, "delete", "Forget a finished session: its events and its name.", inSession(c, c.deleteSession))
		}},
		{core: true, add: func(s *mcp.Server, c *caller) {
			add(s, "wait", "Block (bounded) until the next matching event after a cursor; answers it, or a timeout with the window and any gap.", inSession(c, c.wait))
		}},
		{core: true, add: func(s *mcp.Server, c *caller) {
			add(s, "events", "A page of events after a cursor (console, exception, pause, exit...).", inSession(c, func(ctx context.Context, sid string, in eventsIn) *mcp.CallToolResult {
				q := url.Values{"id": {sid}}
				setStr(q, "kinds", in.Kinds)
				setStr(q, "target", in.Target)
				setNum(q, "after", int64(in.After))
				setNum(q, "limit", int64(in.Limit))
				return answer(c.text(ctx, "GET", "/api/trace/events", q, nil))
			}))
		}},
		{core: true, add: func(s *mcp.Server, c *caller) {
			add(s, "evidence", "Why a run failed: the failure and the events before it (correlation, not proof of cause).", inSession(c, func(ctx context.Context, sid string, in sessionIn) *mcp.CallToolResult {
				return answer(c.text(ctx, "GET", "/api/trace/evidence", url.Values{"id": {sid}}, nil))
			}))
		}},
	}
}

func setStr(q url.Values, k, v string) {
	if v != "" {
		q.Set(k, v)
	}
}

func setNum(q url.Values, k string, n int64) {
	if n != 0 {
		q.Set(k, strconv.FormatInt(n, 10))
	}
}

func (c *caller) start(ctx context.Context, in startIn) *mcp.CallToolResult {
	body := api.StartRequest{Target: in.Target, Cwd: in.Cwd, Mode: in.Mode, Args: in.Args, NodeArgs: in.NodeArgs, Env: in.Env,
		Name: in.Name, PauseOnExceptions: in.Catch, PauseOnStart: in.Brk, CreationStacks: in.CreationStacks}
	if body.Mode == "" {
		body.Mode = api.ModeDebug
	}
	for _, b := range in.Breakpoints {
		bp, ok := locspec.Breakpoint(b)
		if !ok {
			return errorResult(fmt.Sprintf("breakpoints: %q is not file:line[:condition]", b), `e.g. "app.js:12" or "app.js:12:i > 3"`)
		}
		body.Breakpoints = append(body.Breakpoints, bp)
	}
	for _, l := range in.Logpoints {
		lp, ok := locspec.Logpoint(l)
		if !ok {
			return errorResult(fmt.Sprintf("logpoints: %q is not file:line:template", l), `e.g. "app.js:9:i=${i}"`)
		}
		body.Logpoints = append(body.Logpoints, lp)
	}
	// It will pause: the start answers the state there, as the first step of a hunt.
	if body.Mode == api.ModeDebug && (in.Brk || len(body.Breakpoints) > 0) {
		ms := in.WaitMs
		if ms <= 0 {
			ms = apiclient.FirstPauseWaitMs
		}
		body.WaitMs = apiclient.WaitMs(ms)
	}
	started, _, err := c.api.Start(ctx, body)
	if err != nil {
		return failure(err)
	}
	line := textform.Answer(started) // the session, and what it printed first when it did not pause
	switch {
	case started.State != nil:
		return textResult(textform.Answer(started))
	case body.WaitMs == nil && body.Mode == api.ModeDebug:
		return textResult(line + "next: the tool wait {\"kinds\":\"pause\"} blocks until it pauses; state shows where")
	case body.WaitMs == nil:
		return textResult(line + "next: the tool wait {\"kinds\":\"exit\"} blocks until it ends; then events, and evidence if it failed")
	case started.Session.Status.Finished():
		return errorResult("the program ended before pausing: "+textform.Session(started.Session), "the tool events shows what it did; check the breakpoint's file and line")
	}
	return textResult(line + fmt.Sprintf("no pause within %dms; next: the tool wait {\"kinds\":\"pause\"}", *body.WaitMs))
}

func (c *caller) attach(ctx context.Context, in attachIn) *mcp.CallToolResult {
	res, _, err := c.api.Attach(ctx, api.AttachRequest{Port: in.Port, WSURL: in.WSURL, Name: in.Name})
	if err != nil {
		return failure(err)
	}
	return textResult(textform.Answer(res))
}

func (c *caller) stop(ctx context.Context, sid string, in sessionIn) *mcp.CallToolResult {
	res, _, err := c.api.Stop(ctx, sid)
	if err != nil {
		return failure(err)
	}
	return textResult(textform.Answer(api.SessionResponse{Session: res.Session, Note: res.Note}))
}

// deleteSession is DELETE /api/trace: a finished session is forgotten.
func (c *caller) deleteSession(ctx context.Context, sid string, in sessionIn) *mcp.CallToolResult {
	res, _, err := c.api.Delete(ctx, sid)
	if err != nil {
		return failure(err)
	}
	return textResult(textform.Answer(res))
}

// wait is GET /api/trace/wait. The timeout answer says what was waited for, how long, from
// which cursor, and any gap.
func (c *caller) wait(ctx context.Context, sid string, in waitIn) *mcp.CallToolResult {
	total := in.TimeoutMs
	if total <= 0 {
		total = 10000
	}
	if total > apiclient.MaxWaitMs {
		return errorResult(fmt.Sprintf("timeoutMs %d is past the bound of %d", total, apiclient.MaxWaitMs),
			fmt.Sprintf("wait at most %dms a call, then wait again with after=<next>", apiclient.MaxWaitMs))
	}
	var after uint64
	if in.After != nil {
		after = *in.After
	}
	w, _, err := c.api.Wait(ctx, apiclient.WaitQuery{Session: sid, Kinds: in.Kinds, Match: in.Match, Target: in.Target,
		After: after, FromStart: in.After != nil, TimeoutMs: total})
	if err != nil {
		return failure(err)
	}
	out := textform.Answer(w)
	if w.Event == nil {
		from := "from the call"
		if in.After != nil {
			from = fmt.Sprintf("after seq %d", after)
		}
		out += fmt.Sprintf("window: %dms %s for kinds=%s", total, from, orAny(in.Kinds))
		if in.Match != "" {
			out += fmt.Sprintf(" match=%q", in.Match)
		}
		if in.Target != "" {
			out += " target=" + in.Target
		}
		out += "\n"
		if w.TimedOut {
			out += fmt.Sprintf("hint: the tool wait again with after=%d; the tool state shows where the program is\n", w.Next)
		}
	}
	return textResult(out)
}

func orAny(s string) string {
	if s == "" {
		return "any"
	}
	return s
}
