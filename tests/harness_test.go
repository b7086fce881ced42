// Package tests drives traced from the outside: real node, real HTTP and WebSocket, every
// response checked against the OpenAPI contract.
//
// Every top-level test calls t.Parallel (the suite mostly waits on node), unless a comment at its
// top says why it cannot: it sets the environment, holds a fixed address, or asserts a bound
// that load could break. Such a test runs alone, before the parallel ones. A parallel test
// writes only under a t.TempDir of its own, never into tests/testdata.
package tests

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/getkin/kin-openapi/routers"
	"github.com/getkin/kin-openapi/routers/gorillamux"

	"traced/api"
	"traced/internal/engine"
	"traced/internal/routes"
	"traced/internal/service"
)

// testToken is the bearer token of every test service.
const testToken = "test-token-0123456789abcdef"

// deadline bounds every wait in these tests; generous because CI machines have 2 cores, and a
// loaded one ran a jest worker pool's or vitest's run past 30 s. Only a failing test waits it out.
const deadline = 60 * time.Second

// harness is one running service on a loopback port.
type harness struct {
	t      *testing.T
	svc    *service.Service
	base   string // http://127.0.0.1:port
	addr   string // 127.0.0.1:port
	client *http.Client
	root   string // the workspace root: tests/testdata unless an option changed Engine.Root
	stop   func() // shuts the service down (once; cleanup does it otherwise)
}

// contractRouter finds the contract operation of a request, to validate responses.
var contractRouter = func() routers.Router {
	doc, err := routes.LoadContract()
	if err != nil {
		panic(err)
	}
	doc.Servers = nil
	r, err := gorillamux.NewRouter(doc)
	if err != nil {
		panic(err)
	}
	return r
}()

func nodeOrSkip(t testing.TB) string {
	t.Helper()
	node, err := engine.FindNode("")
	if err != nil {
		t.Skip("node not found on PATH:", err)
	}
	return node
}

// newHarness starts a service rooted at tests/testdata; opts adjust its options (a test that
// writes into its workspace sets Engine.Root to a t.TempDir of its own).
func newHarness(t *testing.T, opts ...func(*service.Options)) *harness {
	t.Helper()
	return newHarnessAt(t, "127.0.0.1:0", opts...)
}

// newHarnessAt is newHarness listening on addr: a restarted service takes its predecessor's.
func newHarnessAt(t *testing.T, addr string, opts ...func(*service.Options)) *harness {
	t.Helper()
	root, err := filepath.Abs("testdata")
	if err != nil {
		t.Fatal(err)
	}
	o := service.Options{
		Engine:  engine.Config{NodePath: nodeOrSkip(t), ShimPath: testShim(t), Root: root, MaxEvents: 1000, MaxSessions: 8},
		Token:   testToken,
		Version: "test",
	}
	for _, f := range opts {
		f(&o)
	}
	svc, err := service.New(o)
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	served := make(chan error, 1)
	go func() { served <- svc.Serve(ln) }()
	h := &harness{t: t, svc: svc, base: "http://" + ln.Addr().String(), addr: ln.Addr().String(),
		client: &http.Client{Transport: &http.Transport{}}, root: o.Engine.Root}
	var once sync.Once
	h.stop = func() {
		once.Do(func() {
			ctx, cancel := context.WithTimeout(context.Background(), deadline)
			defer cancel()
			if err := svc.Shutdown(ctx); err != nil {
				t.Errorf("shutdown: %v", err)
			}
			if err := <-served; err != nil {
				t.Errorf("serve: %v", err)
			}
			h.client.CloseIdleConnections()
		})
	}
	t.Cleanup(h.stop)
	return h
}

// with returns the harness bound to a subtest's t, so that failures stop the subtest only.
func (h *harness) with(t *testing.T) *harness {
	c := *h
	c.t = t
	return &c
}

// request builds a request with the token; body is JSON-encoded unless it is a string or nil.
func (h *harness) request(method, path string, body any) *http.Request {
	h.t.Helper()
	var rd io.Reader
	switch b := body.(type) {
	case nil:
	case string:
		rd = strings.NewReader(b)
	default:
		raw, err := json.Marshal(b)
		if err != nil {
			h.t.Fatal(err)
		}
		rd = bytes.NewReader(raw)
	}
	req, err := http.NewRequest(method, h.base+path, rd)
	if err != nil {
		h.t.Fatal(err)
	}
	if rd != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	req.Header.Set("Authorization", "Bearer "+testToken)
	return req
}

// send performs req, checks the response against the contract, and returns status and body.
func (h *harness) send(req *http.Request) (int, []byte) {
	h.t.Helper()
	var reqBody []byte
	if req.Body != nil {
		reqBody, _ = io.ReadAll(req.Body)
		req.Body = io.NopCloser(bytes.NewReader(reqBody))
	}
	resp, err := h.client.Do(req)
	if err != nil {
		h.t.Fatalf("%s %s: %v", req.Method, req.URL, err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		h.t.Fatal(err)
	}
	req.Body = io.NopCloser(bytes.NewReader(reqBody))
	checkResponse(h.t, req, resp, body)
	return resp.StatusCode, body
}

// checkResponse validates a response against the contract: status declared by the operation (not
// merely covered by `default`), body schema.
func checkResponse(t *testing.T, req *http.Request, resp *http.Response, body []byte) {
	t.Helper()
	route, params, err := contractRouter.FindRoute(req)
	if err != nil {
		if resp.StatusCode == http.StatusNotFound || resp.StatusCode == http.StatusMethodNotAllowed {
			checkErrorBody(t, body)
			return // a path outside the contract answers with the error envelope
		}
		t.Fatalf("%s %s is not in the contract: %v", req.Method, req.URL.Path, err)
	}
	// ValidateResponse falls back to `default` for any status, so it alone cannot catch an
	// undeclared one: the status itself must be declared by the operation.
	if route.Operation.Responses.Status(resp.StatusCode) == nil {
		t.Fatalf("%s %s -> %d: the contract does not declare this status\nbody: %.2000s", req.Method, req.URL.Path, resp.StatusCode, body)
	}
	in := &openapi3filter.ResponseValidationInput{
		RequestValidationInput: &openapi3filter.RequestValidationInput{
			Request: req, PathParams: params, Route: route,
			Options: &openapi3filter.Options{AuthenticationFunc: openapi3filter.NoopAuthenticationFunc},
		},
		Status:  resp.StatusCode,
		Header:  resp.Header,
		Body:    io.NopCloser(bytes.NewReader(body)),
		Options: &openapi3filter.Options{IncludeResponseStatus: true},
	}
	if err := openapi3filter.ValidateResponse(context.Background(), in); err != nil {
		t.Fatalf("%s %s -> %d breaks the contract: %v\nbody: %.2000s", req.Method, req.URL.Path, resp.StatusCode, err, body)
	}
	if resp.StatusCode >= 400 {
		if isText(resp) {
			checkTextError(t, body) // the text form of the envelope (debug_text_test.go)
		} else {
			checkErrorBody(t, body)
		}
	}
}

func checkErrorBody(t *testing.T, body []byte) {
	t.Helper()
	var e api.ErrorBody
	if err := json.Unmarshal(body, &e); err != nil || e.Error.Code == "" || e.Error.Message == "" {
		t.Fatalf("error response is not the envelope {error:{code,message,hint}}: %s", body)
	}
}

// call sends a request and decodes a 2xx JSON answer into out (when non-nil). It returns the status.
func (h *harness) call(method, path string, body, out any) int {
	h.t.Helper()
	status, raw := h.send(h.request(method, path, body))
	if out != nil && status < 300 {
		if err := json.Unmarshal(raw, out); err != nil {
			h.t.Fatalf("decode %s: %v", raw, err)
		}
	}
	return status
}

// errorOf sends a request expected to fail with status and returns the error detail.
func (h *harness) errorOf(req *http.Request, status int) api.ErrorDetail {
	h.t.Helper()
	got, raw := h.send(req)
	if got != status {
		h.t.Fatalf("%s %s: status %d, want %d: %s", req.Method, req.URL, got, status, raw)
	}
	var e api.ErrorBody
	if err := json.Unmarshal(raw, &e); err != nil {
		h.t.Fatal(err)
	}
	return e.Error
}

// start launches a trace of target (relative to tests/testdata) and stops it at cleanup.
func (h *harness) start(req api.StartRequest) api.Summary {
	h.t.Helper()
	if req.OutputWaitMs == nil { // the tests wait for what they need; the CLI's tests keep the default
		req.OutputWaitMs = new(int64)
	}
	var res api.SessionResponse
	if st := h.call("POST", "/api/trace/start", req, &res); st != http.StatusCreated {
		h.t.Fatalf("start %s: status %d", req.Target, st)
	}
	h.stopAtCleanup(res.Session.ID)
	return res.Session
}

// stopAtCleanup ends a session when the test ends: it kills a child the test left running (an
// attached process is detached); a finished session answers as it is. Through the engine, not
// HTTP: a test may have shut the service down.
func (h *harness) stopAtCleanup(id string) {
	h.t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), deadline)
		defer cancel()
		h.svc.Engine.Stop(ctx, id)
	})
}

// waitFor long-polls for the first event of kinds after the cursor, failing at the deadline.
func (h *harness) waitFor(id string, after uint64, kinds string) api.WaitResponse {
	h.t.Helper()
	return h.waitWithin(id, after, kinds, deadline)
}

// waitWithin is waitFor failing after bound instead.
func (h *harness) waitWithin(id string, after uint64, kinds string, bound time.Duration) api.WaitResponse {
	h.t.Helper()
	end := time.Now().Add(bound)
	for time.Now().Before(end) {
		var w api.WaitResponse
		path := fmt.Sprintf("/api/trace/wait?id=%s&after=%d&kinds=%s&timeoutMs=10000", id, after, kinds)
		if st := h.call("GET", path, nil, &w); st != http.StatusOK {
			h.t.Fatalf("wait: status %d", st)
		}
		if w.Event != nil || w.Finished {
			return w
		}
		after = w.Next
	}
	h.t.Fatalf("no %s event in session %s within %s", kinds, id, bound)
	return api.WaitResponse{}
}

// waitExit waits for the session's exit event and returns the final summary.
func (h *harness) waitExit(id string) api.Summary {
	h.t.Helper()
	w := h.waitFor(id, 0, "exit")
	if w.Event == nil {
		h.t.Fatalf("session %s finished without an exit event", id)
	}
	var tr api.TraceResponse
	h.call("GET", "/api/trace?id="+id+"&kinds=exit", nil, &tr)
	return tr.Session
}

// trace reads a session's summary and events.
func (h *harness) trace(id, kinds string) api.TraceResponse {
	h.t.Helper()
	var tr api.TraceResponse
	path := "/api/trace?id=" + id
	if kinds != "" {
		path += "&kinds=" + kinds
	}
	if st := h.call("GET", path, nil, &tr); st != http.StatusOK {
		h.t.Fatalf("trace %s: status %d", id, st)
	}
	return tr
}
