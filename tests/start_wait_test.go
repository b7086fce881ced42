package tests

import (
	"net/http"
	"strings"
	"testing"

	"traced/api"
)

// TestStartWaitsForFirstPause: a debug start with waitMs answers once the program first pauses,
// with the state there and what it printed before, so that "start and stop at the breakpoint"
// is one call; a program that ends first answers without a state, its summary saying so; a trace
// session, which never pauses, is refused.
func TestStartWaitsForFirstPause(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	wait := int64(20000)

	var res api.SessionResponse
	req := api.StartRequest{Target: "debugme.js", Mode: api.ModeDebug, WaitMs: &wait,
		Breakpoints: []api.StartBreakpoint{{Location: "debugme.js:7"}}}
	if st := h.call("POST", "/api/trace/start", req, &res); st != http.StatusCreated {
		t.Fatalf("start: status %d", st)
	}
	h.stopAtCleanup(res.Session.ID)
	if res.State == nil || res.Session.Status != "paused" {
		t.Fatalf("start answered %+v without the first pause's state", res)
	}
	wantPausedAt(t, *res.State, "work", lineLabel)

	res = api.SessionResponse{}
	req = api.StartRequest{Target: "clean.js", Mode: api.ModeDebug, WaitMs: &wait,
		Breakpoints: []api.StartBreakpoint{{Location: "clean.js:99"}}}
	if st := h.call("POST", "/api/trace/start", req, &res); st != http.StatusCreated {
		t.Fatalf("start clean.js: status %d", st)
	}
	h.stopAtCleanup(res.Session.ID)
	if res.State != nil || !res.Session.Status.Finished() {
		t.Fatalf("start of a program that never pauses answered %+v, want its end and no state", res)
	}

	trace := api.StartRequest{Target: "clean.js", WaitMs: &wait}
	e := h.errorOf(h.request("POST", "/api/trace/start", trace), http.StatusBadRequest)
	if !strings.Contains(e.Message, "waitMs") || !strings.Contains(e.Hint, `"mode":"debug"`) {
		t.Fatalf("waitMs on a trace session: %+v, want a refusal naming waitMs and the debug mode", e)
	}
}

// TestStartWaitsForAWorkersPause: a breakpoint on a line only a worker runs is the first pause
// the start answers, with the worker named: not "no pause yet" while the worker stands paused.
func TestStartWaitsForAWorkersPause(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	wait := int64(20000)
	var res api.SessionResponse
	req := api.StartRequest{Target: "bpcheck.js", Mode: api.ModeDebug, WaitMs: &wait,
		Breakpoints: []api.StartBreakpoint{{Location: "bpcheck.js:12"}}} // console.log("worker up")
	if st := h.call("POST", "/api/trace/start", req, &res); st != http.StatusCreated {
		t.Fatalf("start: status %d", st)
	}
	h.stopAtCleanup(res.Session.ID)
	if res.State == nil || res.State.Location == nil || res.State.Location.Line != 12 || res.State.Target == "" || res.State.Target == "t0" {
		t.Fatalf("start answered %+v, state %+v; want the worker's pause at bpcheck.js:12", res.Session, res.State)
	}
}
