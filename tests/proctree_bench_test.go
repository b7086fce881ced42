package tests

import (
	"context"
	"os/exec"
	"strings"
	"testing"
	"time"

	"traced/internal/engine"
	"traced/internal/service"
)

// BenchmarkForkMany: a program that forks 50 short-lived children, one after another, from
// spawn to exit: untraced (node alone), traced with children let run (children: false) and
// traced following each child, side by side in one run.
func BenchmarkForkMany(b *testing.B) {
	b.Run("untraced", func(b *testing.B) { runUntraced(b, "forkmany.js", "50") })
	for _, follow := range []bool{false, true} {
		name := map[bool]string{false: "traced-children-off", true: "traced-following"}[follow]
		b.Run(name, func(b *testing.B) {
			svc, _, done := benchHarness(b)
			defer done()
			for b.Loop() {
				s := runTraced(b, svc, engine.StartRequest{Target: "forkmany.js", Args: []string{"50"}, Children: &follow})
				if c := s.Summary().Counts[engine.KindTarget]; follow && c < 100 {
					b.Fatalf("%d target events, want an attach and an exit per child", c)
				}
			}
		})
	}
}

// BenchmarkTreeStart: a program that starts 4 worker threads and forks 4 children at once: the
// time from the start request to the first console event of each (main, the 4 workers, the 4
// children), reported as the mean per target kind and the slowest. In a trace session, and in a
// debug session with a breakpoint (never hit) each target binds before it runs.
func BenchmarkTreeStart(b *testing.B) {
	for _, mode := range []string{engine.ModeTrace, engine.ModeDebug} {
		b.Run(mode, func(b *testing.B) {
			req := engine.StartRequest{Target: "fanout.js", Mode: mode}
			if mode == engine.ModeDebug {
				req.Breakpoints = []engine.BreakpointSpec{{Location: "fanout.js:16"}}
			}
			treeStart(b, req)
		})
	}
}

func treeStart(b *testing.B, req engine.StartRequest) {
	svc, _, done := benchHarness(b)
	defer done()
	ctx := context.Background()
	var mainT, workerT, childT, slowest time.Duration
	for b.Loop() {
		begin := time.Now()
		s, err := svc.Engine.Start(ctx, req)
		if err != nil {
			b.Fatal(err)
		}
		seen, after := 0, uint64(0)
		for seen < 9 {
			wctx, cancel := context.WithTimeout(ctx, 30*time.Second)
			p, err := s.Timeline().Wait(wctx, after, engine.Filter{Kinds: engine.KindSet{engine.KindConsole: true}})
			cancel()
			if err != nil || len(p.Events) == 0 {
				b.Fatalf("%d of 9 first events, then %v", seen, err)
			}
			ev := p.Events[0]
			after = ev.Seq
			d := ev.Time.Sub(begin)
			text := ev.Console.Text.Value
			if text == "main hello" {
				mainT += d
			} else if text == "worker hello" {
				workerT += d / 4
			} else if strings.HasPrefix(text, "child hello") {
				childT += d / 4
			} else {
				continue
			}
			seen++
			if d > slowest {
				slowest = d
			}
		}
		b.StopTimer()
		if _, err := svc.Engine.Stop(ctx, s.ID()); err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
	}
	n := time.Duration(b.N)
	b.ReportMetric(float64((mainT / n).Milliseconds()), "main-ms")
	b.ReportMetric(float64((workerT / n).Milliseconds()), "worker-ms")
	b.ReportMetric(float64((childT / n).Milliseconds()), "child-ms")
	b.ReportMetric(float64(slowest.Milliseconds()), "slowest-ms")
}

// runUntraced runs node on a fixture of testdata to its end, once per benchmark iteration.
func runUntraced(b *testing.B, args ...string) {
	node := nodeOrSkip(b)
	for b.Loop() {
		cmd := exec.Command(node, args...)
		cmd.Dir = "testdata"
		if err := cmd.Run(); err != nil {
			b.Fatal(err)
		}
	}
}

// runTraced starts a session and waits for its end (a minute at most).
func runTraced(b *testing.B, svc *service.Service, req engine.StartRequest) *engine.Session {
	b.Helper()
	s, err := svc.Engine.Start(context.Background(), req)
	if err != nil {
		b.Fatal(err)
	}
	select {
	case <-s.Done():
	case <-time.After(time.Minute):
		b.Fatal("no exit within a minute")
	}
	return s
}
