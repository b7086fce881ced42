package cli

import (
	"bytes"
	"fmt"
	"net/url"
	"strings"
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
			run: func(c *call) error { return c.onOff("/api/debug/{session}/breakpoints/active", "active") }},
		{name: "break-on-load", usage: "on|off", routes: []string{dbg("POST", "breakpoints/on-load")},
			help: "pause whenever a script loads", group: gBreak, minArgs: 1, maxArgs: 1,
			run: func(c *call) error { return c.onOff("/api/debug/{session}/breakpoints/on-load", "enabled") }},
		{name: "breakable", usage: "FILE:START[-END]", routes: []string{dbg("GET", "breakable")},
			help: "lines where a breakpoint can bind", group: gBreak, minArgs: 1, maxArgs: 1,
			run: func(c *call) error {
				return c.get("/api/debug/{session}/breakable", url.Values{"location": {c.pos[0]}})
			}},
		{name: "logpoint", usage: "FILE:LINE TEMPLATE [--condition E] [--max N]", routes: []string{dbg("POST", "logpoints")},
			help: "log TEMPLATE (${expr} interpolated) at a line without pausing", group: gBreak, core: true,
			minArgs: 2, maxArgs: 2, flags: []flagDef{condFlag, {name: "max", kind: kindString, help: "stop logging after N lines"}},
			run: runLogpoint},
		{name: "logpoint-ls", routes: []string{dbg("GET", "logpoints")}, help: "list logpoints", group: gBreak,
			run: func(c *call) error { return c.get("/api/debug/{session}/logpoints", nil) }},
		{name: "catch", usage: "none|uncaught|caught|all [CLASS]...", routes: []string{dbg("POST", "pause-on-exceptions")},
			help: "pause on exceptions (of these classes only, e.g. TypeError)", group: gBreak, core: true, minArgs: 1, maxArgs: -1,
			run: func(c *call) error {
				body := map[string]any{"mode": c.pos[0]}
				if len(c.pos) > 1 {
					body["classes"] = c.pos[1:]
				}
				return c.post("/api/debug/{session}/pause-on-exceptions", body)
			}},

		// Execution: each answers the state at the next pause.
		{name: "continue", usage: "[--wait D]", routes: []string{dbg("POST", "continue")}, help: "resume until the next pause",
			group: gExec, core: true, flags: []flagDef{waitFlag},
			run: func(c *call) error { return c.post("/api/debug/{session}/continue", c.waitBody(nil)) }},
		{name: "step", usage: "[over|into|out]", routes: []string{dbg("POST", "step")}, help: "step a line (over by default)",
			group: gExec, core: true, maxArgs: 1, flags: []flagDef{waitFlag}, run: runStep},
		{name: "run-to", usage: "FILE:LINE", routes: []string{dbg("POST", "run-to")}, help: "run to a line (no breakpoint left)",
			group: gExec, core: true, minArgs: 1, maxArgs: 1, flags: []flagDef{waitFlag},
			run: func(c *call) error {
				return c.post("/api/debug/{session}/run-to", c.waitBody(map[string]any{"location": c.pos[0]}))
			}},
		{name: "pause", routes: []string{dbg("POST", "pause")}, help: "interrupt the running program", group: gExec, core: true,
			flags: []flagDef{waitFlag},
			run:   func(c *call) error { return c.post("/api/debug/{session}/pause", c.waitBody(nil)) }},
		{name: "restart-frame", usage: "[fN]", routes: []string{dbg("POST", "restart-frame")},
			help: "run a frame again from its start", group: gExec, maxArgs: 1, flags: []flagDef{waitFlag},
			run: func(c *call) error {
				body := map[string]any{}
				if len(c.pos) > 0 {
					body["frame"] = "f" + strings.TrimPrefix(strings.TrimPrefix(c.pos[0], "@"), "f")
				}
				return c.post("/api/debug/{session}/restart-frame", c.waitBody(body))
			}},
		{name: "kill-execution", routes: []string{dbg("POST", "kill-execution")},
			help: "end the running JavaScript (a stuck loop), keep the session", group: gExec, flags: []flagDef{waitFlag},
			run: func(c *call) error { return c.post("/api/debug/{session}/kill-execution", c.waitBody(nil)) }},
	}
}

// waitBody adds --wait (the execution routes' waitMs) to a request body.
func (c *call) waitBody(body map[string]any) any {
	if body == nil {
		body = map[string]any{}
	}
	if ms, ok, err := c.ms("wait"); err == nil && ok {
		body["waitMs"] = min(ms, 60000)
	}
	return body
}

func (c *call) onOff(path, field string) error {
	var on bool
	switch c.pos[0] {
	case "on", "true":
		on = true
	case "off", "false":
	default:
		return usageErr("%s takes on or off", c.cmd.name)
	}
	return c.post(path, map[string]any{field: on})
}

func runBreak(c *call) error {
	body := map[string]any{}
	if p := c.str("pattern"); p != "" {
		i := strings.LastIndexByte(p, ':')
		line, err := 0, error(nil)
		if i > 0 {
			line, err = intArg("--pattern line", p[i+1:])
		}
		if i <= 0 || err != nil || len(c.pos) > 0 {
			return usageErr("break --pattern takes REGEX:LINE and no location")
		}
		body["urlRegex"], body["line"] = p[:i], line
	} else if len(c.pos) == 1 {
		body["location"] = c.pos[0]
	} else {
		return usageErr("break takes FILE:LINE or --pattern REGEX:LINE")
	}
	if err := c.condHit(body); err != nil {
		return err
	}
	return c.post("/api/debug/{session}/breakpoints", body)
}

func runBreakFn(c *call) error {
	body := map[string]any{"expression": c.pos[0]}
	if err := c.condHit(body); err != nil {
		return err
	}
	return c.post("/api/debug/{session}/breakpoints/function", body)
}

func (c *call) condHit(body map[string]any) error {
	if cond := c.str("condition"); cond != "" {
		body["condition"] = cond
	}
	n, ok, err := c.num("hit-count")
	if ok {
		body["hitCount"] = n
	}
	return err
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
		fmt.Fprintf(c.env.Stdout, "{\"breakpoints\":%s,\"logpoints\":%s}\n", bytes.TrimSpace(bps.body), bytes.TrimSpace(lps.body))
		return nil
	}
	c.print(bps.body)
	c.print(lps.body)
	return nil
}

func runToggle(c *call) error {
	body := map[string]any{}
	switch {
	case c.flag("on") && c.flag("off"):
		return usageErr("break-toggle takes --on or --off, not both")
	case c.flag("on"):
		body["enabled"] = true
	case c.flag("off"):
		body["enabled"] = false
	}
	return c.post("/api/debug/{session}/breakpoints/"+url.PathEscape(refArg(c.pos[0]))+"/toggle", body)
}

func runLogpoint(c *call) error {
	body := map[string]any{"location": c.pos[0], "template": c.pos[1]}
	if cond := c.str("condition"); cond != "" {
		body["condition"] = cond
	}
	n, ok, err := c.num("max")
	if err != nil {
		return err
	}
	if ok {
		body["max"] = n
	}
	return c.post("/api/debug/{session}/logpoints", body)
}

func runStep(c *call) error {
	kind := "over"
	if len(c.pos) > 0 {
		kind = c.pos[0]
	}
	if kind != "over" && kind != "into" && kind != "out" {
		return usageErr("step takes over, into or out, not %q", kind)
	}
	return c.post("/api/debug/{session}/step", c.waitBody(map[string]any{"kind": kind}))
}
