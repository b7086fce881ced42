package tests

import (
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"testing"

	"traced/api"
	"traced/internal/engine"
)

// TestDebugLogpoint: a logpoint on a line of a 10-iteration loop emits one event per run of the
// line, with its template interpolated in the line's scope, and never pauses the program; a
// condition filters, max disables it at the Max-th emission and says so.
func TestDebugLogpoint(t *testing.T) {
	t.Parallel()
	every := make([]string, 0, 10)
	for i := 1; i <= 10; i++ {
		every = append(every, fmt.Sprintf("i=%d of 10, sum %d", i, i*(i-1)/2)) // sum before the line runs
	}
	for _, c := range []struct {
		name     string
		req      api.LogpointRequest // Location is logloop.js's loop body
		want     []string
		max      int
		disabled bool
	}{
		{"every run", api.LogpointRequest{Template: "i=${i} of ${n}, sum ${sum}"}, every, engine.DefaultLogpointMax, false},
		{"flood guard", api.LogpointRequest{Template: "i=${i}", Max: 3}, []string{"i=1", "i=2", "i=3"}, 3, true},
		{"condition", api.LogpointRequest{Template: "i=${i}", Condition: "i % 3 === 0"}, []string{"i=3", "i=6", "i=9"}, engine.DefaultLogpointMax, false},
		{"condition and max", api.LogpointRequest{Template: "${i}", Condition: "i > 4", Max: 2}, []string{"5", "6"}, 2, true},
		{"quotes and escapes", api.LogpointRequest{Template: "`${i}` \\ ${'x'}", Condition: "i === 1"}, []string{"`1` \\ x"}, engine.DefaultLogpointMax, false},
		{"template throws", api.LogpointRequest{Template: "${nope.x}", Max: 1}, []string{"logpoint error: ReferenceError: nope is not defined"}, 1, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			h := newHarness(t)
			s := h.debug(api.StartRequest{Target: "logloop.js", PauseOnStart: true})
			h.waitPaused(s.ID, 0)
			req := c.req
			req.Location = "logloop.js:" + strconv.Itoa(lineLoopBody)
			lp := h.setLogpoint(s.ID, req)
			if lp.Ref != "lp1" || lp.Location != req.Location || lp.Template != req.Template || lp.Condition != req.Condition ||
				lp.Max != c.max || lp.Emitted != 0 || lp.Disabled || len(lp.Resolved) != 1 || lp.Resolved[0].Line != lineLoopBody {
				t.Fatalf("logpoint %+v, want lp1 with max %d resolved at line %d (the script is loaded)", lp, c.max, lineLoopBody)
			}

			// The program runs to its end: the start was its only pause.
			sum := h.runToEnd(s.ID, 1)
			if sum.Counts[api.KindLogpoint] != len(c.want) {
				t.Errorf("summary counts %d logpoint events, want %d", sum.Counts[api.KindLogpoint], len(c.want))
			}
			var got []string
			for k, e := range h.emissions(s.ID) {
				got = append(got, e.Text.Value)
				if last := k == len(c.want)-1; e.Ref != "lp1" || e.Text.Truncated || e.Disabled != (c.disabled && last) {
					t.Errorf("emission %d: %+v, want ref lp1, disabled only on the last when the guard trips", k+1, e)
				}
			}
			if strings.Join(got, "|") != strings.Join(c.want, "|") {
				t.Fatalf("emitted %q, want %q", got, c.want)
			}
			// A logpoint writes nothing into the program's console.
			if console := h.consoleTexts(s.ID); strings.Join(console, "|") != "sum 55 last 10" {
				t.Errorf("console %q, want only the program's own line", console)
			}
			lps := h.logpoints(s.ID)
			if len(lps) != 1 || lps[0].Ref != "lp1" || lps[0].Emitted != len(c.want) || lps[0].Disabled != c.disabled || lps[0].Max != c.max {
				t.Fatalf("logpoints %+v, want lp1 emitted %d, disabled %v", lps, len(c.want), c.disabled)
			}
		})
	}
}

// TestDebugRemoveLogpoint: DELETE breakpoints/{ref} removes logpoints by ref or alias, and all
// removes both kinds.
func TestDebugRemoveLogpoint(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	s := h.debug(api.StartRequest{Target: "logloop.js", PauseOnStart: true})
	h.waitPaused(s.ID, 0)
	base := "/api/debug/" + s.ID
	lp1 := h.setLogpoint(s.ID, api.LogpointRequest{Location: "logloop.js:" + strconv.Itoa(lineLoopBody), Template: "a${i}"})
	bp := h.setBreakpoint(s.ID, api.BreakpointRequest{Location: "logloop.js:" + strconv.Itoa(lineLoopEnd)})
	lp2 := h.setLogpoint(s.ID, api.LogpointRequest{Location: "logloop.js:" + strconv.Itoa(lineLoopNext), Template: "b${i}"})
	if lp1.Ref != "lp1" || !strings.HasPrefix(bp.Ref, "bp") || !strings.HasPrefix(lp2.Ref, "lp") || lp2.Ref == lp1.Ref {
		t.Fatalf("refs %s, %s and %s, want lp1, a bp ref and another lp ref", lp1.Ref, bp.Ref, lp2.Ref)
	}

	e := h.errorOf(h.request("DELETE", base+"/breakpoints/lp9", nil), http.StatusNotFound)
	if e.Code != "no_such_ref" || e.Hint != "GET "+base+"/logpoints lists them" {
		t.Fatalf("unknown logpoint: %+v", e)
	}
	var rm api.RemoveBreakpointResponse
	if st := h.call("DELETE", base+"/breakpoints/LP%231", nil, &rm); st != http.StatusOK || strings.Join(rm.Removed, ",") != "lp1" {
		t.Fatalf("DELETE LP#1: status %d, removed %v", st, rm.Removed)
	}
	if lps := h.logpoints(s.ID); len(lps) != 1 || lps[0].Ref != lp2.Ref {
		t.Fatalf("logpoints after removing lp1: %+v", lps)
	}

	// Only lp2 emits on the way to bp1.
	wantPausedIn(t, h.exec(s.ID, "continue", api.ContinueRequest{}), "logloop.js", "", lineLoopEnd)
	emitted := h.emissions(s.ID)
	for k, e := range emitted {
		if e.Ref != lp2.Ref || e.Text.Value != "b"+strconv.Itoa(k+1) {
			t.Fatalf("emission %d: %+v, want %s's b%d", k+1, e, lp2.Ref, k+1)
		}
	}
	if len(emitted) != 10 {
		t.Fatalf("%d emissions, want %s's 10", len(emitted), lp2.Ref)
	}

	if st := h.call("DELETE", base+"/breakpoints/all", nil, &rm); st != http.StatusOK {
		t.Fatalf("DELETE all: status %d", st)
	}
	want := []string{bp.Ref, lp2.Ref}
	slices.Sort(rm.Removed)
	slices.Sort(want)
	if !slices.Equal(rm.Removed, want) {
		t.Fatalf("DELETE all removed %v, want %v", rm.Removed, want)
	}
	if lps, bps := h.logpoints(s.ID), h.breakpointRefs(s.ID); len(lps) != 0 || bps != "" {
		t.Fatalf("left after DELETE all: logpoints %+v, breakpoints %s", lps, bps)
	}
	h.runToEnd(s.ID, 2)
}

// TestDebugPointsShareALine: V8 keeps one breakpoint per location, so a second logpoint or a
// breakpoint on a line that has one is refused (409 location_taken, naming the first), and the
// first goes on emitting at every run of the line.
func TestDebugPointsShareALine(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	s := h.debug(api.StartRequest{Target: "logloop.js", PauseOnStart: true})
	h.waitPaused(s.ID, 0)
	line := "logloop.js:" + strconv.Itoa(lineLoopBody)
	a := h.setLogpoint(s.ID, api.LogpointRequest{Location: line, Template: "a${i}"})
	for _, c := range []struct {
		path string
		body any
	}{
		{"/logpoints", api.LogpointRequest{Location: line, Template: "b${i}"}},
		{"/breakpoints", api.BreakpointRequest{Location: line, Condition: "i === 4"}},
	} {
		e := h.errorOf(h.request("POST", "/api/debug/"+s.ID+c.path, c.body), http.StatusConflict)
		if e.Code != "location_taken" || !strings.Contains(e.Message, a.Ref) || e.Hint == "" {
			t.Fatalf("second point on %s: %+v, want 409 location_taken naming %s", line, e, a.Ref)
		}
	}
	h.runToEnd(s.ID, 1)
	count := map[string]int{}
	for _, e := range h.emissions(s.ID) {
		count[e.Ref]++
	}
	if count[a.Ref] != 10 || len(count) != 1 {
		t.Fatalf("emissions per logpoint %v, want 10 from %s", count, a.Ref)
	}
}
