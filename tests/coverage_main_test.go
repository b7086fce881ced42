package tests

import (
	"slices"
	"testing"

	"traced/api"
)

// TestDebugCoverageOfTheMainScript: coverage started at the main script's first-line pause, then
// continue, then take: the main script's functions that never ran are there with their lines.
// Function-level coverage gives the same functions.
func TestDebugCoverageOfTheMainScript(t *testing.T) {
	t.Parallel()
	for _, detailed := range []bool{true, false} {
		t.Run(map[bool]string{true: "blocks", false: "functions"}[detailed], func(t *testing.T) {
			coverMain(t, detailed)
		})
	}
}

func coverMain(t *testing.T, detailed bool) {
	h := newHarness(t)
	_, sc := h.coverRun("covermain.js", "covermain.js", detailed)
	wantUsedAndNeverCalled(t, sc)
}

// coverRun starts target (which logs "used 4" once the used function has run) paused at its
// first line, starts coverage there, lets it run to that line and takes the coverage of file:
// the user's natural order. It returns the session and file's coverage.
func (h *harness) coverRun(target, file string, detailed bool) (string, api.ScriptCoverage) {
	h.t.Helper()
	s := h.debug(api.StartRequest{Target: target, PauseOnStart: true})
	_, seq := h.waitPaused(s.ID, 0)
	h.post(s.ID, "coverage/start", api.CoverageStartRequest{Detailed: detailed}, nil)
	h.exec(s.ID, "continue", api.ContinueRequest{WaitMs: new(int64)})
	if w := h.waitFor(s.ID, seq, "console"); w.Event == nil || w.Event.Console.Text.Value != "used 4" {
		h.t.Fatalf("console %+v", w.Event)
	}
	var cov api.CoverageResponse
	h.post(s.ID, "coverage/take", api.CoverageRequest{File: file}, &cov)
	if len(cov.Scripts) != 1 || cov.Scripts[0].File != file {
		h.t.Fatalf("coverage %+v, want %s alone", cov, file)
	}
	return s.ID, cov.Scripts[0]
}

// wantUsedAndNeverCalled checks the coverage of a fixture with used(), run once from line 2,
// and neverCalled() at lines 5-8.
func wantUsedAndNeverCalled(t *testing.T, sc api.ScriptCoverage) {
	t.Helper()
	for _, f := range []api.FunctionCoverage{{Function: "used", Line: 2, Count: 1}, {Function: "neverCalled", Line: 5, Count: 0}} {
		if !slices.Contains(sc.Functions, f) {
			t.Errorf("functions %+v lack %+v", sc.Functions, f)
		}
	}
	if !slices.Contains(sc.Uncovered, api.LineRange{Start: 5, End: 8}) {
		t.Errorf("uncovered %+v, want lines 5-8", sc.Uncovered)
	}
}
