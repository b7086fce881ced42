package mcpserver

import (
	"context"
	"net/url"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"traced/api"
	"traced/internal/apiclient"
	"traced/internal/textform"
)

type stepIn struct {
	sessionIn
	Action   string `json:"action,omitempty" jsonschema:"default over; each answers the next pause's state"`
	Location string `json:"location,omitempty" jsonschema:"file:line, for to"`
	Frame    int    `json:"frame,omitempty" jsonschema:"for restart-frame: 0 is the top"`
	Target   string `json:"target,omitempty"`
	WaitMs   int64  `json:"waitMs,omitempty" jsonschema:"wait for the next pause (default 5000, at most 60000)"`
}

type stateIn struct {
	sessionIn
	Frame  int    `json:"frame,omitempty"`
	Lines  int    `json:"lines,omitempty" jsonschema:"source lines around (default 3)"`
	Target string `json:"target,omitempty"`
}

type evalIn struct {
	sessionIn
	Expression string `json:"expression" jsonschema:"JavaScript in the paused frame (refs like v1 o2 accepted)"`
	Frame      int    `json:"frame,omitempty"`
	Await      bool   `json:"await,omitempty" jsonschema:"wait for a promise"`
}

type inspectIn struct {
	sessionIn
	Ref   string `json:"ref" jsonschema:"a value ref from state or eval: v1, o2"`
	Depth int    `json:"depth,omitempty"`
}

type breakpointsIn struct {
	sessionIn
	Action    string `json:"action"`
	Location  string `json:"location,omitempty" jsonschema:"file:line[:col]"`
	Condition string `json:"condition,omitempty"`
	HitCount  int    `json:"hitCount,omitempty"`
	Template  string `json:"template,omitempty" jsonschema:"logpoint text, ${expr} interpolated"`
	Ref       string `json:"ref,omitempty" jsonschema:"bp1, lp1 or all"`
	Mode      string `json:"mode,omitempty" jsonschema:"for catch: which exceptions pause"`
}

type patchIn struct {
	sessionIn
	Action string `json:"action" jsonschema:"hotpatch: replace a script with its file on disk"`
	File   string `json:"file,omitempty"`
	DryRun bool   `json:"dryRun,omitempty"`
	WaitMs int64  `json:"waitMs,omitempty" jsonschema:"restart: wait for the first pause (default 5000)"`
}

func debugTools() []tool {
	return []tool{
		{core: true, add: func(s *mcp.Server, c *caller) {
			add(s, "step", "Move execution (step over/into/out, continue, run to a line, pause, kill); answers the state at the next pause.", inSession(c, c.step))
		}},
		{core: true, add: func(s *mcp.Server, c *caller) {
			add(s, "state", "Where a debug session is: location, source, locals (with refs), stack, breakpoints.", inSession(c, func(ctx context.Context, sid string, in stateIn) *mcp.CallToolResult {
				q := url.Values{}
				setNum(q, "frame", int64(in.Frame))
				setNum(q, "lines", int64(in.Lines))
				setStr(q, "target", in.Target)
				return answer(c.text(ctx, "GET", debugPath(sid, "state"), q, nil))
			}))
		}},
		{core: true, add: func(s *mcp.Server, c *caller) {
			add(s, "eval", "Evaluate JavaScript in a paused frame (or globally while running); an object answers a ref to inspect.", inSession(c, func(ctx context.Context, sid string, in evalIn) *mcp.CallToolResult {
				return c.eval(ctx, sid, api.EvalRequest{Expression: in.Expression, Frame: in.Frame, AwaitPromise: in.Await})
			}))
		}},
		{add: func(s *mcp.Server, c *caller) {
			add(s, "inspect", "Expand a ref's properties (kept as an o ref that outlives the pause).", inSession(c, func(ctx context.Context, sid string, in inspectIn) *mcp.CallToolResult {
				q := url.Values{"ref": {in.Ref}}
				setNum(q, "depth", int64(in.Depth))
				return answer(c.text(ctx, "GET", debugPath(sid, "props"), q, nil))
			}))
		}},
		{core: true, add: func(s *mcp.Server, c *caller) {
			add(s, "breakpoints", "Set, remove, list or toggle breakpoints and logpoints; set the exception pause mode (catch).", inSession(c, c.breakpoints))
		}},
		{add: func(s *mcp.Server, c *caller) {
			add(s, "patch", "Hot-patch a loaded script from its file on disk, or restart the program with its breakpoints.", inSession(c, c.patch))
		}},
	}
}

// eval answers the API's text of the result, and the ref of an object or function (which the
// text form leaves out) so that inspect can expand it.
func (c *caller) eval(ctx context.Context, sid string, req api.EvalRequest) *mcp.CallToolResult {
	res, _, err := c.api.Eval(ctx, sid, req)
	if err != nil {
		return failure(err)
	}
	out := textform.Answer(res)
	if res.Ref != "" && res.Exception == "" && !primitive[res.Type] {
		out += "ref: " + res.Ref + " (the tool inspect expands it)\n"
	}
	return textResult(out)
}

// primitive are the types whose value the text shows whole: no ref is worth naming.
var primitive = map[string]bool{"number": true, "string": true, "boolean": true, "undefined": true,
	"null": true, "bigint": true, "symbol": true}

// step maps an action to its execution route; each answers the state at the next pause.
func (c *caller) step(ctx context.Context, sid string, in stepIn) *mcp.CallToolResult {
	var wait *int64 // absent: the route's default
	if in.WaitMs > 0 {
		wait = apiclient.WaitMs(in.WaitMs)
	}
	var op string
	var body any
	switch in.Action {
	case "", "over", "into", "out":
		op, body = "step", api.StepRequest{Kind: in.Action, WaitMs: wait}
	case "continue":
		op, body = "continue", api.ContinueRequest{WaitMs: wait}
	case "pause":
		op, body = "pause", api.PauseRequest{WaitMs: wait}
	case "to":
		if in.Location == "" {
			return errorResult("action to needs a location", `e.g. {"action":"to","location":"app.js:30"}`)
		}
		op, body = "run-to", api.RunToRequest{Location: in.Location, WaitMs: wait}
	case "kill":
		op, body = "kill-execution", api.KillExecutionRequest{WaitMs: wait}
	case "restart-frame":
		op, body = "restart-frame", api.RestartFrameRequest{Frame: in.Frame, WaitMs: wait}
	default:
		return errorResult("action "+quote(in.Action)+" is not one of over, into, out, continue, to, pause, kill, restart-frame", "step with no action steps over")
	}
	q := url.Values{}
	setStr(q, "target", in.Target)
	return answer(c.text(ctx, "POST", debugPath(sid, op), q, body))
}

func (c *caller) breakpoints(ctx context.Context, sid string, in breakpointsIn) *mcp.CallToolResult {
	switch in.Action {
	case "set":
		body := api.BreakpointRequest{Location: in.Location, Condition: in.Condition, HitCount: in.HitCount}
		return answer(c.text(ctx, "POST", debugPath(sid, "breakpoints"), nil, body))
	case "logpoint":
		body := api.LogpointRequest{Location: in.Location, Template: in.Template, Condition: in.Condition}
		return answer(c.text(ctx, "POST", debugPath(sid, "logpoints"), nil, body))
	case "remove":
		if in.Ref == "" {
			return errorResult("action remove needs a ref", `breakpoints {"action":"list"} shows the refs; "all" removes every one`)
		}
		return answer(c.text(ctx, "DELETE", debugPath(sid, "breakpoints/"+url.PathEscape(in.Ref)), nil, nil))
	case "toggle":
		if in.Ref == "" {
			return errorResult("action toggle needs a ref", `breakpoints {"action":"list"} shows the refs`)
		}
		return answer(c.text(ctx, "POST", debugPath(sid, "breakpoints/"+url.PathEscape(in.Ref)+"/toggle"), nil, api.ToggleRequest{}))
	case "catch":
		return answer(c.text(ctx, "POST", debugPath(sid, "pause-on-exceptions"), nil, api.PauseOnExceptionsRequest{Mode: in.Mode}))
	case "list", "":
		bps, err := c.text(ctx, "GET", debugPath(sid, "breakpoints"), nil, nil)
		if err != nil {
			return failure(err)
		}
		lps, err := c.text(ctx, "GET", debugPath(sid, "logpoints"), nil, nil)
		if err != nil {
			return failure(err)
		}
		return textResult(strings.TrimRight(string(bps.Body), "\n") + "\n" + string(lps.Body))
	}
	return errorResult("action "+quote(in.Action)+" is not one of set, remove, list, logpoint, catch, toggle", `breakpoints {"action":"list"} shows what is set`)
}

func (c *caller) patch(ctx context.Context, sid string, in patchIn) *mcp.CallToolResult {
	switch in.Action {
	case "hotpatch":
		body := api.HotpatchRequest{File: in.File, DryRun: in.DryRun}
		return answer(c.text(ctx, "POST", debugPath(sid, "hotpatch"), nil, body))
	case "restart":
		var body api.RestartRequest
		if in.WaitMs > 0 {
			body.WaitMs = apiclient.WaitMs(in.WaitMs)
		}
		return answer(c.text(ctx, "POST", debugPath(sid, "restart"), nil, body))
	}
	return errorResult("action "+quote(in.Action)+" is not hotpatch or restart", `e.g. {"action":"hotpatch","file":"app.js"} after saving the fix`)
}

func quote(s string) string { return `"` + s + `"` }
