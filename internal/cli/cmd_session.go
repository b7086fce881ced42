package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"strconv"
	"strings"

	"traced/api"
	"traced/internal/apiclient"
	"traced/internal/locspec"
	"traced/internal/textform"
)

func sessionCommands() []*command {
	startFlags := []flagDef{
		{name: "name", kind: kindString, help: "a name for the session (pick it later with --session NAME)"},
		{name: "env", kind: kindList, help: "NAME=VALUE for the program (repeatable)"},
		{name: "timeout", kind: kindString, help: "stop the program after this long, e.g. 2m"},
		{name: "node-arg", kind: kindList, help: "a flag for node itself, e.g. --test (repeatable)"},
	}
	return []*command{
		{name: "launch", usage: "[--brk] [--break FILE:LINE[:COND]]... [--name N] [--node-arg F]... -- SCRIPT [ARGS]",
			routes: []string{"POST /api/trace/start"},
			help:   "debug a program; answers what it printed first, or with --brk, --break or --catch the first pause's state",
			group:  gSession, core: true, minArgs: 1, maxArgs: -1, passThrough: true, autostart: true,
			flags: append([]flagDef{
				{name: "brk", kind: kindBool, help: "pause at the first line"},
				{name: "break", short: "b", kind: kindList, help: "FILE:LINE or FILE:LINE:CONDITION (repeatable)"},
				{name: "logpoint", kind: kindList, help: "FILE:LINE:TEMPLATE, e.g. app.js:9:i=${i} (repeatable)"},
				{name: "catch", kind: kindString, help: "pause on exceptions: none, uncaught, caught or all"},
				{name: "catch-class", kind: kindList, help: "--catch stops only at this exception class, e.g. TypeError (repeatable)"},
				{name: "wait", kind: kindString, help: "how long to wait for the first pause: with --brk or --break 10s by default, with --catch alone 3s"},
				{name: "creation-stacks", kind: kindBool, help: "record where each timer, server, socket... is created: traced alive names it (slows programs making many)"},
			}, startFlags...),
			run: runLaunch},
		{name: "trace", usage: "[--name N] [--node-arg F]... [--wait D] -- SCRIPT [ARGS]",
			routes: []string{"POST /api/trace/start", "GET /api/trace/wait", "GET /api/trace", "GET /api/trace/evidence"},
			help:   "run a program observed only; answers its output, exceptions and exit (evidence when it fails)",
			group:  gSession, core: true, minArgs: 1, maxArgs: -1, passThrough: true, autostart: true,
			flags: append([]flagDef{{name: "wait", kind: kindString, help: "how long to wait for the exit (default 30s)"}}, startFlags...),
			run:   runTrace},
		{name: "attach", usage: "PORT|WS-URL [--name N]", routes: []string{"POST /api/debug/attach"},
			help: "debug a node already started with --inspect", group: gSession, minArgs: 1, maxArgs: 1, autostart: true,
			flags: []flagDef{{name: "name", kind: kindString, help: "a name for the session"},
				{name: "catch", kind: kindString, help: "pause on exceptions: none, uncaught, caught or all"}},
			run: runAttach},
		{name: "sessions", routes: []string{"GET /api/trace/list"}, help: "list sessions", group: gSession, core: true,
			run: func(c *call) error { return c.get("/api/trace/list", nil) }},
		{name: "stop", routes: []string{"POST /api/trace/stop"}, help: "stop the session (an attached one is detached)",
			group: gSession, core: true, run: runStop},
		{name: "delete", routes: []string{"DELETE /api/trace"},
			help: "forget a finished session: its events and its name", group: gSession, run: runDelete},
		{name: "restart", usage: "[--wait D]", routes: []string{dbg("POST", "restart")},
			help: "run the program again from the start, breakpoints kept", group: gSession, flags: []flagDef{waitFlag},
			run: func(c *call) error {
				wait, err := c.waitFlag(apiclient.ClampWait)
				if err != nil {
					return err
				}
				return c.post("/api/debug/{session}/restart", api.RestartRequest{WaitMs: wait})
			}},
		{name: "status", routes: []string{"GET /api/trace/status", "GET /api/trace/list"},
			help: "what service runs where, its node and sessions", group: gService, core: true, run: runStatus},
		{name: "health", routes: []string{"GET /healthz"}, help: "whether the service answers", group: gService,
			run: func(c *call) error { return c.get("/healthz", nil) }},
		{name: "contract", routes: []string{"GET /api/openapi.yaml"}, help: "the service's OpenAPI contract", group: gService,
			run: func(c *call) error { return c.get("/api/openapi.yaml", nil) }},
		{name: "dashboard", routes: []string{"GET /ui", "GET /", "GET /ui/{asset}"},
			help: "the address of the service's live dashboard, signed in (open it in a browser)", group: gService,
			run: runDashboard},
	}
}

// runDashboard checks that the service serves its dashboard and prints the page's address with
// the token in the URL fragment, which a browser never sends to a server: the page moves it into
// the tab's session storage and removes it from the address bar.
func runDashboard(c *call) error {
	if _, err := c.do("GET", "/ui", nil, nil); err != nil {
		return err
	}
	u := "http://" + c.svc.addr + "/ui"
	if c.svc.token != "" {
		u += "#token=" + url.QueryEscape(c.svc.token)
	}
	if c.json {
		b, _ := json.Marshal(map[string]string{"url": u})
		c.print(b)
		return nil
	}
	fmt.Fprintln(c.env.Stdout, u)
	return nil
}

// startBody is the start request common to launch and trace.
func (c *call) startBody(mode string) (api.StartRequest, error) {
	body := api.StartRequest{Target: c.pos[0], Args: c.pos[1:], Cwd: c.env.Cwd, Mode: mode,
		Name: c.str("name"), NodeArgs: c.list("node-arg")}
	for _, kv := range c.list("env") {
		k, v, ok := strings.Cut(kv, "=")
		if !ok || k == "" {
			return body, usageErr("--env %q: want NAME=VALUE", kv)
		}
		if body.Env == nil {
			body.Env = map[string]string{}
		}
		body.Env[k] = v
	}
	ms, _, err := c.ms("timeout")
	body.TimeoutMs = ms
	return body, err
}

// start starts a program through the typed client; raw is the answer as it came.
func (c *call) start(body api.StartRequest) (res api.SessionResponse, raw []byte, err error) {
	err = c.with(func(ctx context.Context, cl *apiclient.Client) error {
		var r *apiclient.Reply
		res, r, err = cl.Start(ctx, body)
		if r != nil {
			raw = r.Body
		}
		return err
	})
	if err == nil {
		c.sid = res.Session.ID
	}
	return res, raw, err
}

// catchWaitMs is how long launch --catch waits for a throw when --wait does not say: enough for
// a program that fails as it starts, short for a server that does not.
const catchWaitMs = 3000

func runLaunch(c *call) error {
	body, err := c.startBody(api.ModeDebug)
	if err != nil {
		return err
	}
	body.PauseOnStart = c.flag("brk")
	body.CreationStacks = c.flag("creation-stacks")
	body.PauseOnExceptions = c.str("catch")
	body.PauseOnExceptionClasses = c.list("catch-class")
	for _, b := range c.list("break") {
		bp, ok := locspec.Breakpoint(b)
		if !ok {
			return usageErr("--break %q: want FILE:LINE or FILE:LINE:CONDITION", b)
		}
		body.Breakpoints = append(body.Breakpoints, bp)
	}
	for _, l := range c.list("logpoint") {
		lp, ok := locspec.Logpoint(l)
		if !ok {
			return usageErr("--logpoint %q: want FILE:LINE:TEMPLATE", l)
		}
		body.Logpoints = append(body.Logpoints, lp)
	}
	brk := body.PauseOnStart || len(body.Breakpoints) > 0
	catch := !brk && body.PauseOnExceptions != "" && body.PauseOnExceptions != "none"
	if brk || catch { // it will (or may) pause: the start answers the state there
		ms, _, err := c.ms("wait")
		if err != nil {
			return err
		}
		switch {
		case ms > 0:
		case brk:
			ms = apiclient.FirstPauseWaitMs
		default: // a program that throws at once does so within this; a server may never throw
			ms = catchWaitMs
		}
		body.WaitMs = apiclient.WaitMs(ms)
	}
	started, raw, err := c.start(body)
	if err != nil {
		return err
	}
	switch {
	case !brk || started.State != nil: // with --catch alone, no throw yet is no failure
		if catch && started.State == nil && !c.json {
			defer fmt.Fprintln(c.env.Stderr, "hint: no exception yet; traced wait --kinds pause waits for the throw")
		}
		if c.json {
			c.print(raw)
			return nil
		}
		c.print([]byte(textform.Answer(started)))
		return nil
	case started.Session.Status.Finished():
		fmt.Fprintln(c.env.Stdout, textform.Session(started.Session))
		return &cliError{code: ExitRefused, msg: "the program ended before pausing",
			hint: "traced events shows what it did; check the breakpoint's file and line"}
	}
	fmt.Fprintln(c.env.Stdout, textform.Session(started.Session))
	return &cliError{code: ExitRefused, msg: "no pause yet", hint: "traced wait --kinds pause waits longer; traced state shows where it is"}
}

func (c *call) showSession(s api.Summary, raw []byte) error {
	if c.json {
		c.print(raw)
	} else {
		fmt.Fprintln(c.env.Stdout, textform.Session(s))
	}
	return nil
}

func runAttach(c *call) error {
	body := api.AttachRequest{Name: c.str("name"), PauseOnExceptions: c.str("catch")}
	if port, err := strconv.Atoi(c.pos[0]); err == nil {
		body.Port = port
	} else {
		body.WSURL = c.pos[0]
	}
	var res api.SessionResponse
	var raw *apiclient.Reply
	err := c.with(func(ctx context.Context, cl *apiclient.Client) (err error) {
		res, raw, err = cl.Attach(ctx, body)
		return err
	})
	if err != nil {
		return err
	}
	return c.showSession(res.Session, raw.Body)
}

// runStop ends the session: the one session-end path of the clients (apiclient.Stop).
func runStop(c *call) error {
	sid, err := c.session()
	if err != nil {
		return err
	}
	res, raw, err := c.sessionCall(sid, (*apiclient.Client).Stop)
	if err != nil {
		return err
	}
	if err := c.showSession(res.Session, raw.Body); err != nil || c.json || res.Note == "" {
		return err
	}
	fmt.Fprintln(c.env.Stdout, res.Note)
	return nil
}

// runDelete forgets a finished session.
func runDelete(c *call) error {
	sid, err := c.session()
	if err != nil {
		return err
	}
	res, raw, err := c.sessionCall(sid, (*apiclient.Client).Delete)
	if err != nil {
		return err
	}
	if c.json {
		c.print(raw.Body)
		return nil
	}
	fmt.Fprintln(c.env.Stdout, "deleted "+textform.Session(res.Session))
	return nil
}

func runStatus(c *call) error {
	var st struct {
		Version string `json:"version"`
		Node    struct {
			Found   bool   `json:"found"`
			Path    string `json:"path"`
			Version string `json:"version"`
		} `json:"node"`
		Auth   bool   `json:"auth"`
		Root   string `json:"root"`
		Export *struct {
			Endpoint  string `json:"endpoint"`
			Spans     int    `json:"spans"`
			Events    int    `json:"events"`
			Dropped   int    `json:"dropped"`
			LastError string `json:"lastError"`
		} `json:"export"`
	}
	r, err := c.doJSON("GET", "/api/trace/status", nil, nil, &st)
	if err != nil {
		return err
	}
	sessions, err := c.sessions()
	if err != nil {
		return err
	}
	if c.json {
		c.print(r.Body)
		return nil
	}
	svc := c.svc
	fmt.Fprintf(c.env.Stdout, "service  http://%s  traced %s  (%s", svc.addr, st.Version, svc.how)
	if svc.rec != nil {
		fmt.Fprintf(c.env.Stdout, ", pid %d, idle timeout %s, log %s", svc.rec.PID, svc.rec.IdleTimeout, svc.rec.Log)
	}
	fmt.Fprintf(c.env.Stdout, ")\nroot     %s\n", st.Root)
	if st.Node.Found {
		fmt.Fprintf(c.env.Stdout, "node     %s %s\n", st.Node.Version, st.Node.Path)
	} else {
		fmt.Fprintln(c.env.Stdout, "node     not found: launch and trace will fail")
	}
	if x := st.Export; x != nil {
		fmt.Fprintf(c.env.Stdout, "otlp     %s  %d spans, %d events sent, %d dropped\n", x.Endpoint, x.Spans, x.Events, x.Dropped)
		if x.LastError != "" {
			fmt.Fprintf(c.env.Stdout, "         last error: %s\n", x.LastError)
		}
	}
	live := 0
	for _, s := range sessions {
		if !s.Status.Finished() {
			live++
		}
	}
	fmt.Fprintf(c.env.Stdout, "sessions %d live, %d retained\n", live, len(sessions))
	for _, s := range sessions {
		if !s.Status.Finished() {
			fmt.Fprintf(c.env.Stdout, "  %s\n", textform.Session(s))
		}
	}
	return nil
}

// sessionCall makes a client call about one session (stop, delete) through the call's client.
func (c *call) sessionCall(sid string, f func(*apiclient.Client, context.Context, string) (api.SessionResponse, *apiclient.Reply, error)) (res api.SessionResponse, raw *apiclient.Reply, err error) {
	err = c.with(func(ctx context.Context, cl *apiclient.Client) (err error) {
		res, raw, err = f(cl, ctx, sid)
		return err
	})
	return res, raw, err
}
