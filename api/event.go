package api

import (
	"fmt"
	"time"
)

// Events, their payloads and the session summary, as the trace routes and the stream send them.

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

// Kinds lists every kind, in the order summaries report them (the engine's order: a test in
// api/convert holds them equal).
var Kinds = []Kind{KindContext, KindScript, KindConsole, KindException, KindPause, KindResume,
	KindStdout, KindStderr, KindExit, KindLogpoint, KindHook, KindBreakpoint, KindProgress, KindTarget, KindThrow}

// ValidKind reports whether k is an event kind the engine produces.
func ValidKind(k Kind) bool {
	for _, x := range Kinds {
		if x == k {
			return true
		}
	}
	return false
}

// Event is one captured thing on the wire. Exactly one of the payload pointers is set, the one
// matching Kind.
type Event struct {
	Seq  uint64    `json:"seq"`
	Time time.Time `json:"time"`
	Kind Kind      `json:"kind"`
	// Target is the ref of the worker thread the event comes from; absent for the main one (t0).
	Target     string          `json:"target,omitempty"`
	TargetInfo *TargetInfo     `json:"targetInfo,omitempty"`
	Context    *ContextInfo    `json:"context,omitempty"`
	Script     *ScriptInfo     `json:"script,omitempty"`
	Console    *ConsoleInfo    `json:"console,omitempty"`
	Exception  *ExceptionInfo  `json:"exception,omitempty"`
	Pause      *PauseInfo      `json:"pause,omitempty"`
	Output     *OutputInfo     `json:"output,omitempty"`
	Exit       *ExitInfo       `json:"exit,omitempty"`
	Logpoint   *LogpointInfo   `json:"logpoint,omitempty"`
	Hook       *HookInfo       `json:"hook,omitempty"`
	Breakpoint *BreakpointInfo `json:"breakpoint,omitempty"`
	Progress   *ProgressInfo   `json:"progress,omitempty"`
	Throw      *ThrowInfo      `json:"throw,omitempty"`
}

// Frame is one 1-based source position, usually a stack frame.
type Frame struct {
	Function string `json:"function,omitempty"`
	URL      string `json:"url,omitempty"`
	// File is the local path of a file: URL, relative to the session's cwd when inside it.
	File   string `json:"file,omitempty"`
	Line   int    `json:"line"`
	Column int    `json:"column"`
	// Internal marks node's own code (node:internal/..., node:...), shown apart from user frames.
	Internal bool `json:"internal,omitempty"`
	// Generated is the position in the code node runs when a source map moved the frame to its
	// original source (URL, File, Line and Column then name the original).
	Generated *Generated `json:"generated,omitempty"`
	// Target is the worker or child process a breakpoint's resolved location is in; absent for
	// the main thread.
	Target string `json:"target,omitempty"`
	// Async names the async boundary (await, setTimeout...) a frame of an async parent is past;
	// such frames have no scopes to read or evaluate in.
	Async string `json:"async,omitempty"`
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
	Value     string `json:"value"`
	Truncated bool   `json:"truncated,omitempty"`
	Length    int    `json:"length,omitempty"`
}

// ContextInfo describes an execution context.
type ContextInfo struct {
	ID     int    `json:"id"`
	Name   string `json:"name,omitempty"`
	Origin string `json:"origin,omitempty"`
}

// ScriptInfo describes a parsed script.
type ScriptInfo struct {
	ScriptID     string `json:"scriptId"`
	URL          string `json:"url"`
	File         string `json:"file,omitempty"`
	Hash         string `json:"hash,omitempty"`
	SourceMapURL string `json:"sourceMapURL,omitempty"`
	// Sources are the original sources its source map names (in script lists, not in events:
	// maps are read on first use).
	Sources []string `json:"sources,omitempty"`
	// Internal marks node's own scripts (node: URLs and scripts without a URL).
	Internal bool `json:"internal,omitempty"`
	// FailedToParse marks a script V8 could not compile (a syntax error): it never ran.
	FailedToParse bool `json:"failedToParse,omitempty"`
}

// ConsoleInfo is one console API call. Text joins the arguments' previews as node prints them.
type ConsoleInfo struct {
	Level string   `json:"level"`
	Text  Text     `json:"text"`
	Args  []string `json:"args,omitempty"` // type of each argument, e.g. "string", "object"
	Frame *Frame   `json:"frame,omitempty"`
}

// ExceptionInfo is an exception the inspector reported.
type ExceptionInfo struct {
	Text    string  `json:"text"`             // the inspector's summary, e.g. "Uncaught"
	Message Text    `json:"message"`          // the error message or the thrown value's preview
	Class   string  `json:"class,omitempty"`  // constructor name, e.g. "TypeError"
	Value   string  `json:"value,omitempty"`  // preview of the thrown value
	URL     string  `json:"url,omitempty"`    // where it was thrown
	File    string  `json:"file,omitempty"`   // local path of URL
	Line    int     `json:"line,omitempty"`   // 1-based
	Column  int     `json:"column,omitempty"` // 1-based
	Stack   []Frame `json:"stack,omitempty"`  // innermost first
	// Generated is where it was thrown in the code node runs, when a source map moved URL..Column.
	Generated *Generated `json:"generated,omitempty"`
	// Rejection marks an unhandled promise rejection rather than a synchronous throw.
	Rejection bool `json:"rejection,omitempty"`
}

// PauseInfo records a pause of the debugger.
type PauseInfo struct {
	Reason         string   `json:"reason"`
	Location       *Frame   `json:"location,omitempty"`
	HitBreakpoints []string `json:"hitBreakpoints,omitempty"`
}

// OutputInfo is one line of the child's stdout or stderr.
type OutputInfo struct {
	Text Text `json:"text"`
}

// ExitInfo records how the child process ended.
type ExitInfo struct {
	Code   *int   `json:"code,omitempty"`   // nil when killed by a signal
	Signal string `json:"signal,omitempty"` // e.g. "SIGKILL"
}

// LogpointInfo is one emission of a logpoint.
type LogpointInfo struct {
	Ref  string `json:"ref"`
	Text Text   `json:"text"` // the template with ${expr} interpolated, capped
	// Disabled marks the Max-th emission: the flood guard has removed the logpoint.
	Disabled bool `json:"disabled,omitempty"`
}

// HookInfo is one call of an injected hook: globalThis[name](payload).
type HookInfo struct {
	Name    string `json:"name"`
	Payload Text   `json:"payload"` // the string the program passed, capped
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
	ID       string       `json:"id"`
	Name     string       `json:"name,omitempty"`
	Mode     string       `json:"mode"` // ModeTrace or ModeDebug
	Status   Status       `json:"status"`
	Target   string       `json:"target"`
	Args     []string     `json:"args"`
	NodeArgs []string     `json:"nodeArgs,omitempty"` // node's own flags, as the start gave them
	Cwd      string       `json:"cwd"`
	PID      int          `json:"pid,omitempty"`
	ExitCode *int         `json:"exitCode,omitempty"`
	Signal   string       `json:"signal,omitempty"`
	Error    string       `json:"error,omitempty"` // why a failed session failed
	Counts   map[Kind]int `json:"counts"`          // events captured per kind, dropped ones included
	Events   int          `json:"events"`          // events retained now
	Dropped  int          `json:"dropped"`         // events evicted from the ring
	// ThrowsSkipped counts the throws past the rate cap (throws.perSecond), not recorded.
	ThrowsSkipped int `json:"throwsSkipped,omitempty"`
	// Redacted counts the values hidden as secrets (<redacted:KIND>) in events and answers.
	Redacted  int64      `json:"redacted,omitempty"`
	LastSeq   uint64     `json:"lastSeq"`
	MaxEvents int        `json:"maxEvents"`
	StartedAt time.Time  `json:"startedAt"`
	EndedAt   *time.Time `json:"endedAt,omitempty"`

	// InspectorLost: the inspector connection ended while the program runs on (it closed its
	// inspector): stdout and stderr are still captured, debugger calls answer inspector_lost.
	InspectorLost bool `json:"inspectorLost,omitempty"`
	// StoppedBy is the signal that ended a stopped program: SIGTERM, or SIGKILL when SIGTERM did
	// not end it within the stop's grace.
	StoppedBy string `json:"stoppedBy,omitempty"`
	// StillRunning is, for a program its timeoutMs stopped, what kept it running then: each live
	// target's first line of GET alive.
	StillRunning string `json:"stillRunning,omitempty"`
	// Unresponsive says why a live program cannot answer the debugger: "stopped" (SIGSTOP, a
	// tracer) or "not_answering" (its inspector does not answer); absent when it can.
	Unresponsive string `json:"unresponsive,omitempty"`

	// RestartOf is the session this one re-ran (POST restart); RestartedAs the one that re-ran
	// this one, which took its name.
	RestartOf   string `json:"restartOf,omitempty"`
	RestartedAs string `json:"restartedAs,omitempty"`

	// Export is how the session fares in the OTLP export; absent when export is off.
	Export *ExportCounts `json:"export,omitempty"`
}

// ExportCounts is what an exporter (internal/otlpexport) reports of one session.
type ExportCounts struct {
	Spans   int `json:"spans"`   // spans the collector took
	Events  int `json:"events"`  // span events the collector took
	Dropped int `json:"dropped"` // captured events that did not reach it
}

// BreakpointInfo is where V8 bound a breakpoint or logpoint once a matching script loaded
// (Debugger.breakpointResolved).
type BreakpointInfo struct {
	Ref      string `json:"ref"`
	Location Frame  `json:"location"`
	// Change says what a client did to it (set, removed, enabled, disabled); absent when V8
	// bound it in a script that loaded.
	Change string `json:"change,omitempty"`
}

// ProgressInfo is how far a long operation has gone (payload of a progress event). For a heap
// snapshot, Done and Total count what V8 has walked of the heap; Finished says the walk is over
// (the file is then written and summarised, which takes a while longer).
type ProgressInfo struct {
	Op       string `json:"op"`            // OpHeapSnapshot
	Ref      string `json:"ref,omitempty"` // what it makes: hs1...
	Done     int    `json:"done"`
	Total    int    `json:"total"`
	Finished bool   `json:"finished,omitempty"`
}

// Generated is the position in the code node runs, kept beside a Frame that a source map moved
// to its original position.
type Generated struct {
	URL    string `json:"url"`
	File   string `json:"file,omitempty"`
	Line   int    `json:"line"`
	Column int    `json:"column"`
}

// Gap is a range of seqs, inclusive, that a reader asked for but the ring no longer holds.
type Gap struct {
	From uint64 `json:"from"`
	To   uint64 `json:"to"`
}

// ThrowInfo is an exception thrown in user code, caught or not.
type ThrowInfo struct {
	Class   string `json:"class,omitempty"`
	Message Text   `json:"message"`
	Value   string `json:"value,omitempty"` // the thrown value's preview when it is not an Error
	// Caught is V8's prediction at the throw: a handler will catch it (a test runner, a server,
	// the program's own try). An uncaught one later comes as an exception event too.
	Caught   bool       `json:"caught"`
	Location *Frame     `json:"location"`          // the user frame it came from (the throw, or the call that threw)
	Thrower  *Frame     `json:"thrower,omitempty"` // where it was thrown, when that is a library's or node:assert
	Stack    []Frame    `json:"stack,omitempty"`   // innermost first, at most maxThrowStack frames
	Locals   []Variable `json:"locals,omitempty"`  // the user frame's, shallow; refs are not kept
	// Skipped counts the throws past the rate cap since the previous throw event.
	Skipped int `json:"skipped,omitempty"`
}

// TargetInfo describes a target of a session: the main thread (t0), a worker thread or a child
// process.
type TargetInfo struct {
	Ref   string `json:"ref"`             // t0 the main thread, then t1, t2... in attach order
	Kind  string `json:"kind"`            // main, worker or process
	Title string `json:"title,omitempty"` // what node calls it, e.g. "[worker 1] app.js"
	URL   string `json:"url,omitempty"`   // the worker's script
	PID   int    `json:"pid,omitempty"`   // a child process's
	// Status is attached (captured), released (let run uncaptured) or exited.
	Status string `json:"status"`
	Reason string `json:"reason,omitempty"` // why a target was released
}
