package cli

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/url"
	"strconv"
	"strings"
	"time"

	"traced/api"
	"traced/internal/apiclient"
)

// requestBound bounds one request. Execution commands and waits bound themselves on the
// service's side (waitMs, timeoutMs, at most a minute), so this only catches a service that
// stopped answering.
const requestBound = 2 * time.Minute

// call is one command being run: its parsed arguments and, once needed, its service and session.
type call struct {
	cmd  *command
	env  Env
	opts map[string][]string
	pos  []string
	json bool

	svc *service
	sid string // the session, once resolved
}

func (c *call) flag(name string) bool { return len(c.opts[name]) > 0 }

func (c *call) str(name string) string {
	if v := c.opts[name]; len(v) > 0 {
		return v[len(v)-1]
	}
	return ""
}

func (c *call) list(name string) []string { return c.opts[name] }

// num reads an optional numeric flag; ok is false when absent.
func (c *call) num(name string) (n int, ok bool, err error) {
	s := c.str(name)
	if s == "" {
		return 0, false, nil
	}
	n, err = intArg("--"+name, s)
	return n, err == nil, err
}

// ms reads an optional duration flag ("5s", "500ms", or bare milliseconds) as milliseconds.
func (c *call) ms(name string) (int64, bool, error) {
	s := c.str(name)
	if s == "" {
		return 0, false, nil
	}
	if n, err := strconv.ParseInt(s, 10, 64); err == nil && n >= 0 {
		return n, true, nil
	}
	d, err := time.ParseDuration(s)
	if err != nil || d < 0 {
		return 0, false, usageErr("--%s: %q is not a duration (e.g. 10s, 500ms)", name, s)
	}
	return d.Milliseconds(), true, nil
}

func (c *call) close() {
	if c.svc != nil {
		c.svc.http.CloseIdleConnections()
	}
}

// do sends one request. path may hold {session}, and query values "{session}", both replaced
// by the chosen session. A 4xx or 5xx answer is returned as a cliError (exit 1) whose hint is
// in CLI words.
func (c *call) do(method, path string, q url.Values, body any) (*apiclient.Reply, error) {
	if strings.Contains(path, "{session}") || q.Get("id") == "{session}" {
		sid, err := c.session()
		if err != nil {
			return nil, err
		}
		path = strings.ReplaceAll(path, "{session}", url.PathEscape(sid))
		if q.Get("id") == "{session}" {
			q.Set("id", sid)
		}
	}
	if t := c.str("target"); t != "" && targetRoute(method, path) {
		if q == nil {
			q = url.Values{}
		}
		q.Set("target", t)
	}
	if !c.json && apiclient.TextRoute(path) {
		if q == nil {
			q = url.Values{}
		}
		q.Set("format", "text")
	}
	var r *apiclient.Reply
	err := c.with(func(ctx context.Context, cl *apiclient.Client) (err error) {
		r, err = cl.Do(ctx, method, path, q, body)
		return err
	})
	return r, err
}

// with runs fn with the typed client of the service, bounded by requestBound. When nothing
// answers and the command may start a service, nothing was sent: it starts one and runs fn
// there. A refusal of the API becomes a cliError whose hint is in CLI words.
func (c *call) with(fn func(context.Context, *apiclient.Client) error) error {
	run := func(svc *service) error {
		ctx, cancel := context.WithTimeout(context.Background(), requestBound)
		defer cancel()
		return fn(ctx, apiclient.New("http://"+svc.addr, svc.token, svc.http))
	}
	svc, err := c.service(false)
	if err != nil {
		return err
	}
	if svc.how == "service record" || svc.how == "--addr" { // one that runs already (a default address may not)
		if err := rootRefused(c.str("root"), svc, c.env.Cwd); err != nil {
			return err
		}
	}
	err = run(svc)
	if err != nil && isDialError(err) && c.cmd.autostart && svc.how != "--addr" {
		started, serr := c.service(true)
		if serr != nil {
			return serr
		}
		svc, err = started, run(started)
	}
	var refused *apiclient.Error
	switch {
	case err == nil:
		return nil
	case errors.As(err, &refused) && isOutsideRoot(refused.Message):
		return &cliError{code: ExitRefused, msg: refused.Message, hint: outsideRootHint(svc), err: err}
	case errors.As(err, &refused):
		return &cliError{code: ExitRefused, msg: refused.Message, hint: cliHint(refused.Hint), err: err}
	case errors.Is(err, apiclient.ErrNoSession):
		return &cliError{code: ExitRefused, msg: "no session", hint: "traced launch -- app.js starts one", err: err}
	case errors.As(err, new(*url.Error)): // the request did not go through
		return unreachable(svc, err)
	}
	return err // the service answered; its answer was not what the client reads
}

func isDialError(err error) bool {
	var op *net.OpError
	return errors.As(err, &op) && op.Op == "dial"
}

func unreachable(s *service, err error) error {
	return &cliError{code: ExitUnreachable, err: err,
		msg:  fmt.Sprintf("no traced service answers at %s (%s): %v", s.addr, s.how, errors.Unwrap(err)),
		hint: "traced launch -- app.js starts one on demand; traced status says what runs where"}
}

// get, post and del send a request and print its answer.
func (c *call) get(path string, q url.Values) error { return c.show(c.do("GET", path, q, nil)) }
func (c *call) post(path string, body any) error    { return c.show(c.do("POST", path, nil, body)) }
func (c *call) del(path string) error               { return c.show(c.do("DELETE", path, nil, nil)) }

// show prints an answer as it came (text or JSON), ending it with a newline.
func (c *call) show(r *apiclient.Reply, err error) error {
	if err != nil {
		return err
	}
	c.print(r.Body)
	return nil
}

func (c *call) print(b []byte) {
	w := c.env.Stdout
	w.Write(b)
	if len(b) > 0 && b[len(b)-1] != '\n' {
		io.WriteString(w, "\n")
	}
}

// session resolves the session a command acts on: --session, TRACED_SESSION, else the API's
// default (the newest session, live or ended).
func (c *call) session() (string, error) {
	if c.sid != "" {
		return c.sid, nil
	}
	named := c.str("session")
	if named == "" {
		named = c.env.Getenv("TRACED_SESSION")
	}
	err := c.with(func(ctx context.Context, cl *apiclient.Client) (err error) {
		c.sid, err = cl.Session(ctx, named)
		return err
	})
	return c.sid, err
}

func (c *call) sessions() (sessions []api.Summary, err error) {
	err = c.with(func(ctx context.Context, cl *apiclient.Client) error {
		sessions, err = cl.Sessions(ctx)
		return err
	})
	return sessions, err
}

// doJSON sends a request for JSON whatever --json says, and decodes the answer into out.
func (c *call) doJSON(method, path string, q url.Values, body, out any) (*apiclient.Reply, error) {
	json0 := c.json
	c.json = true
	r, err := c.do(method, path, q, body)
	c.json = json0
	if err != nil || out == nil {
		return r, err
	}
	if err := json.Unmarshal(r.Body, out); err != nil {
		return r, fmt.Errorf("decode the answer of %s %s: %w", method, path, err)
	}
	return r, nil
}

// targetRoute says whether a request takes ?target=: the debugger's routes of a session, and
// the event reads (events, wait, trace), which it filters.
func targetRoute(method, path string) bool {
	switch {
	case strings.HasPrefix(path, "/api/debug/"):
		return path != "/api/debug/attach"
	case method == "GET":
		return path == "/api/trace" || path == "/api/trace/events" || path == "/api/trace/wait"
	}
	return false
}
