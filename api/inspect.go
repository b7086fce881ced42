package api

import (
	"encoding/json"
)

// VarsResponse answers GET /api/debug/{session}/vars.
type VarsResponse struct {
	Session   string     `json:"session,omitempty"`
	Target    string     `json:"target,omitempty"` // in a session with more than one target to debug
	Frame     string     `json:"frame"`
	Variables []Variable `json:"variables"`
}

// StackResponse answers GET /api/debug/{session}/stack.
type StackResponse struct {
	Stack []StackFrame `json:"stack"`
}

// InstancesRequest is the body of POST /api/debug/{session}/instances.
type InstancesRequest struct {
	Expression string `json:"expression" validate:"required"` // a prototype, or a constructor
	Frame      int    `json:"frame,omitempty" validate:"min=0"`
	Limit      *int   `json:"limit,omitempty" validate:"omitempty,min=0,max=100"` // instances previewed (default 10)
}

// GlobalsResponse answers GET /api/debug/{session}/globals.
type GlobalsResponse struct {
	Names []string `json:"names"`
}

// ScriptsResponse answers GET /api/debug/{session}/scripts.
type ScriptsResponse struct {
	Scripts []ScriptInfo `json:"scripts"`
}

// SearchResponse answers GET /api/debug/{session}/search.
type SearchResponse struct {
	Matches   []Match `json:"matches"`
	Truncated bool    `json:"truncated,omitempty"` // more matched than the answer holds
}

// ContextsResponse answers GET /api/debug/{session}/contexts.
type ContextsResponse struct {
	Contexts []ContextView `json:"contexts"`
}

// SetRequest is the body of POST /api/debug/{session}/set. Value is JSON (42, {"a":1}) or a
// string holding JSON, a JS primitive JSON lacks (undefined, NaN, Infinity, -0, 12n) or a ref.
type SetRequest struct {
	Name  string          `json:"name,omitempty" validate:"required_without=Ref,excluded_with=Ref"`
	Ref   string          `json:"ref,omitempty"`
	Value json.RawMessage `json:"value" validate:"required"`
	Frame int             `json:"frame,omitempty" validate:"min=0"`
}

// SetResponse answers POST /api/debug/{session}/set and set-return.
type SetResponse struct {
	Variable Variable `json:"variable"`
	// ReturnValue and Hint are set when the frame is paused at its return point: the value it
	// returns was computed before the set, which does not change it.
	ReturnValue *Variable `json:"returnValue,omitempty"`
	Hint        string    `json:"hint,omitempty"`
}

// SetReturnRequest is the body of POST /api/debug/{session}/set-return.
type SetReturnRequest struct {
	Value json.RawMessage `json:"value" validate:"required"`
}

// ClearRefsResponse answers DELETE /api/debug/{session}/refs.
type ClearRefsResponse struct {
	Released int `json:"released"`
}

// HistoryResponse answers GET /api/debug/{session}/console and exceptions: the events after the
// cursor, with the cursor of the next page.
type HistoryResponse struct {
	Events []Event `json:"events"`
	Next   uint64  `json:"next"`
	More   bool    `json:"more"`
	Gap    *Gap    `json:"gap,omitempty"` // events evicted after the cursor
}

// TargetsResponse answers GET /api/debug/{session}/targets.
type TargetsResponse struct {
	Session string       `json:"session"`
	Targets []TargetInfo `json:"targets"`
}
