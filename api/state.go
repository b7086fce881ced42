package api

// The debugger's answers: state at a pause, breakpoints, logpoints, evaluation, hooks, hot-patch.

// BreakableLine is a line where the debugger can stop, with the columns it can stop at.
type BreakableLine struct {
	Line    int   `json:"line"`    // 1-based
	Columns []int `json:"columns"` // 1-based
}

// Breakpoint is a breakpoint as the user sees it.
type Breakpoint struct {
	Ref       string  `json:"ref"` // bp1, bp2...
	Location  string  `json:"location"`
	Condition string  `json:"condition,omitempty"`
	HitCount  int     `json:"hitCount,omitempty"`
	Hits      int     `json:"hits"`               // times it paused the program
	Resolved  []Frame `json:"resolved"`           // where V8 bound it; empty until a matching script loads
	URLRegex  string  `json:"urlRegex,omitempty"` // a URL-regex breakpoint's regex
	Function  string  `json:"function,omitempty"` // a function breakpoint's expression
	Enabled   bool    `json:"enabled"`            // false: toggled off, kept but not bound in V8
	// Pending: on an original source no loaded script maps yet; it binds when one loads.
	Pending bool `json:"pending,omitempty"`
	// Warning, in the answer that set it, says why it may not stop where asked.
	Warning string `json:"warning,omitempty"`
}

// SourceLine is one line of source around a pause.
type SourceLine struct {
	Line    int    `json:"line"`
	Text    string `json:"text"`
	Current bool   `json:"current,omitempty"`
}

// Variable is one named value of a scope, previewed.
type Variable struct {
	Ref   string `json:"ref,omitempty"` // v1...: valid until the program moves on
	Name  string `json:"name"`
	Type  string `json:"type"`
	Value string `json:"value"`
	Scope string `json:"scope"` // local, block, catch, closure...
	// Expand names the call that shows what the preview left out: GET props?ref=v1.
	Expand string `json:"expand,omitempty"`
}

// StackFrame is a frame of the paused stack, with its ref (f0 is the top).
type StackFrame struct {
	Ref   string `json:"ref"`
	Frame        // its Async names the boundary of a frame of an async parent
}

// State is where a debug session is: its status and, when paused, why, where, the source around,
// the variables of the chosen frame and the stack.
type State struct {
	Session string `json:"session"`
	// Target is the target the state is of, and AlsoPaused the others that stand paused, when
	// the session has more than the main thread to debug.
	Target     string       `json:"target,omitempty"`
	AlsoPaused []string     `json:"alsoPaused,omitempty"`
	Status     Status       `json:"status"`
	Reason     string       `json:"reason,omitempty"`
	Hit        []string     `json:"hit,omitempty"` // breakpoint refs that caused the pause
	Location   *Frame       `json:"location,omitempty"`
	Frame      string       `json:"frame,omitempty"` // the frame the source and variables are of
	Source     []SourceLine `json:"source,omitempty"`
	Locals     []Variable   `json:"locals,omitempty"`
	Stack      []StackFrame `json:"stack,omitempty"`
	// Breakpoints and Logpoints are the session's, shown with the breakpoints section.
	Breakpoints []Breakpoint `json:"breakpoints,omitempty"`
	Logpoints   []Logpoint   `json:"logpoints,omitempty"`
	// ReturnValue is the value the top frame returns, when paused at its return point.
	ReturnValue *Variable `json:"returnValue,omitempty"`
	// Output is what the program printed and threw while the execution command that answers
	// this state ran (execoutput.go).
	Output *ExecOutput `json:"output,omitempty"`
}

// EvalResult is the value of an expression, or the exception it threw.
type EvalResult struct {
	Ref       string `json:"ref,omitempty"` // v1 while paused, o1 for an object while running
	Type      string `json:"type"`
	Value     string `json:"value"`
	Exception string `json:"exception,omitempty"`
	Expand    string `json:"expand,omitempty"` // the call that shows what the preview left out
	Hint      string `json:"hint,omitempty"`   // what to do next: a promise pending, a name out of scope
	Session   string `json:"session,omitempty"`
	Target    string `json:"target,omitempty"` // in a session with more than one target to debug
}

// ExecOutput is what the program printed and threw while an execution command ran: console
// calls, output lines no console call made, and exceptions, oldest first.
type ExecOutput struct {
	Entries []OutputEntry `json:"entries"`
	// More counts what happened past the caps; GET events?after=<the last entry's seq> lists it.
	More int `json:"more,omitempty"`
}

// OutputEntry is one line of ExecOutput.
type OutputEntry struct {
	Seq  uint64 `json:"seq"`
	Kind Kind   `json:"kind"` // console, stdout, stderr or exception
	Text string `json:"text"`
}

// Hook is a function injected into the program (Runtime.addBinding): each call
// globalThis[name](payload) becomes a hook event.
type Hook struct {
	Name  string `json:"name"`
	Calls int    `json:"calls"` // times the program called it
}

// CompileError is where a patched source fails to compile, 1-based.
type CompileError struct {
	Message string `json:"message"`
	Line    int    `json:"line"`
	Column  int    `json:"column"`
}

// HotpatchResult is what a hot-patch did. State is set when the patch restarted the paused top
// frame: the program stands at the start of the edited function again.
type HotpatchResult struct {
	Status         string        `json:"status"`
	DryRun         bool          `json:"dryRun,omitempty"`
	CompileError   *CompileError `json:"compileError,omitempty"`
	RestartedFrame bool          `json:"restartedFrame"`
	State          *State        `json:"state,omitempty"`
}

// Logpoint is a logpoint as the user sees it.
type Logpoint struct {
	Ref       string  `json:"ref"` // lp1...
	Location  string  `json:"location"`
	Template  string  `json:"template"`
	Condition string  `json:"condition,omitempty"`
	Max       int     `json:"max"`
	Emitted   int     `json:"emitted"`
	Disabled  bool    `json:"disabled,omitempty"` // the flood guard removed it after Max emissions
	Resolved  []Frame `json:"resolved"`
	// Warning, in the answer that set it, says why it may not emit where asked.
	Warning string `json:"warning,omitempty"`
}
