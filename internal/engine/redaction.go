package engine

import (
	"sync/atomic"

	"traced/internal/redact"
)

// Secrets stay out of what traced shows: every event is redacted as it is stored (console
// text, output lines, exceptions, throws and their locals, logpoints, hooks), so the answers,
// the stream, evidence and the OTLP export built from events never carry them; the debugger's
// answers (state, eval, props) are redacted at the edge with Session.Redact. The program
// itself is never changed.

// redaction is a session's redactor and the count of what it hid.
type redaction struct {
	r *redact.Redactor
	n atomic.Int64
}

// Redacted is how many values the session's answers and events had hidden so far.
func (s *Session) Redacted() int64 { return s.redaction.n.Load() }

// Redact hides what r finds in s, counting it in the session's total; the routes call it on
// the debugger's answers.
func (s *Session) Redact(v string) string {
	out, n := s.redaction.r.Text(v)
	s.redaction.n.Add(int64(n))
	return out
}

// RedactValue hides a named variable's or property's value as Redact does, by its name too.
func (s *Session) RedactValue(name, typ, value string) string {
	out, n := s.redaction.r.Value(name, typ, value)
	s.redaction.n.Add(int64(n))
	return out
}

// hide redacts an event before it is stored.
func (rd *redaction) hide(ev *Event) {
	if !rd.r.On() {
		return
	}
	n := 0
	text := func(t *Text) {
		v, k := rd.r.Text(t.Value)
		t.Value, n = v, n+k
	}
	switch {
	case ev.Console != nil:
		text(&ev.Console.Text)
	case ev.Output != nil:
		text(&ev.Output.Text)
	case ev.Logpoint != nil:
		text(&ev.Logpoint.Text)
	case ev.Hook != nil:
		text(&ev.Hook.Payload)
	case ev.Exception != nil:
		x := *ev.Exception // the engine may hold the pointer: redact a copy
		text(&x.Message)
		var k int
		x.Value, k = rd.r.Text(x.Value)
		n += k
		ev.Exception = &x
	case ev.Throw != nil:
		t := *ev.Throw
		text(&t.Message)
		var k int
		t.Value, k = rd.r.Text(t.Value)
		n += k
		if len(t.Locals) > 0 {
			t.Locals = append([]Variable(nil), t.Locals...)
			for i := range t.Locals {
				v := &t.Locals[i]
				v.Value, k = rd.r.Value(v.Name, v.Type, v.Value)
				n += k
			}
		}
		ev.Throw = &t
	}
	if n > 0 {
		rd.n.Add(int64(n))
	}
}
