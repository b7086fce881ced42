package tests

import (
	"net/http"
	"strings"
	"testing"

	"traced/api"
)

// TestLeakReport: one call (begin, 300 requests, end) names the leak: the first cluster is the
// listener closures (or the sessions they hold), accumulating in the bus's settings listeners,
// and the report stays within ~2 KB; the retainers of the Session class say the same path; a
// load that keeps nothing reports no cluster near its iteration count.
func TestLeakReport(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	s := h.start(api.StartRequest{Target: "leaks/bus.js", Mode: "debug"})
	h.waitFor(s.ID, 0, "console")
	var rep api.LeakReport
	if st := h.call("POST", "/api/debug/"+s.ID+"/heap/leak", api.LeakEndRequest{Expression: "handle()", Iterations: 300}, &rep); st != http.StatusOK {
		t.Fatalf("leak: status %d", st)
	}
	if len(rep.Clusters) == 0 {
		t.Fatalf("no clusters: %+v", rep)
	}
	c := rep.Clusters[0]
	if c.Count < 300 || !strings.Contains(c.Pinch+c.Path, "settings") || c.PerIteration < 1 {
		t.Fatalf("first cluster %+v, want >= 300 objects accumulating in the bus's settings listeners\n%s", c, rep.Text)
	}
	if len(rep.Text) > 2200 || !strings.Contains(rep.Text, "settings") {
		t.Fatalf("text (%d bytes):\n%s", len(rep.Text), rep.Text)
	}
	t.Logf("report (%d bytes):\n%s", len(rep.Text), rep.Text)

	var an api.HeapAnalysis
	if st := h.call("POST", "/api/debug/"+s.ID+"/heap/retainers", api.HeapRetainersRequest{Snapshot: rep.End, Class: "Session"}, &an); st != http.StatusOK {
		t.Fatalf("retainers: status %d", st)
	}
	if !strings.Contains(an.Text, "settings") || !strings.Contains(an.Text, "Session") {
		t.Fatalf("retainers of Session:\n%s", an.Text)
	}
	t.Logf("retainers (%d bytes):\n%s", len(an.Text), an.Text)

	// traced's own refs are counted apart in the heap usage, and let go with DELETE refs.
	var usage api.HeapUsage
	defer func() {
		h.call("DELETE", "/api/debug/"+s.ID+"/refs", nil, nil)
		h.call("GET", "/api/debug/"+s.ID+"/heap/usage", nil, &usage)
		if usage.HeldByTraced != 0 {
			t.Errorf("after DELETE refs, heldByTraced %d, want 0", usage.HeldByTraced)
		}
	}()
	// A live value's retainers: the ref an eval gave, in a snapshot taken for the question.
	var fn api.EvalResult
	h.call("POST", "/api/debug/"+s.ID+"/eval", api.EvalRequest{Expression: "handle"}, &fn)
	var live api.HeapAnalysis
	if st := h.call("POST", "/api/debug/"+s.ID+"/heap/retainers", api.HeapRetainersRequest{Ref: fn.Ref}, &live); st != http.StatusOK ||
		!strings.Contains(live.Text, ".handle") { // global.handle; node 26 names the global object otherwise
		t.Fatalf("retainers of %s (%q): status %d\n%s", fn.Ref, fn.Value, st, live.Text)
	}
	if h.call("GET", "/api/debug/"+s.ID+"/heap/usage", nil, &usage); usage.HeldByTraced < 1 || usage.BackingStore == 0 && usage.Used == 0 {
		t.Fatalf("heap usage %+v, want the o ref counted as held by traced", usage)
	}

	var control api.LeakReport
	if st := h.call("POST", "/api/debug/"+s.ID+"/heap/leak", api.LeakEndRequest{Expression: "noleak()", Iterations: 300}, &control); st != http.StatusOK {
		t.Fatalf("control: status %d", st)
	}
	for _, c := range control.Clusters {
		if c.Count >= 100 {
			t.Fatalf("control program: cluster %+v, want nothing near its 300 iterations\n%s", c, control.Text)
		}
	}
	var bad api.ErrorBody
	if st := h.call("POST", "/api/debug/"+s.ID+"/heap/leak/end", api.LeakEndRequest{}, &bad); st != http.StatusConflict && st != http.StatusBadRequest {
		t.Fatalf("end without begin: status %d %+v", st, bad)
	}
}

// TestLeakKinds: each kind of leak is named by the report's first cluster, with the path through
// the collection that accumulates it and, sampled, where the objects were allocated.
func TestLeakKinds(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	s := h.start(api.StartRequest{Target: "leaks/kinds.js", Mode: "debug"})
	h.waitFor(s.ID, 0, "console")
	cases := []struct {
		fn, path string // the leaking function, and what the first cluster's path or pinch says
	}{
		{"leakEmitter", "_events.change"},
		{"leakMap", "cache"},
		{"leakInterval", "Timeout"},
		{"leakArray", "logLines[i]"},
		{"leakContext", "Promise"},
		{"leakBuffers", "frames[i]"},
	}
	for _, c := range cases {
		t.Run(c.fn, func(t *testing.T) {
			var rep api.LeakReport
			if st := h.call("POST", "/api/debug/"+s.ID+"/heap/leak", api.LeakEndRequest{Expression: c.fn + "()", Iterations: 200}, &rep); st != http.StatusOK {
				t.Fatalf("leak: status %d", st)
			}
			if len(rep.Clusters) == 0 {
				t.Fatalf("no clusters:\n%s", rep.Text)
			}
			first := rep.Clusters[0]
			if first.Count < 200 || !strings.Contains(first.Path+" "+first.Pinch, c.path) {
				t.Fatalf("first cluster %+v, want >= 200 objects held through %q\n%s", first, c.path, rep.Text)
			}
			if !strings.Contains(rep.Text, "leaks/kinds.js:") {
				t.Errorf("no allocation site in kinds.js:\n%s", rep.Text)
			}
			t.Logf("%s (%d bytes): %s", c.fn, len(rep.Text), strings.SplitN(rep.Text, "\n", 4)[1])
		})
	}
}
