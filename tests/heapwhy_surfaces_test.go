package tests

import (
	"net/http"
	"testing"

	"traced/api"
)

// TestLeakWindowsPerService: a leak window belongs to the service it was opened in. Session ids
// repeat across services (both first sessions here are s1), so a window kept by session id in
// the process let one service's end close the other's window.
func TestLeakWindowsPerService(t *testing.T) {
	t.Parallel()
	h1, h2 := newHarness(t), newHarness(t)
	s1 := h1.start(api.StartRequest{Target: "leaks/bus.js", Mode: "debug"})
	s2 := h2.start(api.StartRequest{Target: "leaks/bus.js", Mode: "debug"})
	h1.waitFor(s1.ID, 0, "console")
	h2.waitFor(s2.ID, 0, "console")
	if s1.ID != s2.ID {
		t.Logf("the services named their sessions %s and %s: the windows could not collide by id anyway", s1.ID, s2.ID)
	}
	var began api.LeakBeginResponse
	if st := h1.call("POST", "/api/debug/"+s1.ID+"/heap/leak/begin", nil, &began); st != http.StatusOK {
		t.Fatalf("begin in the first service: status %d", st)
	}
	if e := h2.errorOf(h2.request("POST", "/api/debug/"+s2.ID+"/heap/leak/end", api.LeakEndRequest{}), http.StatusConflict); e.Code != "not_started" {
		t.Errorf("end in the second service: %+v, want not_started", e)
	}
	var rep api.LeakReport
	if st := h1.call("POST", "/api/debug/"+s1.ID+"/heap/leak/end", api.LeakEndRequest{}, &rep); st != http.StatusOK || rep.Begin != began.Snapshot {
		t.Fatalf("end in the first service: status %d, began at %q, want %q", st, rep.Begin, began.Snapshot)
	}
}
