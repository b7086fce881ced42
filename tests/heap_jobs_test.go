package tests

import (
	"encoding/json"
	"net/http"
	"strconv"
	"strings"
	"testing"

	"traced/api"
)

// startJob posts a long operation with waitMs 1 and expects the 202 that names its job.
func (h *harness) startJob(id, route string, body any) api.JobResponse {
	h.t.Helper()
	var job api.JobResponse
	if code := h.call("POST", "/api/debug/"+id+"/"+route, body, &job); code != http.StatusAccepted {
		h.t.Fatalf("%s with waitMs 1: status %d, want 202", route, code)
	}
	return job
}

// waitJob long-polls a job until it has ended, failing at the deadline.
func (h *harness) waitJob(url string) api.JobResponse {
	h.t.Helper()
	var job api.JobResponse
	if code := h.call("GET", url+"?waitMs="+strconv.FormatInt(deadline.Milliseconds(), 10), nil, &job); code != http.StatusOK {
		h.t.Fatalf("GET %s: status %d", url, code)
	}
	if job.Status == "running" {
		h.t.Fatalf("job %s still running after %s: %+v", url, deadline, job)
	}
	return job
}

// resultAs decodes a done job's result.
func resultAs[T any](t *testing.T, job api.JobResponse) T {
	t.Helper()
	var out T
	raw, err := json.Marshal(job.Result)
	if err == nil {
		err = json.Unmarshal(raw, &out)
	}
	if err != nil {
		t.Fatalf("job result %+v: %v", job.Result, err)
	}
	return out
}

// TestDebugHeapSnapshotJob: a snapshot asked with waitMs 1 answers 202 with its job; the job
// runs on (a second snapshot meanwhile is refused as busy, naming it), and polling it gives the
// summary the 201 would have given. An unknown job answers 404 with a hint.
func TestDebugHeapSnapshotJob(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	s := h.leak()
	h.eval(s.ID, "grow(200000)", 0)
	one := int64(1)
	job := h.startJob(s.ID, "heap/snapshot", api.SnapshotRequest{Tag: "big", WaitMs: &one})
	if job.Job != "j1" || job.Op != "heap-snapshot" || job.Status != "running" || job.URL != "/api/debug/"+s.ID+"/jobs/j1" {
		t.Fatalf("202 answer %+v", job)
	}
	status, raw := h.send(h.request("POST", "/api/debug/"+s.ID+"/heap/snapshot", api.SnapshotRequest{}))
	switch status {
	case http.StatusConflict:
		var e api.ErrorBody
		if json.Unmarshal(raw, &e) != nil || e.Error.Code != "busy" || !strings.Contains(e.Error.Hint, job.URL) {
			t.Fatalf("a second snapshot while j1 runs: %s", raw)
		}
	case http.StatusCreated: // j1 ended first: nothing was running to refuse it
		t.Logf("j1 finished before the second snapshot was asked")
	default:
		t.Fatalf("a second snapshot while j1 runs: %d %s", status, raw)
	}

	done := h.waitJob(job.URL)
	if done.Status != "done" || done.Error != nil {
		t.Fatalf("job ended %+v", done)
	}
	sn := resultAs[api.SnapshotInfo](t, done)
	if sn.Ref != "hs1" || sn.Tag != "big" || len(sn.Classes) == 0 || sn.Download != "GET heap/snapshots/hs1" {
		t.Fatalf("job result %+v", sn)
	}
	if p := done.Progress; p == nil || !p.Finished || p.Ref != "hs1" {
		t.Fatalf("job progress %+v, want hs1's walk finished", p)
	}
	var leaky *api.HeapClass
	for i := range sn.Classes {
		if sn.Classes[i].Name == "LeakyThing" {
			leaky = &sn.Classes[i]
		}
	}
	if leaky == nil || leaky.Count != 200000 {
		t.Fatalf("LeakyThing in the job's summary %+v", leaky)
	}

	// A diff through the same path: absent waitMs waits, so the answer is the diff itself.
	var diff api.HeapDiff
	h.post(s.ID, "heap/diff", api.HeapDiffRequest{From: "big", To: "hs1"}, &diff)
	if diff.From != "hs1" || diff.To != "hs1" || len(diff.Classes) != 0 {
		t.Fatalf("diff of a snapshot with itself %+v", diff)
	}
	e := h.errorOf(h.request("GET", "/api/debug/"+s.ID+"/jobs/j99", nil), http.StatusNotFound)
	if e.Code != "no_such_job" || !strings.Contains(e.Hint, "heap/snapshot") {
		t.Fatalf("unknown job: %+v", e)
	}
}

// TestDebugHeapJobEndsWithSession: a snapshot job still running when its session is stopped
// ends with it: failed with code finished (or done, had it won the race), never left running.
func TestDebugHeapJobEndsWithSession(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	s := h.leak()
	h.eval(s.ID, "grow(200000)", 0)
	one := int64(1)
	job := h.startJob(s.ID, "heap/snapshot", api.SnapshotRequest{WaitMs: &one})
	h.call("POST", "/api/trace/stop", api.StopRequest{ID: s.ID}, nil)
	ended := h.waitJob(job.URL)
	switch {
	case ended.Status == "failed" && ended.Error != nil && ended.Error.Code == "finished":
	case ended.Status == "done":
		t.Logf("the snapshot finished before the stop")
	default:
		t.Fatalf("job after the session ended: %+v %+v", ended, ended.Error)
	}
}

// TestDebugHeapTracking: allocation tracking around grow(1000) on the leak fixture; the stop
// takes a snapshot like any other (hs1, summarised: the 1000 LeakyThing objects) whose file
// carries the allocation traces. A stop without a start is 409 not_started.
func TestDebugHeapTracking(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	s := h.leak()
	stop := h.request("POST", "/api/debug/"+s.ID+"/heap/tracking/stop", api.TrackingStopRequest{})
	if e := h.errorOf(stop, http.StatusConflict); e.Code != "not_started" || !strings.Contains(e.Hint, "heap/tracking/start") {
		t.Fatalf("stop before a start: %+v", e)
	}
	var started api.TrackingStartResponse
	h.post(s.ID, "heap/tracking/start", struct{}{}, &started)
	if !started.Tracking {
		t.Fatalf("tracking/start answered %+v", started)
	}
	h.eval(s.ID, "grow(1000)", 0)
	var sn api.SnapshotInfo
	if code := h.call("POST", "/api/debug/"+s.ID+"/heap/tracking/stop", api.TrackingStopRequest{Tag: "tracked"}, &sn); code != http.StatusCreated {
		t.Fatalf("tracking/stop: %d", code)
	}
	if sn.Ref != "hs1" || sn.Tag != "tracked" || !slicesContainsClass(sn.Classes, "LeakyThing", 1000) {
		t.Fatalf("tracking/stop snapshot %+v, want hs1 with 1000 LeakyThing", sn)
	}
	if p := h.trace(s.ID, "progress").Events; len(p) == 0 || !p[len(p)-1].Progress.Finished || p[0].Progress.Ref != "hs1" {
		t.Fatalf("progress of the tracking snapshot: %+v", p)
	}
	status, raw := h.send(h.request("GET", "/api/debug/"+s.ID+"/heap/snapshots/hs1", nil))
	var file struct {
		Functions []json.RawMessage `json:"trace_function_infos"`
		Tree      []json.RawMessage `json:"trace_tree"`
	}
	if err := json.Unmarshal(raw, &file); status != http.StatusOK || err != nil || len(file.Functions) == 0 || len(file.Tree) == 0 {
		t.Fatalf("download: %d %v; %d trace functions, trace tree %d long, want allocation traces", status, err, len(file.Functions), len(file.Tree))
	}
	if e := h.errorOf(h.request("POST", "/api/debug/"+s.ID+"/heap/tracking/stop", api.TrackingStopRequest{}), http.StatusConflict); e.Code != "not_started" {
		t.Fatalf("a second stop: %+v", e)
	}
}

func slicesContainsClass(classes []api.HeapClass, name string, count int) bool {
	for _, c := range classes {
		if c.Name == name && c.Count == count {
			return true
		}
	}
	return false
}
