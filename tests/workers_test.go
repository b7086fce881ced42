package tests

import (
	"slices"
	"strings"
	"testing"

	"traced/api"
)

// TestWorkersTraced: a program with a worker and a nested worker runs to its end in trace and
// debug mode (node under --inspect-brk makes every worker wait for a debugger); each worker's
// console calls are captured, marked with the worker's target, and target events say which
// workers were attached and when they exited. In debug mode the nested worker's debugger
// statement pauses that worker alone, and continue lets it go on. (The nested worker's throw
// reaches its parent as an error event, not the inspector: the caught-failures issue makes such
// throws evidence.)
func TestWorkersTraced(t *testing.T) {
	t.Parallel()
	for _, mode := range []string{api.ModeTrace, api.ModeDebug} {
		t.Run(mode, func(t *testing.T) {
			h := newHarness(t)
			s := h.start(api.StartRequest{Target: "workers.js", Mode: mode})
			if mode == api.ModeDebug {
				st, _ := h.waitPaused(s.ID, 0)
				if st.Target != "t2" || st.Status != api.StatusPaused || st.Location == nil || st.Location.Line != 15 {
					t.Fatalf("state %+v, want the nested worker t2 paused at workers.js:15", st)
				}
				if main := h.state(s.ID, "target=t0"); main.Status != api.StatusRunning || !slices.Equal(main.AlsoPaused, []string{"t2"}) {
					t.Fatalf("t0's state %+v, want running with t2 paused", main)
				}
				h.exec(s.ID, "continue?target=t2", api.ContinueRequest{})
			}
			sum := h.waitExit(s.ID)
			if sum.ExitCode == nil || *sum.ExitCode != 0 {
				t.Fatalf("exit %+v, want 0", sum)
			}
			byTarget := map[string][]string{}
			for _, ev := range h.trace(s.ID, "console").Events {
				byTarget[ev.Target] = append(byTarget[ev.Target], ev.Console.Text.Value)
			}
			if got := byTarget[""]; !slices.Contains(got, "main: starting worker") || !slices.Contains(got, "main: worker exited 0") {
				t.Fatalf("main thread console %q", got)
			}
			if got := byTarget["t1"]; !slices.Equal(got, []string{"worker: hello", "worker: nested failed: nested: boom"}) {
				t.Fatalf("worker t1 console %q (all: %q)", got, byTarget)
			}
			if got := byTarget["t2"]; !slices.Equal(got, []string{"nested: hello"}) {
				t.Fatalf("nested worker t2 console %q", got)
			}
			var states []string
			for _, ev := range h.trace(s.ID, "target").Events {
				info := ev.TargetInfo
				states = append(states, info.Ref+" "+info.Status)
			}
			want := []string{"t1 attached", "t2 attached", "t2 exited", "t1 exited"}
			for _, w := range want {
				if !slices.Contains(states, w) {
					t.Fatalf("target events %q, want %q among them", states, want)
				}
			}
			if !strings.HasPrefix(states[0], "t1 attached") {
				t.Fatalf("target events %q, want t1's attach first", states)
			}
			var targets api.TargetsResponse
			h.call("GET", "/api/debug/"+s.ID+"/targets", nil, &targets)
			var list []string
			for _, tg := range targets.Targets {
				list = append(list, tg.Ref+" "+tg.Kind+" "+tg.Status)
			}
			if want := "t0 main exited,t1 worker exited,t2 worker exited"; strings.Join(list, ",") != want {
				t.Fatalf("targets %q, want %q", list, want)
			}
		})
	}
}

// TestWorkersNotFollowed: workers: false lets each worker run uncaptured (its lines still reach
// stdout through the main thread), and a target event says it was released and why.
func TestWorkersNotFollowed(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	off := false
	s := h.start(api.StartRequest{Target: "workers.js", Workers: &off})
	if sum := h.waitExit(s.ID); sum.ExitCode == nil || *sum.ExitCode != 0 {
		t.Fatalf("exit %+v, want 0", sum)
	}
	for _, ev := range h.trace(s.ID, "console,script").Events {
		if ev.Target != "" {
			t.Fatalf("captured %s event %d from worker %s, which was not followed", ev.Kind, ev.Seq, ev.Target)
		}
	}
	var released int
	for _, ev := range h.trace(s.ID, "target").Events {
		if ev.TargetInfo.Status != "released" || !strings.Contains(ev.TargetInfo.Reason, "workers: false") {
			t.Fatalf("target event %+v, want released because workers: false", ev.TargetInfo)
		}
		released++
	}
	var out []string
	for _, ev := range h.trace(s.ID, "stdout").Events {
		out = append(out, ev.Output.Text.Value)
	}
	if released != 2 || !slices.Contains(out, "worker: hello") || !slices.Contains(out, "nested: hello") {
		t.Fatalf("%d released, stdout %q", released, out)
	}
}

// TestWorkersFollowMatch: a followMatch their script does not match releases the workers.
func TestWorkersFollowMatch(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	s := h.start(api.StartRequest{Target: "workers.js", FollowMatch: `nothing-matches-this`})
	if sum := h.waitExit(s.ID); sum.ExitCode == nil || *sum.ExitCode != 0 {
		t.Fatalf("exit %+v", sum)
	}
	var released int
	for _, ev := range h.trace(s.ID, "target").Events {
		if ev.TargetInfo.Status == "released" && strings.Contains(ev.TargetInfo.Reason, "followMatch") {
			released++
		}
	}
	if released != 2 {
		t.Fatalf("%d workers released for not matching, want 2", released)
	}
}
