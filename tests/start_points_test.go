package tests

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"traced/api"
)

// TestStartBreakpointObjectsAndLogpoints: a start request's breakpoints take the objects of POST
// breakpoints beside plain strings (a condition, urlRegex with a hit count), and its logpoints
// those of POST logpoints; all are set before the program runs, so the first pause is the
// conditional one. The continues are bare POSTs (no body, no Content-Type), as curl sends them.
func TestStartBreakpointObjectsAndLogpoints(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	s := h.debug(api.StartRequest{
		Target: "debugme.js",
		Breakpoints: []api.StartBreakpoint{
			{Location: "debugme.js:7", Condition: "i === 3"},
			{URLRegex: `debugme\.js$`, Line: 3, HitCount: 4},
			{Location: "debugme.js:16"},
		},
		Logpoints: []api.LogpointRequest{{Location: "debugme.js:9", Template: "v=${value}"}},
	})
	st, _ := h.waitPaused(s.ID, 0)
	wantPausedAt(t, st, "work", lineLabel)
	if i := local(t, st, "i"); i.Value != "3" {
		t.Fatalf("first pause with i = %s, want 3: the condition was not set before the program ran", i.Value)
	}

	bare := func() api.State {
		t.Helper()
		req := h.request("POST", "/api/debug/"+s.ID+"/continue", nil)
		if req.Header.Get("Content-Type") != "" || req.ContentLength != 0 {
			t.Fatalf("fixture: the request has a body or a Content-Type")
		}
		status, raw := h.send(req)
		var st api.State
		if status != http.StatusOK || json.Unmarshal(raw, &st) != nil {
			t.Fatalf("bare continue: %d %s", status, raw)
		}
		return st
	}
	st = bare()
	wantPausedAt(t, st, "square", 3) // the fourth call of square: hitCount 4
	if n := local(t, st, "n"); n.Value != "4" {
		t.Fatalf("square paused with n = %s, want 4", n.Value)
	}
	st = bare()
	wantPausedAt(t, st, "", 16)

	var bps api.BreakpointsResponse
	h.call("GET", "/api/debug/"+s.ID+"/breakpoints", nil, &bps)
	var got []string
	for _, bp := range bps.Breakpoints {
		got = append(got, bp.Ref+" "+bp.Location+" "+bp.Condition)
	}
	want := []string{"bp1 debugme.js:7 i === 3", `bp2 /debugme\.js$/:3 `, "bp3 debugme.js:16 "}
	if strings.Join(got, "|") != strings.Join(want, "|") || bps.Breakpoints[1].HitCount != 4 {
		t.Fatalf("breakpoints %q (%+v), want %q", got, bps.Breakpoints, want)
	}
	lps := h.logpoints(s.ID)
	if len(lps) != 1 || lps[0].Ref != "lp4" || lps[0].Template != "v=${value}" {
		t.Fatalf("logpoints %+v, want lp4 with its template", lps)
	}
	h.runToEnd(s.ID, 3)
	var texts []string
	for _, e := range h.emissions(s.ID) {
		texts = append(texts, e.Text.Value)
	}
	if strings.Join(texts, " ") != "v=1 v=4 v=9 v=16 v=25" {
		t.Fatalf("logpoint emissions %q, want one per call of work", texts)
	}
}

// TestStartPointsAreChecked: the objects of a start request are held to the rules of POST
// breakpoints and POST logpoints, with the field named, before any process is spawned.
func TestStartPointsAreChecked(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	for _, c := range []struct {
		name, body, inMsg string
	}{
		{"unknown field", `{"breakpoints":[{"location":"debugme.js:7","bogus":1}]}`, `"breakpoints.0"`},
		{"location and urlRegex", `{"breakpoints":[{"location":"debugme.js:7","urlRegex":"x","line":1}]}`, `"breakpoints.0"`},
		{"urlRegex without line", `{"breakpoints":["debugme.js:3",{"urlRegex":"x"}]}`, `"breakpoints.1.line"`},
		{"neither", `{"breakpoints":[{"condition":"true"}]}`, `"breakpoints.0"`},
		{"hitCount 0", `{"breakpoints":[{"location":"debugme.js:7","hitCount":0}]}`, `"breakpoints.0.hitCount"`},
		{"logpoint without template", `{"logpoints":[{"location":"debugme.js:7"}]}`, `"logpoints.0`},
		{"logpoint as a string", `{"logpoints":["debugme.js:7"]}`, `"logpoints.0"`},
		{"logpoint max", `{"logpoints":[{"location":"debugme.js:7","template":"x","max":10001}]}`, `"logpoints.0.max"`},
		{"trace mode", `{"mode":"trace","logpoints":[{"location":"debugme.js:7","template":"x"}]}`, "logpoints"},
		{"one location twice", `{"breakpoints":["debugme.js:9"],"logpoints":[{"location":"debugme.js:9","template":"x"}]}`, "logpoints.0"},
	} {
		t.Run(c.name, func(t *testing.T) {
			h := h.with(t)
			body := `{"target":"debugme.js","mode":"debug",` + strings.TrimPrefix(c.body, "{")
			if strings.Contains(c.body, `"mode"`) {
				body = `{"target":"debugme.js",` + strings.TrimPrefix(c.body, "{")
			}
			e := h.errorOf(h.request("POST", "/api/trace/start", body), http.StatusBadRequest)
			if e.Code != "bad_request" || !strings.Contains(e.Message, c.inMsg) || e.Hint == "" {
				t.Fatalf("error %+v, want bad_request naming %s, with a hint", e, c.inMsg)
			}
		})
	}
	var list api.ListResponse
	h.call("GET", "/api/trace/list", nil, &list)
	if len(list.Sessions) != 0 {
		t.Fatalf("a refused start left sessions: %+v", list.Sessions)
	}
}

// TestPositionsPastInt32: a line or column past what CDP takes (int32) is the caller's error,
// 400 with the field named, wherever a position is given: breakpoints (both forms), logpoints,
// run-to, and the breakpoints and logpoints of a start.
func TestPositionsPastInt32(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	s := h.debug(api.StartRequest{Target: "debugme.js", PauseOnStart: true})
	h.waitPaused(s.ID, 0)
	debug := "/api/debug/" + s.ID
	for _, c := range []struct {
		name, path, body, inMsg string
	}{
		{"breakpoint line", debug + "/breakpoints", `{"location":"debugme.js:99999999999"}`, `"location"`},
		{"breakpoint column", debug + "/breakpoints", `{"location":"debugme.js:7:99999999999"}`, `"location"`},
		{"urlRegex line", debug + "/breakpoints", `{"urlRegex":"debugme","line":99999999999}`, `"line"`},
		{"urlRegex column", debug + "/breakpoints", `{"urlRegex":"debugme","line":7,"column":4294967297}`, `"column"`},
		{"logpoint", debug + "/logpoints", `{"location":"debugme.js:99999999999","template":"x"}`, `"location"`},
		{"run-to", debug + "/run-to", `{"location":"debugme.js:99999999999"}`, `"location"`},
		{"start breakpoint", "/api/trace/start", `{"target":"debugme.js","mode":"debug","breakpoints":["debugme.js:99999999999"]}`, `"breakpoints.0"`},
		{"start breakpoint object", "/api/trace/start", `{"target":"debugme.js","mode":"debug","breakpoints":[{"location":"debugme.js:2147483648"}]}`, `"breakpoints.0.location"`},
		{"start urlRegex", "/api/trace/start", `{"target":"debugme.js","mode":"debug","breakpoints":[{"urlRegex":"x","line":99999999999}]}`, `"breakpoints.0.line"`},
		{"start logpoint", "/api/trace/start", `{"target":"debugme.js","mode":"debug","logpoints":[{"location":"debugme.js:1:99999999999","template":"x"}]}`, `"logpoints.0.location"`},
	} {
		t.Run(c.name, func(t *testing.T) {
			h := h.with(t)
			e := h.errorOf(h.request("POST", c.path, c.body), http.StatusBadRequest)
			if e.Code != "bad_request" || !strings.Contains(e.Message, c.inMsg) {
				t.Fatalf("error %+v, want bad_request naming %s", e, c.inMsg)
			}
		})
	}
	// The largest accepted line is taken, in a script not loaded (where it cannot be refused as
	// not breakable): V8 gets it as an int32.
	bp := h.setBreakpoint(s.ID, api.BreakpointRequest{Location: "clean.js:999999999:999999999"}) // on disk, never loaded
	if bp.Ref == "" || len(bp.Resolved) != 0 {
		t.Fatalf("breakpoint at line 999999999: %+v", bp)
	}
}
