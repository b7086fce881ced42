package tests

import (
	"testing"

	"traced/internal/engine"
)

// BenchmarkThrows: a program that throws and catches 1,000 exceptions in user code, spawn to
// exit: untraced (node alone), traced with throw events off (exceptions do not pause) and on
// (each throw pauses, is recorded with its locals up to the rate cap, and resumes), side by side.
func BenchmarkThrows(b *testing.B) {
	b.Run("untraced", func(b *testing.B) { runUntraced(b, "throws/many.js", "1000") })
	for _, c := range []struct {
		name string
		opts *engine.ThrowOptions
	}{
		{"traced-throws-off", &engine.ThrowOptions{Off: true}},
		{"traced-throws-on", nil},
		{"traced-throws-all-recorded", &engine.ThrowOptions{PerSecond: 100000}},
	} {
		b.Run(c.name, func(b *testing.B) {
			svc, _, done := benchHarness(b)
			defer done()
			for b.Loop() {
				s := runTraced(b, svc, engine.StartRequest{Target: "throws/many.js", Args: []string{"1000"}, Throws: c.opts})
				if n := s.Summary().Counts[engine.KindThrow]; c.opts != nil && c.opts.Off && n != 0 {
					b.Fatalf("%d throw events with throws off", n)
				}
			}
		})
	}
}
