package tests

import (
	"slices"
	"testing"

	"traced/api"
)

// TestForksNeverHang: a fork, a fork of a fork, node started through sh -c and a child that
// exits at once all run to their end in trace and debug mode: none inherits the inspector flags
// traced starts node with, so none waits for a debugger that never comes.
func TestForksNeverHang(t *testing.T) {
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
