package evidence

import (
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"

	"traced/internal/engine"
)

// Event builders. Seqs are explicit so each case reads as a timeline.

func appFrame(file string, line int) *engine.Frame {
	return &engine.Frame{Function: "f", URL: "file:///app/" + file, File: file, Line: line, Column: 1}
}

func nodeFrame(url string, line int) *engine.Frame {
	return &engine.Frame{Function: "g", URL: url, Line: line, Column: 1, Internal: true}
}

func consoleAt(seq uint64, text string, f *engine.Frame) engine.Event {
	return engine.Event{Seq: seq, Kind: engine.KindConsole,
		Console: &engine.ConsoleInfo{Level: "log", Text: engine.Text{Value: text}, Frame: f}}
}

func script(seq uint64, url string) engine.Event {
	s := &engine.ScriptInfo{ScriptID: fmt.Sprint(seq), URL: url, Internal: strings.HasPrefix(url, "node:")}
	if name, ok := strings.CutPrefix(url, "file:///app/"); ok {
		s.File = name
	}
	return engine.Event{Seq: seq, Kind: engine.KindScript, Script: s}
}

func pauseAt(seq uint64, reason string, f *engine.Frame) engine.Event {
	return engine.Event{Seq: seq, Kind: engine.KindPause, Pause: &engine.PauseInfo{Reason: reason, Location: f}}
}

func resume(seq uint64) engine.Event { return engine.Event{Seq: seq, Kind: engine.KindResume} }

func stdout(seq uint64, text string) engine.Event {
	return engine.Event{Seq: seq, Kind: engine.KindStdout, Output: &engine.OutputInfo{Text: engine.Text{Value: text}}}
}

// throwAt is an uncaught exception thrown at site, with stack innermost first.
func throwAt(seq uint64, class, msg string, site *engine.Frame, stack ...*engine.Frame) engine.Event {
	x := &engine.ExceptionInfo{Text: "Uncaught", Class: class, Message: engine.Text{Value: msg},
		Value: class + ": " + msg}
	if site != nil {
		x.URL, x.File, x.Line, x.Column = site.URL, site.File, site.Line, site.Column
	}
	for _, f := range stack {
		x.Stack = append(x.Stack, *f)
	}
	return engine.Event{Seq: seq, Kind: engine.KindException, Exception: x}
}

func exitWith(seq uint64, code int) engine.Event {
	return engine.Event{Seq: seq, Kind: engine.KindExit, Exit: &engine.ExitInfo{Code: &code}}
}

func killed(seq uint64, signal string) engine.Event {
	return engine.Event{Seq: seq, Kind: engine.KindExit, Exit: &engine.ExitInfo{Signal: signal}}
}

func summary(status engine.Status) engine.Summary {
	return engine.Summary{ID: "s1", Status: status, Target: "app.js", Args: []string{"--port", "0"}, Cwd: "/app"}
}

func intPtr(n int) *int { return &n }

func TestBuild(t *testing.T) {
	appThrow := appFrame("app.js", 12)
	tests := []struct {
		name   string
		in     Input
		reason string // wanted substring of Reason when Evidence is nil; "" means evidence expected
		kind   FailureKind
		seq    uint64 // failure seq
		class  string
		conf   Confidence
		cause  uint64 // immediate cause seq; 0 means none
		exit   *int
		signal string
	}{
		{
			name:   "clean exit",
			in:     Input{summary(engine.StatusExited), []engine.Event{consoleAt(1, "hi", appFrame("app.js", 1)), exitWith(2, 0)}},
			reason: "exited with code 0 and no exception was captured",
		},
		{
			name:   "still running",
			in:     Input{summary(engine.StatusRunning), []engine.Event{consoleAt(1, "hi", appFrame("app.js", 1))}},
			reason: "still running",
		},
		{
			name:   "paused counts as running",
			in:     Input{summary(engine.StatusPaused), []engine.Event{pauseAt(1, "breakpoint", appFrame("app.js", 1))}},
			reason: "still running",
		},
		{
			name:   "stopped by the user",
			in:     Input{summary(engine.StatusStopped), []engine.Event{consoleAt(1, "hi", appFrame("app.js", 1)), killed(2, "SIGTERM")}},
			reason: "stopped",
		},
		{
			name:   "failed to start",
			in:     Input{engine.Summary{Status: engine.StatusFailed, Error: "inspector never listened"}, nil},
			reason: "inspector never listened",
		},
		{
			name: "cause in the same file is high",
			in: Input{summary(engine.StatusExited), []engine.Event{
				script(1, "file:///app/app.js"),
				consoleAt(2, "loading", appFrame("app.js", 10)),
				stdout(3, "noise"),
				throwAt(4, "TypeError", "x is undefined", appThrow, appThrow),
				exitWith(5, 1),
			}},
			kind: FailureException, seq: 4, class: "TypeError", conf: ConfidenceHigh, cause: 2,
		},
		{
			name: "cause in another file is medium",
			in: Input{summary(engine.StatusExited), []engine.Event{
				consoleAt(1, "config read", appFrame("config.js", 3)),
				throwAt(2, "RangeError", "bad port", appThrow, appThrow),
			}},
			kind: FailureException, seq: 2, class: "RangeError", conf: ConfidenceMedium, cause: 1,
		},
		{
			name: "no prior user event is medium",
			in: Input{summary(engine.StatusExited), []engine.Event{
				script(1, "file:///app/app.js"),
				consoleAt(2, "from node", nodeFrame("node:internal/util", 5)),
				pauseAt(3, "other", nodeFrame("node:internal/timers", 9)),
				throwAt(4, "Error", "boom", appThrow, appThrow),
			}},
			kind: FailureException, seq: 4, class: "Error", conf: ConfidenceMedium,
		},
		{
			name: "only internal frames is low",
			in: Input{summary(engine.StatusExited), []engine.Event{
				consoleAt(1, "start", appFrame("app.js", 1)),
				throwAt(2, "Error", "ENOENT", nodeFrame("node:fs", 40), nodeFrame("node:fs", 40), nodeFrame("node:internal/main", 2)),
			}},
			kind: FailureException, seq: 2, class: "Error", conf: ConfidenceLow, cause: 1,
		},
		{
			name: "internal throw resolves through a user stack frame",
			in: Input{summary(engine.StatusExited), []engine.Event{
				consoleAt(1, "reading", appFrame("app.js", 7)),
				throwAt(2, "Error", "ENOENT", nodeFrame("node:fs", 40), nodeFrame("node:fs", 40), appFrame("app.js", 8)),
			}},
			kind: FailureException, seq: 2, class: "Error", conf: ConfidenceHigh, cause: 1,
		},
		{
			name: "no throw site falls back to the stack",
			in: Input{summary(engine.StatusExited), []engine.Event{
				consoleAt(1, "reading", appFrame("app.js", 7)),
				throwAt(2, "", "rejected", nil, appFrame("app.js", 9)),
			}},
			kind: FailureException, seq: 2, conf: ConfidenceHigh, cause: 1,
		},
		{
			name: "pause is an immediate cause",
			in: Input{summary(engine.StatusExited), []engine.Event{
				consoleAt(1, "elsewhere", appFrame("lib.js", 1)),
				pauseAt(2, "breakpoint", appFrame("app.js", 11)),
				resume(3),
				throwAt(4, "TypeError", "x", appThrow, appThrow),
			}},
			kind: FailureException, seq: 4, class: "TypeError", conf: ConfidenceHigh, cause: 2,
		},
		{
			name: "last of two exceptions",
			in: Input{summary(engine.StatusExited), []engine.Event{
				consoleAt(1, "first", appFrame("app.js", 1)),
				throwAt(2, "TypeError", "first", appThrow, appThrow),
				consoleAt(3, "second", appFrame("lib.js", 2)),
				throwAt(4, "RangeError", "second", appThrow, appThrow),
				consoleAt(5, "after", appFrame("app.js", 30)),
			}},
			kind: FailureException, seq: 4, class: "RangeError", conf: ConfidenceMedium, cause: 3,
		},
		{
			name: "exception wins over a user stop",
			in: Input{summary(engine.StatusStopped), []engine.Event{
				consoleAt(1, "x", appFrame("app.js", 2)),
				throwAt(2, "Error", "late", appThrow, appThrow),
				killed(3, "SIGTERM"),
			}},
			kind: FailureException, seq: 2, class: "Error", conf: ConfidenceHigh, cause: 1,
		},
		{
			name: "non-zero exit without exception",
			in: Input{summary(engine.StatusExited), []engine.Event{
				consoleAt(1, "giving up", appFrame("app.js", 3)),
				exitWith(2, 3),
			}},
			kind: FailureExit, seq: 2, conf: ConfidenceLow, cause: 1, exit: intPtr(3),
		},
		{
			name: "killed by a signal",
			in:   Input{summary(engine.StatusExited), []engine.Event{killed(1, "SIGKILL")}},
			kind: FailureExit, seq: 1, conf: ConfidenceLow, signal: "SIGKILL",
		},
		{
			name: "exit known only from the summary",
			in: Input{func() engine.Summary { s := summary(engine.StatusExited); s.ExitCode = intPtr(2); return s }(),
				[]engine.Event{consoleAt(7, "bye", appFrame("app.js", 3))}},
			kind: FailureExit, seq: 0, conf: ConfidenceLow, cause: 7, exit: intPtr(2),
		},
		{
			name: "clean exit event outranks the summary",
			in: Input{func() engine.Summary { s := summary(engine.StatusExited); s.ExitCode = intPtr(1); return s }(),
				[]engine.Event{exitWith(1, 0)}},
			reason: "exited with code 0",
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := Build(tc.in)
			if tc.reason != "" {
				if r.Evidence != nil {
					t.Fatalf("evidence = %+v, want nil", r.Evidence)
				}
				if !strings.Contains(r.Reason, tc.reason) {
					t.Fatalf("reason = %q, want it to contain %q", r.Reason, tc.reason)
				}
				return
			}
			ev := r.Evidence
			if ev == nil {
				t.Fatalf("evidence = nil (reason %q), want a failure", r.Reason)
			}
			if r.Reason != "" {
				t.Errorf("reason = %q alongside evidence, want empty", r.Reason)
			}
			f := ev.Failure
			if f.Kind != tc.kind || f.Seq != tc.seq || f.Class != tc.class {
				t.Errorf("failure = %s seq %d class %q, want %s seq %d class %q", f.Kind, f.Seq, f.Class, tc.kind, tc.seq, tc.class)
			}
			if ev.Confidence != tc.conf {
				t.Errorf("confidence = %s (%s), want %s", ev.Confidence, ev.ConfidenceReason, tc.conf)
			}
			if !strings.HasSuffix(ev.ConfidenceReason, ".") || strings.Count(ev.ConfidenceReason, ". ") > 0 {
				t.Errorf("confidence_reason = %q, want one sentence", ev.ConfidenceReason)
			}
			switch {
			case tc.cause == 0 && ev.ImmediateCause != nil:
				t.Errorf("immediate cause = %+v, want none", ev.ImmediateCause)
			case tc.cause != 0 && (ev.ImmediateCause == nil || ev.ImmediateCause.Seq != tc.cause):
				t.Errorf("immediate cause = %+v, want seq %d", ev.ImmediateCause, tc.cause)
			}
			if !strings.Contains(ev.Caveat, "correlation") || !strings.Contains(ev.Caveat, "not causation") {
				t.Errorf("caveat = %q, want it to say correlation, not causation", ev.Caveat)
			}
			if tc.kind == FailureExit {
				if (f.ExitCode == nil) != (tc.exit == nil) || (f.ExitCode != nil && *f.ExitCode != *tc.exit) {
					t.Errorf("exit_code = %v, want %v", f.ExitCode, tc.exit)
				}
				if f.Signal != tc.signal || ev.OriginatingValue.Signal != tc.signal {
					t.Errorf("signal = %q / %q, want %q", f.Signal, ev.OriginatingValue.Signal, tc.signal)
				}
				if f.Location != nil || ev.OriginatingValue.Class != "" {
					t.Errorf("exit failure has location %v / class %q, want neither", f.Location, ev.OriginatingValue.Class)
				}
			}
			if tc.kind == FailureException && (f.Location == nil || ev.OriginatingValue.Value == "" || ev.OriginatingValue.ExitCode != nil) {
				t.Errorf("exception failure: location %v, originating value %+v", f.Location, ev.OriginatingValue)
			}
			for _, it := range ev.PreviousStateTransitions {
				if it.Seq >= f.Seq && f.Seq != 0 {
					t.Errorf("transition seq %d is not before failure seq %d", it.Seq, f.Seq)
				}
			}
			if ev.RelevantInput.Target != tc.in.Summary.Target || ev.RelevantInput.Cwd != tc.in.Summary.Cwd ||
				strings.Join(ev.RelevantInput.Argv, " ") != strings.Join(tc.in.Summary.Args, " ") {
				t.Errorf("relevant_input = %+v, want summary's target, args, cwd", ev.RelevantInput)
			}
		})
	}
}

func TestTransitions(t *testing.T) {
	var events []engine.Event
	seq := uint64(0)
	next := func() uint64 { seq++; return seq }
	for range 50 {
		events = append(events, script(next(), "node:internal/x"))
	}
	events = append(events, script(next(), "file:///app/app.js")) // seq 51, too old to be kept
	for i := range 12 {
		events = append(events, consoleAt(next(), fmt.Sprint("tick ", i), appFrame("app.js", i+1))) // 52, 54 … 74
		events = append(events, script(next(), "node:internal/y"))                                  // 53, 55 … 75
	}
	events = append(events, pauseAt(next(), "breakpoint", appFrame("app.js", 40))) // 76
	events = append(events, resume(next()))                                        // 77
	events = append(events, stdout(next(), "not a transition"))                    // 78
	failSeq := next()
	events = append(events, throwAt(failSeq, "Error", "boom", appFrame("app.js", 41), appFrame("app.js", 41)))
	events = append(events, consoleAt(next(), "after the failure", appFrame("app.js", 50)))

	ev := Build(Input{summary(engine.StatusExited), events}).Evidence
	if ev == nil {
		t.Fatal("evidence = nil")
	}
	got := ev.PreviousStateTransitions
	if len(got) != maxTransitions {
		t.Fatalf("len(transitions) = %d, want %d", len(got), maxTransitions)
	}
	for i, it := range got {
		if it.Kind == engine.KindScript || it.Kind == engine.KindStdout {
			t.Errorf("transition %d is a %s (%q), want internal scripts and output left out", i, it.Kind, it.Summary)
		}
		if i > 0 && got[i-1].Seq >= it.Seq {
			t.Errorf("transitions not chronological: seq %d then %d", got[i-1].Seq, it.Seq)
		}
	}
	last := got[len(got)-1]
	if last.Kind != engine.KindResume || last.Summary != "resumed" {
		t.Errorf("last transition = %+v, want the resume", last)
	}
	if p := got[len(got)-2]; p.Kind != engine.KindPause || p.Summary != "paused (breakpoint) at app.js:40" {
		t.Errorf("second-last transition = %+v, want the pause", p)
	}
	if first := got[0]; first.Kind != engine.KindConsole || first.Summary != "console.log: tick 4" {
		t.Errorf("first transition = %+v, want console tick 4 (the 10th newest)", first)
	}

	// A user script is a transition when it is among the last ten.
	short := []engine.Event{script(1, "node:internal/a"), script(2, "file:///app/app.js"),
		throwAt(3, "Error", "x", appFrame("app.js", 1))}
	got = Build(Input{summary(engine.StatusExited), short}).Evidence.PreviousStateTransitions
	if len(got) != 1 || got[0].Seq != 2 || got[0].Summary != "script parsed: app.js" {
		t.Errorf("transitions = %+v, want only the user script", got)
	}
}

func TestStackCapped(t *testing.T) {
	var stack []*engine.Frame
	for i := range 25 {
		stack = append(stack, appFrame("app.js", i+1))
	}
	ev := Build(Input{summary(engine.StatusExited), []engine.Event{throwAt(1, "Error", "deep", stack[0], stack...)}}).Evidence
	if len(ev.Failure.Stack) != maxStack {
		t.Fatalf("len(stack) = %d, want %d", len(ev.Failure.Stack), maxStack)
	}
	if ev.Failure.Stack[0].Line != 1 || ev.Failure.Stack[maxStack-1].Line != maxStack {
		t.Errorf("stack = %+v, want the innermost frames in order", ev.Failure.Stack)
	}
}

func TestSummaryOneLineAndCapped(t *testing.T) {
	long := strings.Repeat("é", 300) // 600 bytes
	ev := Build(Input{summary(engine.StatusExited), []engine.Event{
		consoleAt(1, "line one\nline two", appFrame("app.js", 1)),
		consoleAt(2, long, appFrame("app.js", 2)),
		throwAt(3, "Error", "x", appFrame("app.js", 3)),
	}}).Evidence
	if got := ev.PreviousStateTransitions[0].Summary; got != "console.log: line one line two" {
		t.Errorf("summary = %q, want it folded onto one line", got)
	}
	s := ev.ImmediateCause.Summary
	if len(s) > maxSummary || !utf8.ValidString(s) || !strings.HasSuffix(s, "…") {
		t.Errorf("summary is %d bytes, valid UTF-8 %v, %q; want ≤ %d, valid, ending in …", len(s), utf8.ValidString(s), s, maxSummary)
	}
}

// TestNoAliasing checks that the result shares no memory with the input, so a caller may keep it
// after the ring overwrites the events.
func TestNoAliasing(t *testing.T) {
	cause := appFrame("app.js", 1)
	ex := throwAt(2, "Error", "x", appFrame("app.js", 2), appFrame("app.js", 2))
	in := Input{summary(engine.StatusExited), []engine.Event{consoleAt(1, "a", cause), ex}}
	ev := Build(in).Evidence
	cause.Line = 99
	ex.Exception.Stack[0].Line = 99
	in.Summary.Args[0] = "changed"
	if ev.ImmediateCause.Location.Line != 1 || ev.Failure.Stack[0].Line != 2 || ev.RelevantInput.Argv[0] != "--port" {
		t.Errorf("result changed with its input: cause %+v, stack %+v, argv %v",
			ev.ImmediateCause.Location, ev.Failure.Stack, ev.RelevantInput.Argv)
	}
}

func BenchmarkBuild(b *testing.B) {
	events := make([]engine.Event, 0, 10_000)
	for i := range cap(events) - 1 {
		seq := uint64(i + 1)
		switch i % 4 {
		case 0:
			events = append(events, script(seq, "node:internal/x"))
		case 1:
			events = append(events, consoleAt(seq, "tick", appFrame("app.js", i)))
		default:
			events = append(events, stdout(seq, "out"))
		}
	}
	events = append(events, throwAt(10_000, "Error", "x", appFrame("app.js", 1), appFrame("app.js", 1)))
	in := Input{summary(engine.StatusExited), events}
	b.ReportAllocs()
	for b.Loop() {
		Build(in)
	}
}

// TestTargets: an exception in a worker or child process is the failure like one in the main
// thread, and it and the events before it name their target.
func TestTargets(t *testing.T) {
	inChild := func(ev engine.Event) engine.Event { ev.Target = "t2"; return ev }
	ev := Build(Input{summary(engine.StatusExited), []engine.Event{
		consoleAt(1, "main: starting", appFrame("app.js", 2)),
		inChild(consoleAt(2, "child: loading", appFrame("child.js", 3))),
		inChild(throwAt(3, "TypeError", "boom", appFrame("child.js", 5), appFrame("child.js", 5))),
		exitWith(4, 1),
	}}).Evidence
	if ev == nil || ev.Failure.Kind != FailureException || ev.Failure.Target != "t2" {
		t.Fatalf("evidence %+v, want the child's exception as the failure, in t2", ev)
	}
	if ev.ImmediateCause == nil || ev.ImmediateCause.Target != "t2" || ev.ImmediateCause.Seq != 2 {
		t.Fatalf("immediate cause %+v, want the child's console call, in t2", ev.ImmediateCause)
	}
}

// TestThrowFailure: a failed exit with no uncaught exception is told by the last throw before
// it (a test runner caught the assertion): its place, class, message and locals; an uncaught
// exception still wins over any throw.
func TestThrowFailure(t *testing.T) {
	site := appFrame("app.test.js", 9)
	throw := engine.Event{Seq: 3, Kind: engine.KindThrow, Throw: &engine.ThrowInfo{Class: "AssertionError",
		Message: engine.Text{Value: "6 !== 7"}, Caught: true, Location: site, Stack: []engine.Frame{*site},
		Locals: []engine.Variable{{Name: "got", Value: "6"}}}}
	ev := Build(Input{summary(engine.StatusExited), []engine.Event{
		consoleAt(1, "running", appFrame("app.test.js", 7)), throw, exitWith(4, 1),
	}}).Evidence
	if ev == nil || ev.Failure.Kind != FailureThrow || ev.Failure.Location == nil || ev.Failure.Location.Line != 9 ||
		ev.Failure.Class != "AssertionError" || ev.Failure.ExitCode == nil || *ev.Failure.ExitCode != 1 {
		t.Fatalf("evidence %+v, want the throw at app.test.js:9 with exit code 1", ev)
	}
	if len(ev.OriginatingValue.Locals) != 1 || ev.OriginatingValue.Locals[0].Name != "got" || ev.ImmediateCause == nil || ev.ImmediateCause.Seq != 1 {
		t.Fatalf("originating %+v, cause %+v", ev.OriginatingValue, ev.ImmediateCause)
	}
	if ev.Confidence != ConfidenceHigh {
		t.Fatalf("confidence %s (%s), want high: the cause is in the same file", ev.Confidence, ev.ConfidenceReason)
	}
	uncaught := Build(Input{summary(engine.StatusExited), []engine.Event{
		throw, throwAt(4, "TypeError", "x", appFrame("app.js", 2)), exitWith(5, 1),
	}}).Evidence
	if uncaught.Failure.Kind != FailureException {
		t.Fatalf("failure %+v, want the uncaught exception", uncaught.Failure)
	}
}

// TestFailingTestsChosen: the runner's report picks the failure: a later expected throw of a
// passing test is not it; a reported test with no recorded throw is a "test" failure at the
// runner's position; rate-capped throws are owned up to.
func TestFailingTestsChosen(t *testing.T) {
	assertion := engine.Event{Seq: 3, Kind: engine.KindThrow, Throw: &engine.ThrowInfo{Class: "AssertionError",
		Message: engine.Text{Value: "4 !== 11"}, Caught: true, Location: appFrame("cart.test.js", 10),
		Locals: []engine.Variable{{Name: "sum", Value: "4"}}}}
	expected := engine.Event{Seq: 4, Kind: engine.KindThrow, Throw: &engine.ThrowInfo{Class: "TypeError",
		Message: engine.Text{Value: "parse wants a string"}, Caught: true, Location: appFrame("lib.js", 4)}}
	report := []engine.Event{
		stdout(5, "    not ok 2 - totals"), stdout(6, "      ---"), stdout(7, "      location: '/app/cart.test.js:7:8'"),
		stdout(8, "      error: |-"), stdout(9, "        4 !== 11"), stdout(10, "      name: 'AssertionError'"),
		stdout(11, "      expected: 11"), stdout(12, "      actual: 4"), stdout(13, "      stack: |-"),
		stdout(14, "        TestContext.<anonymous> (/app/cart.test.js:10:12)"), stdout(15, "      ..."),
	}
	sum := summary(engine.StatusExited)
	sum.Cwd = "/app"
	evs := append(append([]engine.Event{assertion, expected}, report...), exitWith(16, 1))
	ev := Build(Input{sum, evs}).Evidence
	if ev == nil || len(ev.FailingTests) != 1 || ev.Failure.Seq != 3 || ev.Failure.Test != "totals" {
		t.Fatalf("evidence %+v, want the failing test's throw (seq 3)", ev)
	}
	ft := ev.FailingTests[0]
	if ft.Expected != "11" || ft.Received != "4" || ft.ThrowSeq != 3 || len(ft.Locals) != 1 || ft.Location.File != "cart.test.js" {
		t.Fatalf("failing test %+v", ft)
	}
	// Throw events off: the runner's report alone.
	sum.ThrowsSkipped = 2
	ev = Build(Input{sum, append(append([]engine.Event{}, report...), exitWith(16, 1))}).Evidence
	if ev == nil || ev.Failure.Kind != FailureTest || ev.Failure.Location == nil || ev.Failure.Location.Line != 10 ||
		!strings.Contains(ev.ConfidenceReason, "rate cap") {
		t.Fatalf("evidence %+v, want a test failure at cart.test.js:10 that owns up to the skipped throws", ev)
	}
}

// TestRunningNamesThrows: a running (or stopped) program with caught throws nobody printed is
// not said to have "no exception": the reason names them.
func TestRunningNamesThrows(t *testing.T) {
	th := engine.Event{Seq: 2, Kind: engine.KindThrow, Throw: &engine.ThrowInfo{Class: "Error",
		Message: engine.Text{Value: "no price"}, Caught: true, Location: appFrame("shop.js", 11)}}
	for _, st := range []engine.Status{engine.StatusRunning, engine.StatusStopped} {
		res := Build(Input{summary(st), []engine.Event{th}})
		if res.Evidence != nil || !strings.Contains(res.Reason, "threw 1 time") || !strings.Contains(res.Reason, "shop.js:11") {
			t.Fatalf("%s: %+v, want a reason naming the caught throw", st, res)
		}
	}
	// A logger's JSON line on stdout that carries the message makes it the failure.
	res := Build(Input{summary(engine.StatusRunning), []engine.Event{th, stdout(3, `{"level":50,"err":{"message":"no price"}}`)}})
	if res.Evidence == nil || res.Evidence.Failure.LoggedSeq != 3 {
		t.Fatalf("%+v, want the throw logged on stdout", res)
	}
}

// TestPausedAtThrow: a running program that stands paused at an exception it threw has that
// throw for its failure, not an earlier caught throw it printed; once it runs on, the printed one
// is chosen again, and a pause at a breakpoint after a throw is not a pause at that throw.
func TestPausedAtThrow(t *testing.T) {
	logged := engine.Event{Seq: 2, Kind: engine.KindThrow, Throw: &engine.ThrowInfo{Class: "SyntaxError",
		Message: engine.Text{Value: "Unexpected token"}, Caught: true, Location: appFrame("cfg.js", 3)}}
	printed := engine.Event{Seq: 3, Kind: engine.KindConsole, Console: &engine.ConsoleInfo{Level: "error", Text: engine.Text{Value: "bad config: Unexpected token"}}}
	uncaught := engine.Event{Seq: 4, Kind: engine.KindThrow, Throw: &engine.ThrowInfo{Class: "TypeError",
		Message: engine.Text{Value: "x is undefined"}, Location: appFrame("app.js", 9)}}
	evs := []engine.Event{logged, printed, uncaught, pauseAt(5, "exception", appFrame("app.js", 9))}
	if ev := Build(Input{summary(engine.StatusRunning), evs}).Evidence; ev == nil || ev.Failure.Class != "TypeError" || ev.Failure.Seq != 4 {
		t.Fatalf("paused at the TypeError: evidence %+v, want it", ev)
	}
	if ev := Build(Input{summary(engine.StatusRunning), append(evs[:4:4], resume(6))}).Evidence; ev == nil || ev.Failure.Class != "SyntaxError" {
		t.Fatalf("resumed: evidence %+v, want the printed SyntaxError", ev)
	}
	atBreak := []engine.Event{logged, printed, uncaught, pauseAt(5, "breakpoint", appFrame("app.js", 12))}
	if ev := Build(Input{summary(engine.StatusRunning), atBreak}).Evidence; ev == nil || ev.Failure.Class != "SyntaxError" {
		t.Fatalf("paused at a breakpoint: evidence %+v, want the printed SyntaxError", ev)
	}
}
