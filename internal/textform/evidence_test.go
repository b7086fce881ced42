package textform

import (
	"strings"
	"testing"

	"traced/api"
)

// TestEvidenceText: the failure first, the failing tests a line each with their values and
// locals, then the cause, confidence and caveat; a clean run says why there is none.
func TestEvidenceText(t *testing.T) {
	const caveat = "correlation, not causation."
	code := 1
	ev := &api.Evidence{
		Failure: api.Failure{Kind: api.FailureThrow, Class: "AssertionError", Test: "cart › totals", Message: "4 !== 11",
			Location: &api.Frame{File: "t/cart.test.js", Line: 10}, ExitCode: &code},
		FailingTests: []api.FailingTest{{Name: "cart › totals", Location: &api.Frame{File: "t/cart.test.js", Line: 10},
			Expected: "11", Received: "4", Target: "t1", Locals: []api.Variable{{Name: "sum", Value: "4"}}}},
		ImmediateCause: &api.EvidenceItem{Seq: 12, Summary: "console.log: totals", Location: &api.Frame{File: "t/cart.test.js", Line: 8}},
		Confidence:     api.ConfidenceHigh, ConfidenceReason: "same file.", Caveat: caveat,
	}
	got := Answer(api.EvidenceResponse{Session: "s1", Status: "exited", EvidenceResult: api.EvidenceResult{Evidence: ev}})
	want := `s1 exited failure: throw AssertionError in test "cart › totals" at t/cart.test.js:10 (exit code 1)
  4 !== 11
failing tests (1): this one: expected 11, received 4  [t1]
    locals: sum=4
before it: seq 12 console.log: totals (t/cart.test.js:8)
confidence: high: same file.
caveat: ` + caveat + "\n"
	if got != want {
		t.Fatalf("got\n%s\nwant\n%s", got, want)
	}
	ev.FailingTests = append(ev.FailingTests, api.FailingTest{Name: "cart › empty", Location: &api.Frame{File: "t/cart.test.js", Line: 20},
		Message: "Expected values to be strictly equal:\n0 !== 1"})
	got = Answer(api.EvidenceResponse{Session: "s1", Status: "exited", EvidenceResult: api.EvidenceResult{Evidence: ev}})
	if want := "failing tests (2):\n  cart › totals  t/cart.test.js:10  expected 11, received 4  [t1]\n    locals: sum=4\n" +
		"  cart › empty  t/cart.test.js:20  Expected values to be strictly equal:\n"; !strings.Contains(got, want) {
		t.Fatalf("two failing tests: got\n%s\nwant it to hold\n%s", got, want)
	}
	clean := Answer(api.EvidenceResponse{Session: "s2", Status: "exited", EvidenceResult: api.EvidenceResult{Reason: "exited with code 0"}})
	if !strings.HasPrefix(clean, "s2 exited: no failure: exited with code 0") {
		t.Fatalf("clean run: %q", clean)
	}
}
