package routes

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"traced/api"
	"traced/internal/engine"
)

// testToken is the bearer token of every test router.
const testToken = "routes-test-token-0123456789abcdef"

// testHost is the Host every test request carries unless a case changes it.
const testHost = "127.0.0.1:8080"

// streamReached is the status the stub stream handler answers with, so that a test can tell a
// request that passed every guard from one refused by them.
const streamReached = http.StatusTeapot

// fixture is a router over an engine without node: every start is refused with a start error,
// so these tests never spawn a process.
type fixture struct {
	router http.Handler
	engine *engine.Manager
}

// newFixture builds the router with the test token; mutate adjusts the config first.
func newFixture(tb testing.TB, mutate ...func(*Config)) *fixture {
	tb.Helper()
	mgr, err := engine.NewManager(engine.Config{Root: tb.TempDir()}, nil, nil)
	if err != nil {
		tb.Fatal(err)
	}
	cfg := Config{
		Engine:  mgr,
		Stream:  http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(streamReached) }),
		Token:   testToken,
		Version: "test",
	}
	for _, f := range mutate {
		f(&cfg)
	}
	r, err := New(cfg)
	if err != nil {
		tb.Fatal(err)
	}
	return &fixture{router: r, engine: mgr}
}

// request builds an authorised request from the loopback host; a non-empty body is sent as JSON.
func request(method, target, body string) *http.Request {
	var rd io.Reader
	if body != "" {
		rd = strings.NewReader(body)
	}
	r := httptest.NewRequest(method, target, rd)
	r.Host = testHost
	r.Header.Set("Authorization", "Bearer "+testToken)
	if body != "" {
		r.Header.Set("Content-Type", "application/json")
	}
	return r
}

// serve runs r through the router and returns the recorded answer.
func (f *fixture) serve(r *http.Request) *httptest.ResponseRecorder {
	w := httptest.NewRecorder()
	f.router.ServeHTTP(w, r)
	return w
}

// errorOf decodes the error envelope of a failed answer, failing when it is not one.
func errorOf(tb testing.TB, w *httptest.ResponseRecorder) api.ErrorDetail {
	tb.Helper()
	if ct := w.Header().Get("Content-Type"); ct != "application/json" {
		tb.Fatalf("status %d: Content-Type %q, want application/json; body %.300s", w.Code, ct, w.Body.Bytes())
	}
	var e api.ErrorBody
	dec := json.NewDecoder(strings.NewReader(w.Body.String()))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&e); err != nil || e.Error.Code == "" || e.Error.Message == "" {
		tb.Fatalf("status %d: body is not the envelope {error:{code,message}} (%v): %.300s", w.Code, err, w.Body.Bytes())
	}
	return e.Error
}

// wantError checks that w is a failure with status and code and returns its detail.
func wantError(tb testing.TB, w *httptest.ResponseRecorder, status int, code string) api.ErrorDetail {
	tb.Helper()
	if w.Code != status {
		tb.Fatalf("status %d, want %d: %.300s", w.Code, status, w.Body.Bytes())
	}
	e := errorOf(tb, w)
	if e.Code != code {
		tb.Fatalf("code %q, want %q (message %q)", e.Code, code, e.Message)
	}
	return e
}
