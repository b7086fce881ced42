package tests

import (
	"context"
	"net/http"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"traced/api"
	"traced/internal/service"
)

// Original lines of tests/testdata/ts/src (see its README).
const (
	tsThrow    = 9  // service.ts: throw new Error(...)
	tsValidate = 9  // app.ts: const doubled = validate(o);
	tsMainCall = 27 // app.ts: main();
	tsBlank    = 4  // app.ts: the declare line, no code
)

// tsTrace runs a TypeScript fixture to its end in a trace session and returns its exception.
func tsTrace(t *testing.T, h *harness, entry string) (api.Summary, *api.ExceptionInfo) {
	t.Helper()
	return tsTraceIn(t, h, entry, "ts")
}

// tsTraceIn is tsTrace with entry relative to cwd.
func tsTraceIn(t *testing.T, h *harness, entry, cwd string) (api.Summary, *api.ExceptionInfo) {
	t.Helper()
	s := h.start(api.StartRequest{Target: entry, Cwd: cwd})
	h.waitExit(s.ID)
	exc := h.trace(s.ID, "exception").Events
	if len(exc) != 1 {
		t.Fatalf("%s: %d exceptions, want 1", entry, len(exc))
	}
	return s, exc[0].Exception
}

func TestSourceMapExceptionIsOriginal(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	for _, entry := range []string{"dist/app.js", "dist-inline/app.js", "bundle/app.js", "esm/app.mjs"} {
		t.Run(entry, func(t *testing.T) {
			h := h.with(t)
			s, x := tsTrace(t, h, entry)
			if x.File != "src/service.ts" || x.Line != tsThrow || x.Generated == nil || path.Dir(x.Generated.File) != path.Dir(entry) {
				t.Fatalf("exception at %s:%d (generated %+v), want src/service.ts:%d beside a file of %s", x.File, x.Line, x.Generated, tsThrow, path.Dir(entry))
			}
			// Each frame maps to its own original file, the bundle's included.
			want := []string{"src/service.ts:9", "src/app.ts:9", "src/app.ts:23", "src/app.ts:27"}
			for i, w := range want {
				if i >= len(x.Stack) || x.Stack[i].Where() != w || x.Stack[i].Generated == nil {
					t.Fatalf("stack %v, want it to start %v", wheres(x.Stack), want)
				}
			}
			var ev api.EvidenceResponse
			h.call("GET", "/api/trace/evidence?id="+s.ID, nil, &ev)
			if ev.Evidence == nil || ev.Evidence.Failure.Location == nil || ev.Evidence.Failure.Location.Where() != "src/service.ts:9" {
				t.Fatalf("evidence failure %+v", ev.Evidence)
			}
			console := h.trace(s.ID, "console").Events
			if len(console) == 0 || console[0].Console.Frame.Where() != "src/app.ts:18" {
				t.Fatalf("console call site %+v, want src/app.ts:18", console[0].Console.Frame)
			}
		})
	}
}

func wheres(frames []api.Frame) []string {
	out := make([]string, len(frames))
	for i, f := range frames {
		out[i] = f.Where()
	}
	return out
}

func TestSourceMapOnTheStream(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	ctx, cancel := context.WithTimeout(context.Background(), deadline)
	defer cancel()
	conn, _ := h.dialStream(ctx, "")
	s := h.start(api.StartRequest{Target: "dist/app.js", Cwd: "ts"})
	for _, ev := range collectUntilExit(ctx, t, conn, s.ID) {
		if ev.Kind == api.KindException {
			if ev.Exception.File != "src/service.ts" || ev.Exception.Line != tsThrow {
				t.Fatalf("streamed exception at %s:%d", ev.Exception.File, ev.Exception.Line)
			}
			return
		}
	}
	t.Fatal("no exception on the stream")
}

func TestSourceMapBrokenDegrades(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	for _, c := range []struct{ entry, reason string }{
		{"corrupt/app.js", "invalid source map"},
		{"missing/app.js", "does not exist"},
	} {
		t.Run(c.entry, func(t *testing.T) {
			h := h.with(t)
			_, x := tsTrace(t, h, c.entry)
			if x.File != c.entry || x.Generated != nil {
				t.Fatalf("exception at %s:%d generated %+v, want the generated %s", x.File, x.Line, x.Generated, c.entry)
			}
			s := h.debug(api.StartRequest{Target: c.entry, Cwd: "ts", PauseOnStart: true})
			h.waitPaused(s.ID, 0)
			var maps api.SourceMapsResponse
			if st := h.call("GET", "/api/debug/"+s.ID+"/sourcemap?file="+c.entry, nil, &maps); st != http.StatusOK {
				t.Fatalf("sourcemap: %d", st)
			}
			if len(maps.Scripts) != 1 || maps.Scripts[0].Status != "failed" || !strings.Contains(maps.Scripts[0].Reason, c.reason) {
				t.Fatalf("status %+v, want failed: %s", maps.Scripts, c.reason)
			}
		})
	}
}

func TestSourceMapBreakpointBeforeStart(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	// service.ts is loaded by a require after the start: the breakpoint waits, then binds.
	s := h.debug(api.StartRequest{Target: "dist/app.js", Cwd: "ts", Breakpoints: api.BreakpointsAt("src/service.ts:8", "src/app.ts:9")})
	st, _ := h.waitPaused(s.ID, 0)
	if st.Location == nil || st.Location.Where() != "src/app.ts:9" || st.Location.Generated == nil || st.Location.Generated.File != "dist/app.js" {
		t.Fatalf("paused at %+v, want src/app.ts:9 beside dist/app.js", st.Location)
	}
	if local(t, st, "o").Value == "" || !hasLine(st.Source, tsValidate, "const doubled = validate(o);") {
		t.Fatalf("state source %+v, want the TypeScript line", st.Source)
	}
	st = h.exec(s.ID, "continue", api.ContinueRequest{})
	if st.Location == nil || st.Location.Where() != "src/service.ts:8" || st.Location.Function != "validate" {
		t.Fatalf("second pause at %+v, want validate at src/service.ts:8", st.Location)
	}
	if !strings.Contains(sourceText(st.Source), "if (order.qty <= 0)") {
		t.Fatalf("service source %+v", st.Source)
	}
	var bps api.BreakpointsResponse
	h.call("GET", "/api/debug/"+s.ID+"/breakpoints", nil, &bps)
	for _, bp := range bps.Breakpoints {
		if bp.Pending || len(bp.Resolved) != 1 || !strings.HasPrefix(bp.Resolved[0].File, "src/") {
			t.Fatalf("breakpoint %+v, want bound at its TypeScript line", bp)
		}
	}
	if evs := h.trace(s.ID, "breakpoint").Events; len(evs) == 0 || evs[len(evs)-1].Breakpoint.Location.Where() != "src/service.ts:8" {
		t.Fatalf("breakpoint events %+v", evs)
	}
}

func hasLine(lines []api.SourceLine, n int, text string) bool {
	for _, l := range lines {
		if l.Line == n && strings.TrimSpace(l.Text) == text {
			return true
		}
	}
	return false
}

func sourceText(lines []api.SourceLine) string {
	var b strings.Builder
	for _, l := range lines {
		b.WriteString(l.Text + "\n")
	}
	return b.String()
}

func TestSourceMapStepByTypeScriptLines(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	s := h.debug(api.StartRequest{Target: "dist/app.js", Cwd: "ts", Breakpoints: api.BreakpointsAt("src/app.ts:16")})
	st, _ := h.waitPaused(s.ID, 0)
	if st.Location == nil || st.Location.Where() != "src/app.ts:16" {
		t.Fatalf("paused at %+v", st.Location)
	}
	for _, want := range []int{17, 18, 19, 22, 23} {
		st = h.exec(s.ID, "step", api.StepRequest{Kind: "over"})
		if st.Location == nil || st.Location.File != "src/app.ts" || st.Location.Line != want {
			t.Fatalf("step over: at %+v, want src/app.ts:%d", st.Location, want)
		}
	}
}

func TestSourceMapBundleBreakpointAndRunTo(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	s := h.debug(api.StartRequest{Target: "bundle/app.js", Cwd: "ts", PauseOnStart: true})
	h.waitPaused(s.ID, 0)
	// Loaded now: it binds at once, in the bundle.
	bp := h.setBreakpoint(s.ID, api.BreakpointRequest{Location: "src/service.ts:11"})
	if bp.Pending || len(bp.Resolved) != 1 || bp.Resolved[0].Where() != "src/service.ts:11" || bp.Resolved[0].Generated.File != "bundle/app.js" {
		t.Fatalf("breakpoint %+v", bp)
	}
	e := h.errorOf(h.request("POST", "/api/debug/"+s.ID+"/breakpoints", api.BreakpointRequest{Location: "src/app.ts:4"}), http.StatusBadRequest)
	if e.Code != "not_breakable" || !strings.Contains(e.Message, "source map") {
		t.Fatalf("unmapped line: %+v", e)
	}
	var br api.BreakableResponse
	if code := h.call("GET", "/api/debug/"+s.ID+"/breakable?location=src/app.ts:4-9", nil, &br); code != http.StatusOK {
		t.Fatalf("breakable: %d", code)
	}
	var lines []int
	for _, l := range br.Lines {
		lines = append(lines, l.Line)
	}
	if !slices.Contains(lines, 7) || !slices.Contains(lines, 9) || slices.Contains(lines, tsBlank) {
		t.Fatalf("breakable TypeScript lines %v, want 7 and 9, not %d", lines, tsBlank)
	}
	st := h.exec(s.ID, "run-to", api.RunToRequest{Location: "src/app.ts:17"})
	if st.Location == nil || st.Location.Where() != "src/app.ts:17" {
		t.Fatalf("run-to paused at %+v", st.Location)
	}
	var view api.SourceView
	if code := h.call("GET", "/api/debug/"+s.ID+"/source?file=src/service.ts&line=9&lines=1", nil, &view); code != http.StatusOK || view.File != "src/service.ts" || !hasLine(view.Lines, 9, "throw new Error(`invalid quantity ${order.qty} for order ${order.id}`); // THROW") {
		t.Fatalf("source view %d %+v", code, view)
	}
	var maps api.SourceMapsResponse
	h.call("GET", "/api/debug/"+s.ID+"/sourcemap?file=src/app.ts", nil, &maps)
	if !maps.Enabled || len(maps.Scripts) != 1 || maps.Scripts[0].Status != "loaded" || strings.Join(maps.Scripts[0].Sources, ",") != "src/service.ts,src/app.ts" {
		t.Fatalf("sourcemap status %+v", maps)
	}
	// Switched off, positions are the generated ones again.
	var sw api.SourceMapSwitchResponse
	if code := h.call("POST", "/api/debug/"+s.ID+"/sourcemap", map[string]any{"enabled": false}, &sw); code != http.StatusOK || sw.Enabled {
		t.Fatalf("switch off: %d %+v", code, sw)
	}
	if st := h.state(s.ID, ""); st.Location == nil || st.Location.File != "bundle/app.js" || st.Location.Generated != nil {
		t.Fatalf("mapping off: at %+v", st.Location)
	}
}

func TestSourceMapCoverageLines(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	s := h.debug(api.StartRequest{Target: "dist/app.js", Cwd: "ts", Args: []string{"good"}, PauseOnStart: true})
	h.waitPaused(s.ID, 0)
	h.post(s.ID, "coverage/start", api.CoverageStartRequest{Detailed: true}, nil)
	// Stop at main's early return: with "good" the bad batch (22-24) never runs.
	h.setBreakpoint(s.ID, api.BreakpointRequest{Location: "src/app.ts:20"})
	if st := h.exec(s.ID, "continue", api.ContinueRequest{}); st.Location == nil || st.Location.Where() != "src/app.ts:20" {
		t.Fatalf("paused at %+v", st.Location)
	}
	var cov api.CoverageResponse
	h.post(s.ID, "coverage/take", api.CoverageRequest{File: "src/app.ts"}, &cov)
	if len(cov.Scripts) != 1 || cov.Scripts[0].File != "src/app.ts" || cov.Scripts[0].Generated != "dist/app.js" {
		t.Fatalf("coverage %+v, want src/app.ts alone, from dist/app.js", cov)
	}
	sc := cov.Scripts[0]
	if !slices.Contains(sc.Functions, api.FunctionCoverage{Function: "total", Line: 6, Count: 1}) {
		t.Errorf("functions %+v, want total at line 6 run once", sc.Functions)
	}
	bad := slices.ContainsFunc(sc.Uncovered, func(r api.LineRange) bool { return r.Start <= 22 && r.End >= 24 })
	ran := slices.ContainsFunc(sc.Uncovered, func(r api.LineRange) bool { return r.Start <= 17 && r.End >= 17 })
	if !bad || ran {
		t.Errorf("uncovered %+v, want 22-24 in a range and 17 in none", sc.Uncovered)
	}
}

// TestSourceMapPendingInESMAndLogpoint: an ES module bundle binds a waiting breakpoint too, and a
// logpoint on a TypeScript line logs from the generated code.
func TestSourceMapPendingInESMAndLogpoint(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	s := h.debug(api.StartRequest{Target: "esm/app.mjs", Cwd: "ts", PauseOnStart: true})
	h.waitPaused(s.ID, 0)
	lp := h.setLogpoint(s.ID, api.LogpointRequest{Location: "src/app.ts:10", Template: "sum ${sum} + ${doubled}"})
	if len(lp.Resolved) == 0 || lp.Resolved[0].Where() != "src/app.ts:10" {
		t.Fatalf("logpoint %+v", lp)
	}
	h.setBreakpoint(s.ID, api.BreakpointRequest{Location: "src/service.ts:11"})
	st := h.exec(s.ID, "continue", api.ContinueRequest{})
	if st.Location == nil || st.Location.Where() != "src/service.ts:11" || st.Location.Generated == nil || st.Location.Generated.File != "esm/app.mjs" {
		t.Fatalf("paused at %+v", st.Location)
	}
	h.exec(s.ID, "continue", api.ContinueRequest{}) // the second order
	h.exec(s.ID, "continue", api.ContinueRequest{}) // into the bad batch
	em := h.emissions(s.ID)
	if len(em) < 2 || em[0].Text.Value != "sum 0 + 2" || em[1].Text.Value != "sum 2 + 4" {
		t.Fatalf("logpoint emissions %+v", em)
	}
}

// TestSourceMapPendingBreakpoint: set before its module loads, a TypeScript breakpoint waits
// (pending), then binds when the module loads, before its code runs.
func TestSourceMapPendingBreakpoint(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	s := h.debug(api.StartRequest{Target: "dist/app.js", Cwd: "ts", PauseOnStart: true})
	h.waitPaused(s.ID, 0)
	bp := h.setBreakpoint(s.ID, api.BreakpointRequest{Location: "src/service.ts:11"})
	if !bp.Pending || len(bp.Resolved) != 0 {
		t.Fatalf("breakpoint %+v, want pending: service.js is not loaded", bp)
	}
	st := h.exec(s.ID, "continue", api.ContinueRequest{})
	if st.Location == nil || st.Location.Where() != "src/service.ts:11" {
		t.Fatalf("paused at %+v", st.Location)
	}
	e := h.errorOf(h.request("POST", "/api/debug/"+s.ID+"/breakpoints", api.BreakpointRequest{Location: "src/service.ts:2"}), http.StatusBadRequest)
	if e.Code != "not_breakable" {
		t.Fatalf("interface line: %+v", e)
	}
}

// TestSourceMapFixedBetweenRuns: a map that was missing is read again by the next run, though
// the script did not change.
func TestSourceMapFixedBetweenRuns(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	h := newHarness(t, func(o *service.Options) { o.Engine.Root = root })
	copyFile(t, "testdata/ts/missing/app.js", filepath.Join(root, "app.js"))
	if _, x := tsTraceIn(t, h, "app.js", ""); x.File != "app.js" {
		t.Fatalf("first run, no map: exception at %s:%d", x.File, x.Line)
	}
	copyFile(t, "testdata/ts/bundle/app.js.map", filepath.Join(root, "gone.js.map"))
	if _, x := tsTraceIn(t, h, "app.js", ""); x.Generated == nil || !strings.HasSuffix(x.File, "service.ts") {
		t.Fatalf("second run, map in place: exception at %s:%d, want service.ts", x.File, x.Line)
	}
}
