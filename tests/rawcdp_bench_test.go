package tests

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"time"

	"traced/internal/engine"
	"traced/internal/service"
)

// BenchmarkRawVsTraced puts traced beside a bare CDP client (rawcdp_test.go) in the same run,
// the two alternating within every iteration so that a noisy machine slows both alike. Each
// sub-benchmark reports the median time per operation of each side and their ratio (traced /
// raw), the figures of issue 16:
//
//	console  node count.js 100000, spawn to exit, every console call and stdout line captured
//	eval     one paused evaluateOnCallFrame against POST /api/debug/{s}/eval (also: the
//	         engine's own eval with no HTTP, and an HTTP request with nothing to do)
//	step     stepOver to the next Debugger.paused against POST /api/debug/{s}/step
//	start    spawn to the first pause (--inspect-brk) against POST /api/trace/start pauseOnStart
//	loop     what cpuloop.js measures of its own loops under each (and with no inspector at all)
//
// Run: make bench BENCH=RawVsTraced; console is one run of each side (~10 s), so on a busy
// machine BENCH=RawVsTraced/console BENCHFLAGS=-benchtime=5x gives its median of five.
func BenchmarkRawVsTraced(b *testing.B) {
	b.Run("console", benchConsole)
	b.Run("eval", benchEval)
	b.Run("step", benchStep)
	b.Run("start", benchStart)
	b.Run("loop", benchLoop)
}

// sideBySide keeps both sides' times over the iterations of one sub-benchmark.
type sideBySide struct {
	raw, traced []time.Duration
}

// both runs raw then traced, or traced first on odd iterations, keeping each one's duration.
func (s *sideBySide) both(raw, traced func() time.Duration) {
	if len(s.raw)%2 == 0 {
		s.raw = append(s.raw, raw())
		s.traced = append(s.traced, traced())
	} else {
		s.traced = append(s.traced, traced())
		s.raw = append(s.raw, raw())
	}
}

// report gives the median of each side in unit ("ms" or "us") and their ratio traced / raw,
// each metric's name ending in suffix. Medians: a neighbour's burst on this shared machine
// lands on a few iterations of one side, and would move a mean.
func (s *sideBySide) report(b *testing.B, unit string, suffix ...string) {
	end := strings.Join(suffix, "")
	scale := map[string]time.Duration{"ms": time.Millisecond, "us": time.Microsecond}[unit]
	raw, traced := median(s.raw), median(s.traced) // cli_bench_test.go's: the upper one of an even count
	b.ReportMetric(float64(raw)/float64(scale), "raw-"+unit+"/op"+end)
	b.ReportMetric(float64(traced)/float64(scale), "traced-"+unit+"/op"+end)
	b.ReportMetric(float64(traced)/float64(raw), "ratio"+end)
}

// rawRun runs a fixture to its end under the bare client with what a trace session with throw
// events off sets (internal/engine/manager.go, throws.go: Runtime and Debugger on, every pause
// skipped, the notice that node waits for its debugger to leave), hangs up at that notice and
// waits for the exit. It answers the time from spawn to exit and the console calls.
func rawRun(b *testing.B, args ...string) (time.Duration, int, *lineSink) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	t0 := time.Now()
	p := startRaw(ctx, b, args...)
	consoles := 0 // written by the reader only; read once close has waited for it
	ending := make(chan struct{})
	c := dialRaw(ctx, b, p.url, func(method string, _ json.RawMessage) {
		switch method {
		case "Runtime.consoleAPICalled":
			consoles++
		case "NodeRuntime.waitingForDisconnect":
			close(ending)
		}
	})
	c.must(ctx, b, "Runtime.enable", "Debugger.enable", "Debugger.setSkipAllPauses",
		"NodeRuntime.notifyWhenWaitingForDisconnect", "Runtime.runIfWaitingForDebugger")
	p.end(ctx, b, c, ending)
	return time.Since(t0), consoles, p.stdout
}

// tracedRun runs a fixture to its end in a trace session (throw events on, as by default),
// spawn to exit as the service sees it. The caller stops the session once it has read it.
func tracedRun(b *testing.B, svc *service.Service, target string, args ...string) (time.Duration, *engine.Session) {
	t0 := time.Now()
	s := runTraced(b, svc, engine.StartRequest{Target: target, Args: args})
	return time.Since(t0), s
}

func benchConsole(b *testing.B) {
	const lines = 100_000
	svc, _, done := benchHarness(b)
	defer done()
	var s sideBySide
	for b.Loop() {
		s.both(func() time.Duration {
			d, consoles, out := rawRun(b, "count.js", strconv.Itoa(lines))
			if n, _ := out.counts(); consoles != lines || n != lines {
				b.Fatalf("raw: %d console calls and %d stdout lines, want %d of each", consoles, n, lines)
			}
			return d
		}, func() time.Duration {
			d, ses := tracedRun(b, svc, "count.js", strconv.Itoa(lines))
			if sum := ses.Summary(); sum.Counts[engine.KindConsole] != lines || sum.Counts[engine.KindStdout] != lines {
				b.Fatalf("traced: counts %v, want %d console and %d stdout events", sum.Counts, lines, lines)
			}
			svc.Engine.Stop(context.Background(), ses.ID()) // frees its events before the next run
			return d
		})
	}
	s.report(b, "ms")
}

// rawPaused is node paused at a script's first line under the bare client, for eval and step.
type rawPaused struct {
	conn   *rawConn
	pauses chan string
	frame  string // top callFrameId of the current pause
}

func startRawPaused(b *testing.B, script string) *rawPaused {
	ctx, cancel := context.WithTimeout(context.Background(), deadline)
	defer cancel()
	p := startRaw(ctx, b, script)
	r := &rawPaused{pauses: make(chan string, 4)}
	done := make(chan struct{})
	r.conn = dialRaw(ctx, b, p.url, rawPauses(r.pauses, done))
	b.Cleanup(func() { close(done) }) // runs before the conn's close (cleanups run last first)
	r.conn.must(ctx, b, "Runtime.enable", "Debugger.enable", "Runtime.runIfWaitingForDebugger")
	r.waitPause(b)
	return r
}

func (r *rawPaused) waitPause(b *testing.B) {
	select {
	case r.frame = <-r.pauses:
	case <-time.After(deadline):
		b.Fatal("raw: no pause")
	}
}

// pausedSides is steploop.js paused at its first line on both sides: in a debug session of a
// service (base: the session's REST URL) and under the bare client. Cleanups end both.
type pausedSides struct {
	svc    *service.Service
	addr   string
	base   string
	client *http.Client
	raw    *rawPaused
}

func startPausedSides(b *testing.B) *pausedSides {
	svc, addr, done := benchHarness(b)
	b.Cleanup(done)
	ctx := context.Background()
	s, err := svc.Engine.Start(ctx, engine.StartRequest{Target: "steploop.js", Mode: engine.ModeDebug, PauseOnStart: true})
	if err != nil {
		b.Fatal(err)
	}
	client := &http.Client{Transport: &http.Transport{}}
	b.Cleanup(func() { // before the service's shutdown
		client.CloseIdleConnections()
		svc.Engine.Stop(ctx, s.ID())
	})
	return &pausedSides{svc: svc, addr: addr, base: "http://" + addr + "/api/debug/" + s.ID(), client: client,
		raw: startRawPaused(b, "steploop.js")}
}

// benchPostBody is benchPost answering the body.
func benchPostBody(b *testing.B, client *http.Client, url, body string) string {
	resp, err := client.Post(url, "application/json", strings.NewReader(body))
	if err != nil {
		b.Fatal(err)
	}
	defer resp.Body.Close()
	answer, err := io.ReadAll(resp.Body)
	if err != nil || resp.StatusCode != http.StatusOK {
		b.Fatalf("POST %s: %d %v", url, resp.StatusCode, err)
	}
	return string(answer)
}

// timed answers how long f took.
func timed(f func()) time.Duration {
	t0 := time.Now()
	f()
	return time.Since(t0)
}

func benchEval(b *testing.B) {
	p := startPausedSides(b)
	svc, base, client, raw := p.svc, p.base, p.client, p.raw
	ctx := context.Background()
	var s sideBySide
	rawOp := func() time.Duration {
		return timed(func() {
			var res struct {
				Result struct {
					Type string `json:"type"`
				} `json:"result"`
				ExceptionDetails any `json:"exceptionDetails"`
			}
			// The parameters traced's eval sends (internal/engine/eval.go).
			err := raw.conn.call(ctx, "Debugger.evaluateOnCallFrame", map[string]any{"callFrameId": raw.frame,
				"expression": "n + 1", "generatePreview": true, "objectGroup": "bench", "timeout": 10000}, &res)
			if err != nil || res.Result.Type != "number" || res.ExceptionDetails != nil {
				b.Fatalf("raw eval: %v %+v", err, res)
			}
		})
	}
	tracedOp := func() time.Duration {
		return timed(func() { benchPost(b, client, base+"/eval", `{"expression":"n + 1"}`) })
	}
	// The engine's own eval, no HTTP: what the REST layer adds is traced minus this.
	ses, err := svc.Engine.Get(base[strings.LastIndex(base, "/")+1:])
	if err != nil {
		b.Fatal(err)
	}
	var engineSide []time.Duration
	engineOp := func() {
		engineSide = append(engineSide, timed(func() {
			if _, err := ses.Main().Inspector().Eval(ctx, engine.EvalSpec{Expression: "n + 1"}); err != nil {
				b.Fatalf("engine eval: %v", err)
			}
		}))
	}
	// Into the loop on both sides, where n is set (node 22's first break is before `let n`).
	for range 2 {
		if err := raw.conn.call(ctx, "Debugger.stepOver", nil, nil); err != nil {
			b.Fatal(err)
		}
		raw.waitPause(b)
		benchPost(b, client, base+"/step", `{"kind":"over"}`)
	}
	rawOp() // a warm-up: the first HTTP connection, the first request of each kind
	tracedOp()
	if answer := benchPostBody(b, client, base+"/eval", `{"expression":"n + 1"}`); !strings.Contains(answer, `"type":"number"`) {
		b.Fatalf("traced eval answered %s, want a number", answer)
	}
	// The HTTP floor: a request the service answers with nothing to do (GET /healthz), on the
	// same client and connection. traced - engine - http is the eval route's own work
	// (authentication, contract validation, decoding, rendering).
	health := "http://" + p.addr + "/healthz"
	var httpSide []time.Duration
	httpOp := func() {
		httpSide = append(httpSide, timed(func() {
			resp, err := client.Get(health)
			if err != nil {
				b.Fatal(err)
			}
			io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
		}))
	}
	for b.Loop() {
		s.both(rawOp, tracedOp)
		engineOp()
		httpOp()
	}
	s.report(b, "us")
	b.ReportMetric(float64(median(engineSide))/float64(time.Microsecond), "engine-us/op")
	b.ReportMetric(float64(median(httpSide))/float64(time.Microsecond), "http-us/op")
}

func benchStep(b *testing.B) {
	p := startPausedSides(b)
	base, client, raw := p.base, p.client, p.raw
	ctx := context.Background()
	var s sideBySide
	rawOp := func() time.Duration {
		return timed(func() {
			if err := raw.conn.call(ctx, "Debugger.stepOver", nil, nil); err != nil {
				b.Fatal(err)
			}
			raw.waitPause(b)
		})
	}
	tracedOp := func() time.Duration {
		return timed(func() { benchPost(b, client, base+"/step", `{"kind":"over"}`) })
	}
	rawOp() // a warm-up: the first HTTP connection, the first request of each kind
	tracedOp()
	for b.Loop() {
		s.both(rawOp, tracedOp)
	}
	s.report(b, "us")
}

func benchStart(b *testing.B) {
	svc, addr, done := benchHarness(b)
	defer done()
	client := &http.Client{Transport: &http.Transport{}}
	defer client.CloseIdleConnections()
	ctx := context.Background()
	var s sideBySide
	rawOp := func() time.Duration {
		ctx, cancel := context.WithTimeout(ctx, deadline)
		defer cancel()
		t0 := time.Now()
		p := startRaw(ctx, b, "debugme.js")
		pauses, gone := make(chan string, 1), make(chan struct{})
		defer close(gone)
		c := dialRaw(ctx, b, p.url, rawPauses(pauses, gone))
		c.must(ctx, b, "Runtime.enable", "Debugger.enable", "Runtime.runIfWaitingForDebugger")
		select {
		case <-pauses:
		case <-ctx.Done():
			b.Fatal("raw: no first pause")
		}
		d := time.Since(t0)
		c.close()
		p.kill()
		return d
	}
	tracedOp := func() time.Duration {
		t0 := time.Now()
		resp, err := client.Post("http://"+addr+"/api/trace/start", "application/json",
			strings.NewReader(`{"target":"debugme.js","mode":"debug","pauseOnStart":true}`))
		if err != nil {
			b.Fatal(err)
		}
		var res struct {
			Session struct {
				ID     string
				Status engine.Status
			}
		}
		err = json.NewDecoder(resp.Body).Decode(&res)
		resp.Body.Close()
		d := time.Since(t0)
		if err != nil || resp.StatusCode != http.StatusCreated || res.Session.Status != engine.StatusPaused {
			b.Fatalf("start: %d %+v %v", resp.StatusCode, res, err)
		}
		svc.Engine.Stop(ctx, res.Session.ID)
		return d
	}
	rawOp() // a warm-up: the first HTTP connection, the first request of each kind
	tracedOp()
	for b.Loop() {
		s.both(rawOp, tracedOp)
	}
	s.report(b, "ms")
}

// loopMs reads the top-level and in-function milliseconds of cpuloop.js's line.
func loopMs(b *testing.B, line string) (top, fn time.Duration) {
	var t, f float64
	if _, err := fmt.Sscanf(line, "top %g fn %g", &t, &f); err != nil {
		b.Fatalf("cpuloop printed %q: %v", line, err)
	}
	return time.Duration(t * float64(time.Millisecond)), time.Duration(f * float64(time.Millisecond))
}

// benchLoop reports the loop's own time with the script's top level ("-top") and in a function
// ("-fn"), and node alone with no inspector (untraced-).
func benchLoop(b *testing.B) {
	svc, _, done := benchHarness(b)
	defer done()
	var top, fn sideBySide
	var alone sideBySide // top level as raw, in a function as traced: node with no inspector
	for b.Loop() {
		for range 3 { // samples per iteration: one takes about a second
			var rawFn, tracedFn time.Duration
			top.both(func() time.Duration {
				_, _, out := rawRun(b, "cpuloop.js")
				_, line := out.counts()
				t, f := loopMs(b, line)
				rawFn = f
				return t
			}, func() time.Duration {
				_, ses := tracedRun(b, svc, "cpuloop.js")
				p := ses.Timeline().Events(0, engine.Filter{Kinds: engine.KindSet{engine.KindStdout: true}}, 1)
				if len(p.Events) == 0 {
					b.Fatal("traced: cpuloop.js printed nothing")
				}
				t, f := loopMs(b, p.Events[0].Output.Text.Value)
				svc.Engine.Stop(context.Background(), ses.ID())
				tracedFn = f
				return t
			})
			fn.both(func() time.Duration { return rawFn }, func() time.Duration { return tracedFn })
			out, err := execNode(b, "cpuloop.js")
			if err != nil {
				b.Fatal(err)
			}
			t, f := loopMs(b, out)
			alone.raw, alone.traced = append(alone.raw, t), append(alone.traced, f)
		}
	}
	top.report(b, "ms", "-top")
	fn.report(b, "ms", "-fn")
	b.ReportMetric(float64(median(alone.raw))/float64(time.Millisecond), "untraced-ms/op-top")
	b.ReportMetric(float64(median(alone.traced))/float64(time.Millisecond), "untraced-ms/op-fn")
}

// execNode runs node on args in testdata with no inspector and answers its output.
func execNode(b *testing.B, args ...string) (string, error) {
	ctx, cancel := context.WithTimeout(context.Background(), deadline)
	defer cancel()
	cmd := exec.CommandContext(ctx, nodeOrSkip(b), args...)
	cmd.Dir = "testdata"
	out, err := cmd.Output()
	if err != nil {
		return "", fmt.Errorf("node %v: %w", args, err)
	}
	return string(out), nil
}
