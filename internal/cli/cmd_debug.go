package cli

import (
	"bytes"
	"fmt"
	"net/url"
	"strings"

	"traced/api"
	"traced/internal/apiclient"
)

func debugCommands() []*command {
	return []*command{
		// Breakpoints.
		{name: "break", usage: "FILE:LINE [--condition E] [--hit-count N] | --pattern REGEX:LINE",
			routes: []string{dbg("POST", "breakpoints")}, help: "set a breakpoint", group: gBreak, core: true,
			maxArgs: 1, flags: []flagDef{condFlag, hitFlag,
				{name: "pattern", kind: kindString, help: "REGEX:LINE, a breakpoint in every script whose URL matches"}},
			run: runBreak},
		{name: "break-fn", usage: "EXPR [--condition E]", routes: []string{dbg("POST", "breakpoints/function")},
			help: "break on every call of the function EXPR evaluates to", group: gBreak, minArgs: 1, maxArgs: 1,
			flags: []flagDef{condFlag, hitFlag}, run: runBreakFn},
		{name: "break-rm", usage: "REF|all", routes: []string{dbg("DELETE", "breakpoints/{ref}")},
			help: "remove a breakpoint or logpoint (bp1, lp1) or all", group: gBreak, core: true, minArgs: 1, maxArgs: 1,
			run: func(c *call) error {
				return c.del("/api/debug/{session}/breakpoints/" + url.PathEscape(refArg(c.pos[0])))
			}},
		{name: "break-ls", routes: []string{dbg("GET", "breakpoints"), dbg("GET", "logpoints")},
			help: "list breakpoints and logpoints", group: gBreak, run: runBreakLs},
		{name: "break-toggle", usage: "REF [--on|--off]", routes: []string{dbg("POST", "breakpoints/{ref}/toggle")},
			help: "enable or disable a breakpoint (flips it without a flag)", group: gBreak, minArgs: 1, maxArgs: 1,
			flags: []flagDef{{name: "on", kind: kindBool, help: "enable"}, {name: "off", kind: kindBool, help: "disable"}},
			run:   runToggle},
		{name: "break-active", usage: "on|off", routes: []string{dbg("POST", "breakpoints/active")},
			help: "switch every breakpoint on or off at once", group: gBreak, minArgs: 1, maxArgs: 1,
			run: func(c *call) error {
				on, err := c.onOff()
				if err != nil {
					return err
				}
				return c.post("/api/debug/{session}/breakpoints/active", api.ActiveRequest{Active: on})
			}},
		{name: "break-on-load", usage: "on|off", routes: []string{dbg("POST", "breakpoints/on-load")},
			help: "pause whenever a script loads", group: gBreak, minArgs: 1, maxArgs: 1,
			run: func(c *call) error {
				on, err := c.onOff()
				if err != nil {
					return err
				}
				return c.post("/api/debug/{session}/breakpoints/on-load", api.OnLoadRequest{Enabled: on})
			}},
		{name: "breakable", usage: "FILE:START[-END]", routes: []string{dbg("GET", "breakable")},
			help: "lines where a breakpoint can bind", group: gBreak, minArgs: 1, maxArgs: 1,
			run: func(c *call) error {
				return c.get("/api/debug/{session}/breakable", url.Values{"location": {c.pos[0]}})
			}},
		{name: "logpoint", usage: "FILE:LINE TEMPLATE [--condition E] [--max N]", routes: []string{dbg("POST", "logpoints")},
			help: "log TEMPLATE (${expr} interpolated) each time a line runs; the program runs on", group: gBreak, core: true,
			minArgs: 2, maxArgs: 2, flags: []flagDef{
				{name: "condition", kind: kindString, help: "log only when this expression is truthy"},
				{name: "max", kind: kindString, help: "stop logging after N lines"}},
			run: runLogpoint},
		{name: "logpoint-ls", routes: []string{dbg("GET", "logpoints")}, help: "list logpoints", group: gBreak,
			run: func(c *call) error { return c.get("/api/debug/{session}/logpoints", nil) }},
		{name: "catch", usage: "none|uncaught|caught|all [CLASS]...", routes: []string{dbg("POST", "pause-on-exceptions")},
			help: "pause on exceptions (of these classes only, e.g. TypeError)", group: gBreak, core: true, minArgs: 1, maxArgs: -1,
			run: func(c *call) error {
				return c.post("/api/debug/{session}/pause-on-exceptions",
					api.PauseOnExceptionsRequest{Mode: c.pos[0], Classes: c.pos[1:]})
			}},

		// Execution: each answers the state at the next pause.
		{name: "continue", usage: "[--all] [--wait D]", routes: []string{dbg("POST", "continue")}, help: "resume until the next pause",
			group: gExec, core: true, flags: []flagDef{waitFlag,
				{name: "all", kind: kindBool, help: "resume every paused target (workers, children), not only the one paused last"}},
			run: func(c *call) error {
				return c.execute("continue", func(wait *int64) any { return api.ContinueRequest{WaitMs: wait, All: c.flag("all")} })
			}},
		{name: "step", usage: "[over|into|out]", routes: []string{dbg("POST", "step")}, help: "step a line (over by default)",
			group: gExec, core: true, maxArgs: 1, flags: []flagDef{waitFlag}, run: runStep},
		{name: "run-to", usage: "FILE:LINE", routes: []string{dbg("POST", "run-to")}, help: "run to a line (no breakpoint left)",
			group: gExec, core: true, minArgs: 1, maxArgs: 1, flags: []flagDef{waitFlag},
			run: func(c *call) error {
				return c.execute("run-to", func(wait *int64) any { return api.RunToRequest{Location: c.pos[0], WaitMs: wait} })
			}},
		{name: "pause", routes: []string{dbg("POST", "pause")}, help: "interrupt the running program", group: gExec, core: true,
			flags: []flagDef{waitFlag},
			run: func(c *call) error {
				return c.execute("pause", func(wait *int64) any { return api.PauseRequest{WaitMs: wait} })
			}},
		{name: "restart-frame", usage: "[fN]", routes: []string{dbg("POST", "restart-frame")},
			help: "run a frame again from its start", group: gExec, maxArgs: 1, flags: []flagDef{waitFlag},
			run: func(c *call) error {
				var frame any // absent: the top frame
				if len(c.pos) > 0 {
					frame = "f" + strings.TrimPrefix(strings.TrimPrefix(c.pos[0], "@"), "f")
				}
				return c.execute("restart-frame", func(wait *int64) any { return api.RestartFrameRequest{Frame: frame, WaitMs: wait} })
			}},
		{name: "kill-execution", routes: []string{dbg("POST", "kill-execution")},
			help: "end the running JavaScript (a stuck loop), keep the session", group: gExec, flags: []flagDef{waitFlag},
			run: func(c *call) error {
				return c.execute("kill-execution", func(wait *int64) any { return api.KillExecutionRequest{WaitMs: wait} })
			}},
	}
}

// execute posts an execution command (continue, step...) of the session, its body made with
// --wait as its waitMs.
func (c *call) execute(op string, body func(wait *int64) any) error {
	wait, err := c.waitFlag(apiclient.ClampWait)
	if err != nil {
		return err
	}
	return c.post("/api/debug/{session}/"+op, body(wait))
}

// onOff reads the on|off argument of a switch command.
func (c *call) onOff() (*bool, error) {
	var on bool
	switch c.pos[0] {
	case "on", "true":
		on = true
	case "off", "false":
	default:
		return nil, usageErr("%s takes on or off", c.cmd.name)
	}
	return &on, nil
}

func runBreak(c *call) error {
	var body api.BreakpointRequest
	if p := c.str("pattern"); p != "" {
		i := strings.LastIndexByte(p, ':')
		line, err := 0, error(nil)
		if i > 0 {
			line, err = intArg("--pattern line", p[i+1:])
		}
		if i <= 0 || err != nil || len(c.pos) > 0 {
			return usageErr("break --pattern takes REGEX:LINE and no location")
		}
		body.URLRegex, body.Line = p[:i], line
	} else if len(c.pos) == 1 {
		body.Location = c.pos[0]
	} else {
		return usageErr("break takes FILE:LINE or --pattern REGEX:LINE")
	}
	hits, err := c.optNum("hit-count")
	if err != nil {
		return err
	}
	body.Condition, body.HitCount = c.str("condition"), hits
	return c.post("/api/debug/{session}/breakpoints", body)
}

func runBreakFn(c *call) error {
	hits, err := c.optNum("hit-count")
	if err != nil {
		return err
	}
	return c.post("/api/debug/{session}/breakpoints/function",
		api.FunctionBreakpointRequest{Expression: c.pos[0], Condition: c.str("condition"), HitCount: hits})
}

func runBreakLs(c *call) error {
	bps, err := c.do("GET", "/api/debug/{session}/breakpoints", nil, nil)
	if err != nil {
		return err
	}
	lps, err := c.do("GET", "/api/debug/{session}/logpoints", nil, nil)
	if err != nil {
		return err
	}
	if c.json {
		fmt.Fprintf(c.env.Stdout, "{\"breakpoints\":%s,\"logpoints\":%s}\n", bytes.TrimSpace(bps.Body), bytes.TrimSpace(lps.Body))
		return nil
	}
	c.print(bps.Body)
	c.print(lps.Body)
	return nil
}

func runToggle(c *call) error {
	var body api.ToggleRequest // Enabled absent flips it
	switch {
	case c.flag("on") && c.flag("off"):
		return usageErr("break-toggle takes --on or --off, not both")
	case c.flag("on"), c.flag("off"):
		on := c.flag("on")
		body.Enabled = &on
	}
	return c.post("/api/debug/{session}/breakpoints/"+url.PathEscape(refArg(c.pos[0]))+"/toggle", body)
}

func runLogpoint(c *call) error {
	n, err := c.optNum("max")
	if err != nil {
		return err
	}
	return c.post("/api/debug/{session}/logpoints",
		api.LogpointRequest{Location: c.pos[0], Template: c.pos[1], Condition: c.str("condition"), Max: n})
}

func runStep(c *call) error {
	kind := api.StepOver
	if len(c.pos) > 0 {
		kind = c.pos[0]
	}
	if kind != api.StepOver && kind != api.StepInto && kind != api.StepOut {
		return usageErr("step takes over, into or out, not %q", kind)
	}
	return c.execute("step", func(wait *int64) any { return api.StepRequest{Kind: kind, WaitMs: wait} })
}
