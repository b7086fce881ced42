package api

// ToggleRequest is the body of POST /api/debug/{session}/breakpoints/{ref}/toggle; Enabled
// absent flips the breakpoint.
type ToggleRequest struct {
	Enabled *bool `json:"enabled,omitempty"`
}

// ActiveRequest is the body of POST /api/debug/{session}/breakpoints/active.
type ActiveRequest struct {
	Active *bool `json:"active" validate:"required"`
}

// ActiveResponse answers POST /api/debug/{session}/breakpoints/active.
type ActiveResponse struct {
	Active bool `json:"active"`
}

// FunctionBreakpointRequest is the body of POST /api/debug/{session}/breakpoints/function.
type FunctionBreakpointRequest struct {
	Expression string `json:"expression" validate:"required"` // evaluates to the function
	Condition  string `json:"condition,omitempty"`
	HitCount   int    `json:"hitCount,omitempty" validate:"omitempty,min=1"`
}

// OnLoadRequest is the body of POST /api/debug/{session}/breakpoints/on-load; Enabled absent
// means true.
type OnLoadRequest struct {
	Enabled *bool `json:"enabled,omitempty"`
}

// OnLoadResponse answers POST /api/debug/{session}/breakpoints/on-load.
type OnLoadResponse struct {
	Enabled bool `json:"enabled"`
}

// BreakableResponse answers GET /api/debug/{session}/breakable.
type BreakableResponse struct {
	Location string          `json:"location"` // as asked
	Lines    []BreakableLine `json:"lines"`
}

// RestartFrameRequest is the body of POST /api/debug/{session}/restart-frame. Frame is "f1"
// (or "@f1") or the number 1; absent is the top frame.
type RestartFrameRequest struct {
	Frame  any    `json:"frame,omitempty"`
	WaitMs *int64 `json:"waitMs,omitempty" validate:"omitempty,min=0"`
}

// BlackboxRequest is the body of POST /api/debug/{session}/blackbox.
type BlackboxRequest struct {
	Patterns []string `json:"patterns" validate:"required,min=1,dive,required"`
}

// BlackboxResponse answers the blackbox routes with the patterns in force, and those worth adding.
type BlackboxResponse struct {
	Patterns  []string `json:"patterns"`
	Suggested []string `json:"suggested"`
}

// AsyncDepthRequest is the body of POST /api/debug/{session}/async-depth.
type AsyncDepthRequest struct {
	Depth *int `json:"depth" validate:"required,min=0"`
}

// AsyncDepthResponse answers POST /api/debug/{session}/async-depth.
type AsyncDepthResponse struct {
	Depth int `json:"depth"`
}

// HotpatchRequest is the body of POST /api/debug/{session}/hotpatch.
type HotpatchRequest struct {
	File   string `json:"file" validate:"required"` // the script's file, relative to the session's cwd
	DryRun bool   `json:"dryRun,omitempty"`
	WaitMs *int64 `json:"waitMs,omitempty" validate:"omitempty,min=0"`
}

// HookRequest is the body of POST /api/debug/{session}/hooks.
type HookRequest struct {
	Name string `json:"name" validate:"required"`
}

// HooksResponse answers the hook routes.
type HooksResponse struct {
	Hooks []Hook `json:"hooks"`
}
