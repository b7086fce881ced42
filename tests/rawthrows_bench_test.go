package tests

import (
	"context"
	"encoding/json"
	"sync/atomic"
	"testing"
	"time"

	"traced/internal/engine"
)

// BenchmarkRawVsTracedThrows: 1,000 exceptions thrown and caught in user code, spawn to exit,
// raw against traced in the same run. Raw pauses at every exception and resumes at once (a
// goroutine sends the resume, as the reader must not wait); traced records throw events at its
// default cap (100 a second: most throws are passed, counted) and, in "-recorded", every one
// with its locals. The goal is traced within 1.2x of raw.
func BenchmarkRawVsTracedThrows(b *testing.B) {
	const throws = "1000"
	svc, _, done := benchHarness(b)
	defer done()
	rawOp := func() time.Duration {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
		defer cancel()
		t0 := time.Now()
		p := startRawWith(ctx, b, "--inspect-wait=127.0.0.1:0", "throws/many.js", throws)
		var pauses atomic.Int64
		ending := make(chan struct{})
		var c *rawConn
		ready := make(chan struct{})
		c = dialRaw(ctx, b, p.url, func(method string, _ json.RawMessage) {
			switch method {
			case "Debugger.paused":
				pauses.Add(1)
				go func() {
					<-ready
					c.call(ctx, "Debugger.resume", nil, nil)
				}()
			case "NodeRuntime.waitingForDisconnect":
				close(ending)
			}
		})
		close(ready)
		c.must(ctx, b, "Runtime.enable", "Debugger.enable", "Debugger.setPauseOnExceptions",
			"NodeRuntime.notifyWhenWaitingForDisconnect", "Runtime.runIfWaitingForDebugger")
		select {
		case <-ending:
		case <-p.exited:
		case <-ctx.Done():
			b.Fatal("raw: many.js did not end")
		}
		c.close()
		<-p.exited
		if n := pauses.Load(); n < 1000 {
			b.Fatalf("raw: %d exception pauses, want 1000", n)
		}
		return time.Since(t0)
	}
	traced := func(opts *engine.ThrowOptions) func() time.Duration {
		return func() time.Duration {
			t0 := time.Now()
			s := runTraced(b, svc, engine.StartRequest{Target: "throws/many.js", Args: []string{throws}, Throws: opts})
			d := time.Since(t0)
			if sum := s.Summary(); sum.Counts[engine.KindThrow]+sum.ThrowsSkipped != 1000 {
				b.Fatalf("traced: %d throw events and %d skipped, want 1000", sum.Counts[engine.KindThrow], sum.ThrowsSkipped)
			}
			svc.Engine.Stop(context.Background(), s.ID())
			return d
		}
	}
	var capped, recorded sideBySide
	for b.Loop() {
		capped.both(rawOp, traced(nil))
		recorded.both(rawOp, traced(&engine.ThrowOptions{PerSecond: 100_000}))
	}
	capped.report(b, "ms")
	recorded.report(b, "ms", "-recorded")
}
