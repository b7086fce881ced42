package mcpserver

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"sync"

	"github.com/go-chi/chi/v5"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"traced/internal/apiclient"
)

// caller sends requests to traced's own REST API in process, through the service's handler, so
// every tool call passes the same Host, token and contract checks and gets the same errors. It is
// the shared typed client (package apiclient) over a transport that calls the handler.
type caller struct {
	api *apiclient.Client
}

func newCaller(h http.Handler, token string) *caller {
	return &caller{api: apiclient.New("http://127.0.0.1", token, &http.Client{Transport: handlerTransport{h}})}
}

// text asks for the compact text form of a route that has one (?format=text).
func (c *caller) text(ctx context.Context, method, path string, q url.Values, body any) (*apiclient.Reply, error) {
	return c.api.Text(ctx, method, path, q, body)
}

// decode sends a request for JSON and decodes the answer into out.
func (c *caller) decode(ctx context.Context, method, path string, q url.Values, body, out any) error {
	_, err := c.api.JSON(ctx, method, path, q, body, out)
	return err
}

// handlerTransport serves a request through the service's handler, in process. The answer
// streams through a pipe as the handler writes it, so a large one (a profile saved to a file) is
// never held whole; the handler's goroutine ends when it returns, which the reader's Close of the
// body hastens (a write to a closed pipe fails).
type handlerTransport struct{ h http.Handler }

func (t handlerTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	// A tool called over /mcp runs in that request's context, which holds chi's routing state:
	// the router would take this request for a sub-route of /mcp. It is routed afresh.
	req = req.WithContext(context.WithValue(req.Context(), chi.RouteCtxKey, (*chi.Context)(nil)))
	req.RemoteAddr = "127.0.0.1:0"
	pr, pw := io.Pipe()
	w := &pipeResponse{header: http.Header{}, body: pw, started: make(chan struct{})}
	go func() {
		defer func() {
			if p := recover(); p != nil { // the router recovers its handlers; this is the last guard
				w.WriteHeader(http.StatusInternalServerError)
				pw.CloseWithError(fmt.Errorf("handler panic: %v", p))
				return
			}
			w.WriteHeader(http.StatusOK) // a handler that wrote nothing answered 200
			pw.Close()
		}()
		t.h.ServeHTTP(w, req)
	}()
	<-w.started
	return &http.Response{Status: http.StatusText(w.status), StatusCode: w.status, Header: w.sent,
		Body: pr, Request: req, Proto: "HTTP/1.1", ProtoMajor: 1, ProtoMinor: 1, ContentLength: -1}, nil
}

// pipeResponse is the ResponseWriter of an in-process request.
type pipeResponse struct {
	header  http.Header
	body    *io.PipeWriter
	once    sync.Once
	started chan struct{} // closed once the status and headers are set
	status  int
	sent    http.Header // the headers as they were when the status was written
}

func (w *pipeResponse) Header() http.Header { return w.header }

func (w *pipeResponse) WriteHeader(status int) {
	w.once.Do(func() {
		w.status, w.sent = status, w.header.Clone()
		close(w.started)
	})
}

func (w *pipeResponse) Write(b []byte) (int, error) {
	w.WriteHeader(http.StatusOK)
	return w.body.Write(b)
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
func answer(r *apiclient.Reply, err error) *mcp.CallToolResult {
	if err != nil {
		return failure(err)
	}
	return textResult(string(r.Body))
}

// failure is an error as a tool result: a refusal of the API with its hint rewritten in tool
// words, or any other error.
func failure(err error) *mcp.CallToolResult {
	var ae *apiclient.Error
	switch {
	case errors.As(err, &ae):
		return errorResult(ae.Message, toolHint(ae.Hint))
	case errors.Is(err, apiclient.ErrNoSession):
		return errorResult("no session", "the tool start runs a program")
	}
	return errorResult(err.Error(), "")
}
