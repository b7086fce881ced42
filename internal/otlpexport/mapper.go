package otlpexport

import (
	"context"
	"path/filepath"
	"time"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/trace"

	"traced/internal/engine"
)

// sessionSpans is one session's trace while the mapper builds it.
type sessionSpans struct {
	id      string
	ctx     context.Context // holds the root span: children start from it
	root    trace.Span
	started time.Time
	status  engine.Status             // as the last status read said
	seen    uint64                    // the newest seq mapped
	targets map[string]trace.Span     // a worker's or child process's span, by ref (t1, t2...)
	events  map[trace.Span]*eventRing // the events of the root and target spans, until they end
	pauses  map[string]trace.Span     // the pause under way in a target ("" the main thread)
	jobs    map[string]trace.Span     // heap snapshots under way, by ref (hs1...)
}

// mapper is the one goroutine that builds spans: it takes captured events from the queue and
// statuses when woken, until Shutdown; then it maps what is still queued and ends every trace.
func (e *Exporter) mapper() {
	defer close(e.mapped)
	for {
		select {
		case it := <-e.queue:
			e.mapEvent(it)
		case <-e.wake:
			e.readStatuses()
		case mapped := <-e.flushes:
			e.mapQueued()
			e.readStatuses()
			e.askFinished()
			e.endFinished()
			close(mapped)
		case <-e.stop:
			e.drain()
			return
		}
		e.endFinished()
	}
}

// mapQueued maps the events queued now (not those queued meanwhile: a busy program would
// keep it going).
func (e *Exporter) mapQueued() {
	for range len(e.queue) {
		e.mapEvent(<-e.queue)
	}
}

// drain maps everything queued and pending at shutdown, then ends the traces still open.
func (e *Exporter) drain() {
	e.mapQueued()
	e.readStatuses()
	e.endFinished()
	now := time.Now()
	for id, s := range e.sessions {
		sum, ok := engine.Summary{}, false
		if e.opts.Summary != nil {
			sum, ok = e.opts.Summary(id)
		}
		if !ok {
			sum = engine.Summary{ID: id, Status: s.status, StartedAt: s.started}
		}
		if sum.EndedAt == nil {
			sum.EndedAt = &now
		}
		e.endSession(s, sum)
	}
	e.mu.Lock()
	launched := e.launched
	e.launched = make(map[string]trace.Span) // a launch racing shutdown gets a span never sent
	e.mu.Unlock()
	// Launched, never heard of: a launch still under way at shutdown (the engine publishes a
	// failed start's end, which readStatuses took). Its root span is all there is to send.
	for _, root := range launched {
		root.End()
	}
}

// session returns the mapper's state of a session, starting its trace on first sight: with the
// root span ChildEnv started at launch, else (a session traced did not launch: attach) a new one
// from at. nil for a session whose trace has ended.
func (e *Exporter) session(id string, at time.Time) *sessionSpans {
	if s := e.sessions[id]; s != nil {
		return s
	}
	if e.ended.contains(id) {
		return nil
	}
	e.mu.Lock()
	root := e.launched[id]
	delete(e.launched, id)
	e.mu.Unlock()
	if root == nil {
		root = e.startRoot(id, trace.WithTimestamp(at))
	}
	s := &sessionSpans{
		id: id, root: root, started: at, ctx: trace.ContextWithSpan(context.Background(), root),
		targets: make(map[string]trace.Span), pauses: make(map[string]trace.Span), jobs: make(map[string]trace.Span),
		events: make(map[trace.Span]*eventRing),
	}
	e.sessions[id] = s
	return s
}

// readStatuses takes the statuses published since the last read: the first names a session's
// root span, a finished one marks the session to end.
func (e *Exporter) readStatuses() {
	e.mu.Lock()
	pending := e.pending
	if len(pending) == 0 { // not ranged over outside the lock: PublishStatus writes to it
		e.mu.Unlock()
		return
	}
	e.pending = make(map[string]engine.Summary)
	e.mu.Unlock()
	for id, sum := range pending {
		s := e.session(id, sum.StartedAt)
		if s == nil {
			continue
		}
		s.started, s.status = sum.StartedAt, sum.Status
		s.root.SetName(rootName(sum))
		if sum.Status.Finished() {
			e.ending[id] = sum
		}
	}
}

// askFinished marks to end the open sessions whose summary says they have finished: the engine
// publishes a session's last status just after its end, which a Flush may come between.
func (e *Exporter) askFinished() {
	if e.opts.Summary == nil {
		return
	}
	for id := range e.sessions {
		if _, ok := e.ending[id]; ok {
			continue
		}
		if sum, ok := e.opts.Summary(id); ok && sum.Status.Finished() {
			e.ending[id] = sum
		}
	}
}

// endFinished ends the traces of finished sessions whose last event is mapped. An event not
// mapped yet is still queued, so an empty queue also means every one was mapped or dropped.
func (e *Exporter) endFinished() {
	if len(e.ending) == 0 {
		return
	}
	empty := len(e.queue) == 0
	for id, sum := range e.ending {
		s := e.sessions[id]
		if s == nil {
			delete(e.ending, id)
			continue
		}
		if empty || s.seen >= sum.LastSeq {
			delete(e.ending, id)
			e.endSession(s, sum)
		}
	}
}

// endSession ends what is still open in the session at its end, then its root span with the
// summary's attributes and the evidence chain's summary.
func (e *Exporter) endSession(s *sessionSpans, sum engine.Summary) {
	end := time.Now()
	if sum.EndedAt != nil {
		end = *sum.EndedAt
	}
	at := trace.WithTimestamp(end)
	for _, sp := range s.pauses {
		sp.End(at)
	}
	for _, sp := range s.jobs {
		sp.SetAttributes(attrJobFinished.Bool(false))
		sp.End(at)
	}
	for _, sp := range s.targets {
		e.endWithEvents(s, sp, at)
	}
	if sum.Target != "" {
		s.root.SetAttributes(e.rootAttributes(sum)...)
	} else {
		s.root.SetAttributes(attrStatus.String(string(sum.Status)))
	}
	if e.opts.Evidence != nil && sum.Target != "" {
		if ev := e.opts.Evidence(sum); ev != nil {
			s.root.SetAttributes(evidenceAttributes(ev, e.opts.StringCap)...)
		}
	}
	code, desc := rootStatus(sum)
	s.root.SetStatus(code, desc)
	e.endWithEvents(s, s.root, at)
	delete(e.sessions, s.id)
	e.ended.add(s.id)
}

// mapEvent turns one captured event into a span event, or starts or ends a child span.
func (e *Exporter) mapEvent(it item) {
	s := e.session(it.session, it.ev.Time)
	if s == nil {
		return // its trace has ended: counted in the summary's counts, not exported
	}
	ev := &it.ev
	s.seen = max(s.seen, ev.Seq)
	switch ev.Kind {
	case engine.KindPause:
		e.startPause(s, ev)
	case engine.KindResume:
		if sp := s.pauses[ev.Target]; sp != nil {
			sp.End(trace.WithTimestamp(ev.Time))
			delete(s.pauses, ev.Target)
		}
	case engine.KindTarget:
		e.target(s, ev)
	case engine.KindProgress:
		e.progress(s, ev)
	default:
		s.keep(s.span(ev.Target), ev, e.opts.MaxSpanEvents)
	}
}

// keep holds ev for sp's span events.
func (s *sessionSpans) keep(sp trace.Span, ev *engine.Event, n int) {
	r := s.events[sp]
	if r == nil {
		r = &eventRing{}
		s.events[sp] = r
	}
	r.add(ev, n)
}

// endWithEvents adds the events kept for sp and ends it; those shed count as dropped.
func (e *Exporter) endWithEvents(s *sessionSpans, sp trace.Span, opts ...trace.SpanEndOption) {
	if r := s.events[sp]; r != nil {
		delete(s.events, sp)
		if shed := r.addTo(sp, e.opts.StringCap); shed > 0 {
			e.mu.Lock()
			e.counts.drop(s.id, shed)
			e.mu.Unlock()
		}
	}
	sp.End(opts...)
}

// span is where an event of the target goes: the target's own span, else the root.
func (s *sessionSpans) span(target string) trace.Span {
	if sp := s.targets[target]; sp != nil {
		return sp
	}
	return s.root
}

// parent is the context a child span of the target starts from.
func (s *sessionSpans) parent(target string) context.Context {
	if sp := s.targets[target]; sp != nil {
		return trace.ContextWithSpan(s.ctx, sp)
	}
	return s.ctx
}

func (e *Exporter) startPause(s *sessionSpans, ev *engine.Event) {
	if old := s.pauses[ev.Target]; old != nil { // a pause with no resume before it
		old.End(trace.WithTimestamp(ev.Time))
	}
	_, sp := e.tracer.Start(s.parent(ev.Target), "pause "+ev.Pause.Reason, trace.WithTimestamp(ev.Time),
		trace.WithAttributes(pauseAttributes(s.id, ev)...))
	s.pauses[ev.Target] = sp
}

// target starts a span when a worker or child process is attached and ends it when it is
// released or exits.
func (e *Exporter) target(s *sessionSpans, ev *engine.Event) {
	info := ev.TargetInfo
	if info == nil {
		return
	}
	sp := s.targets[info.Ref]
	switch info.Status {
	case engine.TargetAttached:
		if sp == nil {
			_, sp = e.tracer.Start(s.ctx, targetName(info), trace.WithTimestamp(ev.Time),
				trace.WithAttributes(append(targetAttributes(info), attrSession.String(s.id))...))
			s.targets[info.Ref] = sp
		}
	default: // released or exited
		if sp == nil { // released at once, never debugged: a span event of the root
			s.keep(s.root, ev, e.opts.MaxSpanEvents)
			return
		}
		sp.SetAttributes(attrTargetStatus.String(info.Status), attrTargetReason.String(info.Reason))
		e.endWithEvents(s, sp, trace.WithTimestamp(ev.Time))
		delete(s.targets, info.Ref)
	}
}

// progress spans a heap snapshot from its first progress event to its finished one. (CPU
// profiles record no event: they have no span.)
func (e *Exporter) progress(s *sessionSpans, ev *engine.Event) {
	p := ev.Progress
	sp := s.jobs[p.Ref]
	if sp == nil {
		attrs := []attribute.KeyValue{attrSession.String(s.id), attrJobOp.String(p.Op), attrJobRef.String(p.Ref)}
		if p.Op == engine.OpHeapSnapshot { // the file stays with traced: the span links to it
			attrs = append(attrs, attrJobURL.String("/api/debug/"+s.id+"/heap/snapshots/"+p.Ref))
		}
		_, sp = e.tracer.Start(s.parent(ev.Target), p.Op+" "+p.Ref, trace.WithTimestamp(ev.Time), trace.WithAttributes(attrs...))
		s.jobs[p.Ref] = sp
	}
	if p.Finished {
		sp.SetAttributes(attrJobFinished.Bool(true), attrJobTotal.Int(p.Total))
		sp.End(trace.WithTimestamp(ev.Time))
		delete(s.jobs, p.Ref)
	}
}

func targetName(info *engine.TargetInfo) string {
	if info.Title != "" {
		return info.Kind + " " + info.Ref + " " + info.Title
	}
	return info.Kind + " " + info.Ref
}

// rootName names a session's trace as a person would: node and the script's file name.
func rootName(sum engine.Summary) string {
	if sum.Target == "" {
		return "session " + sum.ID
	}
	return "node " + filepath.Base(sum.Target)
}
