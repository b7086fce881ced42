package tests

import (
	"context"
	"runtime"
	"runtime/metrics"
	"strconv"
	"testing"

	"traced/internal/engine"
	"traced/internal/service"
)

// BenchmarkRetainedSession measures what a finished session costs the service while it is kept:
// live heap bytes after a forced GC, per retained session (each a full ring of 10,000 events of
// console.log(i): console and stdout events) and per event.
func BenchmarkRetainedSession(b *testing.B) {
	const sessions, lines, ring = 5, 20_000, 10_000
	var perSession, perEvent float64
	for b.Loop() {
		svc, _, done := benchHarness(b, func(o *service.Options) {
			o.Engine.MaxEvents, o.Engine.MaxSessions = ring, sessions
		})
		before := liveHeap()
		var kept []*engine.Session
		for range sessions {
			s, err := svc.Engine.Start(context.Background(), engine.StartRequest{Target: "count.js", Args: []string{strconv.Itoa(lines)}})
			if err != nil {
				b.Fatal(err)
			}
			<-s.Done()
			if sum := s.Summary(); sum.Events != ring {
				b.Fatalf("%d events retained, want a full ring of %d", sum.Events, ring)
			}
			kept = append(kept, s)
		}
		grown := liveHeap() - before
		perSession = float64(grown) / sessions
		perEvent = perSession / ring
		runtime.KeepAlive(kept)
		done()
	}
	b.ReportMetric(perSession/(1<<20), "MiB/session")
	b.ReportMetric(perEvent, "B/event")
}

// liveHeap is the bytes of live heap objects after a full collection.
func liveHeap() uint64 {
	runtime.GC()
	runtime.GC()
	s := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	metrics.Read(s)
	return s[0].Value.Uint64()
}
