package tests

import (
	"context"
	"os/exec"
	"testing"
	"time"

	"traced/internal/engine"
)

// BenchmarkForkMany: a program that forks 50 short-lived children, one after another, from
// spawn to exit: untraced (node alone), traced with children let run (children: false) and
// traced following each child, side by side in one run.
func BenchmarkForkMany(b *testing.B) {
	node := nodeOrSkip(b)
	b.Run("untraced", func(b *testing.B) {
		for b.Loop() {
			cmd := exec.Command(node, "forkmany.js", "50")
			cmd.Dir = "testdata"
			if err := cmd.Run(); err != nil {
				b.Fatal(err)
			}
		}
	})
	for _, follow := range []bool{false, true} {
		name := map[bool]string{false: "traced-children-off", true: "traced-following"}[follow]
		b.Run(name, func(b *testing.B) {
			svc, _, done := benchHarness(b)
			defer done()
			ctx := context.Background()
			for b.Loop() {
				s, err := svc.Engine.Start(ctx, engine.StartRequest{Target: "forkmany.js", Args: []string{"50"}, Children: &follow})
				if err != nil {
					b.Fatal(err)
				}
				select {
				case <-s.Done():
				case <-time.After(time.Minute):
					b.Fatal("no exit within a minute")
				}
				if c := s.Summary().Counts[engine.KindTarget]; follow && c < 100 {
					b.Fatalf("%d target events, want an attach and an exit per child", c)
				}
			}
		})
	}
}
