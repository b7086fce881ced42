package api

// Session modes, the values of StartRequest.Mode.
const (
	ModeTrace = "trace" // observe only: nothing evaluates user text or stops the program
	ModeDebug = "debug" // breakpoints, stepping, eval
)

// Step kinds, the values of StepRequest.Kind.
const (
	StepOver = "over"
	StepInto = "into"
	StepOut  = "out"
)

// Pause-on-exceptions modes, the values of PauseOnExceptionsRequest.Mode.
const (
	ExceptionsNone     = "none"
	ExceptionsUncaught = "uncaught"
	ExceptionsCaught   = "caught"
	ExceptionsAll      = "all"
)

// BreakpointRequest is the body of POST /api/debug/{session}/breakpoints.
type BreakpointRequest struct {
	// Location is file:line[:col], file relative to the session's cwd; or give URLRegex and Line.
	Location  string `json:"location,omitempty"`
	URLRegex  string `json:"urlRegex,omitempty"`                          // a regex over script URLs, with Line
	Line      int    `json:"line,omitempty" validate:"omitempty,min=1"`   // 1-based, with URLRegex
	Column    int    `json:"column,omitempty" validate:"omitempty,min=1"` // 1-based, with URLRegex
	Condition string `json:"condition,omitempty"`                         // pause only when this JS expression is truthy
	HitCount  int    `json:"hitCount,omitempty" validate:"omitempty,min=1"`
}

// BreakpointResponse answers POST /api/debug/{session}/breakpoints.
type BreakpointResponse struct {
	Breakpoint Breakpoint `json:"breakpoint"`
}

// BreakpointsResponse answers GET /api/debug/{session}/breakpoints.
type BreakpointsResponse struct {
	Breakpoints []Breakpoint `json:"breakpoints"`
}

// RemoveBreakpointResponse answers DELETE /api/debug/{session}/breakpoints/{ref}.
type RemoveBreakpointResponse struct {
	Removed []string `json:"removed"`
}

// ContinueRequest is the body of POST /api/debug/{session}/continue. WaitMs, here and in the
// other execution requests, is a pointer because an explicit 0 (answer at once) differs from
// absent (the default wait).
type ContinueRequest struct {
	WaitMs *int64 `json:"waitMs,omitempty" validate:"omitempty,min=0"`
	All    bool   `json:"all,omitempty"` // resume every paused target, not the one named
}

// StepRequest is the body of POST /api/debug/{session}/step.
type StepRequest struct {
	Kind   string `json:"kind,omitempty" validate:"omitempty,oneof=over into out"` // default over
	WaitMs *int64 `json:"waitMs,omitempty" validate:"omitempty,min=0"`
}

// PauseRequest is the body of POST /api/debug/{session}/pause.
type PauseRequest struct {
	WaitMs *int64 `json:"waitMs,omitempty" validate:"omitempty,min=0"`
}

// EvalRequest is the body of POST /api/debug/{session}/eval.
type EvalRequest struct {
	Expression string `json:"expression" validate:"required"`
	Frame      int    `json:"frame,omitempty" validate:"min=0"` // f0 (the top) unless given
	// AwaitPromise waits for a promise result (while running; top-level await works too).
	AwaitPromise bool `json:"awaitPromise,omitempty"`
	// SideEffectFree refuses an expression that would change the program (V8's throwOnSideEffect).
	SideEffectFree bool `json:"sideEffectFree,omitempty"`
	// TimeoutMs ends an evaluation that runs longer (default 5000).
	TimeoutMs int64 `json:"timeoutMs,omitempty" validate:"omitempty,min=1,max=60000"`
}

// PauseOnExceptionsRequest is the body of POST /api/debug/{session}/pause-on-exceptions.
type PauseOnExceptionsRequest struct {
	Mode    string   `json:"mode" validate:"required,oneof=none uncaught caught all"`
	Classes []string `json:"classes,omitempty" validate:"max=50,dive,min=1,max=200"` // stop only at these; empty: all
}

// PauseOnExceptionsResponse answers POST /api/debug/{session}/pause-on-exceptions with the mode
// now in force.
type PauseOnExceptionsResponse struct {
	Mode    string   `json:"mode"`
	Classes []string `json:"classes,omitempty"`
}

// RunToRequest is the body of POST /api/debug/{session}/run-to.
type RunToRequest struct {
	Location string `json:"location" validate:"required"` // file:line[:col] in a loaded script
	WaitMs   *int64 `json:"waitMs,omitempty" validate:"omitempty,min=0"`
}

// KillExecutionRequest is the body of POST /api/debug/{session}/kill-execution.
type KillExecutionRequest struct {
	WaitMs *int64 `json:"waitMs,omitempty" validate:"omitempty,min=0"`
}

// LogpointRequest is the body of POST /api/debug/{session}/logpoints.
type LogpointRequest struct {
	Location string `json:"location" validate:"required"` // file:line[:col], as for breakpoints
	// Template is the text emitted at each hit, with ${expr} interpolated; 4 KiB is a log line,
	// not a program.
	Template  string `json:"template" validate:"required,max=4096"`
	Condition string `json:"condition,omitempty"` // emit only when this JS expression is truthy
	// Max is how many emissions before the logpoint disables itself (0: the engine's default, 100);
	// 10000 at most, so one logpoint cannot crowd everything else out of the session's ring.
	Max int `json:"max,omitempty" validate:"omitempty,min=1,max=10000"`
}

// LogpointResponse answers POST /api/debug/{session}/logpoints.
type LogpointResponse struct {
	Logpoint Logpoint `json:"logpoint"`
}

// LogpointsResponse answers GET /api/debug/{session}/logpoints.
type LogpointsResponse struct {
	Logpoints []Logpoint `json:"logpoints"`
}
