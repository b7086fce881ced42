package otlpexport

import (
	"context"
	"sync"

	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/trace"
)

// gate stands before the SDK's batch processor, which drops a span silently when its queue is
// full and forgets what it still holds when its shutdown runs out of time. The gate keeps the
// spans handed over and not yet exported, refuses (counting it lost, for its session) a span
// that would overfill the queue, and at shutdown counts lost what the processor never
// exported, and every span ended after. Spans end on the mapper goroutine, so a refusal never
// costs capture anything.
type gate struct {
	next  sdktrace.SpanProcessor
	limit int
	e     *Exporter

	mu       sync.Mutex
	inFlight map[trace.SpanID]flight // handed to next, not yet through an export
	closed   bool                    // next has shut down: a span ended now goes nowhere
}

// flight is what a span in flight stands for: its session, and what it counts when lost (its
// events and itself).
type flight struct {
	session string
	lost    int
}

func newGate(next sdktrace.SpanProcessor, limit int, e *Exporter) *gate {
	return &gate{next: next, limit: limit, e: e, inFlight: make(map[trace.SpanID]flight)}
}

func (g *gate) OnStart(parent context.Context, s sdktrace.ReadWriteSpan) { g.next.OnStart(parent, s) }

func (g *gate) OnEnd(s sdktrace.ReadOnlySpan) {
	if !s.SpanContext().IsSampled() {
		return
	}
	f := flight{session: sessionOf(s), lost: len(s.Events()) + s.DroppedEvents() + 1}
	g.mu.Lock()
	if g.closed || len(g.inFlight) >= g.limit {
		g.mu.Unlock()
		g.e.lost(map[string]int{f.session: f.lost})
		return
	}
	g.inFlight[s.SpanContext().SpanID()] = f
	g.mu.Unlock()
	g.next.OnEnd(s)
}

// settle takes an export's spans out of flight and returns those still in it: a span counted
// lost at shutdown is not counted again when a late export takes it.
func (g *gate) settle(spans []sdktrace.ReadOnlySpan) []sdktrace.ReadOnlySpan {
	g.mu.Lock()
	defer g.mu.Unlock()
	kept := spans[:0:0]
	for _, s := range spans {
		id := s.SpanContext().SpanID()
		if _, ok := g.inFlight[id]; ok {
			delete(g.inFlight, id)
			kept = append(kept, s)
		}
	}
	return kept
}

// Shutdown shuts the batch processor down within ctx; what it did not export by then is
// counted lost, and so is every span ended from now on. It is safe to call more than once.
func (g *gate) Shutdown(ctx context.Context) error {
	err := g.next.Shutdown(ctx)
	g.mu.Lock()
	g.closed = true
	left := g.inFlight
	g.inFlight = make(map[trace.SpanID]flight)
	g.mu.Unlock()
	if len(left) > 0 {
		by := make(map[string]int)
		for _, f := range left {
			by[f.session] += f.lost
		}
		g.e.lost(by)
	}
	return err
}

func (g *gate) ForceFlush(ctx context.Context) error { return g.next.ForceFlush(ctx) }
