package otlpexport

import (
	"context"
	"sync/atomic"

	sdktrace "go.opentelemetry.io/otel/sdk/trace"
)

// gate stands before the SDK's batch processor, which drops a span silently when its queue is
// full: the gate counts the spans handed over and not yet exported, and refuses (counting it
// lost, for its session) a span that would overfill the queue. Spans end on the mapper
// goroutine, so a refusal never costs capture anything.
type gate struct {
	next     sdktrace.SpanProcessor
	limit    int64
	inFlight atomic.Int64 // handed to next, not yet through an export
	e        *Exporter
}

func (g *gate) OnStart(parent context.Context, s sdktrace.ReadWriteSpan) { g.next.OnStart(parent, s) }

func (g *gate) OnEnd(s sdktrace.ReadOnlySpan) {
	if !s.SpanContext().IsSampled() {
		return
	}
	if g.inFlight.Add(1) > g.limit {
		g.inFlight.Add(-1)
		g.e.lost(s)
		return
	}
	g.next.OnEnd(s)
}

// done is told how many spans an export took, whatever its outcome.
func (g *gate) done(n int) { g.inFlight.Add(int64(-n)) }

func (g *gate) Shutdown(ctx context.Context) error   { return g.next.Shutdown(ctx) }
func (g *gate) ForceFlush(ctx context.Context) error { return g.next.ForceFlush(ctx) }
