package otlpexport

import (
	"context"
	"errors"
	"testing"
	"time"

	sdktrace "go.opentelemetry.io/otel/sdk/trace"

	"traced/internal/engine"
)

// stuckExporter takes no span until released: a collector that never answers within a flush.
type stuckExporter struct {
	release chan struct{} // closed by the test: exports return
	shut    chan struct{} // closed when the batch processor has shut it down
}

func (x *stuckExporter) ExportSpans(ctx context.Context, _ []sdktrace.ReadOnlySpan) error {
	<-x.release
	return errors.New("collector gone")
}

func (x *stuckExporter) Shutdown(context.Context) error {
	close(x.shut)
	return nil
}

// TestShutdownDeadlineCountsLost: spans the batch processor still holds when the shutdown's
// deadline passes are counted dropped, with their events, in the session's counts and the
// total; an export that ends later does not count them again.
func TestShutdownDeadlineCountsLost(t *testing.T) {
	x := &stuckExporter{release: make(chan struct{}), shut: make(chan struct{})}
	e, err := New(Options{SpanExporter: x, BatchTimeout: time.Hour})
	if err != nil {
		t.Fatal(err)
	}
	t0 := time.Now()
	e.PublishStatus(engine.Summary{ID: "s1", Status: engine.StatusRunning, Target: "/w/a.js", StartedAt: t0})
	const n = 10
	for i := 1; i <= n; i++ {
		e.PublishEvent("s1", engine.Event{Seq: uint64(i), Time: t0, Kind: engine.KindConsole,
			Console: &engine.ConsoleInfo{Level: "log", Text: engine.Text{Value: "line"}}})
	}
	e.PublishStatus(engine.Summary{ID: "s1", Status: engine.StatusExited, Target: "/w/a.js", StartedAt: t0, EndedAt: &t0, LastSeq: n})
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	if err := e.Shutdown(ctx); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("shutdown past its deadline: %v", err)
	}
	want := n + 1 // the root span and its events
	if got := e.Counts("s1"); got.Dropped != want || got.Spans != 0 {
		t.Errorf("counts %+v, want the %d events and the span dropped", got, n)
	}
	close(x.release) // the stuck export ends now, failed: nothing is counted twice
	<-x.shut
	if got := e.Status(); got.Dropped != want {
		t.Errorf("status %+v after the late export, want %d dropped", got, want)
	}
}
