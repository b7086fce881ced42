package tests

import (
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"traced/api"
)

// The npm servers live in testdata/servers/npm, installed from its lockfile by make test (npm
// ci); a missing install is a failure, not a skip, so CI cannot pass without them.
const serversDir = "servers/npm"

// TestExpressHandlerThrow: a handler's throw that Express turns into a 500 is a throw event at
// the handler's line with the request's query among its locals, and, while the server runs on
// (and once it is stopped), the evidence points there: Express logged the error.
func TestExpressHandlerThrow(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	s := h.serverError(t, "shop.js", "/price?item=kiwi&qty=2")

	th := h.waitFor(s.ID, 0, "throw").Event
	if th == nil || th.Throw == nil || !th.Throw.Caught || th.Throw.Message.Value != "no price for kiwi" {
		t.Fatalf("throw event %+v, want the handler's caught Error", th)
	}
	if l := th.Throw.Location; l == nil || l.File != "shop.js" || l.Line != 11 {
		t.Fatalf("throw at %+v, want shop.js:11", l)
	}
	wantLocal := func(locals []api.Variable) {
		t.Helper()
		for _, v := range locals {
			if v.Name == "query" && strings.Contains(v.Value, "kiwi") {
				return
			}
		}
		t.Fatalf("locals %+v, want query with item kiwi", locals)
	}
	wantLocal(th.Throw.Locals)

	// Express logs the error after the answer: wait for that line, then ask for evidence.
	for after := th.Seq; ; {
		e := h.waitFor(s.ID, after, "console").Event
		if e == nil {
			t.Fatal("Express logged no error")
		}
		if e.Console.Level == "error" {
			break
		}
		after = e.Seq
	}
	check := func(ev *api.Evidence) {
		t.Helper()
		f := ev.Failure
		if f.Kind != api.FailureThrow || f.Location == nil || f.Location.File != "shop.js" || f.Location.Line != 11 || f.LoggedSeq <= th.Seq {
			t.Fatalf("failure %+v at %+v, want the logged throw at shop.js:11", f, f.Location)
		}
		wantLocal(ev.OriginatingValue.Locals)
	}
	check(h.evidenceOf(s.ID))
	if st := h.call("POST", "/api/trace/stop", api.StopRequest{ID: s.ID}, nil); st != http.StatusOK {
		t.Fatalf("stop: status %d", st)
	}
	check(h.evidenceOf(s.ID))
}

// TestFastifyLoggedThrow: fastify turns a handler's throw into a 500 and its logger (pino) prints
// the error as JSON on stdout; the evidence of the running server is that throw, found by the
// logged line, with the request's query among its locals.
func TestFastifyLoggedThrow(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	s := h.serverError(t, "quote.js", "/quote?item=kiwi")
	th := h.waitFor(s.ID, 0, "throw").Event
	if th == nil || th.Throw == nil || th.Throw.Message.Value != "no quote for kiwi" {
		t.Fatalf("throw event %+v, want the handler's Error", th)
	}
	for after := th.Seq; ; { // pino writes the error line after the answer
		e := h.waitFor(s.ID, after, "stdout").Event
		if e == nil {
			t.Fatal("fastify logged no error")
		}
		if strings.Contains(e.Output.Text.Value, "no quote for kiwi") {
			break
		}
		after = e.Seq
	}
	f := h.evidenceOf(s.ID).Failure
	if f.Kind != api.FailureThrow || f.Location == nil || f.Location.File != "quote.js" || f.Location.Line != 10 || f.LoggedSeq <= th.Seq {
		t.Fatalf("failure %+v at %+v, want the logged throw at quote.js:10", f, f.Location)
	}
}

// serverError starts a server fixture, waits for its "listening on PORT" line, and asks it a
// path that must answer 500.
func (h *harness) serverError(t *testing.T, target, path string) api.Summary {
	t.Helper()
	if _, err := os.Stat(filepath.Join("testdata", serversDir, "node_modules", ".package-lock.json")); err != nil {
		t.Fatalf("the server fixtures are not installed (make test runs npm ci in tests/testdata/%s): %v", serversDir, err)
	}
	s := h.start(api.StartRequest{Target: target, Cwd: serversDir})
	w := h.waitFor(s.ID, 0, "console")
	var port int
	if w.Event == nil || w.Event.Console == nil {
		t.Fatalf("no console event: %+v", w)
	}
	if _, err := fmt.Sscanf(w.Event.Console.Text.Value, "listening on %d", &port); err != nil {
		t.Fatalf("console %q: %v", w.Event.Console.Text.Value, err)
	}
	resp, err := http.Get(fmt.Sprintf("http://127.0.0.1:%d%s", port, path))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusInternalServerError {
		t.Fatalf("status %d, want 500", resp.StatusCode)
	}
	return s
}
