package tests

import (
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"traced/api"
	"traced/internal/leakcheck"
	"traced/internal/service"
)

// withHeapDisk puts the sessions' heap files under dir, with a cap of max bytes per session.
func withHeapDisk(dir string, max int64) func(*service.Options) {
	return func(o *service.Options) {
		o.Engine.DataDir = dir
		o.Engine.MaxHeapDiskBytes = max
	}
}

// heapFiles lists the .heapsnapshot files of the sessions under a data dir.
func heapFiles(t *testing.T, dataDir string) []string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(dataDir, "traced-*", "*.heapsnapshot"))
	if err != nil {
		t.Fatal(err)
	}
	for i, f := range files {
		files[i] = filepath.Base(f)
	}
	return files
}

// snapshot takes a heap snapshot and expects it to succeed.
func (h *harness) snapshot(id string, req api.SnapshotRequest) api.SnapshotInfo {
	h.t.Helper()
	var sn api.SnapshotInfo
	if code := h.call("POST", "/api/debug/"+id+"/heap/snapshot", req, &sn); code != http.StatusCreated {
		h.t.Fatalf("snapshot: status %d", code)
	}
	return sn
}

// TestDebugHeapSnapshotDelete: a deleted snapshot frees its bytes, its file goes, and it can no
// longer be downloaded, diffed or deleted; the session's directory goes with the session.
func TestDebugHeapSnapshotDelete(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	h := newHarness(t, withHeapDisk(dir, 1<<30))
	s := h.leak()
	hs1 := h.snapshot(s.ID, api.SnapshotRequest{Tag: "first"})
	if files := heapFiles(t, dir); !slices.Equal(files, []string{"hs1.heapsnapshot"}) {
		t.Fatalf("files under the data dir %v, want hs1's", files)
	}
	var del api.DeleteSnapshotResponse
	if code := h.call("DELETE", "/api/debug/"+s.ID+"/heap/snapshots/first", nil, &del); code != http.StatusOK {
		t.Fatalf("delete: %d", code)
	}
	if del != (api.DeleteSnapshotResponse{Ref: "hs1", Bytes: hs1.Bytes, Held: 0, MaxBytes: 1 << 30}) {
		t.Fatalf("delete answered %+v", del)
	}
	if files := heapFiles(t, dir); len(files) != 0 {
		t.Fatalf("files %v left after the delete", files)
	}
	for _, req := range []*http.Request{
		h.request("GET", "/api/debug/"+s.ID+"/heap/snapshots/hs1", nil),
		h.request("DELETE", "/api/debug/"+s.ID+"/heap/snapshots/hs1", nil),
		h.request("POST", "/api/debug/"+s.ID+"/heap/diff", api.HeapDiffRequest{From: "hs1", To: "hs1"}),
	} {
		if e := h.errorOf(req, http.StatusNotFound); e.Code != "no_such_snapshot" {
			t.Fatalf("%s %s after the delete: %+v", req.Method, req.URL.Path, e)
		}
	}

	h.snapshot(s.ID, api.SnapshotRequest{})
	sessionDirs, _ := filepath.Glob(filepath.Join(dir, "traced-"+s.ID+"-*"))
	if len(sessionDirs) != 1 {
		t.Fatalf("session dirs %v, want one", sessionDirs)
	}
	h.call("POST", "/api/trace/stop", api.StopRequest{ID: s.ID}, nil)
	// Removed by a goroutine once the session is done: nothing to wait on but the directory.
	if !leakcheck.WaitUntil(deadline, func() bool { _, err := os.Stat(sessionDirs[0]); return os.IsNotExist(err) }) {
		t.Fatalf("%s outlived its session", sessionDirs[0])
	}
}

// TestDebugHeapDiskCap: with a cap of one and a half snapshots of the leak fixture, the first
// snapshot is kept, the second passes the cap (409 disk_cap naming hs1 to delete, its file
// removed), and after deleting hs1 a snapshot fits again. A cap below one snapshot refuses the
// first with a hint that there is nothing to delete.
func TestDebugHeapDiskCap(t *testing.T) {
	t.Parallel()
	// One snapshot's size, measured in a session of its own under the default cap.
	probe := newHarness(t, withHeapDisk(t.TempDir(), 0))
	one := probe.snapshot(probe.leak().ID, api.SnapshotRequest{}).Bytes

	dir := t.TempDir()
	limit := one + one/2
	h := newHarness(t, withHeapDisk(dir, limit))
	var st api.StatusResponse
	h.call("GET", "/api/trace/status", nil, &st)
	if st.Limits.MaxHeapDiskBytes != limit {
		t.Fatalf("status limits %+v, want maxHeapDiskBytes %d", st.Limits, limit)
	}
	s := h.leak()
	h.snapshot(s.ID, api.SnapshotRequest{})
	e := h.errorOf(h.request("POST", "/api/debug/"+s.ID+"/heap/snapshot", api.SnapshotRequest{}), http.StatusConflict)
	if e.Code != "disk_cap" || !strings.Contains(e.Hint, "DELETE /api/debug/"+s.ID+"/heap/snapshots/hs1") {
		t.Fatalf("second snapshot past the cap: %+v", e)
	}
	if files := heapFiles(t, dir); !slices.Equal(files, []string{"hs1.heapsnapshot"}) {
		t.Fatalf("files %v after the refused snapshot, want hs1's alone", files)
	}
	h.call("DELETE", "/api/debug/"+s.ID+"/heap/snapshots/hs1", nil, nil)
	if sn := h.snapshot(s.ID, api.SnapshotRequest{}); sn.Bytes == 0 {
		t.Fatalf("snapshot after the delete: %+v", sn)
	}

	tinyDir := t.TempDir()
	tiny := newHarness(t, withHeapDisk(tinyDir, 64<<10))
	ts := tiny.leak()
	e = tiny.errorOf(tiny.request("POST", "/api/debug/"+ts.ID+"/heap/snapshot", api.SnapshotRequest{}), http.StatusConflict)
	if e.Code != "disk_cap" || !strings.Contains(e.Message, "file is removed") || !strings.Contains(e.Hint, "--max-heap-disk") {
		t.Fatalf("snapshot past a tiny cap: %+v", e)
	}
	if files := heapFiles(t, tinyDir); len(files) != 0 {
		t.Fatalf("files %v after the refused snapshot", files)
	}
}

// TestDebugHeapSnapshotProgress: a snapshot reports its progress on the timeline, thinned to a
// dozen events at most, the last one finished, all naming the snapshot they are for.
func TestDebugHeapSnapshotProgress(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	s := h.leak()
	h.eval(s.ID, "grow(50000)", 0)
	h.snapshot(s.ID, api.SnapshotRequest{})
	evs := h.trace(s.ID, "progress").Events
	if len(evs) < 2 || len(evs) > 12 {
		t.Fatalf("%d progress events, want 2 to 12: %+v", len(evs), evs)
	}
	last := 0
	for i, ev := range evs {
		p := ev.Progress
		if p == nil || p.Op != "heap-snapshot" || p.Ref != "hs1" || p.Done < last || p.Total <= 0 {
			t.Fatalf("progress event %d: %+v", i, p)
		}
		last = p.Done
	}
	if p := evs[len(evs)-1].Progress; !p.Finished || p.Done != p.Total {
		t.Fatalf("last progress %+v, want finished", p)
	}
}
