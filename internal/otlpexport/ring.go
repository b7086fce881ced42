package otlpexport

import (
	"go.opentelemetry.io/otel/trace"

	"traced/internal/engine"
)

// eventRing keeps the newest events of a span until the span ends, when they become its span
// events. A span keeps only its newest MaxSpanEvents anyway, and copying an event costs far
// less than building a span event: a program that logs flat out pays the building for the
// events kept, not for every one (BenchmarkOTLPExport).
type eventRing struct {
	evs  []engine.Event
	next int // the oldest, once full
	shed int // events pushed out by newer ones
}

func (r *eventRing) add(ev *engine.Event, n int) {
	if len(r.evs) < n {
		r.evs = append(r.evs, *ev)
		return
	}
	r.evs[r.next] = *ev
	r.next = (r.next + 1) % n
	r.shed++
}

// addTo adds the kept events to sp, oldest first, and returns how many were shed.
func (r *eventRing) addTo(sp trace.Span, stringCap int) int {
	for i := range r.evs {
		ev := &r.evs[(r.next+i)%len(r.evs)]
		if name, attrs := eventAttributes(ev, stringCap); name != "" {
			sp.AddEvent(name, trace.WithTimestamp(ev.Time), trace.WithAttributes(attrs...))
		}
	}
	return r.shed
}
