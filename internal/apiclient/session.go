package apiclient

import (
	"context"
	"net/url"
	"strconv"

	"traced/api"
)

// Sessions lists the service's sessions.
func (c *Client) Sessions(ctx context.Context) ([]api.Summary, error) {
	var list api.ListResponse
	if _, err := c.JSON(ctx, "GET", "/api/trace/list", nil, nil, &list); err != nil {
		return nil, err
	}
	return list.Sessions, nil
}

// Session is the session a call acts on: the one named, else the API's default (the newest,
// live or ended); ErrNoSession when there is none.
func (c *Client) Session(ctx context.Context, named string) (string, error) {
	if named != "" {
		return named, nil
	}
	sessions, err := c.Sessions(ctx)
	if err != nil {
		return "", err
	}
	id, ok := api.ListResponse{Sessions: sessions}.DefaultSession()
	if !ok {
		return "", ErrNoSession
	}
	return id, nil
}

// Start starts a program (POST /api/trace/start). With req.WaitMs, a debug session's answer
// holds the state at its first pause, when it paused in time.
func (c *Client) Start(ctx context.Context, req api.StartRequest) (api.SessionResponse, *Reply, error) {
	var res api.SessionResponse
	r, err := c.JSON(ctx, "POST", "/api/trace/start", nil, req, &res)
	return res, r, err
}

// Attach debugs a node already running with --inspect (POST /api/debug/attach).
func (c *Client) Attach(ctx context.Context, req api.AttachRequest) (api.SessionResponse, *Reply, error) {
	var res api.SessionResponse
	r, err := c.JSON(ctx, "POST", "/api/debug/attach", nil, req, &res)
	return res, r, err
}

// Stop ends a session (POST /api/trace/stop); an attached one is detached. Stopping a session
// that ended is not an error: the answer is its final summary.
func (c *Client) Stop(ctx context.Context, id string) (api.SessionResponse, *Reply, error) {
	var res api.SessionResponse
	r, err := c.JSON(ctx, "POST", "/api/trace/stop", nil, api.StopRequest{ID: id}, &res)
	return res, r, err
}

// Delete forgets a finished session (DELETE /api/trace); a live one answers 409 live.
func (c *Client) Delete(ctx context.Context, id string) (api.SessionResponse, *Reply, error) {
	var res api.SessionResponse
	r, err := c.JSON(ctx, "DELETE", "/api/trace", url.Values{"id": {id}}, nil, &res)
	return res, r, err
}

// Eval evaluates an expression in a session (POST /api/debug/{session}/eval): in the paused
// frame, else globally while the program runs.
func (c *Client) Eval(ctx context.Context, session string, req api.EvalRequest) (api.EvalResult, *Reply, error) {
	var res api.EvalResult
	r, err := c.JSON(ctx, "POST", DebugPath(session, "eval"), nil, req, &res)
	return res, r, err
}

// WaitQuery is what GET /api/trace/wait takes: the session, the events that end the wait, the
// cursor and the bound.
type WaitQuery struct {
	Session string
	Kinds   string // a comma list, e.g. "pause,exit"; "" any
	Match   string // an RE2 over the event's text line
	Target  string // t0, t1...
	// After is the cursor; 0 leaves it out, so the wait answers the next matching event after
	// the call (or the pause a target stands in now), never an old one.
	After uint64
	// FromStart sends a cursor of 0 (every event since the session began) rather than none.
	FromStart bool
	// TimeoutMs bounds the wait (0: the route's default); ClampWait bounds it in turn.
	TimeoutMs int64
}

func (q WaitQuery) values() url.Values {
	v := url.Values{"id": {q.Session}}
	if q.After > 0 || q.FromStart {
		v.Set("after", strconv.FormatUint(q.After, 10))
	}
	for k, s := range map[string]string{"kinds": q.Kinds, "match": q.Match, "target": q.Target} {
		if s != "" {
			v.Set(k, s)
		}
	}
	if q.TimeoutMs > 0 {
		v.Set("timeoutMs", strconv.FormatInt(ClampWait(q.TimeoutMs), 10))
	}
	return v
}

// Wait blocks (bounded) until the session's next matching event after the cursor
// (GET /api/trace/wait); the answer says whether it came, timed out or the session ended.
func (c *Client) Wait(ctx context.Context, q WaitQuery) (api.WaitResponse, *Reply, error) {
	var res api.WaitResponse
	r, err := c.JSON(ctx, "GET", "/api/trace/wait", q.values(), nil, &res)
	return res, r, err
}
