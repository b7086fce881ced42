package textform

import (
	"strings"
	"testing"
	"unicode/utf8"

	"traced/api"
)

func TestTextForms(t *testing.T) {
	one := 1
	for _, c := range []struct {
		name string
		v    any
		want string
	}{
		{"running state", api.State{Session: "s1", Status: "running"}, "s1  running\n"},
		{"paused state", api.State{
			Status: "paused", Reason: "exception", Frame: "f0",
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
			Status: "paused", Target: "t2", AlsoPaused: []string{"t3"}, Hit: []string{"bp1"},
			Location: &api.Frame{File: "a.js", Line: 3},
		}, "paused in t2 at a.js:3 (bp1)\nalso paused: t3\n"},
		{"a step names the column", api.State{Status: "paused", Reason: "step", Location: &api.Frame{File: "a.js", Line: 3, Column: 14}},
			"paused at a.js:3:14 (step)\n"},
		{"a mapped step", api.State{Status: "paused", Reason: "step",
			Location: &api.Frame{File: "a.ts", Line: 3, Column: 7, Generated: &api.Generated{File: "a.js", Line: 5}}},
			"paused at a.ts:3:7 (a.js:5) (step)\n"},
		{"main running, a worker paused", api.State{Status: "running", Target: "t0", AlsoPaused: []string{"t1"}},
			"running in t0\nalso paused: t1\n"},
		{"no breakpoints", api.BreakpointsResponse{Breakpoints: []api.Breakpoint{}}, "no breakpoints\n"},
		{"unbound breakpoint", api.BreakpointResponse{Breakpoint: api.Breakpoint{Ref: "bp1", Location: "x.js:1"}},
			"bp1  x.js:1  hits 0\n  not bound yet: no loaded script matches\n"},
		{"eval", api.EvalResult{Type: "number", Value: "2"}, "2  (number)\n"},
		{"eval in a target", api.EvalResult{Type: "number", Value: "2", Session: "s1", Target: "t2"}, "2  (number)  in s1 t2\n"},
		{"eval pending", api.EvalResult{Type: "promise", Value: "Promise", Session: "s1", Hint: "pending"}, "Promise  (promise)  in s1\nhint: pending\n"},
		{"error without hint", api.ErrorBody{Error: api.ErrorDetail{Code: "c", Message: "gone"}}, "error: gone\n"},
		{"logpoints", api.LogpointsResponse{Logpoints: []api.Logpoint{}}, "no logpoints\n"},
		{"generic nested", map[string]any{"a": []any{map[string]any{"k": 1, "m": "x\ny"}, "s", []any{}}, "n": nil, "o": map[string]any{}},
			"a:\n  k=1  m=x\\ny\n  s\n  []\nn: -\no: {}\n"},
		{"generic scalar", 3, "3\n"},
		{"no sessions", api.ListResponse{Sessions: []api.Summary{}}, "no sessions\n"},
		{"sessions", api.ListResponse{Sessions: []api.Summary{
			{ID: "s1", Mode: "trace", Status: "exited", Target: "a.js", Args: []string{"-x"}, ExitCode: &one, Events: 9},
			{ID: "s2", Name: "web", Mode: "debug", Status: "failed", Target: "b.js", Error: "start node: spawn\nstderr:\nx", Events: 0},
			{ID: "s3", Mode: "trace", Status: "stopped", Target: "c.js", Signal: "SIGKILL", Events: 5, Dropped: 2},
		}}, "s1  trace  exited (code 1)  a.js -x  9 events\n" +
			"s2 web  debug  failed: start node: spawn  b.js  0 events\n" +
			"s3  trace  stopped (SIGKILL)  c.js  5 events, 2 dropped\n"},
		{"events page", api.EventsResponse{Session: "s1", Status: "running", Next: 12, More: true, Gap: &api.Gap{From: 1, To: 2},
			Events: []api.Event{
				{Seq: 3, Kind: "console", Console: &api.ConsoleInfo{Level: "log", Text: api.Text{Value: "a\nb"}, Frame: &api.Frame{File: "a.js", Line: 3}}},
				{Seq: 12, Kind: "exception", Exception: &api.ExceptionInfo{Class: "TypeError", Message: api.Text{Value: "TypeError: x", Truncated: true, Length: 900}, File: "a.js", Line: 6, Column: 9}},
			}}, "s1  running\n3   console    log a\\nb  (a.js:3)\n12  exception  TypeError: x… (900 bytes)  (a.js:6)\n" +
			"gap: seqs 1-2 were evicted\nnext: 12 (more: call again with after=12)\n"},
		{"wait timed out", api.WaitResponse{Session: "s1", Status: "running", TimedOut: true, Next: 4}, "s1  running\ntimed out: no matching event yet\nnext: 4\n"},
		{"wait finished", api.WaitResponse{Session: "s1", Status: "exited", Finished: true, Next: 4}, "s1  exited\nfinished: the session ended without a matching event\nnext: 4\n"},
		{"wait too late", api.WaitResponse{Session: "s1", Status: "exited", Finished: true, Earlier: 3, Next: 4}, "s1  exited\nfinished: the session ended without a matching event\nearlier: seq 3 matched before this wait began (after=2 reads it)\nnext: 4\n"},
		{"wait event", api.WaitResponse{Session: "s1", Status: "exited", Next: 4, Event: &api.Event{Seq: 4, Kind: "exit", Exit: &api.ExitInfo{Signal: "SIGTERM"}}},
			"s1  exited\n4  exit  signal SIGTERM\nnext: 4\n"},
	} {
		if got := Answer(c.v); got != c.want {
			t.Errorf("%s:\n got %q\nwant %q", c.name, got, c.want)
		}
	}
}

// TestTextIsValidUTF8: what a program wrote reaches the text form as it came, bytes that are not
// UTF-8 included (binary output, a line the capture cut inside a character); every form of it
// reads them as U+FFFD and keeps the valid characters whole.
func TestTextIsValidUTF8(t *testing.T) {
	raw := "ok \xff\xfe é \xe2\x82" // invalid bytes, a valid é, a euro sign cut after 2 of its 3 bytes
	ev := api.Event{Seq: 1, Kind: "stdout", Output: &api.OutputInfo{Text: api.Text{Value: raw}}}
	cut := api.Event{Seq: 2, Kind: "console", Console: &api.ConsoleInfo{Level: "log",
		Text: api.Text{Value: "€€\xe2", Truncated: true, Length: 9}}}
	for name, got := range map[string]string{
		"event":   Event(ev),
		"cut":     Event(cut),
		"page":    Answer(api.EventsResponse{Session: "s1", Status: "running", Events: []api.Event{ev, cut}}),
		"generic": Answer(map[string]string{"line": raw}),
		"session": Session(api.Summary{ID: "s1", Mode: "trace", Status: "failed", Error: "spawn \xff"}),
		"eval":    Answer(api.EvalResult{Type: "string", Value: raw}),
	} {
		if !utf8.ValidString(got) {
			t.Errorf("%s: invalid UTF-8 in %q", name, got)
		}
		if !strings.Contains(got, "\uFFFD") || strings.Contains(got, "\uFFFD\uFFFD\uFFFD") {
			t.Errorf("%s: %q, want each bad run read as one U+FFFD", name, got)
		}
	}
	if got, want := Event(ev), "ok \uFFFD é \uFFFD"; got != want {
		t.Errorf("output line %q, want %q", got, want)
	}
	if got, want := Event(cut), "log €€\uFFFD… (9 bytes)"; got != want {
		t.Errorf("cut console line %q, want %q", got, want)
	}
}

// A throw's line names the user frames that called the throwing one, up to node's own code.
func TestThrowNamesItsCallers(t *testing.T) {
	loc := api.Frame{Function: "discount", File: "pricing.js", URL: "file:///w/pricing.js", Line: 4}
	ev := api.Event{Kind: "throw", Throw: &api.ThrowInfo{
		Class: "TypeError", Message: api.Text{Value: "no bulk"}, Caught: true, Location: &loc,
		Stack: []api.Frame{loc,
			{Function: "priceOf", File: "pricing.js", URL: "file:///w/pricing.js", Line: 10},
			{Function: "", File: "server.js", URL: "file:///w/server.js", Line: 10},
			{Function: "reduce", URL: "node:internal/x", Line: 1, Internal: true},
			{Function: "handle", File: "server.js", URL: "file:///w/server.js", Line: 9},
		}}}
	got := Event(ev)
	want := "TypeError: no bulk  (pricing.js:4) ← priceOf (pricing.js:10) ← (anonymous) (server.js:10)  caught"
	if got != want {
		t.Errorf("throw line:\n got %q\nwant %q", got, want)
	}
}
