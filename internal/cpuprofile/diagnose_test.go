package cpuprofile

import (
	"fmt"
	"strings"
	"testing"
)

// TestFindStalls: a run of non-idle samples over StallMs is a stall with its busiest stack; a
// shorter run, or one broken by idle, is not.
func TestFindStalls(t *testing.T) {
	nodes := []Node{
		fn(1, nameRoot, "", 0, 2, 5, 6),
		fn(2, "tick", appURL, 0, 3),
		fn(3, "block", appURL, 10, 4),
		fn(4, "Date.now", "", 0),
		fn(5, nameIdle, "", 0),
		fn(6, nameGC, "", 0),
	}
	ms := func(n float64) float64 { return n * 1000 }
	p := profile(nodes,
		[]int{5, 3, 4, 6, 3, 5, 3, 3, 5},
		[]float64{ms(10), ms(30), ms(5), ms(10), ms(30), ms(10), ms(20), ms(20), ms(10)})
	stalls := findStalls(newTree(p))
	if len(stalls) != 1 {
		t.Fatalf("stalls: %+v", stalls)
	}
	s := stalls[0]
	if s.StartMs != 10 || s.DurationMs != 75 {
		t.Errorf("stall at %v for %v ms, want at 10 for 75", s.StartMs, s.DurationMs)
	}
	if strings.Join(s.Stack, " < ") != "block app/main.js:11 < tick app/main.js:1" {
		t.Errorf("stack %q", s.Stack)
	}
}

// TestStallSite: the site that tops the most stall time names the stalls, not the longest one.
func TestStallSite(t *testing.T) {
	site, n, ms := stallSite([]Stall{
		{DurationMs: 230, Stack: []string{"setupDebugEnv node:internal/process/pre_execution:417"}},
		{DurationMs: 200, Stack: []string{"blockFor stall.js:3", "tick"}},
		{DurationMs: 190, Stack: []string{"blockFor stall.js:3", "tick"}},
		{DurationMs: 60},
	})
	if site != "blockFor stall.js:3" || n != 2 || ms != 390 {
		t.Errorf("got %s, %d, %v", site, n, ms)
	}
}

// TestCategorize: the first category that fits names the diagnosis.
func TestCategorize(t *testing.T) {
	for _, c := range []struct {
		d    Diagnosis
		want Category
	}{
		{Diagnosis{WallMs: 1000, BusyPct: 2}, CategoryIdle},
		{Diagnosis{WallMs: 1000, BusyPct: 6, WakeupsPerSec: 20}, CategoryIOWait},
		{Diagnosis{WallMs: 1000, BusyPct: 9, StallMs: 300}, CategoryBlocked},
		{Diagnosis{WallMs: 1000, BusyPct: 95, GCPct: 40}, CategoryGC},
		{Diagnosis{WallMs: 1000, BusyPct: 30, GCPct: 40}, CategoryIOWait}, // GC of little work
		{Diagnosis{WallMs: 1000, BusyPct: 95, GCPct: 5, DependencyPct: 80}, CategoryCPUDependency},
		{Diagnosis{WallMs: 1000, BusyPct: 95, GCPct: 5, DependencyPct: 10, StallMs: 900}, CategoryCPUUser},
		{Diagnosis{WallMs: 1000, BusyPct: 40, StallMs: 250}, CategoryBlocked},
		{Diagnosis{WallMs: 1000, BusyPct: 40, Loop: &LoopStats{DelayP99Ms: 150}}, CategoryBlocked},
		{Diagnosis{WallMs: 1000, BusyPct: 40, StallMs: 60}, CategoryIOWait},
	} {
		if got := c.d.categorize(); got != c.want {
			t.Errorf("%+v: %s, want %s", c.d, got, c.want)
		}
	}
}

// TestRenderBounded: however many targets, functions and stalls, the text stays within its
// budget and each target keeps its first line.
func TestRenderBounded(t *testing.T) {
	var ds []Diagnosis
	for i := range 4 {
		d := Diagnosis{Target: fmt.Sprintf("worker %d", i), Category: CategoryBlocked, WallMs: 5000, BusyPct: 50, StallCount: 40, StallMs: 4000}
		for j := range maxTop {
			d.Top = append(d.Top, Function{Name: strings.Repeat("veryLongFunctionName", 5) + fmt.Sprint(j), URL: appURL, SelfPct: 10, Lines: []Line{{Line: 3, Ticks: 9, Ms: 9}}})
		}
		for range maxStalls {
			d.Stalls = append(d.Stalls, Stall{DurationMs: 100, Stack: []string{strings.Repeat("frame ", 30), "b", "c"}})
		}
		ds = append(ds, d)
	}
	for _, budget := range []int{0, 700, 200} {
		text := RenderDiagnoses(ds, budget)
		limit := budget
		if limit == 0 {
			limit = MaxTextBytes
		}
		if len(text) > limit {
			t.Errorf("budget %d: %d bytes", budget, len(text))
		}
		for _, d := range ds {
			if !strings.Contains(text, d.Target+": event-loop-blocked") {
				t.Errorf("budget %d: %s lost its first line:\n%s", budget, d.Target, text)
			}
		}
	}
}

// TestHeadlineDelayOnly: blocked by the delay histogram alone, the headline gives the delay.
func TestHeadlineDelayOnly(t *testing.T) {
	d := Diagnosis{Target: "main", WallMs: 1000, BusyPct: 40, Loop: &LoopStats{DelayP99Ms: 150, DelayMaxMs: 180}}
	d.Category = d.categorize()
	if got := headline(d); got != "main: event-loop-blocked: event-loop delay p99 150 ms, max 180 ms" {
		t.Errorf("got %q", got)
	}
}

// TestTruncate: a cut never splits a character and is marked.
func TestTruncate(t *testing.T) {
	if got := truncate("ééééé", 6); got != "é…" {
		t.Errorf("got %q", got)
	}
	if got := truncate("short", 10); got != "short" {
		t.Errorf("got %q", got)
	}
}
