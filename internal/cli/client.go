package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"traced/api"
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

// reply is an answer of the API.
type reply struct {
	status int
	body   []byte
}

// do sends one request. path may hold {session}, and query values "{session}", both replaced
// by the chosen session. A 4xx or 5xx answer is returned as a cliError (exit 1) whose hint is
// in CLI words.
func (c *call) do(method, path string, q url.Values, body any) (*reply, error) {
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
	if !c.json && textRoute(path) {
		if q == nil {
			q = url.Values{}
		}
		q.Set("format", "text")
	}
	var raw []byte
	if body != nil {
		var err error
		if raw, err = json.Marshal(body); err != nil {
			return nil, fmt.Errorf("encode request: %w", err)
		}
	}
	svc, err := c.service(false)
	if err != nil {
		return nil, err
	}
	r, err := svc.send(method, path, q, raw)
	if err != nil && isDialError(err) && c.cmd.autostart && svc.how != "--addr" {
		// Nothing was sent: start a service and send it there.
		if svc, err = c.service(true); err == nil {
			r, err = svc.send(method, path, q, raw)
		}
	}
	if err != nil {
		return nil, unreachable(svc, err)
	}
	if r.status >= 400 {
		return r, apiError(r)
	}
	return r, nil
}

// textRoute reports whether a route answers the compact text form (?format=text): every debug
// route and the trace reads; start, stop and status answer JSON only.
func textRoute(path string) bool {
	if strings.HasPrefix(path, "/api/debug/") {
		return true
	}
	switch path {
	case "/api/trace", "/api/trace/list", "/api/trace/events", "/api/trace/wait", "/api/trace/evidence":
		return true
	}
	return false
}

func (s *service) send(method, path string, q url.Values, body []byte) (*reply, error) {
	u := "http://" + s.addr + path
	if len(q) > 0 {
		u += "?" + q.Encode()
	}
	ctx, cancel := context.WithTimeout(context.Background(), requestBound)
	defer cancel()
	var rd io.Reader
	if body != nil {
		rd = bytes.NewReader(body)
	}
	req, err := http.NewRequestWithContext(ctx, method, u, rd)
	if err != nil {
		return nil, fmt.Errorf("request %s %s: %w", method, path, err)
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if s.token != "" {
		req.Header.Set("Authorization", "Bearer "+s.token)
	}
	resp, err := s.http.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		return nil, fmt.Errorf("read answer of %s %s: %w", method, path, err)
	}
	return &reply{status: resp.StatusCode, body: b}, nil
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
func (c *call) show(r *reply, err error) error {
	if err != nil {
		return err
	}
	c.print(r.body)
	return nil
}

func (c *call) print(b []byte) {
	w := c.env.Stdout
	w.Write(b)
	if len(b) > 0 && b[len(b)-1] != '\n' {
		io.WriteString(w, "\n")
	}
}

// session resolves the session a command acts on: --session, TRACED_SESSION, else the newest
// live session, else the newest one.
func (c *call) session() (string, error) {
	if c.sid != "" {
		return c.sid, nil
	}
	if s := c.str("session"); s != "" {
		c.sid = s
		return s, nil
	}
	if s := c.env.Getenv("TRACED_SESSION"); s != "" {
		c.sid = s
		return s, nil
	}
	sessions, err := c.sessions()
	if err != nil {
		return "", err
	}
	id, ok := api.ListResponse{Sessions: sessions}.DefaultSession()
	if !ok {
		return "", &cliError{code: ExitRefused, msg: "no session", hint: "traced launch -- app.js starts one"}
	}
	c.sid = id
	return id, nil
}

func (c *call) sessions() ([]api.Summary, error) {
	json0 := c.json
	c.json = true // the list is read, not shown
	r, err := c.do("GET", "/api/trace/list", nil, nil)
	c.json = json0
	if err != nil {
		return nil, err
	}
	var list api.ListResponse
	if err := json.Unmarshal(r.body, &list); err != nil {
		return nil, fmt.Errorf("decode the session list: %w", err)
	}
	return list.Sessions, nil
}

// doJSON sends a request for JSON whatever --json says, and decodes the answer into out.
func (c *call) doJSON(method, path string, q url.Values, body, out any) (*reply, error) {
	json0 := c.json
	c.json = true
	r, err := c.do(method, path, q, body)
	c.json = json0
	if err != nil {
		return r, err
	}
	if out != nil {
		if err := json.Unmarshal(r.body, out); err != nil {
			return r, fmt.Errorf("decode the answer of %s %s: %w", method, path, err)
		}
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
