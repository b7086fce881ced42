package tests

import (
	"net/http"
	"os"
	"slices"
	"strings"
	"testing"

	"traced/api"
)

// nodeFeatures reads what the service's node can do.
func (h *harness) nodeFeatures() api.NodeFeatures {
	h.t.Helper()
	var st api.StatusResponse
	h.call("GET", "/api/trace/status", nil, &st)
	if st.Node.Features == nil {
		h.t.Fatalf("status without node features: %+v", st.Node)
	}
	return *st.Node.Features
}

// TestDebugRestartCarriesSettings: edit the file, restart, and the new run stands at the same
// breakpoint in the new code, under the same name, with every debugger setting carried over;
// the old run is stopped, keeps its id and names the new one.
func TestDebugRestartCarriesSettings(t *testing.T) {
	t.Parallel()
	h, path := patchWorkspace(t)
	old := h.debug(api.StartRequest{Target: "patchme.js", Name: "job", PauseOnExceptions: "uncaught",
		Breakpoints: api.BreakpointsAt("patchme.js:3")})
	h.waitPaused(old.ID, 0)
	var bp api.BreakpointResponse
	if code := h.call("POST", "/api/debug/job/breakpoints", api.BreakpointRequest{Location: "patchme.js:5", Condition: "true", HitCount: 2}, &bp); code != http.StatusCreated {
		t.Fatalf("second breakpoint: %d", code)
	}
	off := false
	h.post("job", "breakpoints/"+bp.Breakpoint.Ref+"/toggle", api.ToggleRequest{Enabled: &off}, nil)
	if code := h.call("POST", "/api/debug/job/logpoints", api.LogpointRequest{Location: "patchme.js:6", Template: "tick", Max: 7}, nil); code != http.StatusCreated {
		t.Fatalf("logpoint: %d", code)
	}
	h.call("POST", "/api/debug/job/blackbox", api.BlackboxRequest{Patterns: []string{"/node_modules/"}}, nil)

	fixed := strings.Replace(readFile(t, path), "a - b", "a + b", 1)
	if err := os.WriteFile(path, []byte(fixed), 0o644); err != nil {
		t.Fatal(err)
	}
	var res api.RestartResponse
	if code := h.call("POST", "/api/debug/job/restart", api.RestartRequest{}, &res); code != http.StatusOK {
		t.Fatalf("restart: %d", code)
	}
	s := res.Session
	h.stopAtCleanup(s.ID)
	if s.ID == old.ID || s.Name != "job" || s.RestartOf != old.ID || res.Previous != old.ID {
		t.Fatalf("restarted as %+v (previous %q), want a new id named job, restarting %s", s, res.Previous, old.ID)
	}
	wantPausedIn(t, res.State, "patchme.js", "add", 3)
	if !slices.ContainsFunc(res.State.Source, func(l api.SourceLine) bool { return l.Current && strings.Contains(l.Text, "a + b") }) {
		t.Fatalf("source at the first pause: %+v, want the edited line", res.State.Source)
	}

	var bps api.BreakpointsResponse
	h.get("job", "breakpoints", &bps)
	if len(bps.Breakpoints) != 2 || bps.Breakpoints[0].Location != "patchme.js:3" || !bps.Breakpoints[0].Enabled ||
		bps.Breakpoints[1].Condition != "true" || bps.Breakpoints[1].HitCount != 2 || bps.Breakpoints[1].Enabled {
		t.Fatalf("breakpoints after the restart: %+v", bps.Breakpoints)
	}
	if lps := h.logpoints("job"); len(lps) != 1 || lps[0].Template != "tick" || lps[0].Max != 7 {
		t.Fatalf("logpoints after the restart: %+v", lps)
	}
	var bb api.BlackboxResponse
	h.get("job", "blackbox", &bb)
	if !slices.Equal(bb.Patterns, []string{"/node_modules/"}) {
		t.Fatalf("blackbox after the restart: %+v", bb.Patterns)
	}

	// The old run: stopped, nameless, pointing at the new one; its debugger says where it went.
	var list api.ListResponse
	h.call("GET", "/api/trace/list", nil, &list)
	i := slices.IndexFunc(list.Sessions, func(x api.Summary) bool { return x.ID == old.ID })
	if i < 0 || list.Sessions[i].Status != api.StatusStopped || list.Sessions[i].Name != "" || list.Sessions[i].RestartedAs != s.ID {
		t.Fatalf("old session after the restart: %+v", list.Sessions)
	}
	e := h.errorOf(h.request("POST", "/api/debug/"+old.ID+"/continue", api.ContinueRequest{}), http.StatusConflict)
	if e.Code != "finished" || !strings.Contains(e.Message, s.ID) {
		t.Fatalf("continue on the old session: %+v", e)
	}

	// The fix holds: the new run prints the edited sum.
	h.call("DELETE", "/api/debug/job/breakpoints/all", nil, nil)
	h.exec("job", "continue", api.ContinueRequest{WaitMs: new(int64)})
	if text, _ := h.nextSum(s.ID, 0); text != "sum 5" {
		t.Fatalf("first sum of the new run %q, want sum 5", text)
	}
}

// TestDebugRestartRunning: a restart of a program without breakpoints answers a running state
// once waitMs has passed, and a finished session can be restarted too.
func TestDebugRestartRunning(t *testing.T) {
	t.Parallel()
	h, _ := patchWorkspace(t)
	old := h.debug(api.StartRequest{Target: "patchme.js"})
	h.call("POST", "/api/trace/stop", api.StopRequest{ID: old.ID}, nil)
	var res api.RestartResponse
	if code := h.call("POST", "/api/debug/"+old.ID+"/restart", api.RestartRequest{WaitMs: new(int64)}, &res); code != http.StatusOK {
		t.Fatalf("restart of a stopped session: %d", code)
	}
	h.stopAtCleanup(res.Session.ID)
	if res.State.Status != api.StatusRunning || res.Session.Name != "" || res.Session.RestartOf != old.ID {
		t.Fatalf("restart answered %+v", res)
	}
	if text, _ := h.nextSum(res.Session.ID, 0); text != "sum -1" {
		t.Fatalf("new run printed %q", text)
	}
}

// TestDebugHotpatchWithoutLiveEdit: where node has no live edit (26), status says so and a
// hot-patch answers a declared 501 whose hint is the restart; elsewhere it patches.
func TestDebugHotpatchWithoutLiveEdit(t *testing.T) {
	t.Parallel()
	h, _ := patchWorkspace(t)
	s := h.debug(api.StartRequest{Target: "patchme.js"})
	req := h.request("POST", "/api/debug/"+s.ID+"/hotpatch", api.HotpatchRequest{File: "patchme.js", DryRun: true})
	if h.nodeFeatures().LiveEdit {
		if code, body := h.send(req); code != http.StatusOK {
			t.Fatalf("hot-patch where status says live edit works: %d %s", code, body)
		}
		return
	}
	e := h.errorOf(req, http.StatusNotImplemented)
	if e.Code != "live_edit_unavailable" || !strings.Contains(e.Hint, "/restart") {
		t.Fatalf("hot-patch without live edit: %+v", e)
	}
}
