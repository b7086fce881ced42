package api

// The failure evidence GET /api/trace/evidence answers.

// Confidence says how far the evidence locates the failure in the user's own code.
type Confidence string

// Confidence levels, from DESIGN.md section 5.
const (
	ConfidenceHigh   Confidence = "high"
	ConfidenceMedium Confidence = "medium"
	ConfidenceLow    Confidence = "low"
)

// EvidenceResult is what GET /api/trace/evidence answers.
type EvidenceResult struct {
	Evidence *Evidence `json:"evidence"`         // null for a clean run
	Reason   string    `json:"reason,omitempty"` // why evidence is null
}

// Evidence is the chain of events observed around a failure. It records correlation only: the
// events are near the failure in time, which does not make them its cause. Field names are
// snake_case because an earlier IDE integration reads them.
type Evidence struct {
	Failure        Failure       `json:"failure"`
	ImmediateCause *EvidenceItem `json:"immediate_cause"` // closest prior user event; null when none
	// PreviousStateTransitions are the last events before the failure that changed what the
	// program was doing, oldest first (chronological), at most maxTransitions.
	PreviousStateTransitions []EvidenceItem `json:"previous_state_transitions"`
	OriginatingValue         EvidenceValue  `json:"originating_value"`
	RelevantInput            RelevantInput  `json:"relevant_input"`
	Confidence               Confidence     `json:"confidence"`
	ConfidenceReason         string         `json:"confidence_reason"` // which confidence rule applied
	Caveat                   string         `json:"caveat"`            // always present
	// FailingTests are the tests the run's test runner reported failing, in its order, at most
	// 20; FailingTestsOmitted counts the rest. The failure is the first of them.
	FailingTests        []FailingTest `json:"failing_tests,omitempty"`
	FailingTestsOmitted int           `json:"failing_tests_omitted,omitempty"`
}

// FailingTest is one test its runner reported failing, matched with the throw that failed it.
type FailingTest struct {
	Name      string     `json:"name"`   // its suites, then the test: "math › scales"
	Runner    string     `json:"runner"` // node:test, mocha, jest or vitest
	Location  *Frame     `json:"location,omitempty"`
	Class     string     `json:"class,omitempty"`
	Message   string     `json:"message"` // the runner's message, Expected/Received included
	Expected  string     `json:"expected,omitempty"`
	Received  string     `json:"received,omitempty"`
	Locals    []Variable `json:"locals,omitempty"` // the throwing frame's, when the throw was recorded
	Target    string     `json:"target,omitempty"` // where the test ran; absent for the main thread
	ThrowSeq  uint64     `json:"throw_seq,omitempty"`
	ReportSeq uint64     `json:"report_seq"`
}

// FailureKind names what ended the run badly.
type FailureKind string

// The kinds of failure.
const (
	FailureException FailureKind = "exception"
	FailureExit      FailureKind = "exit"
	FailureThrow     FailureKind = "throw"
	FailureTest      FailureKind = "test"
)

// Failure is the event that made the run a failure.
type Failure struct {
	Kind FailureKind `json:"kind"`
	// Seq is the failure's event seq; 0 when an exit is known only from the summary.
	Seq      uint64  `json:"seq"`
	Target   string  `json:"target,omitempty"`   // the worker or child it happened in; absent for the main thread
	Class    string  `json:"class,omitempty"`    // e.g. "TypeError"
	Message  string  `json:"message,omitempty"`  // the error message or thrown value's preview
	Location *Frame  `json:"location,omitempty"` // where it was thrown, 1-based
	Stack    []Frame `json:"stack,omitempty"`    // innermost first, at most maxStack frames
	ExitCode *int    `json:"exit_code,omitempty"`
	Signal   string  `json:"signal,omitempty"`
	// Test is the failing test's name (its suites first), when a test runner reported it.
	Test string `json:"test,omitempty"`
	// LoggedSeq is the event that printed a caught throw's message, for a throw that is the
	// failure of a session that did not end badly (a server's 500).
	LoggedSeq uint64 `json:"logged_seq,omitempty"`
}

// EvidenceItem is one captured event retold in a line.
type EvidenceItem struct {
	Seq      uint64 `json:"seq"`
	Kind     Kind   `json:"kind"`
	Target   string `json:"target,omitempty"` // the worker or child it comes from; absent for the main thread
	Summary  string `json:"summary"`          // one line, at most maxSummary bytes
	Location *Frame `json:"location,omitempty"`
}

// EvidenceValue is the value that failed: the thrown value for an exception, the exit status for an exit.
type EvidenceValue struct {
	// Locals are the throwing frame's variables, for a failure told by a throw.
	Locals   []Variable `json:"locals,omitempty"`
	Class    string     `json:"class,omitempty"`
	Value    string     `json:"value,omitempty"` // preview of the thrown value
	Message  string     `json:"message,omitempty"`
	ExitCode *int       `json:"exit_code,omitempty"`
	Signal   string     `json:"signal,omitempty"`
}

// RelevantInput is how the program was started.
type RelevantInput struct {
	Target string   `json:"target"`
	Argv   []string `json:"argv"`
	Cwd    string   `json:"cwd"`
}
