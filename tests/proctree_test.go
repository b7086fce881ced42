package tests

import (
	"net/http"
	"slices"
	"strings"
	"testing"

	"traced/api"
)

// TestForksNeverHang: a fork, a fork of a fork, node started through sh -c and a child that
// exits at once all run to their end in trace and debug mode: none inherits the inspector flags
// traced starts node with, so none waits for a debugger that never comes.
func TestForksNeverHang(t *testing.T) {
	t.Parallel()
	for _, mode := range []string{api.ModeTrace, api.ModeDebug} {
		t.Run(mode, func(t *testing.T) {
			h := newHarness(t)
			s := h.start(api.StartRequest{Target: "forks.js", Mode: mode})
			sum := h.waitExit(s.ID)
			if sum.ExitCode == nil || *sum.ExitCode != 0 {
				t.Fatalf("exit %+v, want 0", sum)
			}
			var out []string
			for _, ev := range h.trace(s.ID, "stdout").Events {
				out = append(out, ev.Output.Text.Value)
			}
			for _, want := range []string{"child: hello", "grandchild: hello", "child: grandchild exited 0",
				"shell child: hello", "main: child exited 0", "main: shell exited 0", "main: quick exited 0", "main: all done"} {
				if !slices.Contains(out, want) {
					t.Fatalf("stdout %q lacks %q", out, want)
				}
			}
			for _, ev := range h.trace(s.ID, "stderr").Events {
				t.Errorf("stderr: %s", ev.Output.Text.Value) // an inspector banner would say a child listens
			}
		})
	}
}

// TestChildrenFollowed: every node process of the tree (a fork, its fork, node through sh -c, a
// child that exits at once) is a target of the session: its console calls are captured with its
// target ref, and target events say it was attached and exited, with its pid.
func TestChildrenFollowed(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	s := h.start(api.StartRequest{Target: "forks.js"})
	h.waitExit(s.ID)
	byText := map[string]string{}
	for _, ev := range h.trace(s.ID, "console").Events {
		byText[ev.Console.Text.Value] = ev.Target
	}
	for _, line := range []string{"child: hello", "grandchild: hello", "shell child: hello", "child: grandchild exited 0"} {
		if ref, ok := byText[line]; !ok || !strings.HasPrefix(ref, "t") {
			t.Fatalf("console %q: target %q, want a child's (all: %q)", line, ref, byText)
		}
	}
	if byText["child: hello"] == byText["grandchild: hello"] || byText["main: all done"] != "" {
		t.Fatalf("targets %q: the child and grandchild share one, or main has one", byText)
	}
	var targets api.TargetsResponse
	h.call("GET", "/api/debug/"+s.ID+"/targets", nil, &targets)
	var procs int
	for _, tg := range targets.Targets {
		if tg.Kind == "process" {
			procs++
			if tg.PID == 0 || tg.Status != "exited" {
				t.Errorf("target %+v, want a pid and exited", tg)
			}
		}
	}
	if procs != 4 { // child, grandchild, shell child, quick
		t.Fatalf("%d process targets, want 4: %+v", procs, targets.Targets)
	}
	if all := h.trace(s.ID, "").Events; all[len(all)-1].Kind != "exit" {
		t.Fatalf("the last event is %s, want the exit: children's events come before it", all[len(all)-1].Kind)
	}
}

// TestChildrenNotFollowed: children: false leaves children alone (no inspector, no target); they
// run and end as without traced.
func TestChildrenNotFollowed(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	off := false
	s := h.start(api.StartRequest{Target: "forks.js", Children: &off})
	if sum := h.waitExit(s.ID); sum.ExitCode == nil || *sum.ExitCode != 0 {
		t.Fatalf("exit %+v", sum)
	}
	for _, ev := range h.trace(s.ID, "console").Events {
		if ev.Target != "" {
			t.Fatalf("captured %q from %s, which was not followed", ev.Console.Text.Value, ev.Target)
		}
	}
	if n := len(h.trace(s.ID, "target").Events); n != 0 {
		t.Fatalf("%d target events, want none", n)
	}
	var out []string
	for _, ev := range h.trace(s.ID, "stdout").Events {
		out = append(out, ev.Output.Text.Value)
	}
	if !slices.Contains(out, "grandchild: hello") || !slices.Contains(out, "main: all done") {
		t.Fatalf("stdout %q", out)
	}
}

// TestFollowMatch: followMatch follows only the children whose command line matches; the others
// run on uncaptured (their output still reaches the session), each with a target event saying
// why. An invalid expression is a 400 naming the field.
func TestFollowMatch(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	s := h.start(api.StartRequest{Target: "forks.js", FollowMatch: `forks\.js grandchild$`})
	if sum := h.waitExit(s.ID); sum.ExitCode == nil || *sum.ExitCode != 0 {
		t.Fatalf("exit %+v", sum)
	}
	byText := map[string]string{}
	for _, ev := range h.trace(s.ID, "console").Events {
		byText[ev.Console.Text.Value] = ev.Target
	}
	if byText["grandchild: hello"] == "" {
		t.Fatalf("the grandchild (matching) was not followed: %q", byText)
	}
	if _, ok := byText["child: hello"]; ok {
		t.Fatalf("the child (not matching) was captured: %q", byText)
	}
	if !strings.Contains(h.printed(s.ID), "child: hello") {
		t.Fatal("the child's output is missing: a released child still prints")
	}
	var released int
	for _, ev := range h.trace(s.ID, "target").Events {
		if ev.TargetInfo.Status == "released" && strings.Contains(ev.TargetInfo.Reason, "followMatch") {
			released++
		}
	}
	if released != 3 { // child, shell child, quick
		t.Fatalf("%d released for not matching, want 3", released)
	}
	e := h.errorOf(h.request("POST", "/api/trace/start", api.StartRequest{Target: "forks.js", FollowMatch: "("}), http.StatusBadRequest)
	if !strings.Contains(e.Message, "followMatch") {
		t.Fatalf("an invalid followMatch: %+v", e)
	}
}
