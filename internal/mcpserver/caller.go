package mcpserver

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

	"github.com/go-chi/chi/v5"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"traced/internal/routepath"
)

// caller sends requests to traced's own REST API in process: through the service's handler,
// so every tool call passes the same Host, token and contract checks and gets the same errors.
type caller struct {
	api   http.Handler
	token string
}

// reply is an answer of the API.
type reply struct {
	status int
	body   []byte
}

// recorder is the ResponseWriter of an in-process request. A successful answer goes to sink
// when one is set (a profile saved to a file, never held in memory), anything else to body.
type recorder struct {
	header http.Header
	status int
	body   bytes.Buffer
	sink   io.Writer
}

func (r *recorder) Header() http.Header { return r.header }
func (r *recorder) Write(b []byte) (int, error) {
	if r.status == 0 {
		r.status = http.StatusOK
	}
	if r.sink != nil && r.status < 300 {
		return r.sink.Write(b)
	}
	return r.body.Write(b)
}
func (r *recorder) WriteHeader(status int) {
	if r.status == 0 {
		r.status = status
	}
}

// do sends one request; body, when not nil, is sent as JSON.
func (c *caller) do(ctx context.Context, method, path string, q url.Values, body any) (*reply, error) {
	return c.send(ctx, method, path, q, body, nil)
}

// send is do, with a successful answer's body written to sink when it is not nil.
func (c *caller) send(ctx context.Context, method, path string, q url.Values, body any, sink io.Writer) (*reply, error) {
	var rd io.Reader // stays a nil interface without a body (a nil *bytes.Reader would not be)
	if body != nil {
		raw, err := json.Marshal(body)
		if err != nil {
			return nil, fmt.Errorf("encode the body of %s %s: %w", method, path, err)
		}
		rd = bytes.NewReader(raw)
	}
	u := "http://127.0.0.1" + path
	if len(q) > 0 {
		u += "?" + q.Encode()
	}
	// A tool called over /mcp runs in that request's context, which holds chi's routing state:
	// the router would take this request for a sub-route of /mcp. It is routed afresh.
	ctx = context.WithValue(ctx, chi.RouteCtxKey, (*chi.Context)(nil))
	req, err := http.NewRequestWithContext(ctx, method, u, rd)
	if err != nil {
		return nil, fmt.Errorf("request %s %s: %w", method, path, err)
	}
	req.RemoteAddr = "127.0.0.1:0"
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if c.token != "" {
		req.Header.Set("Authorization", "Bearer "+c.token)
	}
	rec := &recorder{header: http.Header{}, sink: sink}
	c.api.ServeHTTP(rec, req)
	if rec.status == 0 {
		rec.status = http.StatusOK
	}
	return &reply{status: rec.status, body: rec.body.Bytes()}, nil
}

// text asks for the compact text form of a route that has one (?format=text).
func (c *caller) text(ctx context.Context, method, path string, q url.Values, body any) (*reply, error) {
	if q == nil {
		q = url.Values{}
	}
	q.Set("format", "text")
	return c.do(ctx, method, path, q, body)
}

// decode sends a request for JSON and decodes the answer into out; a refusal is a *toolError.
func (c *caller) decode(ctx context.Context, method, path string, q url.Values, body, out any) error {
	r, err := c.do(ctx, method, path, q, body)
	if err != nil {
		return err
	}
	if r.status >= 400 {
		return refusal(r)
	}
	if err := json.Unmarshal(r.body, out); err != nil {
		return fmt.Errorf("decode the answer of %s %s: %w", method, path, err)
	}
	return nil
}

// toolError is a refusal with the next step in tool words: the API's (a request it refused) or
// the tool's own (an input it refuses before any request).
type toolError struct{ msg, hint string }

func (e *toolError) Error() string { return e.msg }

// refusal reads a 4xx or 5xx answer, its hint rewritten in tool words.
func refusal(r *reply) *toolError {
	msg, hint := routepath.Refusal(r.status, r.body)
	return &toolError{msg: msg, hint: toolHint(hint)}
}

func badInput(hint, format string, a ...any) error {
	return &toolError{msg: fmt.Sprintf(format, a...), hint: hint}
}

// textResult is a tool's answer: the API's text, as it came.
func textResult(s string) *mcp.CallToolResult {
	if !strings.HasSuffix(s, "\n") {
		s += "\n"
	}
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: s}}}
}

// errorResult is a refusal as a tool result (isError), its hint naming the next tool.
func errorResult(msg, hint string) *mcp.CallToolResult {
	s := "error: " + msg + "\n"
	if hint != "" {
		s += "hint: " + hint + "\n"
	}
	return &mcp.CallToolResult{IsError: true, Content: []mcp.Content{&mcp.TextContent{Text: s}}}
}

// answer turns a reply (or a failed call) into a tool result: the text on success, the error
// and its hint otherwise.
func answer(r *reply, err error) *mcp.CallToolResult {
	if err != nil {
		return failure(err)
	}
	if r.status >= 400 {
		e := refusal(r)
		return errorResult(e.msg, e.hint)
	}
	return textResult(string(r.body))
}

// failure is an error of a tool's own as its result.
func failure(err error) *mcp.CallToolResult {
	var te *toolError
	if errors.As(err, &te) {
		return errorResult(te.msg, te.hint)
	}
	return errorResult(err.Error(), "")
}
