package routes

import (
	"net/http/httptest"
	"testing"

	"traced/api"
)

func TestWantsText(t *testing.T) {
	for _, c := range []struct {
		query, accept string
		want          bool
	}{
		{"", "", false},
		{"", "*/*", false},
		{"", "text/*", false},
		{"", "text/plain", true},
		{"", "text/plain; charset=utf-8", true},
		{"", "application/json, text/plain", false}, // equal q: JSON, the default, wins
		{"", "application/json;q=0.5, text/plain", true},
		{"", "text/plain;q=0.2, application/json;q=0.9", false},
		{"", "text/plain;q=0", false},
		{"", "text/plain;q=x", false},
		{"format=text", "", true},
		{"format=text", "application/json", true},
		{"format=json", "text/plain", false},
	} {
		r := httptest.NewRequest("GET", "/api/debug/s1/state?"+c.query, nil)
		if c.accept != "" {
			r.Header.Set("Accept", c.accept)
		}
		if got := wantsText(r); got != c.want {
			t.Errorf("?%s Accept %q: text %v, want %v", c.query, c.accept, got, c.want)
		}
	}
}

// TestRenderTextOnDebugRoutesOnly: the text form is for /api/debug answers and the trace reads;
// other routes stay JSON whatever they are asked.
func TestRenderTextOnDebugRoutesOnly(t *testing.T) {
	body := api.ErrorBody{Error: api.ErrorDetail{Code: "x", Message: "m", Hint: "h"}}
	for path, want := range map[string]string{
		"/api/debug/s1/state?format=text":  "text/plain; charset=utf-8",
		"/api/debug/attach?format=text":    "text/plain; charset=utf-8",
		"/api/trace/list?format=text":      "text/plain; charset=utf-8",
		"/api/trace?id=s1&format=text":     "text/plain; charset=utf-8",
		"/api/trace/wait?format=text":      "text/plain; charset=utf-8",
		"/api/trace/evidence?format=text":  "text/plain; charset=utf-8",
		"/api/trace/status?format=text":    "application/json",
		"/api/trace/start?format=text":     "application/json",
		"/api/trace/lists?format=text":     "application/json",
		"/api/debug/s1/state?format=json":  "application/json",
		"/api/debug/s1/state":              "application/json",
		"/api/trace/events?id=s1&after=0":  "application/json",
		"/api/trace/events?format=text":    "text/plain; charset=utf-8",
		"/api/debugger/s1/x?format=text":   "application/json",
		"/api/debug/s1/breakpoints/bp%231": "application/json",
	} {
		w := httptest.NewRecorder()
		render(w, httptest.NewRequest("GET", path, nil), 409, body)
		if got := w.Header().Get("Content-Type"); got != want {
			t.Errorf("%s: Content-Type %q, want %q", path, got, want)
		}
		if want != "application/json" && w.Body.String() != "error: m\nhint: h\n" {
			t.Errorf("%s: body %q", path, w.Body.String())
		}
	}
}

func TestTextForms(t *testing.T) {
	one := 1
	for _, c := range []struct {
		name string
		v    any
		want string
	}{
		{"running state", api.State{Session: "s1", Status: api.StatusRunning}, "running\n"},
		{"paused state", api.State{
			Status: api.StatusPaused, Reason: "exception", Frame: "f0",
			Location: &api.Frame{Function: "f", File: "a.js", Line: 9},
			Source:   []api.SourceLine{{Line: 9, Text: "x();", Current: true}, {Line: 10, Text: "}"}},
			Locals:   []api.Variable{{Name: "e", Value: "Error: no"}, {Name: "count", Value: "3"}},
			Stack: []api.StackFrame{
				{Ref: "f0", Frame: api.Frame{Function: "f", File: "a.js", Line: 9}},
				{Ref: "f1", Frame: api.Frame{URL: "node:internal/x", Line: 1, Internal: true}},
				{Ref: "f10", Frame: api.Frame{Function: "main", File: "b.js", Line: 120}},
			},
		}, "paused at a.js:9 (exception)\n >  9| x();\n   10| }\nlocals:\n  e      Error: no\n  count  3\n" +
			"stack:\n  f0  f            a.js:9\n  f1  (anonymous)  node:internal/x:1\n  f10 main         b.js:120\n"},
		{"paused in a child", api.State{
			Status: api.StatusPaused, Target: "t2", AlsoPaused: []string{"t3"}, Hit: []string{"bp1"},
			Location: &api.Frame{File: "a.js", Line: 3},
		}, "paused in t2 at a.js:3 (bp1)\nalso paused: t3\n"},
		{"main running, a worker paused", api.State{Status: api.StatusRunning, Target: "t0", AlsoPaused: []string{"t1"}},
			"running in t0\nalso paused: t1\n"},
		{"no breakpoints", api.BreakpointsResponse{Breakpoints: []api.Breakpoint{}}, "no breakpoints\n"},
		{"unbound breakpoint", api.BreakpointResponse{Breakpoint: api.Breakpoint{Ref: "bp1", Location: "x.js:1"}},
			"bp1  x.js:1  hits 0\n  not bound yet: no loaded script matches\n"},
		{"eval", api.EvalResult{Type: "number", Value: "2"}, "2  (number)\n"},
		{"error without hint", api.ErrorBody{Error: api.ErrorDetail{Code: "c", Message: "gone"}}, "error: gone\n"},
		{"generic", api.LogpointsResponse{Logpoints: []api.Logpoint{}}, "logpoints: []\n"},
		{"generic nested", map[string]any{"a": []any{map[string]any{"k": 1, "m": "x\ny"}, "s", []any{}}, "n": nil, "o": map[string]any{}},
			"a:\n  - k: 1\n    m: x\\ny\n  - s\n  - []\nn: -\no: {}\n"},
		{"generic scalar", 3, "3\n"},
		{"no sessions", api.ListResponse{Sessions: []api.Summary{}}, "no sessions\n"},
		{"sessions", api.ListResponse{Sessions: []api.Summary{
			{ID: "s1", Mode: "trace", Status: api.StatusExited, Target: "a.js", Args: []string{"-x"}, ExitCode: &one, Events: 9},
			{ID: "s2", Name: "web", Mode: "debug", Status: api.StatusFailed, Target: "b.js", Error: "start node: spawn\nstderr:\nx", Events: 0},
			{ID: "s3", Mode: "trace", Status: api.StatusStopped, Target: "c.js", Signal: "SIGKILL", Events: 5, Dropped: 2},
		}}, "s1  trace  exited (code 1)  a.js -x  9 events\n" +
			"s2 web  debug  failed: start node: spawn  b.js  0 events\n" +
			"s3  trace  stopped (SIGKILL)  c.js  5 events, 2 dropped\n"},
		{"events page", api.EventsResponse{Session: "s1", Status: "running", Next: 12, More: true, Gap: &api.Gap{From: 1, To: 2},
			Events: []api.Event{
				{Seq: 3, Kind: api.KindConsole, Console: &api.ConsoleInfo{Level: "log", Text: api.Text{Value: "a\nb"}, Frame: &api.Frame{File: "a.js", Line: 3}}},
				{Seq: 12, Kind: api.KindException, Exception: &api.ExceptionInfo{Class: "TypeError", Message: api.Text{Value: "TypeError: x", Truncated: true, Length: 900}, File: "a.js", Line: 6, Column: 9}},
			}}, "s1  running\n3   console    log a\\nb  (a.js:3)\n12  exception  TypeError: x… (900 bytes)  (a.js:6)\n" +
			"gap: seqs 1-2 were evicted\nnext: 12 (more: call again with after=12)\n"},
		{"wait timed out", api.WaitResponse{Session: "s1", Status: "running", TimedOut: true, Next: 4}, "s1  running\ntimed out: no matching event yet\nnext: 4\n"},
		{"wait finished", api.WaitResponse{Session: "s1", Status: "exited", Finished: true, Next: 4}, "s1  exited\nfinished: the session ended without a matching event\nnext: 4\n"},
		{"wait event", api.WaitResponse{Session: "s1", Status: "exited", Next: 4, Event: &api.Event{Seq: 4, Kind: api.KindExit, Exit: &api.ExitInfo{Signal: "SIGTERM"}}},
			"s1  exited\n4  exit  signal SIGTERM\nnext: 4\n"},
	} {
		if got := textOf(c.v); got != c.want {
			t.Errorf("%s:\n got %q\nwant %q", c.name, got, c.want)
		}
	}
}

// TestDebugResponsesDeclareText: every response of every operation that speaks text (/api/debug,
// the trace reads) declares the text form next to JSON, so that a route added later cannot
// answer text the contract does not allow.
func TestDebugResponsesDeclareText(t *testing.T) {
	doc, err := LoadContract()
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for path, item := range doc.Paths.Map() {
		if !speaksText(path) {
			continue
		}
		for method, op := range item.Operations() {
			for status, resp := range op.Responses.Map() {
				n++
				content := resp.Value.Content
				if content.Get("application/json") != nil && content.Get("text/plain") == nil {
					t.Errorf("%s %s %s: JSON without text/plain (add $ref '#/components/schemas/TextForm')", method, path, status)
				}
			}
			if item.Parameters.GetByInAndName("query", "format") == nil && op.Parameters.GetByInAndName("query", "format") == nil {
				t.Errorf("%s %s: no format parameter (add $ref '#/components/parameters/Format')", method, path)
			}
		}
	}
	if n == 0 {
		t.Fatal("no debug operations in the contract")
	}
}
