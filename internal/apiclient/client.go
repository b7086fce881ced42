// Package apiclient is the typed Go client of traced's REST API that the CLI and the MCP server
// share: one way to send a request (typed bodies from package api), to read a refusal, and to
// choose the session a call acts on.
package apiclient

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"

	"traced/internal/routepath"
)

// MaxWaitMs is the longest wait one call of the API holds (waitMs, timeoutMs): past it the
// service refuses or cuts the wait, so a client asks for at most this and waits again.
const MaxWaitMs = 60000

// MaxJobWaitMs is the longest a call that starts a long heap operation (a snapshot, a diff)
// or polls its job may wait for it; past its wait, the answer is the job to poll.
const MaxJobWaitMs = 600000

// FirstPauseWaitMs is how long a client's start waits for the program's first pause when the
// user gave no bound: long enough for node to start and load a test runner, short of MaxWaitMs.
const FirstPauseWaitMs = 10000

// ClampWait bounds a wait a user asked for to what one call may hold.
func ClampWait(ms int64) int64 { return min(max(ms, 0), MaxWaitMs) }

// ClampJobWait bounds the wait of a heap job's call (waitMs) to what it may hold.
func ClampJobWait(ms int64) int64 { return min(max(ms, 0), MaxJobWaitMs) }

// Client sends requests to one traced service. Safe for concurrent use.
type Client struct {
	base  string // "http://127.0.0.1:7777", no trailing slash
	token string
	http  *http.Client
}

// New is a client of the service at base (scheme and host), sending token as its bearer token
// ("" when auth is off) through hc.
func New(base, token string, hc *http.Client) *Client {
	return &Client{base: strings.TrimSuffix(base, "/"), token: token, http: hc}
}

// Reply is an answer of the API, as it came.
type Reply struct {
	Status int
	Body   []byte
}

// Error is a request the API refused (a 4xx or 5xx answer): its message and the hint naming the
// next call, read from the JSON envelope or the text form.
type Error struct {
	Status  int
	Message string
	Hint    string // in the API's words (routes); each client rewrites it in its own
}

func (e *Error) Error() string { return e.Message }

// ErrNoSession is returned when a call needs a session, none is named, and the service has none.
var ErrNoSession = errors.New("no session")

// Do sends one request; body, when not nil, is sent as JSON. A refusal is returned as an *Error
// beside its reply; an error without a reply means nothing was answered (the cause wrapped).
func (c *Client) Do(ctx context.Context, method, path string, q url.Values, body any) (*Reply, error) {
	resp, err := c.send(ctx, method, path, q, body)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		return nil, fmt.Errorf("read the answer of %s %s: %w", method, path, err)
	}
	r := &Reply{Status: resp.StatusCode, Body: b}
	if r.Status >= 400 {
		return r, refusal(r)
	}
	return r, nil
}

// Text sends a request for the compact text form (?format=text) of a route that has one.
func (c *Client) Text(ctx context.Context, method, path string, q url.Values, body any) (*Reply, error) {
	q = withQuery(q, "format", "text")
	return c.Do(ctx, method, path, q, body)
}

// JSON sends a request for JSON and decodes the answer into out (unless out is nil).
func (c *Client) JSON(ctx context.Context, method, path string, q url.Values, body, out any) (*Reply, error) {
	r, err := c.Do(ctx, method, path, q, body)
	if err != nil || out == nil {
		return r, err
	}
	if err := json.Unmarshal(r.Body, out); err != nil {
		return r, fmt.Errorf("decode the answer of %s %s: %w", method, path, err)
	}
	return r, nil
}

// Save sends a GET and copies a successful answer to w as it comes, never holding it whole (a
// profile or a heap snapshot can be large).
func (c *Client) Save(ctx context.Context, path string, q url.Values, w io.Writer) error {
	resp, err := c.send(ctx, http.MethodGet, path, q, nil)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode >= 400 {
		b, _ := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
		return refusal(&Reply{Status: resp.StatusCode, Body: b})
	}
	if _, err := io.Copy(w, resp.Body); err != nil {
		return fmt.Errorf("copy the answer of GET %s: %w", path, err)
	}
	return nil
}

func (c *Client) send(ctx context.Context, method, path string, q url.Values, body any) (*http.Response, error) {
	var rd io.Reader // stays a nil interface without a body (a nil *bytes.Reader would not be)
	if body != nil {
		raw, err := json.Marshal(body)
		if err != nil {
			return nil, fmt.Errorf("encode the body of %s %s: %w", method, path, err)
		}
		rd = bytes.NewReader(raw)
	}
	u := c.base + path
	if len(q) > 0 {
		u += "?" + q.Encode()
	}
	req, err := http.NewRequestWithContext(ctx, method, u, rd)
	if err != nil {
		return nil, fmt.Errorf("request %s %s: %w", method, path, err)
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if c.token != "" {
		req.Header.Set("Authorization", "Bearer "+c.token)
	}
	return c.http.Do(req)
}

// refusal reads a 4xx or 5xx answer.
func refusal(r *Reply) *Error {
	msg, hint := routepath.Refusal(r.Status, r.Body)
	return &Error{Status: r.Status, Message: msg, Hint: hint}
}

// withQuery is q (a copy, never the caller's map) with k set to v.
func withQuery(q url.Values, k, v string) url.Values {
	out := url.Values{}
	for key, vals := range q {
		out[key] = vals
	}
	out.Set(k, v)
	return out
}

// DebugPath is the path of a debug route of a session: DebugPath("s1", "state").
func DebugPath(session, op string) string {
	return "/api/debug/" + url.PathEscape(session) + "/" + op
}

// TextRoute reports whether a route answers the compact text form (?format=text): every debug
// route, the trace reads and start; stop and status answer JSON only.
func TextRoute(path string) bool {
	if strings.HasPrefix(path, "/api/debug/") {
		return true
	}
	switch path {
	case "/api/trace", "/api/trace/list", "/api/trace/events", "/api/trace/wait", "/api/trace/evidence", "/api/trace/start":
		return true
	}
	return false
}

// IsRefusal reports whether err is an answer of the API (a refusal), not a failure to reach it.
func IsRefusal(err error) bool {
	var e *Error
	return errors.As(err, &e)
}

// WaitMs is the waitMs of a request that asks to wait ms: bounded by ClampWait. A pointer, as
// the requests take it: absent asks for the route's default.
func WaitMs(ms int64) *int64 {
	v := ClampWait(ms)
	return &v
}
