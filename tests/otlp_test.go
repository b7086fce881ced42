package tests

import (
	"context"
	"fmt"
	"io"
	"maps"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
	"time"

	"go.opentelemetry.io/otel/sdk/trace/tracetest"

	"traced/api"
	"traced/internal/engine"
	"traced/internal/otlpexport"
	"traced/internal/service"
)

// TestOTLPUnreachableCollector: with export on and no collector, a session captures exactly what
// it captures with export off, and what could not be sent is counted, in the session's summary
// and in the status.
func TestOTLPUnreachableCollector(t *testing.T) {
	t.Parallel()
	const lines = 500
	h := newHarness(t, func(o *service.Options) {
		o.OTLP = &otlpexport.Options{Endpoint: "http://" + closedAddr(t), QueueSize: 64, BatchTimeout: 10 * time.Millisecond}
	})
	sum := h.start(api.StartRequest{Target: "count.js", Args: []string{fmt.Sprint(lines)}, MaxEvents: 5000})
	end := h.waitExit(sum.ID)
	if end.Counts[api.KindConsole] != lines || end.Counts[api.KindStdout] != lines || end.Dropped != 0 ||
		end.ExitCode == nil || *end.ExitCode != 0 {
		t.Fatalf("capture with export to nowhere: %+v, want %d console and stdout events, none dropped, exit 0", end, lines)
	}
	ctx, cancel := context.WithTimeout(context.Background(), deadline)
	defer cancel()
	h.svc.Export.Flush(ctx) // its error is the failed export's, unless that came before it
	if ctx.Err() != nil {
		t.Fatal("flush to no collector: out of time")
	}
	// Every exported event went past the queue or onto the root span, which was not sent: the
	// console and stdout lines, the exit, and one for the span itself, at least.
	got := h.trace(sum.ID, "exit").Session.Export
	if got == nil || got.Spans != 0 || got.Events != 0 || got.Dropped < 2*lines+2 {
		t.Errorf("summary export %+v, want nothing sent and at least %d dropped", got, 2*lines+2)
	}
	if _, text := h.text("GET", "/api/trace?id="+sum.ID+"&kinds=exit", nil, true); !strings.Contains(text, fmt.Sprintf(", %d not exported", got.Dropped)) {
		t.Errorf("the session's line does not tell what the export lost:\n%s", text)
	}
	var st api.StatusResponse
	h.call("GET", "/api/trace/status", nil, &st)
	if st.Export == nil || st.Export.Dropped != got.Dropped || st.Export.LastError == "" || st.Export.QueueSize != 64 {
		t.Errorf("status export %+v, want the session's %d dropped and the error", st.Export, got.Dropped)
	}
}

// otlpSink is a collector that takes every export and keeps nothing.
func otlpSink(b *testing.B) string {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n, _ := io.Copy(io.Discard, r.Body)
		if n == 0 {
			w.WriteHeader(http.StatusBadRequest)
			return
		}
		w.Header().Set("Content-Type", "application/x-protobuf")
		w.WriteHeader(http.StatusOK)
	}))
	b.Cleanup(srv.Close)
	return srv.URL
}

// BenchmarkOTLPExport is BenchmarkConsoleCapture's loop (console.log(i) 100,000 times) on two
// services side by side in one run, the OTLP export off on one and on in the other (to a local
// collector that takes everything); each op runs the program once on each, in turns, so that
// load on the machine weighs on both alike. The goal: console/s-on within 5% of console/s-off
// (on/off >= 0.95). sent and dropped are the span events per run that reached the collector and
// that did not (past the span event cap: the root span keeps the newest 1000).
func BenchmarkOTLPExport(b *testing.B) {
	const lines = 100_000
	off, _, doneOff := benchHarness(b)
	defer doneOff()
	on, _, doneOn := benchHarness(b, func(o *service.Options) { o.OTLP = &otlpexport.Options{Endpoint: otlpSink(b)} })
	defer doneOn()
	var elapsed [2]time.Duration
	var sent, dropped int
	run := func(i int, svc *service.Service) {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
		defer cancel()
		t0 := time.Now()
		s, err := svc.Engine.Start(ctx, engine.StartRequest{Target: "count.js", Args: []string{fmt.Sprint(lines)}})
		if err != nil {
			b.Fatal(err)
		}
		<-s.Done()
		elapsed[i] += time.Since(t0)
		if n := s.Summary().Counts[engine.KindConsole]; n != lines {
			b.Fatalf("captured %d console events, want %d", n, lines)
		}
		if svc.Export != nil {
			if err := svc.Export.Flush(ctx); err != nil {
				b.Fatal(err)
			}
			x := svc.Export.Counts(s.ID())
			sent += x.Events
			dropped += x.Dropped
		}
		svc.Engine.Stop(context.Background(), s.ID())
	}
	n := 0
	for b.Loop() {
		if n%2 == 0 {
			run(0, off)
			run(1, on)
		} else {
			run(1, on)
			run(0, off)
		}
		n++
	}
	rateOff := float64(n*lines) / elapsed[0].Seconds()
	rateOn := float64(n*lines) / elapsed[1].Seconds()
	b.ReportMetric(rateOff, "console/s-off")
	b.ReportMetric(rateOn, "console/s-on")
	b.ReportMetric(rateOn/rateOff, "on/off")
	b.ReportMetric(float64(sent)/float64(n), "sent/run")
	b.ReportMetric(float64(dropped)/float64(n), "dropped/run")
}

// keptSpans is the SDK's in-memory exporter, keeping its spans past the provider's shutdown.
type keptSpans struct{ *tracetest.InMemoryExporter }

func (keptSpans) Shutdown(context.Context) error { return nil }

// TestOTLPProcessTree: each worker of a session is a span of its trace, holding its own events.
func TestOTLPProcessTree(t *testing.T) {
	t.Parallel()
	mem := keptSpans{tracetest.NewInMemoryExporter()}
	h := newHarness(t, func(o *service.Options) {
		o.OTLP = &otlpexport.Options{SpanExporter: mem, BatchTimeout: 10 * time.Millisecond}
	})
	sum := h.start(api.StartRequest{Target: "workers.js"})
	h.waitExit(sum.ID)
	ctx, cancel := context.WithTimeout(context.Background(), deadline)
	defer cancel()
	if err := h.svc.Export.Flush(ctx); err != nil {
		t.Fatal(err)
	}
	spans := map[string]tracetest.SpanStub{}
	for _, s := range mem.GetSpans() {
		spans[strings.Fields(s.Name)[0]+" "+strings.Fields(s.Name)[1]] = s
	}
	root, t1, t2 := spans["node workers.js"], spans["worker t1"], spans["worker t2"]
	if !root.SpanContext.IsValid() || !t1.SpanContext.IsValid() || !t2.SpanContext.IsValid() {
		t.Fatalf("want the root span and a span for each worker, got %v", slices.Collect(maps.Keys(spans)))
	}
	for _, w := range []tracetest.SpanStub{t1, t2} {
		if w.Parent.SpanID() != root.SpanContext.SpanID() || w.SpanContext.TraceID() != root.SpanContext.TraceID() {
			t.Errorf("%s is not a child of the session's root span", w.Name)
		}
	}
	has := func(s tracetest.SpanStub, name, key, value string) bool {
		for _, ev := range s.Events {
			for _, a := range ev.Attributes {
				if ev.Name == name && string(a.Key) == key && strings.Contains(a.Value.Emit(), value) {
					return true
				}
			}
		}
		return false
	}
	if !has(t1, "console", "console.text", "worker: hello") || has(root, "console", "console.text", "worker: hello") {
		t.Errorf("the worker's console line is not on its own span: %+v", t1.Events)
	}
	if !has(t2, "console", "console.text", "nested: hello") {
		t.Errorf("the nested worker's line is not on its span: %+v", t2.Events)
	}
	if !has(root, "console", "console.text", "main: starting worker") {
		t.Errorf("the main thread's line is not on the root span: %+v", root.Events)
	}
}

// TestOTLPPauseSpan: a debugger pause is a span of the session's trace, from the pause to the
// resume, where it paused.
func TestOTLPPauseSpan(t *testing.T) {
	t.Parallel()
	mem := keptSpans{tracetest.NewInMemoryExporter()}
	h := newHarness(t, func(o *service.Options) {
		o.OTLP = &otlpexport.Options{SpanExporter: mem, BatchTimeout: 10 * time.Millisecond}
	})
	sum := h.debug(api.StartRequest{Target: "debugger.js"})
	h.waitPaused(sum.ID, 0)
	h.exec(sum.ID, "continue", nil)
	h.waitExit(sum.ID)
	ctx, cancel := context.WithTimeout(context.Background(), deadline)
	defer cancel()
	if err := h.svc.Export.Flush(ctx); err != nil {
		t.Fatal(err)
	}
	var pauses []tracetest.SpanStub
	for _, s := range mem.GetSpans() {
		if strings.HasPrefix(s.Name, "pause ") {
			pauses = append(pauses, s)
		}
	}
	if len(pauses) != 1 {
		t.Fatalf("want one pause span, got %d", len(pauses))
	}
	line := ""
	for _, a := range pauses[0].Attributes {
		if a.Key == "code.line.number" {
			line = a.Value.Emit()
		}
	}
	if line != "2" || !pauses[0].EndTime.After(pauses[0].StartTime) {
		t.Errorf("pause span %s at line %q from %v to %v, want line 2 with a duration", pauses[0].Name, line, pauses[0].StartTime, pauses[0].EndTime)
	}
}
