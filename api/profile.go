package api

import "traced/internal/engine"

// Heap answers the engine stores in their wire shape.
type (
	HeapUsage    = engine.HeapUsage
	SnapshotInfo = engine.SnapshotInfo
	HeapDiff     = engine.HeapDiff
	HeapClass    = engine.HeapClass
	ClassDelta   = engine.ClassDelta
)

// SnapshotRequest is the body of POST /api/debug/{session}/heap/snapshot.
type SnapshotRequest struct {
	Tag string `json:"tag,omitempty" validate:"omitempty,max=64"` // a name to find it by, e.g. before
	Top int    `json:"top,omitempty" validate:"omitempty,min=1,max=500"`
}

// HeapDiffRequest is the body of POST /api/debug/{session}/heap/diff.
type HeapDiffRequest struct {
	From string `json:"from" validate:"required"` // hs1 or a tag
	To   string `json:"to" validate:"required"`
	Top  int    `json:"top,omitempty" validate:"omitempty,min=1,max=500"`
}
