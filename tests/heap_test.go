package tests

import (
	"encoding/json"
	"net/http"
	"slices"
	"strings"
	"testing"

	"traced/api"
)

// leak starts the leak fixture in debug mode and waits until it says grow is defined: a start
// answers once the program runs, and an eval sent at once can land before its last line.
func (h *harness) leak() api.Summary {
	h.t.Helper()
	s := h.debug(api.StartRequest{Target: "leak.js"})
	if w := h.waitFor(s.ID, 0, "console"); w.Event == nil || w.Event.Console.Text.Value != "ready" {
		h.t.Fatalf("leak.js did not say ready: %+v", w)
	}
	return s
}

// TestDebugHeapSnapshotDiff: two snapshots around a leak of 1000 LeakyThing objects; the diff
// puts LeakyThing first with a count delta of 1000, and a snapshot downloads as the standard
// .heapsnapshot JSON.
func TestDebugHeapSnapshotDiff(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	s := h.leak()
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
	// A LeakyThing of the snapshot, live, as an o ref.
	var obj api.EvalResult
	h.post(s.ID, "heap/inspect", api.HeapInspectRequest{NodeID: leakyID(t, after)}, &obj)
	if !strings.HasPrefix(obj.Ref, "o") || !strings.HasPrefix(obj.Value, "LeakyThing {") {
		t.Fatalf("heap/inspect: %+v", obj)
	}
	if res := h.eval(s.ID, obj.Ref+".constructor.name", 0); unquote(res.Value) != "LeakyThing" {
		t.Fatalf("eval on the inspected object: %+v", res)
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

// TestDebugCPUProfile: profiling a CPU-bound call puts its hot function first by self time, at
// its line, and the kept profile downloads as a standard .cpuprofile.
func TestDebugCPUProfile(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	s := h.debug(api.StartRequest{Target: "hot.js"})
	var w api.WaitResponse // the printed line, not the console call: console.log is still running then
	if h.call("GET", "/api/trace/wait?kinds=stdout&match=ready&after=0&timeoutMs=10000&id="+s.ID, nil, &w); w.Event == nil {
		t.Fatalf("hot.js ended before it was ready")
	}
	if e := h.errorOf(h.request("POST", "/api/debug/"+s.ID+"/cpu/stop", api.CPUStopRequest{}), http.StatusConflict); e.Code != "not_started" {
		t.Fatalf("cpu/stop before start: %+v", e)
	}
	var started api.CPUStartResponse
	h.post(s.ID, "cpu/start", api.CPUStartRequest{IntervalUs: 500}, &started)
	if started.IntervalUs != 500 {
		t.Fatalf("cpu/start: %+v", started)
	}
	h.evalWith(s.ID, api.EvalRequest{Expression: "work()", TimeoutMs: 30000})
	var prof api.CPUProfile
	// Top 20: node serves the inspector between any two JS steps, so the eval may run inside
	// the end of console.log("ready") still writing, whose frames then share work's total.
	h.post(s.ID, "cpu/stop", api.CPUStopRequest{Top: 20}, &prof)
	if len(prof.Self) == 0 || prof.Self[0].Function != "hot" || prof.Self[0].File != "hot.js" || prof.Self[0].Line != 2 {
		t.Fatalf("top by self time %+v, want hot at hot.js:2", prof.Self)
	}
	if prof.Self[0].SelfPct < 50 || prof.Samples == 0 || len(prof.Self) > 20 {
		t.Fatalf("profile %+v, want hot to hold most of the samples", prof)
	}
	if !slices.ContainsFunc(prof.Total, func(f api.FunctionTime) bool {
		return strings.HasSuffix(f.Function, "work") && f.TotalMs >= prof.Self[0].SelfMs
	}) {
		t.Fatalf("top by total time %+v, want work with at least hot's time", prof.Total)
	}
	status, raw := h.send(h.request("GET", "/api/debug/"+s.ID+"/"+strings.TrimPrefix(prof.Download, "GET "), nil))
	var file map[string]json.RawMessage
	if err := json.Unmarshal(raw, &file); status != http.StatusOK || err != nil {
		t.Fatalf("download: %d %v", status, err)
	}
	for _, key := range []string{"nodes", "startTime", "endTime", "samples", "timeDeltas"} {
		if _, ok := file[key]; !ok {
			t.Errorf("the downloaded profile lacks %q", key)
		}
	}
	if e := h.errorOf(h.request("GET", "/api/debug/"+s.ID+"/cpu/profiles/cpu9", nil), http.StatusNotFound); e.Code != "no_such_snapshot" {
		t.Fatalf("unknown profile: %+v", e)
	}
}

// TestDebugCoverage: coverage started before the program runs reports the function it never
// called with a count of 0 and its lines uncovered; uncovered=true keeps only that function.
func TestDebugCoverage(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	id, sc := h.coverRun("coverme.js", "coverlib.js", true)
	wantUsedAndNeverCalled(t, sc)
	// Counts are since the previous take (V8 resets them): stop answers, and collection ends.
	var cov api.CoverageResponse
	h.post(id, "coverage/stop", api.CoverageRequest{File: "coverlib.js"}, &cov)
	if e := h.errorOf(h.request("POST", "/api/debug/"+id+"/coverage/take", api.CoverageRequest{}), http.StatusConflict); e.Code != "not_started" || !strings.Contains(e.Hint, "coverage/start") {
		t.Fatalf("take after stop: %+v", e)
	}
}

// TestDebugHeapSampling: sampling while grow() allocates puts the LeakyThing constructor (or
// grow) at the top allocation site, with a stack that names the caller.
func TestDebugHeapSampling(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	s := h.leak()
	h.post(s.ID, "heap/sampling/start", api.SamplingStartRequest{IntervalBytes: 1024}, nil)
	h.eval(s.ID, "grow(20000)", 0)
	var res api.HeapSampling
	h.post(s.ID, "heap/sampling/stop", api.SamplingStopRequest{Top: 3}, &res)
	if len(res.Sites) == 0 || res.Sites[0].File != "leak.js" || !slices.Contains([]string{"LeakyThing", "globalThis.grow", "grow"}, res.Sites[0].Function) {
		t.Fatalf("sites %+v, want the allocating function in leak.js first", res.Sites)
	}
	if len(res.Sites[0].Stack) == 0 || !strings.Contains(res.Sites[0].Stack[0], "leak.js:") {
		t.Fatalf("site stack %+v", res.Sites[0].Stack)
	}
	if e := h.errorOf(h.request("POST", "/api/debug/"+s.ID+"/heap/sampling/stop", api.SamplingStopRequest{}), http.StatusConflict); e.Code != "not_started" {
		t.Fatalf("stop twice: %+v", e)
	}
}

// leakyID is the heap object id of a LeakyThing in a snapshot's summary.
func leakyID(t *testing.T, sn api.SnapshotInfo) int64 {
	t.Helper()
	for _, c := range sn.Classes {
		if c.Name == "LeakyThing" && len(c.IDs) > 0 {
			return c.IDs[0]
		}
	}
	t.Fatalf("no LeakyThing ids in %+v", sn.Classes)
	return 0
}
