package api

import "traced/internal/heapsnap"

// Heap and CPU profiling answers.

// SnapshotInfo answers a heap snapshot: its ref, where to download it, and its summary.
type SnapshotInfo struct {
	Ref      string           `json:"ref"`
	Tag      string           `json:"tag,omitempty"`
	Bytes    int64            `json:"bytes"`
	Download string           `json:"download"`
	Nodes    int              `json:"nodes"`
	Total    int64            `json:"totalSize"`
	Classes  []heapsnap.Class `json:"classes"` // the top ones by self size
	Retained string           `json:"retained"`
}

// DeleteSnapshotResponse answers DELETE /api/debug/{session}/heap/snapshots/{ref}: what it freed and what the session still holds.
type DeleteSnapshotResponse struct {
	Ref      string `json:"ref"`
	Bytes    int64  `json:"bytes"`    // freed
	Held     int64  `json:"held"`     // bytes the session's snapshots still take
	MaxBytes int64  `json:"maxBytes"` // the session's cap
}

// HeapUsage is V8's heap use now (Runtime.getHeapUsage), in bytes.
type HeapUsage struct {
	Used         int64 `json:"used"`
	Total        int64 `json:"total"`
	Embedder     int64 `json:"embedder,omitempty"`
	BackingStore int64 `json:"backingStore,omitempty"`
	HeldByTraced int   `json:"heldByTraced"` // objects traced's o refs keep alive
}

// JobStatus is where a job stands.
type JobStatus string

// Job states.
const (
	JobRunning JobStatus = "running"
	JobDone    JobStatus = "done"
	JobFailed  JobStatus = "failed" // the operation failed, or its session ended first
)

// FunctionTime is one function's share of a CPU profile.
type FunctionTime struct {
	Function    string    `json:"function"`
	File        string    `json:"file,omitempty"`
	Line        int       `json:"line,omitempty"` // 1-based
	SelfMs      float64   `json:"selfMs"`
	SelfPct     float64   `json:"selfPct"`
	TotalMs     float64   `json:"totalMs"`
	TotalPct    float64   `json:"totalPct"`
	Deopt       string    `json:"deopt,omitempty"`       // why V8 deoptimised it, when it says
	Lines       []HotLine `json:"lines,omitempty"`       // its hottest lines, hottest first
	InlinedInto []string  `json:"inlinedInto,omitempty"` // the functions V8 compiled it into
	RunBy       string    `json:"runBy,omitempty"`       // native code: the script function that ran it
}

// HotLine is one source line's share of a function's self time.
type HotLine struct {
	File  string  `json:"file,omitempty"`
	Line  int     `json:"line"` // 1-based
	Ticks int     `json:"ticks"`
	Pct   float64 `json:"pct"` // of the function's self time
}

// CPUProfile answers a stopped CPU profile: the top functions by self and by total time, and
// the summary's text (hot lines, inlining, deopt reasons), at most 2 KB.
type CPUProfile struct {
	Ref        string         `json:"ref"`
	Download   string         `json:"download"`
	DurationMs float64        `json:"durationMs"`
	Samples    int            `json:"samples"`
	IdleMs     float64        `json:"idleMs"`
	GCMs       float64        `json:"gcMs"`
	ProgramMs  float64        `json:"programMs"`
	Self       []FunctionTime `json:"self"`
	Total      []FunctionTime `json:"total"`
	Text       string         `json:"text"`
}

// AllocationSite is where sampled allocations were made, with the stack that led there.
type AllocationSite struct {
	Function string   `json:"function"`
	File     string   `json:"file,omitempty"`
	Line     int      `json:"line,omitempty"` // 1-based
	Bytes    int64    `json:"bytes"`          // sampled self size
	Pct      float64  `json:"pct"`
	Stack    []string `json:"stack"` // innermost first: "function file:line", at most 8
}

// HeapSampling answers a stopped heap sampling: the top allocation sites.
type HeapSampling struct {
	TotalBytes int64            `json:"totalBytes"`
	Sites      []AllocationSite `json:"sites"`
}
