package api

// HeapRetainersRequest is the body of POST /api/debug/{session}/heap/retainers: what holds an
// object (its snapshot node id), a class's instances, or, with neither, the largest holders and
// the classes by retained size.
type HeapRetainersRequest struct {
	// Snapshot is hs1 or a tag; with Ref alone, a snapshot is taken now.
	Snapshot string `json:"snapshot,omitempty" validate:"required_without=Ref,max=64"`
	Class    string `json:"class,omitempty" validate:"omitempty,max=200"`
	ID       int64  `json:"id,omitempty" validate:"omitempty,min=1"`   // a node id of the snapshot
	Ref      string `json:"ref,omitempty" validate:"omitempty,max=32"` // a live value or object ref (v1, o2)
	Top      int    `json:"top,omitempty" validate:"omitempty,min=1,max=50"`
}

// HeapAnalysis answers POST heap/retainers: the answer as bounded text (at most ~2 KB).
type HeapAnalysis struct {
	Session  string `json:"session"`
	Target   string `json:"target"`
	Snapshot string `json:"snapshot"`
	Text     string `json:"text"`
}

// LeakBeginResponse answers POST /api/debug/{session}/heap/leak/begin.
type LeakBeginResponse struct {
	Session   string `json:"session"`
	Target    string `json:"target"`
	Snapshot  string `json:"snapshot"`  // taken at the start: its highest object id is the watermark
	Watermark uint32 `json:"watermark"` // objects with a higher id were born in the window
	Sampling  bool   `json:"sampling"`  // the sampling heap profiler runs for the allocation sites
	Next      string `json:"next"`
}

// LeakEndRequest is the body of POST heap/leak/end and POST heap/leak (begin, run an expression
// iterations times, end: one call).
type LeakEndRequest struct {
	Top        int    `json:"top,omitempty" validate:"omitempty,min=1,max=20"`
	Expression string `json:"expression,omitempty" validate:"omitempty,max=65536"`
	Iterations int    `json:"iterations,omitempty" validate:"omitempty,min=1,max=100000"`
}

// LeakReport answers a leak window's end: the objects born in it and still held, clustered by
// class and by how they are held.
type LeakReport struct {
	Session      string           `json:"session"`
	Target       string           `json:"target"`
	Begin        string           `json:"begin"` // the snapshots at either end
	End          string           `json:"end"`
	Seconds      float64          `json:"seconds"`
	Iterations   int              `json:"iterations,omitempty"`
	Objects      int              `json:"objects"`
	RetainedSize uint64           `json:"retainedSize"`
	Clusters     []LeakCluster    `json:"clusters"`
	Allocations  []AllocationSite `json:"allocations,omitempty"` // the sampling profiler's top sites in the window
	Text         string           `json:"text"`                  // the report in at most ~2 KB
}

// LeakCluster is one group of objects born in the window and still held the same way.
type LeakCluster struct {
	Label        string   `json:"label"`
	Count        int      `json:"count"`
	RetainedSize uint64   `json:"retainedSize"`
	PerSecond    float64  `json:"perSecond"`
	PerIteration float64  `json:"perIteration,omitempty"`
	Path         string   `json:"path"`
	Pinch        string   `json:"pinch"`   // the collection or property that accumulates them
	PinchID      uint32   `json:"pinchId"` // its heap object id
	IDs          []uint32 `json:"ids"`
	// Allocated is the program's functions that allocated the cluster's objects, from the
	// window's allocation samples, the most sampled bytes first.
	Allocated []LeakSite `json:"allocated,omitempty"`
}

// LeakSite is a function that allocated a cluster's objects: where it starts (sampled frames
// name a function by its start), and the bytes sampled there.
type LeakSite struct {
	Function string `json:"function"`
	File     string `json:"file"`
	Line     int    `json:"line"`
	Bytes    int64  `json:"bytes"`
}
