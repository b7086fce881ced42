package tests

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/coder/websocket"

	"traced/api"
	"traced/internal/leakcheck"
)

// unresponsiveBound is how soon a change of a program's state is announced (issue 29.2).
const unresponsiveBound = 2 * time.Second

// sessionMessage reads the stream until a session message about id satisfies ok, within bound.
func sessionMessage(t *testing.T, conn *websocket.Conn, id string, bound time.Duration, ok func(api.Summary) bool) api.Summary {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), bound)
	defer cancel()
	for {
		_, data, err := conn.Read(ctx)
		if err != nil {
			t.Fatalf("no matching session message for %s within %s: %v", id, bound, err)
		}
		var m api.StreamMessage
		if err := json.Unmarshal(data, &m); err != nil {
			t.Fatal(err)
		}
		if m.Type == api.MsgSession && m.Summary != nil && m.Summary.ID == id && ok(*m.Summary) {
			return *m.Summary
		}
	}
}

// TestStoppedProgramIsSeen: a program that stops itself (SIGSTOP) is reported unresponsive
// "stopped" on the stream and in its summary within 2 s, debugger calls answer 409 frozen at
// once, and once continued (SIGCONT) it is seen again, running.
func TestStoppedProgramIsSeen(t *testing.T) {
	h := newHarness(t)
	s := h.debug(api.StartRequest{Target: "selfstop.js"})
	t.Cleanup(func() { syscall.Kill(s.PID, syscall.SIGCONT) })
	conn, _ := h.dialStream(t.Context(), "session="+s.ID)
	if !leakcheck.WaitUntil(10*time.Second, func() bool { return procStateOf(s.PID) == 'T' }) {
		t.Fatalf("pid %d never stopped itself (state %c)", s.PID, procStateOf(s.PID))
	}
	sessionMessage(t, conn, s.ID, unresponsiveBound, func(sum api.Summary) bool { return sum.Unresponsive == "stopped" })
	var list api.ListResponse
	h.call("GET", "/api/trace/list", nil, &list)
	if len(list.Sessions) != 1 || list.Sessions[0].Unresponsive != "stopped" {
		t.Fatalf("list %+v, want the session unresponsive: stopped", list.Sessions)
	}
	status, raw := h.bounded(h.request("POST", "/api/debug/"+s.ID+"/pause", api.PauseRequest{}), 5*time.Second)
	wantFrozen(t, "pause of a stopped program", status, raw)

	if err := syscall.Kill(s.PID, syscall.SIGCONT); err != nil {
		t.Fatal(err)
	}
	sum := sessionMessage(t, conn, s.ID, unresponsiveBound, func(sum api.Summary) bool { return sum.Unresponsive == "" })
	if sum.Status.Finished() {
		t.Fatalf("continued: %+v, want it live", sum)
	}
	if !leakcheck.WaitUntil(10*time.Second, func() bool {
		return strings.Contains(h.printed(s.ID), "continued")
	}) {
		t.Fatalf("no \"continued\" after SIGCONT: %q", h.printed(s.ID))
	}
}

// TestStopSignals: a stop sends SIGTERM and, when that does not end the program within the
// grace, SIGKILL; the answer says which ended it.
func TestStopSignals(t *testing.T) {
	h := newHarness(t)
	for _, tc := range []struct {
		arg, by, signal string
		code            *int
	}{
		{arg: "default", by: "SIGTERM", signal: "SIGTERM"},
		{arg: "exit", by: "SIGTERM", code: new(int)},
		{arg: "ignore", by: "SIGKILL", signal: "SIGKILL"},
	} {
		t.Run(tc.arg, func(t *testing.T) {
			h := h.with(t)
			s := h.start(api.StartRequest{Target: "onterm.js", Args: []string{tc.arg}})
			h.waitFor(s.ID, 0, "console") // "ready": its handler is set
			var res api.SessionResponse
			if st := h.call("POST", "/api/trace/stop", api.StopRequest{ID: s.ID}, &res); st != http.StatusOK {
				t.Fatalf("stop: %d", st)
			}
			sum := res.Session
			if sum.Status != "stopped" || sum.StoppedBy != tc.by || sum.Signal != tc.signal ||
				(tc.code == nil) != (sum.ExitCode == nil) || (tc.code != nil && *sum.ExitCode != *tc.code) {
				t.Fatalf("stopped %+v, want by %s, signal %q, code %v", sum, tc.by, tc.signal, tc.code)
			}
		})
	}
}
