package otlpexport

import (
	"context"

	sdktrace "go.opentelemetry.io/otel/sdk/trace"

	"traced/api"
)

// maxRemembered is how many sessions the counts (and the mapper's finished set) remember: far
// more than the engine retains (engine.DefaultMaxSessions), few bytes each.
const maxRemembered = 4096

// counts are the export's figures per session and in total, under Exporter.mu.
type counts struct {
	total   api.ExportCounts
	lastErr string
	by      map[string]*api.ExportCounts
	order   recentSet // the sessions in by, to forget the oldest
}

func newCounts() counts {
	return counts{by: make(map[string]*api.ExportCounts), order: newRecentSet(maxRemembered)}
}

func (c *counts) of(session string) *api.ExportCounts {
	if x, ok := c.by[session]; ok {
		return x
	}
	x := &api.ExportCounts{}
	c.by[session] = x
	if old, ok := c.order.add(session); ok {
		delete(c.by, old)
	}
	return x
}

// session returns a copy of the session's counts (zero for a session not seen yet).
func (c *counts) session(id string) api.ExportCounts {
	if x, ok := c.by[id]; ok {
		return *x
	}
	return api.ExportCounts{}
}

func (c *counts) drop(session string, n int) { c.add(session, api.ExportCounts{Dropped: n}) }

// add adds d to the session's counts and the total.
func (c *counts) add(session string, d api.ExportCounts) {
	x := c.of(session)
	x.Spans, x.Events, x.Dropped = x.Spans+d.Spans, x.Events+d.Events, x.Dropped+d.Dropped
	c.total.Spans, c.total.Events, c.total.Dropped = c.total.Spans+d.Spans, c.total.Events+d.Events, c.total.Dropped+d.Dropped
}

// recentSet remembers the last n keys added, in order.
type recentSet struct {
	n    int
	keys []string
	has  map[string]bool
}

func newRecentSet(n int) recentSet { return recentSet{n: n, has: make(map[string]bool)} }

// add remembers key; when that forgets the oldest, it is returned with ok.
func (r *recentSet) add(key string) (old string, ok bool) {
	if r.has[key] {
		return "", false
	}
	r.has[key] = true
	r.keys = append(r.keys, key)
	if len(r.keys) <= r.n {
		return "", false
	}
	old = r.keys[0]
	r.keys = r.keys[1:]
	delete(r.has, old)
	return old, true
}

func (r *recentSet) contains(key string) bool { return r.has[key] }

// countingExporter counts what each export hands to the collector, per session (every span
// carries traced.session.id), and what it failed to hand over, after the exporter's retries.
type countingExporter struct {
	sdktrace.SpanExporter
	e *Exporter
}

func (c countingExporter) ExportSpans(ctx context.Context, spans []sdktrace.ReadOnlySpan) error {
	err := c.SpanExporter.ExportSpans(ctx, spans)
	c.e.exported(spans, err)
	return err
}

// exported counts one export's spans. A lost span counts its events and one for itself (it
// stood for captured events: a pause, a target, a job). Events a span shed past its cap count
// as dropped either way. It runs on the SDK's export goroutine: the batch is summed and the
// failure logged before taking e.mu, which capture (PublishEvent, a session's Summary) waits on.
func (e *Exporter) exported(spans []sdktrace.ReadOnlySpan, err error) {
	spans = e.gate.settle(spans) // those counted lost at shutdown already are not counted again
	if err != nil {
		e.opts.Logger.Warn("otlp export failed", "spans", len(spans), "err", err)
	}
	by := make(map[string]api.ExportCounts)
	for _, s := range spans {
		id := sessionOf(s)
		d := by[id]
		n, shed := len(s.Events()), s.DroppedEvents()
		if err != nil {
			d.Dropped += n + shed + 1
		} else {
			d.Spans, d.Events, d.Dropped = d.Spans+1, d.Events+n, d.Dropped+shed
		}
		by[id] = d
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	if err != nil {
		e.counts.lastErr = err.Error()
	}
	for id, d := range by {
		e.counts.add(id, d)
	}
}

// lost counts spans that never reach the collector (the batch processor's queue was full, or
// its shutdown ran out of time): what each session lost, its events and spans.
func (e *Exporter) lost(by map[string]int) {
	e.mu.Lock()
	defer e.mu.Unlock()
	for id, n := range by {
		e.counts.drop(id, n)
	}
}

func sessionOf(s sdktrace.ReadOnlySpan) string {
	for _, a := range s.Attributes() {
		if a.Key == attrSession {
			return a.Value.AsString()
		}
	}
	return ""
}
