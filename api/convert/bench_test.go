package convert

import (
	"testing"
	"time"

	"traced/internal/engine"
)

// BenchmarkFromEvent is what the stream pays per event a subscriber wants: a console call with
// its frame, the commonest event of a chatty program.
func BenchmarkFromEvent(b *testing.B) {
	ev := engine.Event{Seq: 42, Time: time.Now(), Kind: engine.KindConsole, Console: &engine.ConsoleInfo{
		Level: "log", Text: engine.Text{Value: "request 42 served in 3 ms"}, Args: []string{"string", "number"},
		Frame: &engine.Frame{Function: "handle", URL: "file:///app/server.js", File: "server.js", Line: 12, Column: 5},
	}}
	b.ReportAllocs()
	for b.Loop() {
		_ = FromEvent(ev)
	}
}
