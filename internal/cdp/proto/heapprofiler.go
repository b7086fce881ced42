package proto

// The HeapProfiler domain's commands and events traced uses.

// Events: a snapshot streams as chunks, with progress reports.
const (
	EventReportHeapSnapshotProgress = "HeapProfiler.reportHeapSnapshotProgress"
	EventAddHeapSnapshotChunk       = "HeapProfiler.addHeapSnapshotChunk"
)

// Commands without parameters.
type (
	HeapProfilerEnable         struct{}
	HeapProfilerCollectGarbage struct{}
	HeapProfilerStopSampling   struct{}
)

// HeapProfilerTakeHeapSnapshot streams a snapshot as addHeapSnapshotChunk events.
type HeapProfilerTakeHeapSnapshot struct {
	ReportProgress bool `json:"reportProgress,omitempty"`
}

// HeapProfilerStartTrackingHeapObjects starts recording allocations.
type HeapProfilerStartTrackingHeapObjects struct {
	TrackAllocations bool `json:"trackAllocations,omitempty"`
}

// HeapProfilerStopTrackingHeapObjects stops it, streaming a snapshot as takeHeapSnapshot does.
type HeapProfilerStopTrackingHeapObjects struct {
	ReportProgress bool `json:"reportProgress,omitempty"`
}

// HeapProfilerStartSampling starts the sampling heap profiler.
type HeapProfilerStartSampling struct {
	SamplingInterval                 int  `json:"samplingInterval"` // bytes, on average
	IncludeObjectsCollectedByMajorGC bool `json:"includeObjectsCollectedByMajorGC"`
	IncludeObjectsCollectedByMinorGC bool `json:"includeObjectsCollectedByMinorGC"`
}

// HeapProfilerGetObjectByHeapObjectID gives the live object of a snapshot's node id.
type HeapProfilerGetObjectByHeapObjectID struct {
	ObjectID    string `json:"objectId"` // the snapshot's id, decimal
	ObjectGroup string `json:"objectGroup,omitempty"`
}

// HeapProfilerGetHeapObjectID gives a live object's snapshot node id.
type HeapProfilerGetHeapObjectID struct {
	ObjectID string `json:"objectId"`
}

func (HeapProfilerEnable) Method() string           { return "HeapProfiler.enable" }
func (HeapProfilerCollectGarbage) Method() string   { return "HeapProfiler.collectGarbage" }
func (HeapProfilerStopSampling) Method() string     { return "HeapProfiler.stopSampling" }
func (HeapProfilerTakeHeapSnapshot) Method() string { return "HeapProfiler.takeHeapSnapshot" }
func (HeapProfilerStartTrackingHeapObjects) Method() string {
	return "HeapProfiler.startTrackingHeapObjects"
}
func (HeapProfilerStopTrackingHeapObjects) Method() string {
	return "HeapProfiler.stopTrackingHeapObjects"
}
func (HeapProfilerStartSampling) Method() string { return "HeapProfiler.startSampling" }
func (HeapProfilerGetObjectByHeapObjectID) Method() string {
	return "HeapProfiler.getObjectByHeapObjectId"
}
func (HeapProfilerGetHeapObjectID) Method() string { return "HeapProfiler.getHeapObjectId" }
