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
