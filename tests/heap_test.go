package tests

import (
	"encoding/json"
	"net/http"
	"testing"

	"traced/api"
)

// TestDebugHeapSnapshotDiff: two snapshots around a leak of 1000 LeakyThing objects; the diff
// puts LeakyThing first with a count delta of 1000, and a snapshot downloads as the standard
// .heapsnapshot JSON.
func TestDebugHeapSnapshotDiff(t *testing.T) {
	h := newHarness(t)
	s := h.debug(api.StartRequest{Target: "leak.js"})
	var usage api.HeapUsage
	h.get(s.ID, "heap/usage", &usage)
	if usage.Used <= 0 || usage.Total < usage.Used {
		t.Fatalf("heap usage %+v", usage)
	}
	h.post(s.ID, "heap/gc", struct{}{}, &usage)
	if usage.Used <= 0 {
		t.Fatalf("heap usage after gc %+v", usage)
	}
	var before, after api.SnapshotInfo
	if code := h.call("POST", "/api/debug/"+s.ID+"/heap/snapshot", api.SnapshotRequest{Tag: "before"}, &before); code != http.StatusCreated {
		t.Fatalf("snapshot: %d", code)
	}
	if before.Ref != "hs1" || before.Nodes == 0 || len(before.Classes) == 0 || before.Download != "GET heap/snapshots/hs1" {
		t.Fatalf("first snapshot %+v", before)
	}
	if res := h.eval(s.ID, "grow(1000)", 0); res.Value != "1000" {
		t.Fatalf("grow: %+v", res)
	}
	if code := h.call("POST", "/api/debug/"+s.ID+"/heap/snapshot", api.SnapshotRequest{}, &after); code != http.StatusCreated || after.Ref != "hs2" {
		t.Fatalf("second snapshot: %d %+v", code, after)
	}
	var diff api.HeapDiff
	h.post(s.ID, "heap/diff", api.HeapDiffRequest{From: "before", To: "hs2", Top: 5}, &diff)
	if len(diff.Classes) == 0 || diff.Classes[0].Name != "LeakyThing" || diff.Classes[0].CountDelta != 1000 || diff.Classes[0].Count != 1000 {
		t.Fatalf("diff %+v, want LeakyThing first with 1000 more", diff)
	}
	if e := h.errorOf(h.request("POST", "/api/debug/"+s.ID+"/heap/diff", api.HeapDiffRequest{From: "hs1", To: "hs9"}), http.StatusNotFound); e.Code != "no_such_snapshot" {
		t.Fatalf("diff with an unknown snapshot: %+v", e)
	}

	status, raw := h.send(h.request("GET", "/api/debug/"+s.ID+"/heap/snapshots/hs1", nil))
	var file map[string]json.RawMessage
	if err := json.Unmarshal(raw, &file); status != http.StatusOK || err != nil {
		t.Fatalf("download: %d %v", status, err)
	}
	for _, key := range []string{"snapshot", "nodes", "edges", "strings"} {
		if _, ok := file[key]; !ok {
			t.Errorf("the downloaded snapshot lacks %q", key)
		}
	}
	if int64(len(raw)) != before.Bytes {
		t.Errorf("downloaded %d bytes, the snapshot said %d", len(raw), before.Bytes)
	}
}
