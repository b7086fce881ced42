package engine

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"traced/internal/cdp/proto"
	"traced/internal/heapsnap"
)

// ErrNotStarted: stopping or reading a profiler that was not started.
var ErrNotStarted = errors.New("not started")

// ErrDiskCap: a session's heap snapshots would pass its disk cap (a *DiskCapError says how).
var ErrDiskCap = errors.New("disk cap reached")

// DiskCapError is a snapshot refused or cut off by the session's disk cap (Config.MaxHeapDiskBytes).
type DiskCapError struct {
	Cap  int64    // the session's cap, bytes
	Used int64    // bytes the kept snapshots hold
	Cut  int64    // bytes the cut-off snapshot had reached; 0 when refused before it began
	Refs []string // the kept snapshots, oldest first: deleting one frees its bytes
}

func (e *DiskCapError) Error() string {
	if e.Cut > 0 {
		return fmt.Sprintf("%s: the snapshot passed %d bytes, the room left under the session's cap of %d bytes (its snapshots hold %d); its file is removed",
			ErrDiskCap, e.Cut, e.Cap, e.Used)
	}
	return fmt.Sprintf("%s: the session's snapshots hold %d of its %d bytes", ErrDiskCap, e.Used, e.Cap)
}

func (e *DiskCapError) Unwrap() error { return ErrDiskCap }

// heapLimits are the engine settings a session's heap files follow (Config.DataDir,
// Config.MaxHeapDiskBytes).
type heapLimits struct {
	dir      string // the parent of the session's directory
	maxBytes int64  // snapshot bytes the session may keep
}

// heapState is a session's heap snapshots: files in a directory of its own, removed when the
// session ends.
type heapState struct {
	mu        sync.Mutex
	dir       string
	enabled   bool
	next      int  // the last snapshot number given
	nextCPU   int  // the last cpu profile number given
	profiling bool // the CPU profiler runs
	covering  bool // precise coverage is collected
	sampling  bool // the sampling heap profiler runs
	tracking  bool // allocation tracking runs
	snapshots []*heapSnapshot
	active    *chunkWriter // the snapshot being received, nil between snapshots
}

type heapSnapshot struct {
	Ref     string
	Tag     string
	Path    string
	Bytes   int64
	Summary *heapsnap.Summary
}

// chunkWriter writes a snapshot's chunks to its file and tells when the JSON text is whole: the
// takeHeapSnapshot reply can overtake the last chunks, which the dispatcher delivers later. Past
// its limit (or a write error) it stops writing but goes on scanning, so that done still means
// the last chunk has arrived and no chunk of this snapshot can reach the next one's file.
type chunkWriter struct {
	job    *Job   // the job taking the snapshot
	ref    string // the snapshot's, for its progress events
	step   int    // the last tenth of the way a progress event was recorded for; -1: none
	f      *os.File
	buf    []byte // the chunk being written, unescaped (heapsnap.AppendChunk); reused
	n      int64  // bytes written
	limit  int64  // bytes it may write: the cap less what the kept snapshots hold
	capErr func(n int64) error
	end    heapsnap.End
	err    error
	done   chan struct{}
	closed bool
}

func (w *chunkWriter) write(chunk []byte) {
	if w.closed {
		return
	}
	if w.err == nil {
		if w.n+int64(len(chunk)) > w.limit {
			w.err = w.capErr(w.n + int64(len(chunk)))
		} else {
			var n int
			n, w.err = w.f.Write(chunk)
			w.n += int64(n)
		}
	}
	if w.end.Scan(chunk) {
		w.closed = true
		close(w.done)
	}
}

// onHeapChunk receives the params of one chunk of the snapshot being taken (dispatcher
// goroutine).
func (hp Heap) onHeapChunk(params json.RawMessage) {
	h := hp.heapNow()
	if h == nil {
		return
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	w := h.active
	if w == nil {
		return
	}
	buf, ok := heapsnap.AppendChunk(w.buf[:0], params)
	if !ok {
		return
	}
	w.buf = buf
	w.write(w.buf)
}

// dataDir returns the session's heap state and the directory of its snapshot and profile files,
// made on first use.
func (hp Heap) dataDir() (*heapState, error) {
	hp.t.mu.Lock()
	defer hp.t.mu.Unlock()
	if hp.t.heap != nil {
		return hp.t.heap, nil
	}
	dir, err := os.MkdirTemp(hp.t.s.heapLimits.dir, "traced-"+hp.t.s.id+"-")
	if err != nil {
		return nil, fmt.Errorf("heap dir: %w", err)
	}
	hp.t.heap = &heapState{dir: dir}
	go func() { <-hp.t.s.done; os.RemoveAll(dir) }() // the files go with the session
	return hp.t.heap, nil
}

// setFlag sets one of the profiler flags and returns its value before.
func (hp Heap) setFlag(flag func(*heapState) *bool, v bool) (bool, error) {
	h, err := hp.dataDir()
	if err != nil {
		return false, err
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	old := *flag(h)
	*flag(h) = v
	return old, nil
}

func profilingFlag(h *heapState) *bool { return &h.profiling }
func coveringFlag(h *heapState) *bool  { return &h.covering }
func samplingFlag(h *heapState) *bool  { return &h.sampling }

// OpHeapSnapshot names a heap snapshot in progress events (and jobs).
const OpHeapSnapshot = "heap-snapshot"

// ProgressInfo is how far a long operation has gone (payload of a progress event). For a heap
// snapshot, Done and Total count what V8 has walked of the heap; Finished says the walk is over
// (the file is then written and summarised, which takes a while longer).
type ProgressInfo struct {
	Op       string // OpHeapSnapshot
	Ref      string // what it makes: hs1...
	Done     int
	Total    int
	Finished bool
}

// progressSteps is how many progress events a snapshot records at most, besides the finished
// one: one per tenth of the way, so a heap of millions of objects does not flood the ring.
const progressSteps = 10

type heapProgress struct {
	Done     int  `json:"done"`
	Total    int  `json:"total"`
	Finished bool `json:"finished"`
}

// onHeapProgress records the progress of the snapshot being taken, thinned to progressSteps
// (dispatcher goroutine: it records, never calls).
func (hp Heap) onHeapProgress(p heapProgress) {
	h := hp.heapNow()
	if h == nil {
		return
	}
	h.mu.Lock()
	w := h.active
	if w == nil {
		h.mu.Unlock()
		return
	}
	info := ProgressInfo{Op: OpHeapSnapshot, Ref: w.ref, Done: p.Done, Total: p.Total, Finished: p.Finished}
	if w.job != nil {
		w.job.report(info)
	}
	step := progressSteps
	if p.Total > 0 && p.Done < p.Total {
		step = p.Done * progressSteps / p.Total
	}
	record := p.Finished || step > w.step
	if record && !p.Finished {
		w.step = step
	}
	h.mu.Unlock()
	if record {
		hp.t.record(Event{Kind: KindProgress, Progress: &info})
	}
}

// heapNow is the session's heap state, nil before any heap or profiler call made it.
func (hp Heap) heapNow() *heapState {
	hp.t.mu.Lock()
	defer hp.t.mu.Unlock()
	return hp.t.heap
}

// SnapshotInfo answers a heap snapshot: its ref, where to download it, and its summary.
type SnapshotInfo struct {
	Ref      string
	Tag      string
	Bytes    int64
	Download string
	Nodes    int
	Total    int64
	Classes  []heapsnap.Class // the top ones by self size
	Retained string
}

// StartSnapshot begins a heap snapshot (HeapProfiler.takeHeapSnapshot) as a job whose
// result is a SnapshotInfo: the chunks are streamed to a file, which is then summarised by
// constructor, the top classes. Refusals (another snapshot running, the disk cap reached) come
// at once.
func (hp Heap) StartSnapshot(tag string, top int) (*Job, error) {
	return hp.startSnapshot(proto.HeapProfilerTakeHeapSnapshot{ReportProgress: true}, tag, top, false)
}

// StartTracking starts allocation tracking (HeapProfiler.startTrackingHeapObjects with
// trackAllocations): the snapshot its stop takes records where each live object was allocated.
func (hp Heap) StartTracking(ctx context.Context) error {
	_, c, err := hp.t.Inspector().pauseNow()
	if err != nil {
		return err
	}
	h, err := hp.dataDir()
	if err != nil {
		return err
	}
	if err := proto.Do(ctx, c, proto.HeapProfilerEnable{}, nil); err != nil {
		return fmt.Errorf("allocation tracking: %w", err)
	}
	if err := proto.Do(ctx, c, proto.HeapProfilerStartTrackingHeapObjects{TrackAllocations: true}, nil); err != nil {
		return fmt.Errorf("allocation tracking: %w", err)
	}
	h.mu.Lock()
	h.enabled, h.tracking = true, true
	h.mu.Unlock()
	return nil
}

// StopTracking stops allocation tracking as a job whose result is a SnapshotInfo:
// HeapProfiler.stopTrackingHeapObjects streams a snapshot as takeHeapSnapshot does, which is
// kept and summarised like any other (hs1...).
func (hp Heap) StopTracking(tag string, top int) (*Job, error) {
	return hp.startSnapshot(proto.HeapProfilerStopTrackingHeapObjects{ReportProgress: true}, tag, top, true)
}

// startSnapshot begins a job whose CDP call makes V8 stream a snapshot; stopTracking
// says the call is the stop of allocation tracking, refused unless it was started.
func (hp Heap) startSnapshot(call proto.Command, tag string, top int, stopTracking bool) (*Job, error) {
	_, c, err := hp.t.Inspector().pauseNow()
	if err != nil {
		return nil, err
	}
	h, err := hp.dataDir()
	if err != nil {
		return nil, err
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	if stopTracking && !h.tracking {
		return nil, fmt.Errorf("%w: allocation tracking (POST heap/tracking/start)", ErrNotStarted)
	}
	if h.active != nil {
		return nil, &BusyError{Op: OpHeapSnapshot, Job: h.active.job.ID()}
	}
	used, refs := h.held()
	limit := hp.t.s.heapLimits.maxBytes
	if used >= limit {
		return nil, &DiskCapError{Cap: limit, Used: used, Refs: refs}
	}
	ref := "hs" + strconv.Itoa(h.next+1)
	path := filepath.Join(h.dir, ref+".heapsnapshot")
	f, err := os.Create(path)
	if err != nil {
		return nil, fmt.Errorf("snapshot file: %w", err)
	}
	h.next++
	j := hp.t.s.newJob(OpHeapSnapshot)
	w := &chunkWriter{job: j, ref: ref, step: -1, f: f, done: make(chan struct{}), limit: limit - used, capErr: func(n int64) error {
		return &DiskCapError{Cap: limit, Used: used, Cut: n, Refs: refs}
	}}
	h.active = w
	enable := !h.enabled
	h.enabled = true
	if stopTracking {
		h.tracking = false // V8 stops it whatever becomes of the snapshot
	}
	hp.t.s.runJob(j, func(ctx context.Context) (any, error) {
		sn, err := hp.t.s.takeSnapshot(ctx, c, h, w, path, call, enable)
		if err != nil {
			os.Remove(path)
			return nil, fmt.Errorf("snapshot: %w", err)
		}
		sn.Tag = tag
		h.mu.Lock()
		h.snapshots = append(h.snapshots, sn)
		h.mu.Unlock()
		return snapshotInfo(sn, top), nil
	})
	return j, nil
}

// takeSnapshot makes V8 stream the snapshot into w, waits for its last chunk and summarises the
// file. On error the caller removes the file.
func (s *Session) takeSnapshot(ctx context.Context, c clientCaller, h *heapState, w *chunkWriter, path string, call proto.Command, enable bool) (*heapSnapshot, error) {
	finish := func() error {
		h.mu.Lock()
		h.active = nil
		h.mu.Unlock()
		return w.f.Close()
	}
	if enable {
		if err := proto.Do(ctx, c, proto.HeapProfilerEnable{}, nil); err != nil {
			finish()
			return nil, err
		}
	}
	// A snapshot of a large heap takes seconds: the call is bounded by the session, not callTimeout.
	if err := proto.Do(ctx, c, call, nil); err != nil {
		finish()
		return nil, err
	}
	select {
	case <-w.done:
	case <-s.done:
	case <-ctx.Done():
	case <-time.After(time.Minute): // the reply came; the chunks are only behind in the queue
	}
	h.mu.Lock()
	werr, complete := w.err, w.closed
	h.mu.Unlock()
	if err := finish(); err != nil && werr == nil {
		werr = err
	}
	if werr == nil && !complete {
		werr = errors.New("the snapshot ended before its last chunk")
	}
	if werr != nil {
		return nil, werr
	}
	rf, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer rf.Close()
	sum, err := heapsnap.Summarize(rf)
	if err != nil {
		return nil, fmt.Errorf("summary: %w", err)
	}
	return &heapSnapshot{Ref: w.ref, Path: path, Bytes: w.n, Summary: sum}, nil
}

// held is the bytes the kept snapshots take and their refs, oldest first; h.mu is held.
func (h *heapState) held() (int64, []string) {
	var used int64
	refs := make([]string, 0, len(h.snapshots))
	for _, sn := range h.snapshots {
		used += sn.Bytes
		refs = append(refs, sn.Ref)
	}
	return used, refs
}

// DeletedSnapshot answers a deleted snapshot: what it freed and what the session still holds.
type DeletedSnapshot struct {
	Ref      string
	Bytes    int64 // freed
	Held     int64 // bytes the session's snapshots still take
	MaxBytes int64 // the session's cap
}

// DeleteSnapshot forgets a snapshot (by ref or tag) and removes its file, making room under the
// disk cap. A diff can no longer name it.
func (hp Heap) DeleteSnapshot(ref string) (DeletedSnapshot, error) {
	sn, err := hp.snapshotOf(ref)
	if err != nil {
		return DeletedSnapshot{}, err
	}
	hp.t.mu.Lock()
	h := hp.t.heap // not nil: snapshotOf found the snapshot in it
	hp.t.mu.Unlock()
	h.mu.Lock()
	i := slices.Index(h.snapshots, sn)
	if i < 0 { // a concurrent delete won
		h.mu.Unlock()
		return DeletedSnapshot{}, fmt.Errorf("%w: heap snapshot %q", ErrNoRef, ref)
	}
	h.snapshots = slices.Delete(h.snapshots, i, i+1)
	used, _ := h.held()
	h.mu.Unlock()
	if err := os.Remove(sn.Path); err != nil && !errors.Is(err, os.ErrNotExist) {
		return DeletedSnapshot{}, fmt.Errorf("delete %s: %w", sn.Ref, err)
	}
	return DeletedSnapshot{Ref: sn.Ref, Bytes: sn.Bytes, Held: used, MaxBytes: hp.t.s.heapLimits.maxBytes}, nil
}

func snapshotInfo(sn *heapSnapshot, top int) SnapshotInfo {
	return SnapshotInfo{Ref: sn.Ref, Tag: sn.Tag, Bytes: sn.Bytes, Download: "GET heap/snapshots/" + sn.Ref,
		Nodes: sn.Summary.Nodes, Total: sn.Summary.TotalSize, Classes: sn.Summary.Classes[:min(top, len(sn.Summary.Classes))],
		Retained: sn.Summary.Retained}
}

// snapshotOf finds a snapshot by ref (or tag).
func (hp Heap) snapshotOf(ref string) (*heapSnapshot, error) {
	if err := hp.t.s.debugOnly(); err != nil {
		return nil, err
	}
	h := hp.heapNow()
	if h != nil {
		h.mu.Lock()
		defer h.mu.Unlock()
		for _, sn := range h.snapshots {
			if sn.Ref == ref || (sn.Tag != "" && sn.Tag == ref) {
				return sn, nil
			}
		}
	}
	return nil, fmt.Errorf("%w: heap snapshot %q", ErrNoRef, ref)
}

// SnapshotFile opens a snapshot's file for download.
func (hp Heap) SnapshotFile(ref string) (*os.File, error) {
	sn, err := hp.snapshotOf(ref)
	if err != nil {
		return nil, err
	}
	f, err := os.Open(sn.Path)
	if err != nil {
		return nil, fmt.Errorf("%w: %s is gone with its session", ErrFinished, ref)
	}
	return f, nil
}

// OpHeapDiff names a diff of two snapshots in jobs.
const OpHeapDiff = "heap-diff"

// StartDiff compares two snapshots (refs or tags) as a job whose result is a heapsnap.Diff; an
// unknown snapshot is refused at once.
func (hp Heap) StartDiff(from, to string, top int) (*Job, error) {
	a, err := hp.snapshotOf(from)
	if err != nil {
		return nil, err
	}
	b, err := hp.snapshotOf(to)
	if err != nil {
		return nil, err
	}
	j := hp.t.s.newJob(OpHeapDiff)
	hp.t.s.runJob(j, func(context.Context) (any, error) {
		return heapsnap.Compare(a.Ref, a.Summary, b.Ref, b.Summary, top), nil
	})
	return j, nil
}

// HeapUsage is V8's heap use now (Runtime.getHeapUsage), in bytes.
type HeapUsage struct {
	Used         int64
	Total        int64
	Embedder     int64
	BackingStore int64
	// HeldByTraced counts the objects traced's own o refs keep alive: the usage counts them;
	// heap/retainers leaves them out; DELETE refs lets them go.
	HeldByTraced int
}

// Usage reads the heap's use.
func (hp Heap) Usage(ctx context.Context) (HeapUsage, error) {
	_, c, err := hp.t.Inspector().pauseNow()
	if err != nil {
		return HeapUsage{}, err
	}
	var res struct {
		UsedSize             float64 `json:"usedSize"`
		TotalSize            float64 `json:"totalSize"`
		EmbedderHeapUsedSize float64 `json:"embedderHeapUsedSize"`
		BackingStorageSize   float64 `json:"backingStorageSize"`
	}
	if err := proto.Do(ctx, c, proto.RuntimeGetHeapUsage{}, &res); err != nil {
		return HeapUsage{}, fmt.Errorf("heap usage: %w", err)
	}
	hp.t.mu.Lock()
	held := len(hp.t.refs.objs)
	hp.t.mu.Unlock()
	return HeapUsage{Used: int64(res.UsedSize), Total: int64(res.TotalSize),
		Embedder: int64(res.EmbedderHeapUsedSize), BackingStore: int64(res.BackingStorageSize), HeldByTraced: held}, nil
}

// CollectGarbage runs a full GC (HeapProfiler.collectGarbage) and answers the usage after.
func (hp Heap) CollectGarbage(ctx context.Context) (HeapUsage, error) {
	_, c, err := hp.t.Inspector().pauseNow()
	if err != nil {
		return HeapUsage{}, err
	}
	if err := proto.Do(ctx, c, proto.HeapProfilerCollectGarbage{}, nil); err != nil {
		return HeapUsage{}, fmt.Errorf("gc: %w", err)
	}
	return hp.Usage(ctx)
}

// InspectObject turns a heap object id of a snapshot (heapsnap.Class.IDs, or DevTools) into an o
// ref of the live object (HeapProfiler.getObjectByHeapObjectId).
func (hp Heap) InspectObject(ctx context.Context, nodeID int64) (EvalResult, error) {
	_, c, err := hp.t.Inspector().pauseNow()
	if err != nil {
		return EvalResult{}, err
	}
	var res struct {
		Result remoteObject `json:"result"`
	}
	if err := proto.Do(ctx, c, proto.HeapProfilerGetObjectByHeapObjectID{
		ObjectID: strconv.FormatInt(nodeID, 10), ObjectGroup: refsGroup,
	}, &res); err != nil {
		return EvalResult{}, fmt.Errorf("%w: heap object %d is not live (or no snapshot named it): %v", ErrNoRef, nodeID, err)
	}
	// getObjectByHeapObjectId gives no preview: describe the object through a call that does.
	obj := res.Result
	if obj.ObjectID != "" {
		var p struct {
			Result remoteObject `json:"result"`
		}
		if err := proto.Do(ctx, c, proto.RuntimeCallFunctionOn{
			ObjectID: obj.ObjectID, FunctionDeclaration: "function() { return this }", ObjectGroup: refsGroup,
			GeneratePreview: true,
		}, &p); err == nil {
			obj = p.Result
		}
	}
	hp.t.mu.Lock()
	ref, err := hp.t.refs.objectRef(obj)
	hp.t.mu.Unlock()
	if err != nil {
		return EvalResult{}, err
	}
	text, cut := hp.t.s.preview(obj, 1)
	return EvalResult{Ref: ref, Type: typeOf(obj), Value: text, Expand: expandHint(ref, cut)}, nil
}

// ObjectID is the heap object id (a snapshot's node id) of the object a value or object ref
// names (v1, o2): what holds a live value is then asked of a snapshot.
func (hp Heap) ObjectID(ctx context.Context, ref string) (int64, error) {
	_, c, err := hp.t.Inspector().pauseNow()
	if err != nil {
		return 0, err
	}
	v, _, err := hp.t.Inspector().lookupRef(strings.TrimPrefix(ref, "@"))
	if err != nil {
		return 0, err
	}
	if v.obj.ObjectID == "" {
		return 0, fmt.Errorf("%w: %s is a primitive (%s), not an object the heap holds", ErrNoRef, ref, v.obj.Type)
	}
	if err := proto.Do(ctx, c, proto.HeapProfilerEnable{}, nil); err != nil {
		return 0, fmt.Errorf("heap object id: %w", err)
	}
	var res struct {
		ID string `json:"heapSnapshotObjectId"`
	}
	if err := proto.Do(ctx, c, proto.HeapProfilerGetHeapObjectID{ObjectID: v.obj.ObjectID}, &res); err != nil {
		return 0, fmt.Errorf("heap object id of %s: %w", ref, err)
	}
	id, err := strconv.ParseInt(res.ID, 10, 64)
	if err != nil {
		return 0, fmt.Errorf("heap object id of %s: %q: %w", ref, res.ID, err)
	}
	return id, nil
}
