package api

import (
	"traced/internal/coverage"
	"traced/internal/heapsnap"
)

// Heap diff answers, heapsnap's own wire types.
type (
	HeapDiff   = heapsnap.Diff
	HeapClass  = heapsnap.Class
	ClassDelta = heapsnap.ClassDelta
)

// SnapshotRequest is the body of POST /api/debug/{session}/heap/snapshot.
type SnapshotRequest struct {
	Tag string `json:"tag,omitempty" validate:"omitempty,max=64"` // a name to find it by, e.g. before
	Top int    `json:"top,omitempty" validate:"omitempty,min=1,max=500"`
	// WaitMs bounds the call: past it the answer is 202 with the job to poll. A pointer: 0
	// (answer at once) differs from absent (the default, 30000).
	WaitMs *int64 `json:"waitMs,omitempty" validate:"omitempty,min=0,max=600000"`
}

// HeapDiffRequest is the body of POST /api/debug/{session}/heap/diff.
type HeapDiffRequest struct {
	From string `json:"from" validate:"required"` // hs1 or a tag
	To   string `json:"to" validate:"required"`
	Top  int    `json:"top,omitempty" validate:"omitempty,min=1,max=500"`
	// WaitMs bounds the call as in SnapshotRequest.
	WaitMs *int64 `json:"waitMs,omitempty" validate:"omitempty,min=0,max=600000"`
}

// TrackingStartResponse answers POST /api/debug/{session}/heap/tracking/start.
type TrackingStartResponse struct {
	Tracking bool `json:"tracking"`
}

// TrackingStopRequest is the body of POST /api/debug/{session}/heap/tracking/stop: the snapshot
// the stop takes is named and bounded as SnapshotRequest's.
type TrackingStopRequest SnapshotRequest

// JobResponse answers a long operation that outlived its call (202) and GET
// /api/debug/{session}/jobs/{job}.
type JobResponse struct {
	Job      string        `json:"job"`    // j1, j2...
	Op       string        `json:"op"`     // heap-snapshot, heap-diff
	Status   JobStatus     `json:"status"` // running, done, failed
	URL      string        `json:"url"`    // where to poll it
	Progress *ProgressInfo `json:"progress,omitempty"`
	// Result is, once done, the body the call would have answered (a SnapshotInfo, a HeapDiff).
	Result any `json:"result,omitempty"`
	// Error is, once failed, the error the call would have answered.
	Error *ErrorDetail `json:"error,omitempty"`
}

// CPUStartRequest is the body of POST /api/debug/{session}/cpu/start.
type CPUStartRequest struct {
	IntervalUs int `json:"intervalUs,omitempty" validate:"omitempty,min=10,max=1000000"` // default 1000
}

// CPUStopRequest is the body of POST /api/debug/{session}/cpu/stop.
type CPUStopRequest struct {
	Top int `json:"top,omitempty" validate:"omitempty,min=1,max=200"` // default 10
}

// CPUStartResponse answers POST /api/debug/{session}/cpu/start.
type CPUStartResponse struct {
	IntervalUs int `json:"intervalUs"`
}

// Coverage answers, in their wire shape.
type (
	ScriptCoverage   = coverage.Script
	FunctionCoverage = coverage.Function
	LineRange        = coverage.LineRange
)

// CoverageStartRequest is the body of POST /api/debug/{session}/coverage/start.
type CoverageStartRequest struct {
	Detailed bool `json:"detailed,omitempty"` // block-level ranges, not only functions
}

// CoverageRequest is the body of POST /api/debug/{session}/coverage/take and coverage/stop.
type CoverageRequest struct {
	File      string `json:"file,omitempty"`      // one script, relative to the session's cwd
	Uncovered bool   `json:"uncovered,omitempty"` // only functions that never ran
}

// CoverageResponse answers coverage/take and coverage/stop.
type CoverageResponse struct {
	Scripts []ScriptCoverage `json:"scripts"`
}

// SamplingStartRequest is the body of POST /api/debug/{session}/heap/sampling/start.
type SamplingStartRequest struct {
	IntervalBytes  int  `json:"intervalBytes,omitempty" validate:"omitempty,min=1,max=1073741824"` // default 32768
	IncludeMajorGC bool `json:"includeMajorGC,omitempty"`                                          // objects a major GC collected count too
	IncludeMinorGC bool `json:"includeMinorGC,omitempty"`
}

// SamplingStopRequest is the body of POST /api/debug/{session}/heap/sampling/stop.
type SamplingStopRequest struct {
	Top int `json:"top,omitempty" validate:"omitempty,min=1,max=200"` // default 10
}

// HeapInspectRequest is the body of POST /api/debug/{session}/heap/inspect.
type HeapInspectRequest struct {
	NodeID int64 `json:"nodeId" validate:"required,min=1"` // a heap object id from a snapshot
}
