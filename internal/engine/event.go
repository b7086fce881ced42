package engine

import (
	"fmt"
	"time"
)

// Kind names what an event records.
type Kind string

// The kinds of events a session captures.
const (
	KindContext    Kind = "context"    // an execution context was created
	KindScript     Kind = "script"     // a script was parsed
	KindConsole    Kind = "console"    // a console API call
	KindException  Kind = "exception"  // an exception reached the inspector (uncaught or unhandled rejection)
	KindPause      Kind = "pause"      // the debugger paused
	KindResume     Kind = "resume"     // the debugger resumed
	KindStdout     Kind = "stdout"     // one line the child wrote to stdout
	KindStderr     Kind = "stderr"     // one line the child wrote to stderr
	KindExit       Kind = "exit"       // the child process ended
	KindLogpoint   Kind = "logpoint"   // a logpoint's line ran: its template, interpolated
	KindHook       Kind = "hook"       // the program called an injected hook: its payload
	KindBreakpoint Kind = "breakpoint" // a breakpoint or logpoint bound in a script: where
	KindProgress   Kind = "progress"   // a long operation moved on (a heap snapshot): how far
	KindTarget     Kind = "target"     // a worker thread or a child process was attached, released or exited
	KindThrow      Kind = "throw"      // user code threw, caught or not, with the throwing frame's locals
)

// Kinds lists every kind, in the order summaries report them.
var Kinds = []Kind{KindContext, KindScript, KindConsole, KindException, KindPause, KindResume,
	KindStdout, KindStderr, KindExit, KindLogpoint, KindHook, KindBreakpoint, KindProgress, KindTarget, KindThrow}

// ValidKind reports whether k is a kind the engine produces.
func ValidKind(k Kind) bool {
	for _, x := range Kinds {
		if x == k {
			return true
		}
	}
	return false
}

// Event is one captured thing. Exactly one of the payload pointers is set, the one matching Kind.
// The engine's data types carry no JSON names: api/convert builds the wire types at the edge.
type Event struct {
	Seq  uint64
	Time time.Time
	Kind Kind
	// Target is the ref of the worker thread the event comes from; absent for the main one (t0).
	Target     string
	TargetInfo *TargetInfo
	Context    *ContextInfo
	Script     *ScriptInfo
	Console    *ConsoleInfo
	Exception  *ExceptionInfo
	Pause      *PauseInfo
	Output     *OutputInfo
	Exit       *ExitInfo
	Logpoint   *LogpointInfo
	Hook       *HookInfo
	Breakpoint *BreakpointInfo
	Progress   *ProgressInfo
	Throw      *ThrowInfo
}

// Frame is one 1-based source position, usually a stack frame.
type Frame struct {
	Function string
	URL      string
	// File is the local path of a file: URL, relative to the session's cwd when inside it.
	File   string
	Line   int
	Column int
	// Internal marks node's own code (node:internal/..., node:...), shown apart from user frames.
	Internal bool
	// Generated is the position in the code node runs when a source map moved the frame to its
	// original source (URL, File, Line and Column then name the original).
	Generated *Generated
	// Target is the worker or child process a breakpoint's resolved location is in; absent for
	// the main thread.
	Target string
	// Async names the async boundary (await, setTimeout...) a frame of an async parent is past;
	// such frames have no scopes to read or evaluate in.
	Async string
}

// Where renders the frame as file:line for a person, preferring the local path to the URL.
func (f Frame) Where() string {
	name := f.File
	if name == "" {
		name = f.URL
	}
	if name == "" {
		name = "<unknown>"
	}
	if f.Line > 0 {
		return fmt.Sprintf("%s:%d", name, f.Line)
	}
	return name
}

// Text is a string capped to the session's string cap. Length is the original length in bytes
// when Truncated is set.
type Text struct {
	Value     string
	Truncated bool
	Length    int
}

// ContextInfo describes an execution context.
type ContextInfo struct {
	ID     int
	Name   string
	Origin string
}

// ScriptInfo describes a parsed script.
type ScriptInfo struct {
	ScriptID     string
	URL          string
	File         string
	Hash         string
	SourceMapURL string
	// Sources are the original sources its source map names (in script lists, not in events:
	// maps are read on first use).
	Sources []string
	// Internal marks node's own scripts (node: URLs and scripts without a URL).
	Internal bool
	// FailedToParse marks a script V8 could not compile (a syntax error): it never ran.
	FailedToParse bool
}

// ConsoleInfo is one console API call. Text joins the arguments' previews as node prints them.
type ConsoleInfo struct {
	Level string
	Text  Text
	Args  []string // type of each argument, e.g. "string", "object"
	Frame *Frame
}

// ExceptionInfo is an exception the inspector reported.
type ExceptionInfo struct {
	Text    string  // the inspector's summary, e.g. "Uncaught"
	Message Text    // the error message or the thrown value's preview
	Class   string  // constructor name, e.g. "TypeError"
	Value   string  // preview of the thrown value
	URL     string  // where it was thrown
	File    string  // local path of URL
	Line    int     // 1-based
	Column  int     // 1-based
	Stack   []Frame // innermost first
	// Generated is where it was thrown in the code node runs, when a source map moved URL..Column.
	Generated *Generated
	// Rejection marks an unhandled promise rejection rather than a synchronous throw.
	Rejection bool
}

// PauseInfo records a pause of the debugger.
type PauseInfo struct {
	Reason         string
	Location       *Frame
	HitBreakpoints []string
}

// OutputInfo is one line of the child's stdout or stderr.
type OutputInfo struct {
	Text Text
}

// ExitInfo records how the child process ended.
type ExitInfo struct {
	Code   *int   // nil when killed by a signal
	Signal string // e.g. "SIGKILL"
}

// LogpointInfo is one emission of a logpoint.
type LogpointInfo struct {
	Ref  string
	Text Text // the template with ${expr} interpolated, capped
	// Disabled marks the Max-th emission: the flood guard has removed the logpoint.
	Disabled bool
}

// HookInfo is one call of an injected hook: globalThis[name](payload).
type HookInfo struct {
	Name    string
	Payload Text // the string the program passed, capped
}

// Status is a session's lifecycle state.
type Status string

// Session states: starting -> running <-> paused -> exited | stopped | failed.
const (
	StatusStarting Status = "starting"
	StatusRunning  Status = "running"
	StatusPaused   Status = "paused"
	StatusExited   Status = "exited"  // the program ended by itself
	StatusStopped  Status = "stopped" // ended by a stop request or service shutdown
	StatusFailed   Status = "failed"  // could not start or lost its inspector
)

// Finished reports whether the session can no longer change.
func (s Status) Finished() bool {
	return s == StatusExited || s == StatusStopped || s == StatusFailed
}

// Summary is a session's state at one moment.
type Summary struct {
	ID       string
	Name     string
	Mode     string // ModeTrace or ModeDebug
	Status   Status
	Target   string
	Args     []string
	NodeArgs []string // node's own flags, as the start gave them
	Cwd      string
	PID      int
	ExitCode *int
	Signal   string
	Error    string       // why a failed session failed
	Counts   map[Kind]int // events captured per kind, dropped ones included
	Events   int          // events retained now
	Dropped  int          // events evicted from the ring
	// ThrowsSkipped counts the throws past the rate cap (throws.perSecond), not recorded.
	ThrowsSkipped int
	// Redacted counts the values hidden as secrets in the session's events and answers.
	Redacted  int64
	LastSeq   uint64
	MaxEvents int
	StartedAt time.Time
	EndedAt   *time.Time

	// InspectorLost: the inspector connection ended while the program runs on (it closed its
	// inspector): stdout and stderr are still captured, debugger calls answer inspector_lost.
	InspectorLost bool
	// StoppedBy is the signal that ended a stopped program: SIGTERM, or SIGKILL when SIGTERM did
	// not end it within the stop's grace.
	StoppedBy string
	// StillRunning is, for a program its timeoutMs stopped, what kept it running then: each live
	// target's first line of Alive.
	StillRunning string
	// Unresponsive says why a live program cannot answer the debugger: UnresponsiveStopped or
	// UnresponsiveNotAnswering; "" when it can.
	Unresponsive string

	// RestartOf is the session this one re-ran (POST restart); RestartedAs the one that re-ran
	// this one, which took its name.
	RestartOf   string
	RestartedAs string
}

// BreakpointInfo is where V8 bound a breakpoint or logpoint once a matching script loaded
// (Debugger.breakpointResolved).
type BreakpointInfo struct {
	Ref      string
	Location Frame
	// Change says what a user did to it, so that every client sees it: set, removed, enabled
	// or disabled; "" when V8 bound it in a script that loaded.
	Change string
}
