package api

import "traced/internal/engine"

// Debugger answers are stored by the engine in their wire shape; these aliases name them here.
type (
	Breakpoint = engine.Breakpoint
	State      = engine.State
	EvalResult = engine.EvalResult
	SourceLine = engine.SourceLine
	Variable   = engine.Variable
	StackFrame = engine.StackFrame
)

// Session modes, the values of StartRequest.Mode.
const (
	ModeTrace = engine.ModeTrace
	ModeDebug = engine.ModeDebug
)

// Step kinds, the values of StepRequest.Kind.
const (
	StepOver = "over"
	StepInto = "into"
	StepOut  = "out"
)

// BreakpointRequest is the body of POST /api/debug/{session}/breakpoints.
type BreakpointRequest struct {
	Location  string `json:"location" validate:"required"` // file:line[:col], file relative to the session's cwd
	Condition string `json:"condition,omitempty"`          // pause only when this JS expression is truthy
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
}
