package tests

import (
	"os/exec"
	"strings"
	"testing"

	"traced/api"
)

// TestNodeTestFolder: node --test given a folder (node 20 and 26 run the tests in it; 22, 24 refuse it
// themselves) is started, not refused; where node runs them, the failing test is named once and
// its throw recorded once: the test file's process, whose inspector node 20's runner relays as a
// TAP comment too, is attached once (it was t0 and t1 with the same pid, every event doubled).
func TestNodeTestFolder(t *testing.T) {
	out, _ := exec.CommandContext(t.Context(), "node", "--test", "testdata/nodetest").CombinedOutput()
	runs := strings.Contains(string(out), "pass 1") // TAP (node 20) or the spec reporter (26)
	h := newHarness(t)
	for i := range 6 { // the double attach was a race: 2 runs in 6
		target := "nodetest"
		if i%2 == 1 {
			target = "nodetest/mul.test.js"
		}
		s := h.start(api.StartRequest{Target: target, NodeArgs: []string{"--test"}})
		if sum := h.waitExit(s.ID); sum.ExitCode == nil || *sum.ExitCode == 0 {
			t.Fatalf("run %d: exit %+v, want the failing test's", i, sum)
		}
		if !runs && target == "nodetest" {
			if p := h.printed(s.ID); !strings.Contains(p, "Cannot find module") {
				t.Fatalf("output %q, want node's own refusal of the folder", p)
			}
			continue
		}
		ev := h.evidenceOf(s.ID)
		if len(ev.FailingTests) != 1 || ev.FailingTests[0].Name != "multiplies" || ev.FailingTests[0].Location == nil ||
			ev.FailingTests[0].Location.File != "nodetest/mul.test.js" || ev.FailingTests[0].Location.Line != 6 {
			t.Fatalf("run %d: failing tests %+v, want multiplies at nodetest/mul.test.js:6", i, ev.FailingTests)
		}
		if th := h.trace(s.ID, "throw").Events; len(th) != 1 {
			t.Fatalf("run %d: %d throw events, want the one (the test file attached once)", i, len(th))
		}
	}
}
