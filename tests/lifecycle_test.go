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
	"traced/internal/mcpserver"
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
	// Not parallel: it asserts a stopped program is seen within 2 s, which load could break.
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
	// Not parallel: a program's SIGTERM handler must end it within the 2 s stop grace, which load could break.
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

// TestEndedSessionsFreeNamesAndDelete: a name whose session has ended is taken by a new start
// (a live one's is refused), a stop with nothing live says so, and a finished session can be
// deleted (a live one answers 409 live), through REST, the CLI and MCP.
func TestEndedSessionsFreeNamesAndDelete(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	first := h.start(api.StartRequest{Target: "onterm.js", Name: "job"})
	h.waitFor(first.ID, 0, "console")
	req := h.request("POST", "/api/trace/start", api.StartRequest{Target: "onterm.js", Name: "job"})
	if e := h.errorOf(req, http.StatusBadRequest); !strings.Contains(e.Message, "still live") {
		t.Fatalf("a live session's name: %+v, want refused as still live", e)
	}
	if e := h.errorOf(h.request("DELETE", "/api/trace?id=job", nil), http.StatusConflict); e.Code != "live" || !strings.Contains(e.Hint, "stop") {
		t.Fatalf("delete of a live session: %+v, want 409 live naming the stop", e)
	}
	var stopped api.SessionResponse
	h.call("POST", "/api/trace/stop", api.StopRequest{ID: "job"}, &stopped)
	if stopped.Note != "" {
		t.Fatalf("stop of a live session says %q", stopped.Note)
	}
	h.call("POST", "/api/trace/stop", api.StopRequest{ID: "job"}, &stopped)
	if !strings.Contains(stopped.Note, "nothing live") {
		t.Fatalf("second stop: note %q, want it to say nothing was live", stopped.Note)
	}

	second := h.start(api.StartRequest{Target: "onterm.js", Name: "job"}) // the name is free again
	var tr api.TraceResponse
	h.call("GET", "/api/trace?id=job", nil, &tr)
	if tr.Session.ID != second.ID {
		t.Fatalf("job is %s, want the new session %s", tr.Session.ID, second.ID)
	}
	tr = api.TraceResponse{} // omitted fields keep what a decode before put there
	h.call("GET", "/api/trace?id="+first.ID, nil, &tr)
	if tr.Session.Name != "" || tr.Session.Status != api.StatusStopped {
		t.Fatalf("old session %+v, want it listed under its id without the name", tr.Session)
	}
	var deleted api.SessionResponse
	if st := h.call("DELETE", "/api/trace?id="+first.ID, nil, &deleted); st != http.StatusOK || deleted.Session.ID != first.ID {
		t.Fatalf("delete: %d %+v", st, deleted)
	}
	if st := h.call("GET", "/api/trace?id="+first.ID, nil, nil); st != http.StatusNotFound {
		t.Fatalf("deleted session answers %d, want 404", st)
	}

	// The CLI: a stop of an ended session says nothing was live; delete forgets it.
	c := newCLI(t).against(h)
	c.ok([]string{"stop", "--session", "job"}, "stopped")
	c.ok([]string{"stop", "--session", "job"}, "nothing live to stop")
	c.ok([]string{"delete", "--session", "job"}, "deleted "+second.ID)
	c.fails(1, []string{"delete", "--session", "job"}, "not found")

	// MCP: the same through the tools.
	third := h.start(api.StartRequest{Target: "onterm.js", Name: "job"})
	s, err := mcpserver.New(mcpserver.Options{API: h.svc.Router, Token: testToken, Tools: "all", Version: "test"})
	if err != nil {
		t.Fatal(err)
	}
	m := connectMCP(t, s)
	if text, isErr := m.call("delete", map[string]any{"session": "job"}); !isErr || !strings.Contains(text, "stop") {
		t.Fatalf("MCP delete of a live session: %q (error %v), want an error naming the stop", text, isErr)
	}
	if text, _ := m.call("stop", map[string]any{"session": "job"}); !strings.Contains(text, "stopped by SIGTERM") {
		t.Fatalf("MCP stop: %q", text)
	}
	if text, isErr := m.call("delete", map[string]any{"session": "job"}); isErr || !strings.Contains(text, third.ID) {
		t.Fatalf("MCP delete: %q (error %v)", text, isErr)
	}
}
