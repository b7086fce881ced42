// Package evidence turns a session's captured events into the evidence chain around its failure.
package evidence

import (
	"fmt"

	"traced/internal/engine"
)

// Input is everything Build reads: one session's summary and its retained events.
type Input struct {
	Summary engine.Summary // status, ExitCode, Signal, Target, Args, Cwd
	Events  []engine.Event // retained events, oldest first (seq ascending)
}

// Result is what GET /api/trace/evidence answers.
type Result struct {
	Evidence *Evidence // null for a clean run
	Reason   string    // why evidence is null
}

// Evidence is the chain of events observed around a failure. It records correlation only: the
// events are near the failure in time, which does not make them its cause. Field names are
// snake_case because an earlier IDE integration reads them.
type Evidence struct {
	Failure        Failure
	ImmediateCause *Item // closest prior user event; null when none
	// PreviousStateTransitions are the last events before the failure that changed what the
	// program was doing, oldest first (chronological), at most maxTransitions.
	PreviousStateTransitions []Item
	OriginatingValue         Value
	RelevantInput            RelevantInput
	Confidence               Confidence
	ConfidenceReason         string // which confidence rule applied
	Caveat                   string // always present
	// FailingTests are the tests the run's test runner reported failing, in its order, at most
	// maxFailingTests; FailingTestsOmitted counts the rest. The failure is the first of them.
	FailingTests        []FailingTest
	FailingTestsOmitted int
}

// FailureKind names what ended the run badly.
type FailureKind string

// The kinds of failure Build reports.
const (
	FailureException FailureKind = "exception" // the last exception the inspector reported
	FailureExit      FailureKind = "exit"      // a non-zero exit code or a signal, with no exception
	// FailureThrow: a non-zero exit or a signal with no uncaught exception, told by the last
	// throw in user code before it, which something caught (a test runner, a server); or, in a
	// session still running or stopped, the last caught throw whose message the program printed.
	FailureThrow FailureKind = "throw"
	// FailureTest: a test the runner reported failing, for which no throw was recorded.
	FailureTest FailureKind = "test"
)

// Failure is the event that made the run a failure.
type Failure struct {
	Kind FailureKind
	// Seq is the failure's event seq; 0 when an exit is known only from the summary.
	Seq      uint64
	Target   string         // the worker or child it happened in; absent for the main thread
	Class    string         // e.g. "TypeError"
	Message  string         // the error message or thrown value's preview
	Location *engine.Frame  // where it was thrown, 1-based
	Stack    []engine.Frame // innermost first, at most maxStack frames
	ExitCode *int
	Signal   string
	// Test is the failing test's name (its suites first), when a test runner reported it.
	Test string
	// LoggedSeq is the event that printed a caught throw's message, for a throw that is the
	// failure of a session that did not end badly (a server's 500).
	LoggedSeq uint64
}

// Item is one captured event retold in a line.
type Item struct {
	Seq      uint64
	Kind     engine.Kind
	Target   string // the worker or child it comes from; absent for the main thread
	Summary  string // one line, at most maxSummary bytes
	Location *engine.Frame
}

// Value is the value that failed: the thrown value for an exception, the exit status for an exit.
type Value struct {
	// Locals are the throwing frame's variables, for a failure told by a throw.
	Locals   []engine.Variable
	Class    string
	Value    string // preview of the thrown value
	Message  string
	ExitCode *int
	Signal   string
}

// RelevantInput is how the program was started.
type RelevantInput struct {
	Target string
	Argv   []string
	Cwd    string
}

// Build finds the session's failure and the events around it. A clean, stopped or still-running
// session yields nil Evidence and a Reason saying why.
func Build(in Input) Result {
	tests := failingTests(in)
	f, at, reason := findFailure(in)
	// The runner's report decides, but an uncaught exception beats a failing test traced saw no
	// throw for (a test file that crashed: the runner says only "test failed").
	if len(tests) > 0 && (f == nil || f.Kind != FailureException || tests[0].throwAt >= 0) {
		f, at = testFailure(in, tests[0])
	}
	if f == nil {
		return Result{Reason: reason}
	}
	before := in.Events[:at]
	ev := &Evidence{
		Failure:                  *f,
		ImmediateCause:           immediateCause(before),
		PreviousStateTransitions: transitions(before),
		OriginatingValue:         Value{Class: f.Class, Message: f.Message, ExitCode: f.ExitCode, Signal: f.Signal},
		RelevantInput: RelevantInput{
			Target: in.Summary.Target,
			Argv:   append([]string{}, in.Summary.Args...),
			Cwd:    in.Summary.Cwd,
		},
		Caveat: Caveat,
	}
	if len(tests) > maxFailingTests {
		ev.FailingTestsOmitted = len(tests) - maxFailingTests
		tests = tests[:maxFailingTests]
	}
	ev.FailingTests = tests
	var ex *engine.ExceptionInfo
	switch f.Kind {
	case FailureException:
		ex = in.Events[at].Exception
		ev.OriginatingValue.Value = ex.Value
	case FailureTest:
		ex = &engine.ExceptionInfo{Class: f.Class, Message: engine.Text{Value: f.Message}}
		if l := f.Location; l != nil {
			ex.File, ex.Line, ex.Column = l.File, l.Line, l.Column
		}
	case FailureThrow:
		t := in.Events[at].Throw
		ex = asException(t)
		ev.OriginatingValue.Value = t.Value
		ev.OriginatingValue.Locals = append([]engine.Variable{}, t.Locals...)
	}
	ev.Confidence, ev.ConfidenceReason = rate(*f, ex, ev.ImmediateCause)
	switch {
	case f.Test != "" && f.Kind == FailureThrow:
		// The assertion's place is in the headline; what preceded it is all the reason adds.
		ev.ConfidenceReason = fmt.Sprintf("The test runner reported %d failing test(s); the first, %q, failed by this throw at its assertion.", len(ev.FailingTests)+ev.FailingTestsOmitted, f.Test)
		if ev.ImmediateCause == nil {
			ev.ConfidenceReason += " No user event preceded it."
		}
	case f.Test != "":
		ev.ConfidenceReason = fmt.Sprintf("The test runner reported %d failing test(s); no throw was recorded for the first, %q, so its position is the runner's. ", len(ev.FailingTests)+ev.FailingTestsOmitted, f.Test) + ev.ConfidenceReason
	case f.Kind == FailureThrow && f.LoggedSeq != 0:
		ev.ConfidenceReason = fmt.Sprintf("No exception went uncaught and the program did not fail; this throw in user code was caught and its message printed after it (seq %d), as a server reports a 500. ", f.LoggedSeq) + ev.ConfidenceReason
	case f.Kind == FailureThrow:
		ev.ConfidenceReason = "No exception went uncaught; the last throw in user code before the failed exit was caught (by a test runner, a server, the program). " + ev.ConfidenceReason
	}
	if n := in.Summary.ThrowsSkipped; n > 0 && (f.Kind == FailureThrow || f.Kind == FailureTest) {
		ev.ConfidenceReason += fmt.Sprintf(" %d throw(s) past the rate cap were counted, not recorded: the throw chosen is the last recorded one, and the real one may be among those skipped.", n)
	}
	return Result{Evidence: ev}
}

// cloneFrame copies f so the result shares no memory with the caller's events.
func cloneFrame(f *engine.Frame) *engine.Frame {
	if f == nil {
		return nil
	}
	c := *f
	return &c
}
