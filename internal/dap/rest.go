package dap

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"

	"traced/api"
)

// requestBound bounds one REST call: execution calls are sent with waitMs 0 and answer at once,
// so only a service that stopped answering reaches it.
const requestBound = 30 * time.Second

// restClient calls the REST API of one session's service.
type restClient struct {
	addr, token string
	http        *http.Client
}

// apiError is a refusal of the API: its error envelope.
type apiError struct {
	Status int
	api.ErrorDetail
}

func (e *apiError) Error() string {
	msg := e.Message
	if e.Hint != "" {
		msg += " (" + e.Hint + ")"
	}
	return msg
}

// do sends one request and decodes a JSON answer into out (when out is not nil); a *string
// out takes the answer as it came (with format=text: the compact text form).
func (c *restClient) do(ctx context.Context, method, path string, q url.Values, body, out any) error {
	ctx, cancel := context.WithTimeout(ctx, requestBound)
	defer cancel()
	u := "http://" + c.addr + path
	if len(q) > 0 {
		u += "?" + q.Encode()
	}
	var rd io.Reader
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			return fmt.Errorf("encode %s %s: %w", method, path, err)
		}
		rd = bytes.NewReader(b)
	}
	req, err := http.NewRequestWithContext(ctx, method, u, rd)
	if err != nil {
		return fmt.Errorf("request %s %s: %w", method, path, err)
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if c.token != "" {
		req.Header.Set("Authorization", "Bearer "+c.token)
	}
	resp, err := c.http.Do(req)
	if err != nil {
		return fmt.Errorf("%s %s: %w", method, path, err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		return fmt.Errorf("read the answer of %s %s: %w", method, path, err)
	}
	if resp.StatusCode >= 400 {
		var e api.ErrorBody
		if json.Unmarshal(b, &e) != nil || e.Error.Message == "" {
			e.Error = api.ErrorDetail{Code: "http", Message: fmt.Sprintf("%s %s: %s", method, path, strings.TrimSpace(string(b)))}
		}
		return &apiError{Status: resp.StatusCode, ErrorDetail: e.Error}
	}
	if sp, ok := out.(*string); ok { // the text form, as it came
		*sp = string(b)
		return nil
	}
	if out != nil {
		if err := json.Unmarshal(b, out); err != nil {
			return fmt.Errorf("decode the answer of %s %s: %w", method, path, err)
		}
	}
	return nil
}

// debugPath is the path of a session's debug route.
func debugPath(session, route string) string {
	return "/api/debug/" + url.PathEscape(session) + "/" + route
}

// targetQuery is the query naming a target (t0 needs none).
func targetQuery(target string) url.Values {
	q := url.Values{}
	if target != "" && target != mainTarget {
		q.Set("target", target)
	}
	return q
}
