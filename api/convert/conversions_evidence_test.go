package convert

import (
	"encoding/json"
	"testing"

	"traced/internal/engine"
	"traced/internal/evidence"
)

// TestEvidenceJSONShape: the evidence answer keeps the snake_case names an earlier IDE
// integration reads, with null and [] where it expects them.
func TestEvidenceJSONShape(t *testing.T) {
	code := 1
	sum := func(st engine.Status) engine.Summary {
		return engine.Summary{ID: "s1", Status: st, Target: "app.js", Args: []string{"--port", "0"}, Cwd: "/app"}
	}
	exit := engine.Event{Seq: 1, Kind: engine.KindExit, Exit: &engine.ExitInfo{Code: &code}}
	r := FromEvidenceResult(evidence.Build(evidence.Input{Summary: sum(engine.StatusExited), Events: []engine.Event{exit}}))
	b, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	ev := m["evidence"]
	for _, k := range []string{"failure", "immediate_cause", "previous_state_transitions", "originating_value",
		"relevant_input", "confidence", "confidence_reason", "caveat"} {
		if _, ok := ev[k]; !ok {
			t.Errorf("evidence JSON lacks %q: %s", k, b)
		}
	}
	if ev["immediate_cause"] != nil {
		t.Errorf("immediate_cause = %v, want null", ev["immediate_cause"])
	}
	if ts, ok := ev["previous_state_transitions"].([]any); !ok || len(ts) != 0 {
		t.Errorf("previous_state_transitions = %v, want []", ev["previous_state_transitions"])
	}
	if f := ev["failure"].(map[string]any); f["exit_code"] != 1.0 || f["kind"] != "exit" {
		t.Errorf("failure = %v, want kind exit and exit_code 1", f)
	}
	if in := ev["relevant_input"].(map[string]any); in["argv"] == nil || in["cwd"] != "/app" {
		t.Errorf("relevant_input = %v, want argv and cwd", in)
	}

	b, _ = json.Marshal(FromEvidenceResult(evidence.Build(evidence.Input{Summary: sum(engine.StatusRunning)})))
	if want := `{"evidence":null,"reason":"session still running and no exception yet"}`; string(b) != want {
		t.Errorf("clean JSON = %s, want %s", b, want)
	}
}
