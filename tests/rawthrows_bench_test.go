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
// with its locals, against a raw client that reads the same scopes at every pause (its reads
// and the resume sent back to back, the quickest a client can). The goal is traced
// within 1.2x of raw. "-sameflags" runs the raw side with the flags traced gives node
// (--enable-source-maps: node then formats each thrown error's stack through its source maps,
// which every exception pause asks for), so that ratio is what traced's protocol work costs.
func BenchmarkRawVsTracedThrows(b *testing.B) {
	const throws = "1000"
	svc, _, done := benchHarness(b)
	defer done()
	raw := func(locals bool, flags ...string) func() time.Duration {
		return func() time.Duration { return rawThrows(b, throws, locals, flags...) }
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
	var capped, recorded, sameFlags sideBySide
	for b.Loop() {
		capped.both(raw(false), traced(nil))
		recorded.both(raw(true), traced(&engine.ThrowOptions{PerSecond: 100_000}))
		sameFlags.both(raw(false, "--enable-source-maps"), traced(nil))
	}
	capped.report(b, "ms")
	recorded.report(b, "ms", "-recorded")
	sameFlags.report(b, "ms", "-sameflags")
}

// rawThrows runs throws/many.js under the bare client (node given flags), pausing at every
// exception; with locals it reads the top frame's scopes up to its own (what traced reads for a
// throw's locals), the reads and the resume sent back to back.
func rawThrows(b *testing.B, throws string, locals bool, flags ...string) time.Duration {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	t0 := time.Now()
	p := startRawWith(ctx, b, "--inspect-wait=127.0.0.1:0", append(flags, "throws/many.js", throws)...)
	var pauses atomic.Int64
	ending := make(chan struct{})
	var c *rawConn
	ready := make(chan struct{})
	c = dialRaw(ctx, b, p.url, func(method string, params json.RawMessage) {
		switch method {
		case "Debugger.paused":
			pauses.Add(1)
			var scopes []string
			if locals {
				scopes = rawLocalScopes(params)
			}
			go func() {
				<-ready
				var replies []<-chan rawReply
				for _, id := range scopes {
					if ch, err := c.send(ctx, "Runtime.getProperties", map[string]any{
						"objectId": id, "ownProperties": true, "generatePreview": true}); err == nil {
						replies = append(replies, ch)
					}
				}
				c.call(ctx, "Debugger.resume", nil, nil)
				for _, ch := range replies {
					select {
					case <-ch:
					case <-ctx.Done():
					}
				}
			}()
		case "NodeRuntime.waitingForDisconnect":
			close(ending)
		}
	})
	close(ready)
	c.must(ctx, b, "Runtime.enable", "Debugger.enable", "Debugger.setPauseOnExceptions",
		"NodeRuntime.notifyWhenWaitingForDisconnect", "Runtime.runIfWaitingForDebugger")
	p.end(ctx, b, c, ending)
	if n := pauses.Load(); n < 1000 {
		b.Fatalf("raw: %d exception pauses, want 1000", n)
	}
	return time.Since(t0)
}

// rawLocalScopes lists the object ids of a pause's top frame's scopes that traced reads for a
// throw's locals: up to the function's own, neither global, script nor closure ones.
func rawLocalScopes(params json.RawMessage) []string {
	var p struct {
		CallFrames []struct {
			ScopeChain []struct {
				Type   string `json:"type"`
				Object struct {
					ObjectID string `json:"objectId"`
				} `json:"object"`
			} `json:"scopeChain"`
		} `json:"callFrames"`
	}
	if json.Unmarshal(params, &p) != nil || len(p.CallFrames) == 0 {
		return nil
	}
	var ids []string
	for _, sc := range p.CallFrames[0].ScopeChain {
		switch sc.Type {
		case "global", "script", "closure":
			continue
		}
		ids = append(ids, sc.Object.ObjectID)
		if sc.Type == "local" {
			break
		}
	}
	return ids
}
