package tests

import (
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"

	"traced/api"
)

// TestThrowCaught: a throw in user code that the program catches becomes a throw event, in a
// trace session: its class, message, place, caught, and the throwing frame's locals; the program
// goes on and ends well. The event comes before the catch block's print, though its locals are
// read after the program was let go.
func TestThrowCaught(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	s := h.start(api.StartRequest{Target: "throws/caught.js"})
	if sum := h.waitExit(s.ID); sum.ExitCode == nil || *sum.ExitCode != 0 {
		t.Fatalf("exit %+v, want 0", sum)
	}
	evs := h.trace(s.ID, "throw").Events
	if len(evs) != 1 {
		t.Fatalf("%d throw events, want 1: %+v", len(evs), evs)
	}
	th := evs[0].Throw
	if th.Class != "RangeError" || th.Message.Value != "too long: abcdef" || !th.Caught ||
		th.Location == nil || th.Location.File != "throws/caught.js" || th.Location.Line != 5 || th.Location.Function != "parse" {
		t.Fatalf("throw %+v at %+v, want a caught RangeError at throws/caught.js:5 in parse", th, th.Location)
	}
	vars := map[string]string{}
	for _, v := range th.Locals {
		vars[v.Name] = v.Value
	}
	if vars["text"] != "'abcdef'" || vars["limit"] != "3" {
		t.Fatalf("locals %+v, want text and limit", th.Locals)
	}
	var order []string
	for _, ev := range h.trace(s.ID, "throw,console").Events {
		if ev.Throw != nil {
			order = append(order, "throw")
		} else {
			order = append(order, ev.Console.Text.Value)
		}
	}
	if want := []string{"throw", "caught too long: abcdef", "done ab"}; !slices.Equal(order, want) {
		t.Fatalf("events %q, want %q", order, want)
	}
}

// evidenceOf reads a finished session's evidence.
func (h *harness) evidenceOf(id string) *api.Evidence {
	h.t.Helper()
	var res api.EvidenceResponse
	h.call("GET", "/api/trace/evidence?id="+id, nil, &res)
	if res.EvidenceResult.Evidence == nil {
		h.t.Fatalf("no evidence for %s: %s", id, res.EvidenceResult.Reason)
	}
	return res.EvidenceResult.Evidence
}

// wantThrowFailure checks that evidence tells a failed run by a throw at file:line, with a
// local of that frame.
func wantThrowFailure(t *testing.T, ev *api.Evidence, file string, line int, local, value string) {
	t.Helper()
	f := ev.Failure
	if f.Kind != api.FailureThrow || f.Location == nil || f.Location.File != file || f.Location.Line != line {
		t.Fatalf("failure %+v at %+v, want a throw at %s:%d", f, f.Location, file, line)
	}
	for _, v := range ev.OriginatingValue.Locals {
		if v.Name == local && v.Value == value {
			return
		}
	}
	t.Fatalf("originating locals %+v, want %s = %s", ev.OriginatingValue.Locals, local, value)
}

// TestThrowOwnHandler: a program that handles its own uncaught exceptions (prints, exits 1)
// reports no exception to the inspector; the evidence points at the throw, with its locals.
func TestThrowOwnHandler(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	s := h.start(api.StartRequest{Target: "throws/ownhandler.js"})
	if sum := h.waitExit(s.ID); sum.ExitCode == nil || *sum.ExitCode != 1 {
		t.Fatalf("exit %+v, want 1", sum)
	}
	wantThrowFailure(t, h.evidenceOf(s.ID), "throws/ownhandler.js", 9, "amount", "NaN")
}

// TestThrowTestRunners: a failing assertion that node --test, mocha, jest or vitest catches is
// the evidence of the failed run: the assertion's line in the test file (not the runner's
// reporter), with the test's locals, in whichever process or thread ran the test (with two
// failing files, the one that failed last).
func TestThrowTestRunners(t *testing.T) {
	t.Parallel()
	needRunners(t)
	cases := []struct {
		name     string
		req      api.StartRequest
		files    []string // the test files the failure may be in
		line     int
		local, v string
		where    string // "main": the main process runs the tests; "target": workers or children; "": either
	}{
		{"node --test", api.StartRequest{Target: "runners/math.test.js", NodeArgs: []string{"--test"}}, []string{"runners/math.test.js"}, 10, "product", "4", ""}, // t0 is whichever process is first
		{"mocha", api.StartRequest{Target: "node_modules/mocha/bin/mocha.js", Args: []string{"mocha/math.test.js"}, Cwd: runnersDir}, []string{"mocha/math.test.js"}, 10, "got", "6", "main"},
		{"jest in band", api.StartRequest{Target: "node_modules/jest/bin/jest.js", Args: []string{"-w", "2", "--no-cache", "jest/math.test.js"}, Cwd: runnersDir}, []string{"jest/math.test.js"}, 9, "got", "6", "main"},
		{"jest -w 2", api.StartRequest{Target: "node_modules/jest/bin/jest.js", Args: []string{"-w", "2", "--no-cache", "jest"}, Cwd: runnersDir}, []string{"jest/math.test.js", "jest/more.test.js"}, 9, "got", "6", "target"},
		{"vitest (forks)", api.StartRequest{Target: "node_modules/vitest/vitest.mjs", Args: []string{"run", "vitest"}, Cwd: runnersDir}, []string{"vitest/math.test.js", "vitest/more.test.js"}, 10, "got", "6", "target"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			h := newHarness(t)
			s := h.start(c.req)
			if sum := h.waitExit(s.ID); sum.ExitCode == nil || *sum.ExitCode == 0 {
				t.Fatalf("exit %+v, want a failure", sum)
			}
			ev := h.evidenceOf(s.ID)
			file := c.files[0]
			if l := ev.Failure.Location; l != nil && slices.Contains(c.files, l.File) {
				file = l.File
			}
			wantThrowFailure(t, ev, file, c.line, c.local, c.v)
			if in := ev.Failure.Target != ""; c.where != "" && in != (c.where == "target") {
				t.Fatalf("failure in target %q, want it in the %s", ev.Failure.Target, c.where)
			}
		})
	}
}

// TestThrowRateCap: past throws.perSecond, throws are counted, not recorded: every throw of the
// program is either a throw event or counted (in an event's skipped, or in the summary).
func TestThrowRateCap(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	s := h.start(api.StartRequest{Target: "throws/many.js", Args: []string{"300"}, Throws: &api.ThrowOptions{PerSecond: 20}})
	sum := h.waitExit(s.ID)
	if sum.ExitCode == nil || *sum.ExitCode != 0 {
		t.Fatalf("exit %+v, want 0", sum)
	}
	evs := h.trace(s.ID, "throw").Events
	if len(evs) == 0 || len(evs) >= 300 || len(evs)+sum.ThrowsSkipped != 300 {
		t.Fatalf("%d throw events and %d skipped, want 300 in all, most skipped", len(evs), sum.ThrowsSkipped)
	}
	if off := h.start(api.StartRequest{Target: "throws/many.js", Args: []string{"300"}, Throws: &api.ThrowOptions{Off: true}}); h.waitExit(off.ID).Counts["throw"] != 0 {
		t.Fatal("throw events with throws off")
	}
	// On by default, at the default cap.
	on := h.waitExit(h.start(api.StartRequest{Target: "throws/many.js", Args: []string{"300"}}).ID)
	if n := on.Counts["throw"]; n == 0 || n+on.ThrowsSkipped != 300 {
		t.Fatalf("by default: %d throw events and %d skipped, want 300 in all", n, on.ThrowsSkipped)
	}
}

// TestCaughtModeStopsInUserCode: pause-on-exceptions caught stops where user code throws, not
// in node's own throw-and-catch before it (module loading, URL parsing).
func TestCaughtModeStopsInUserCode(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	s := h.debug(api.StartRequest{Target: "throws/caught.js", PauseOnExceptions: "caught"})
	st, _ := h.waitPaused(s.ID, 0)
	wantPausedIn(t, st, "throws/caught.js", "parse", 5)
	h.runToEnd(s.ID, 1)
}

// TestStepOverCaughtThrows: with throw events on, a step over a call that throws and catches
// inside ends at the next line (traced passes its own throw pauses, which would let the step
// go); stepping on from there stays as quick, and once the program runs on its throws are
// recorded again.
func TestStepOverCaughtThrows(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	s := h.debug(api.StartRequest{Target: "throws/stepping.js", Breakpoints: api.BreakpointsAt("throws/stepping.js:10")})
	h.waitPaused(s.ID, 0)
	st := h.exec(s.ID, "step", api.StepRequest{Kind: api.StepOver})
	wantPausedIn(t, st, "throws/stepping.js", "", 11)
	st = h.exec(s.ID, "step", api.StepRequest{Kind: api.StepOver})
	wantPausedIn(t, st, "throws/stepping.js", "", 13)
	if v := local(t, st, "total").Value; v != "3" {
		t.Fatalf("total = %s after two steps, want 3", v)
	}
	h.runToEnd(s.ID, 3)
	var got []string
	for _, ev := range h.trace(s.ID, "throw").Events {
		got = append(got, ev.Throw.Class+": "+ev.Throw.Message.Value)
	}
	if want := []string{"TypeError: later 3"}; !slices.Equal(got, want) {
		t.Fatalf("throw events %q, want %q (the throws inside the steps are not recorded)", got, want)
	}
}

// TestThrowRejection: with throw events on, node rethrows an unhandled rejection from its own
// code; the exception event still names the user's file, as a rejection, and the throw inside
// the async function is a throw event.
func TestThrowRejection(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	s := h.start(api.StartRequest{Target: "rejection.js"})
	if sum := h.waitExit(s.ID); sum.ExitCode == nil || *sum.ExitCode != 1 {
		t.Fatalf("exit %+v, want 1", sum)
	}
	exc := h.trace(s.ID, "exception").Events
	if len(exc) != 1 || exc[0].Exception.File != "rejection.js" || exc[0].Exception.Line != 3 || !exc[0].Exception.Rejection {
		t.Fatalf("exception events %+v, want the rejection at rejection.js:3", exc)
	}
	if th := h.trace(s.ID, "throw").Events; len(th) == 0 || th[0].Throw.Location == nil || th[0].Throw.Location.Line != 3 {
		t.Fatalf("throw events %+v, want the throw at rejection.js:3", th)
	}
}

// TestWaitForThrowByMatch: wait (and the event reads) take a regular expression over an event's
// text: a throw by class and message, a console line; one that cannot match finds nothing, and an
// invalid one is refused naming the parameter.
func TestWaitForThrowByMatch(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	s := h.start(api.StartRequest{Target: "throws/caught.js"})
	h.waitExit(s.ID)
	var w api.WaitResponse
	h.call("GET", "/api/trace/wait?id="+s.ID+"&after=0&kinds=throw&match="+url.QueryEscape("^RangeError: too long")+"&timeoutMs=0", nil, &w)
	if w.Event == nil || w.Event.Throw == nil || w.Event.Throw.Location.Line != 5 {
		t.Fatalf("wait by class and message: %+v", w)
	}
	w = api.WaitResponse{}
	h.call("GET", "/api/trace/wait?id="+s.ID+"&after=0&kinds=throw&match=^TypeError&timeoutMs=0", nil, &w)
	if w.Event != nil || !w.Finished {
		t.Fatalf("wait for a class never thrown: %+v", w)
	}
	var page api.EventsResponse
	h.call("GET", "/api/trace/events?id="+s.ID+"&match="+url.QueryEscape("^(caught|done) "), nil, &page)
	if len(page.Events) != 4 { // each console call and its stdout line
		t.Fatalf("events matching console text: %d, want 4: %+v", len(page.Events), page.Events)
	}
	req := h.request("GET", "/api/trace/wait?id="+s.ID+"&match=(", nil)
	st, body := h.send(req)
	if st != http.StatusBadRequest || !strings.Contains(string(body), `"match\"`) {
		t.Fatalf("invalid match: %d %s", st, body)
	}
}

// TestPauseOnExceptionClasses: pause-on-exceptions with classes stops only at those classes'
// throws, at start and as set later; the other throws go on without a stop.
func TestPauseOnExceptionClasses(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	s := h.debug(api.StartRequest{Target: "throws/classes.js", PauseOnExceptions: "caught", PauseOnExceptionClasses: []string{"TypeError"}})
	st, _ := h.waitPaused(s.ID, 0)
	wantPausedIn(t, st, "throws/classes.js", "risky", 4)
	var set api.PauseOnExceptionsResponse
	h.post(s.ID, "pause-on-exceptions", api.PauseOnExceptionsRequest{Mode: "caught", Classes: []string{"RangeError"}}, &set)
	if len(set.Classes) != 1 || set.Classes[0] != "RangeError" {
		t.Fatalf("pause-on-exceptions answered %+v", set)
	}
	st = h.exec(s.ID, "continue", nil)
	wantPausedIn(t, st, "throws/classes.js", "risky", 3)
	// printed holds each console call and its output line: as many of each, so far
	if got := h.printed(s.ID); !strings.Contains(got, "caught not a thing") || strings.Count(got, "caught out of range") != strings.Count(got, "caught not a thing") {
		t.Fatalf("printed %q, want the first RangeError and the TypeError caught, the second RangeError not yet", got)
	}
	h.runToEnd(s.ID, 2)
}

// TestCaughtModeOnESMEntry: pause-on-exceptions caught at start works on an ESM entry (mocha 12
// is one): the first stop is the failing assertion, thrown by node:assert for the test file's
// line; node's own throw-and-catch while it loads the modules stops nowhere.
func TestCaughtModeOnESMEntry(t *testing.T) {
	t.Parallel()
	needRunners(t)
	h := newHarness(t)
	s := h.debug(api.StartRequest{Target: "node_modules/mocha/bin/mocha.js", Args: []string{"mocha/math.test.js"}, Cwd: runnersDir, PauseOnExceptions: "caught"})
	st, _ := h.waitPaused(s.ID, 0)
	if st.Reason != "exception" || !slices.ContainsFunc(st.Stack, func(f api.StackFrame) bool { return f.File == "mocha/math.test.js" && f.Line == 10 }) {
		t.Fatalf("first stop %q at %+v, want the assertion of mocha/math.test.js:10 on the stack: %+v", st.Reason, st.Location, st.Stack)
	}
	h.call("POST", "/api/debug/"+s.ID+"/pause-on-exceptions", api.PauseOnExceptionsRequest{Mode: "none"}, nil)
	h.exec(s.ID, "continue", api.ContinueRequest{WaitMs: new(int64)})
	if sum := h.waitExit(s.ID); sum.ExitCode == nil || *sum.ExitCode == 0 {
		t.Fatalf("exit %+v, want the failing test's", sum)
	}
}

// TestCaughtModeSkipsBlackboxed: pause-on-exceptions caught does not stop at a throw a
// blackboxed library catches itself; the user's own caught throw after it stops.
func TestCaughtModeSkipsBlackboxed(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	s := h.debug(api.StartRequest{Target: "throws/usesvendor.js", PauseOnStart: true})
	h.waitPaused(s.ID, 0)
	h.post(s.ID, "blackbox", api.BlackboxRequest{Patterns: []string{`/vendor\.js$`}}, nil)
	h.post(s.ID, "pause-on-exceptions", api.PauseOnExceptionsRequest{Mode: "caught"}, nil)
	st := h.exec(s.ID, "continue", nil)
	wantPausedIn(t, st, "throws/usesvendor.js", "", 5)
	h.runToEnd(s.ID, 2)
}

// TestUncaughtModeStopsOnTopLevelAwait: pause-on-exceptions uncaught stops before an ESM
// top-level await's rejection ends the process (V8 predicts it caught: node's loader holds the
// promise), with the error; the throw event has the throw site's locals; continuing ends the
// process as it would have.
func TestUncaughtModeStopsOnTopLevelAwait(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	s := h.debug(api.StartRequest{Target: "throws/tla.mjs", PauseOnExceptions: "uncaught"})
	st, _ := h.waitPaused(s.ID, 0)
	if st.Reason != "exception" || !strings.Contains(local(t, st, "error").Value, "no config prod") {
		t.Fatalf("stop %q with locals %+v, want the uncaught error", st.Reason, st.Locals)
	}
	if th := h.trace(s.ID, "throw").Events; len(th) != 1 || th[0].Throw.Location.Line != 4 {
		t.Fatalf("throw events %+v, want the one at tla.mjs:4", th)
	}
	h.exec(s.ID, "continue", api.ContinueRequest{WaitMs: new(int64)})
	if sum := h.waitExit(s.ID); sum.ExitCode == nil || *sum.ExitCode != 1 || sum.Counts["pause"] != 1 {
		t.Fatalf("summary %+v, want exit 1 after the one stop", sum)
	}
}
