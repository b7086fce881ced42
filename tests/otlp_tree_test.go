package tests

import (
	"context"
	"strings"
	"testing"
	"time"

	"go.opentelemetry.io/otel/sdk/trace/tracetest"

	"traced/api"
	"traced/internal/otlpexport"
	"traced/internal/service"
)

// TestOTLPChildFirstEvents: a forked child's first console line belongs to its own target:
// its attached event comes before it in the session, and in the OTLP export the line is an
// event of the child's span, never of the root's. Ten children, so that a child let run
// before its attach was recorded would be caught.
func TestOTLPChildFirstEvents(t *testing.T) {
	t.Parallel()
	mem := keptSpans{tracetest.NewInMemoryExporter()}
	h := newHarness(t, func(o *service.Options) {
		o.OTLP = &otlpexport.Options{SpanExporter: mem, BatchTimeout: 10 * time.Millisecond}
	})
	const n = 10
	s := h.start(api.StartRequest{Target: "forkmany.js", Args: []string{"10"}})
	if sum := h.waitExit(s.ID); sum.ExitCode == nil || *sum.ExitCode != 0 {
		t.Fatalf("exit %+v", sum)
	}
	attached := map[string]bool{}
	var lines int
	for _, ev := range h.trace(s.ID, "target,console").Events {
		switch {
		case ev.TargetInfo != nil && ev.TargetInfo.Status == "attached":
			attached[ev.Target] = true
		case ev.Console != nil && strings.HasPrefix(ev.Console.Text.Value, "child "):
			lines++
			if !attached[ev.Target] {
				t.Errorf("%q of %q came before its target's attach", ev.Console.Text.Value, ev.Target)
			}
		}
	}
	if lines < n/2 { // a child whose set-up ran out of time on a loaded machine runs uncaptured
		t.Fatalf("%d child lines captured, want most of %d", lines, n)
	}
	ctx, cancel := context.WithTimeout(context.Background(), deadline)
	defer cancel()
	if err := h.svc.Export.Flush(ctx); err != nil {
		t.Fatal(err)
	}
	onChildSpans := 0
	for _, sp := range mem.GetSpans() {
		for _, ev := range sp.Events {
			for _, a := range ev.Attributes {
				if string(a.Key) != "console.text" || !strings.HasPrefix(a.Value.Emit(), "child ") {
					continue
				}
				if !strings.HasPrefix(sp.Name, "process ") {
					t.Errorf("%q is an event of span %q, not of its child's", a.Value.Emit(), sp.Name)
				} else {
					onChildSpans++
				}
			}
		}
	}
	if onChildSpans != lines {
		t.Errorf("%d child lines on child spans, want all %d captured", onChildSpans, lines)
	}
}
