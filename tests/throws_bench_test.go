package tests

import (
	"context"
	"os/exec"
	"testing"
	"time"

	"traced/internal/engine"
)

// BenchmarkThrows: a program that throws and catches 1,000 exceptions in user code, spawn to
// exit: untraced (node alone), traced with throw events off (exceptions do not pause) and on
// (each throw pauses, is recorded with its locals up to the rate cap, and resumes), side by side.
func BenchmarkThrows(b *testing.B) {
	node := nodeOrSkip(b)
	b.Run("untraced", func(b *testing.B) {
		for b.Loop() {
			cmd := exec.Command(node, "throws/many.js", "1000")
			cmd.Dir = "testdata"
			if err := cmd.Run(); err != nil {
				b.Fatal(err)
			}
		}
	})
	for _, c := range []struct {
		name string
		opts *engine.ThrowOptions
	}{
		{"traced-throws-off", nil},
		{"traced-throws-on", &engine.ThrowOptions{}},
		{"traced-throws-all-recorded", &engine.ThrowOptions{PerSecond: 100000}},
	} {
		b.Run(c.name, func(b *testing.B) {
			svc, _, done := benchHarness(b)
			defer done()
			ctx := context.Background()
			for b.Loop() {
				s, err := svc.Engine.Start(ctx, engine.StartRequest{Target: "throws/many.js", Args: []string{"1000"}, Throws: c.opts})
				if err != nil {
					b.Fatal(err)
				}
				select {
				case <-s.Done():
				case <-time.After(time.Minute):
					b.Fatal("no exit within a minute")
				}
				if n := s.Summary().Counts[engine.KindThrow]; c.opts == nil && n != 0 {
					b.Fatalf("%d throw events with throws off", n)
				}
			}
		})
	}
}
