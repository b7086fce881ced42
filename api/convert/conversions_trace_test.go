package convert

import (
	"slices"
	"testing"

	"traced/api"
	"traced/internal/engine"
)

// TestKindsAgree: api names the event kinds itself, so clients need not import the engine; both
// lists must stay the same, in the same order (summaries and hints list them so).
func TestKindsAgree(t *testing.T) {
	wire := make([]engine.Kind, len(api.Kinds))
	for i, k := range api.Kinds {
		wire[i] = engine.Kind(k)
	}
	if !slices.Equal(wire, engine.Kinds) {
		t.Errorf("api.Kinds = %v, engine.Kinds = %v: they must agree", api.Kinds, engine.Kinds)
	}
}

// TestStatusesAgree: the session states api names are the engine's.
func TestStatusesAgree(t *testing.T) {
	pairs := []struct {
		wire api.Status
		eng  engine.Status
	}{
		{api.StatusStarting, engine.StatusStarting}, {api.StatusRunning, engine.StatusRunning},
		{api.StatusPaused, engine.StatusPaused}, {api.StatusExited, engine.StatusExited},
		{api.StatusStopped, engine.StatusStopped}, {api.StatusFailed, engine.StatusFailed},
	}
	for _, p := range pairs {
		if string(p.wire) != string(p.eng) || p.wire.Finished() != p.eng.Finished() {
			t.Errorf("api %q (finished %v) differs from engine %q (finished %v)", p.wire, p.wire.Finished(), p.eng, p.eng.Finished())
		}
	}
	if api.ModeTrace != engine.ModeTrace || api.ModeDebug != engine.ModeDebug {
		t.Errorf("modes %q %q differ from the engine's %q %q", api.ModeTrace, api.ModeDebug, engine.ModeTrace, engine.ModeDebug)
	}
}

// TestEventConversionKeepsNil: a payload the engine left nil stays absent on the wire, and a
// nil list stays null where the contract has it so (empty stays []).
func TestEventConversionKeepsNil(t *testing.T) {
	ev := FromEvent(engine.Event{Seq: 3, Kind: engine.KindConsole, Console: &engine.ConsoleInfo{Level: "log",
		Text: engine.Text{Value: "hi"}, Frame: &engine.Frame{File: "a.js", Line: 2}}})
	if ev.Console == nil || ev.Console.Frame == nil || ev.Console.Frame.Where() != "a.js:2" || ev.Exception != nil || ev.Pause != nil {
		t.Errorf("converted event %+v", ev)
	}
	bp := FromBreakpoint(engine.Breakpoint{Ref: "bp1", Resolved: []engine.Frame{}})
	if bp.Resolved == nil || FromBreakpoint(engine.Breakpoint{}).Resolved != nil {
		t.Errorf("Resolved: empty must stay empty and nil nil")
	}
}
