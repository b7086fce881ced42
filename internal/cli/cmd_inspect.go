package cli

import (
	"bytes"
	"encoding/json"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"traced/api"
	"traced/internal/apiclient"
)

func inspectCommands() []*command {
	frame := flagDef{name: "frame", kind: kindString, help: "the frame (f1, @f1 or 1; default f0, the top)"}
	allScopes := flagDef{name: "all-scopes", kind: kindBool, help: "closure and script scopes too"}
	return []*command{
		{name: "state", usage: "[-v|-s|-b|-c] [--frame fN] [--lines N]", routes: []string{dbg("GET", "state")},
			help: "where it is: source, locals (v refs), stack (f refs), breakpoints", group: gInspect, core: true,
			flags: []flagDef{
				{name: "vars", short: "v", kind: kindBool, help: "locals only"},
				{name: "stack", short: "s", kind: kindBool, help: "stack only"},
				{name: "breakpoints", short: "b", kind: kindBool, help: "breakpoints only"},
				{name: "code", short: "c", kind: kindBool, help: "source only"},
				frame, allScopes,
				{name: "lines", kind: kindString, help: "source lines above and below"},
				{name: "depth", kind: kindString, help: "value preview depth, 0 or 1"},
				{name: "async-depth", kind: kindString, help: "async parent frames shown"},
			}, run: runState},
		{name: "vars", usage: "[NAME...] [--frame fN]", routes: []string{dbg("GET", "vars")}, help: "local variables",
			group: gInspect, maxArgs: -1, flags: []flagDef{frame, allScopes},
			run: func(c *call) error {
				q, err := c.query(map[string]string{"frame": "frame", "allScopes": "all-scopes"})
				if len(c.pos) > 0 {
					q.Set("name", strings.Join(c.pos, ","))
				}
				return c.getQ("/api/debug/{session}/vars", q, err)
			}},
		{name: "stack", usage: "[--async-depth N]", routes: []string{dbg("GET", "stack")}, help: "the call stack",
			group: gInspect, flags: []flagDef{{name: "async-depth", kind: kindString, help: "async parent frames shown"}},
			run: func(c *call) error {
				q, err := c.query(map[string]string{"asyncDepth": "async-depth"})
				return c.getQ("/api/debug/{session}/stack", q, err)
			}},
		{name: "eval", usage: "EXPR [--frame fN] [--await] [--side-effect-free]", routes: []string{dbg("POST", "eval")},
			help: "evaluate in the paused frame; refs work (v1.retries)", group: gInspect, core: true, minArgs: 1, maxArgs: 1,
			flags: []flagDef{frame, {name: "await", kind: kindBool, help: "wait for a promise to settle"},
				{name: "side-effect-free", kind: kindBool, help: "refuse expressions with side effects"},
				{name: "timeout", kind: kindString, help: "bound on the evaluation, e.g. 500ms"}},
			run: runEval},
		{name: "props", usage: "REF [--depth N] [--inherited] [--internal] [--private]", routes: []string{dbg("GET", "props")},
			help: "expand a value (v1, o1); nested objects get o refs", group: gInspect, core: true, minArgs: 1, maxArgs: 1,
			flags: []flagDef{{name: "inherited", kind: kindBool, help: "the prototype chain's properties too"},
				{name: "internal", kind: kindBool, help: "V8 internals ([[PromiseState]])"},
				{name: "private", kind: kindBool, help: "private #fields"},
				{name: "depth", kind: kindString, help: "levels expanded"}},
			run: func(c *call) error {
				q, err := c.query(map[string]string{"internal": "internal", "private": "private", "depth": "depth"})
				q.Set("ref", refArg(c.pos[0]))
				if c.flag("inherited") {
					q.Set("own", "false")
				}
				return c.getQ("/api/debug/{session}/props", q, err)
			}},
		{name: "instances", usage: "EXPR [--limit N]", routes: []string{dbg("POST", "instances")},
			help: "live objects whose prototype EXPR evaluates to", group: gInspect, minArgs: 1, maxArgs: 1,
			flags: []flagDef{{name: "limit", kind: kindString, help: "objects listed"}},
			run: func(c *call) error {
				body := api.InstancesRequest{Expression: c.pos[0]}
				n, ok, err := c.num("limit")
				if err != nil {
					return err
				}
				if ok {
					body.Limit = &n
				}
				return c.post("/api/debug/{session}/instances", body)
			}},
		{name: "globals", routes: []string{dbg("GET", "globals")}, help: "global let, const and class declarations",
			group: gInspect, run: func(c *call) error { return c.get("/api/debug/{session}/globals", nil) }},
		{name: "source", usage: "[--file F] [--line N] [--lines N] [--all]", routes: []string{dbg("GET", "source")},
			help: "source around the pause, or of a file", group: gInspect,
			flags: []flagDef{{name: "file", kind: kindString, help: "the script's file or URL"}, frame,
				{name: "line", kind: kindString, help: "the line to centre on"},
				{name: "lines", kind: kindString, help: "lines on each side"},
				{name: "all", kind: kindBool, help: "the whole script"}},
			run: func(c *call) error {
				q, err := c.query(map[string]string{"file": "file", "frame": "frame", "line": "line", "lines": "lines", "all": "all"})
				return c.getQ("/api/debug/{session}/source", q, err)
			}},
		{name: "search", usage: "QUERY [--regex] [--case-sensitive]", routes: []string{dbg("GET", "search")},
			help: "search the loaded scripts", group: gInspect, minArgs: 1, maxArgs: 1,
			flags: []flagDef{{name: "regex", kind: kindBool, help: "QUERY is a regex"},
				{name: "case-sensitive", kind: kindBool, help: "match case"},
				{name: "internal", kind: kindBool, help: "node's internal scripts too"}},
			run: func(c *call) error {
				q, err := c.query(map[string]string{"regex": "regex", "caseSensitive": "case-sensitive", "internal": "internal"})
				q.Set("q", c.pos[0])
				return c.getQ("/api/debug/{session}/search", q, err)
			}},
		{name: "scripts", usage: "[--filter P]", routes: []string{dbg("GET", "scripts")}, help: "loaded scripts",
			group: gInspect, flags: []flagDef{{name: "filter", kind: kindString, help: "a part of the URL"},
				{name: "internal", kind: kindBool, help: "node's internal scripts too"}},
			run: func(c *call) error {
				q, err := c.query(map[string]string{"filter": "filter", "internal": "internal"})
				return c.getQ("/api/debug/{session}/scripts", q, err)
			}},
		{name: "console", usage: "[--since N] [--level L]", routes: []string{dbg("GET", "console")},
			help: "console output the program logged", group: gInspect, core: true,
			flags: []flagDef{{name: "since", kind: kindString, help: "the last N entries"},
				{name: "limit", kind: kindString, help: "entries at most"},
				{name: "level", kind: kindString, help: "log, warn, error..."}},
			run: func(c *call) error {
				q, err := c.query(map[string]string{"since": "since", "limit": "limit", "level": "level"})
				return c.getQ("/api/debug/{session}/console", q, err)
			}},
		{name: "exceptions", usage: "[--since N]", routes: []string{dbg("GET", "exceptions")}, help: "exceptions thrown",
			group: gInspect, flags: []flagDef{{name: "since", kind: kindString, help: "the last N entries"},
				{name: "limit", kind: kindString, help: "entries at most"}},
			run: func(c *call) error {
				q, err := c.query(map[string]string{"since": "since", "limit": "limit"})
				return c.getQ("/api/debug/{session}/exceptions", q, err)
			}},
		{name: "contexts", routes: []string{dbg("GET", "contexts")}, help: "V8 execution contexts (vm, workers)",
			group: gInspect, run: func(c *call) error { return c.get("/api/debug/{session}/contexts", nil) }},
		{name: "targets", routes: []string{dbg("GET", "targets")}, help: "the main thread and worker threads, with their status",
			group: gInspect, run: func(c *call) error { return c.get("/api/debug/{session}/targets", nil) }},
		{name: "gc-refs", routes: []string{dbg("DELETE", "refs")}, help: "forget the o refs kept so far", group: gInspect,
			run: func(c *call) error { return c.del("/api/debug/{session}/refs") }},

		// Mutation.
		{name: "set", usage: "NAME|REF VALUE [--frame fN]", routes: []string{dbg("POST", "set")},
			help: "change a variable (VALUE is JSON or a JS primitive)", group: gMutate, core: true,
			minArgs: 2, maxArgs: 2, flags: []flagDef{frame}, run: runSet},
		{name: "set-return", usage: "VALUE", routes: []string{dbg("POST", "set-return")},
			help: "change the return value (paused at a return)", group: gMutate, minArgs: 1, maxArgs: 1,
			run: func(c *call) error {
				return c.post("/api/debug/{session}/set-return", api.SetReturnRequest{Value: jsonString(c.pos[0])})
			}},
		{name: "hotpatch", usage: "FILE [--dry-run]", routes: []string{dbg("POST", "hotpatch")},
			help: "replace a loaded script's code with FILE's (not on node 26: use restart)", group: gMutate, core: true,
			minArgs: 1, maxArgs: 1, flags: []flagDef{{name: "dry-run", kind: kindBool, help: "check only"}, waitFlag},
			run: runHotpatch},
		{name: "hook", usage: "NAME", routes: []string{dbg("POST", "hooks")},
			help: "add a global function NAME the program can call; each call becomes a hook event", group: gMutate,
			minArgs: 1, maxArgs: 1,
			run: func(c *call) error { return c.post("/api/debug/{session}/hooks", api.HookRequest{Name: c.pos[0]}) }},
		{name: "hooks", routes: []string{dbg("GET", "hooks")}, help: "list hooks", group: gMutate,
			run: func(c *call) error { return c.get("/api/debug/{session}/hooks", nil) }},
		{name: "blackbox", usage: "PATTERN...", routes: []string{dbg("POST", "blackbox")},
			help: "step over scripts whose URL matches", group: gMutate, minArgs: 1, maxArgs: -1,
			run: func(c *call) error {
				return c.post("/api/debug/{session}/blackbox", api.BlackboxRequest{Patterns: c.pos})
			}},
		{name: "blackbox-ls", routes: []string{dbg("GET", "blackbox")}, help: "list blackbox patterns", group: gMutate,
			run: func(c *call) error { return c.get("/api/debug/{session}/blackbox", nil) }},
		{name: "blackbox-rm", usage: "all", routes: []string{dbg("DELETE", "blackbox")}, help: "remove every blackbox pattern",
			group: gMutate, maxArgs: 1, run: func(c *call) error { return c.del("/api/debug/{session}/blackbox") }},
		{name: "async-depth", usage: "N", routes: []string{dbg("POST", "async-depth")},
			help: "async stack depth (0 turns async stacks off)", group: gMutate, minArgs: 1, maxArgs: 1,
			run: func(c *call) error {
				n, err := intArg("async-depth", c.pos[0])
				if err != nil {
					return err
				}
				return c.post("/api/debug/{session}/async-depth", api.AsyncDepthRequest{Depth: &n})
			}},
		{name: "sourcemap", usage: "[FILE] | on|off", routes: []string{dbg("GET", "sourcemap"), dbg("POST", "sourcemap")},
			help: "source map status, or switch mapping", group: gMutate, maxArgs: 1,
			run: func(c *call) error {
				if len(c.pos) == 1 && (c.pos[0] == "on" || c.pos[0] == "off") {
					on, err := c.onOff()
					if err != nil {
						return err
					}
					return c.post("/api/debug/{session}/sourcemap", api.SourceMapSwitch{Enabled: on})
				}
				q := url.Values{}
				if len(c.pos) == 1 {
					q.Set("file", c.pos[0])
				}
				return c.get("/api/debug/{session}/sourcemap", q)
			}},
	}
}

// query builds query parameters from flags: param name -> flag name. Frames accept f1 and @f1.
func (c *call) query(m map[string]string) (url.Values, error) {
	q := url.Values{}
	for param, flag := range m {
		for _, f := range c.cmd.flags {
			if f.name != flag || !c.flag(flag) {
				continue
			}
			v := c.str(flag)
			if flag == "frame" {
				n, err := frameArg(v)
				if err != nil {
					return q, err
				}
				v = strconv.Itoa(n)
			}
			q.Set(param, v)
		}
	}
	return q, nil
}

func (c *call) getQ(path string, q url.Values, err error) error {
	if err != nil {
		return err
	}
	return c.get(path, q)
}

func runState(c *call) error {
	q, err := c.query(map[string]string{"frame": "frame", "lines": "lines", "depth": "depth",
		"allScopes": "all-scopes", "asyncDepth": "async-depth"})
	if err != nil {
		return err
	}
	var sections []string
	for _, s := range []struct{ flag, section string }{{"vars", "vars"}, {"stack", "stack"}, {"breakpoints", "breakpoints"}, {"code", "code"}} {
		if c.flag(s.flag) {
			sections = append(sections, s.section)
		}
	}
	if len(sections) > 0 {
		q.Set("sections", strings.Join(sections, ","))
	}
	return c.get("/api/debug/{session}/state", q)
}

func runEval(c *call) error {
	frame, err := c.frameFlag()
	if err != nil {
		return err
	}
	ms, _, err := c.ms("timeout")
	if err != nil {
		return err
	}
	r, err := c.do("POST", "/api/debug/{session}/eval", nil, api.EvalRequest{Expression: c.pos[0], Frame: frame,
		AwaitPromise: c.flag("await"), SideEffectFree: c.flag("side-effect-free"), TimeoutMs: ms})
	if err := c.show(r, err); err != nil {
		return err
	}
	// An expression that threw is a failed command: a script or an agent sees it in the status.
	if bytes.HasPrefix(r.Body, []byte("threw ")) || bytes.Contains(r.Body, []byte(`"exception":"`)) {
		return &cliError{code: ExitRefused}
	}
	return nil
}

func runSet(c *call) error {
	frame, err := c.frameFlag()
	if err != nil {
		return err
	}
	body := api.SetRequest{Value: jsonString(c.pos[1]), Frame: frame}
	if t := strings.TrimPrefix(c.pos[0], "@"); len(t) > 1 && t[0] == 'v' && isDigits(t[1:]) {
		body.Ref = t
	} else {
		body.Name = c.pos[0]
	}
	return c.post("/api/debug/{session}/set", body)
}

// frameFlag reads --frame (f1, @f1 or 1); absent is the top frame, 0.
func (c *call) frameFlag() (int, error) {
	if f := c.str("frame"); f != "" {
		return frameArg(f)
	}
	return 0, nil
}

// jsonString is s as a JSON string: a value argument goes as the text the user typed, which the
// service reads as JSON, a JS primitive or a ref.
func jsonString(s string) json.RawMessage {
	b, _ := json.Marshal(s) // a string always encodes
	return b
}

func isDigits(s string) bool {
	for _, r := range s {
		if r < '0' || r > '9' {
			return false
		}
	}
	return s != ""
}

// runHotpatch sends the file's path as the service resolves it: absolute, from this directory.
func runHotpatch(c *call) error {
	file := c.pos[0]
	if !filepath.IsAbs(file) {
		file = filepath.Join(c.env.Cwd, file)
	}
	if _, err := os.Stat(file); err != nil {
		return &cliError{code: ExitUsage, msg: "hotpatch: " + err.Error(), err: err}
	}
	wait, err := c.waitFlag(apiclient.ClampWait)
	if err != nil {
		return err
	}
	return c.post("/api/debug/{session}/hotpatch", api.HotpatchRequest{File: file, DryRun: c.flag("dry-run"), WaitMs: wait})
}
