package otlpexport

import (
	"context"

	"traced/internal/engine"
	"traced/internal/evidence"
)

// Wiring plugs an exporter into an engine. The exporter needs the manager (node's version,
// summaries) and the manager's hooks need the exporter, so the hooks and the publisher reach it
// through Wiring, whose Start makes it once the manager exists, before any session starts.
type Wiring struct {
	next   engine.Publisher
	export *Exporter
}

// Wire points cfg's ChildEnv at the exporter Start will make. The Wiring is the manager's
// publisher: it hands what sessions capture to next, then to the exporter.
func Wire(cfg *engine.Config, next engine.Publisher) *Wiring {
	w := &Wiring{next: next}
	cfg.ChildEnv = func(id string) map[string]string { return w.export.ChildEnv(id) }
	return w
}

// Start starts the exporter of mgr's sessions, filling in what only the engine knows: node's
// version, the string cap, each finished session's evidence chain and its summary at shutdown.
func (w *Wiring) Start(o Options, mgr *engine.Manager) (*Exporter, error) {
	c := mgr.Capabilities()
	o.NodeVersion, o.StringCap = c.NodeVersion, c.Config.StringCap
	o.Evidence = func(sum engine.Summary) *evidence.Evidence {
		s, err := mgr.Get(sum.ID)
		if err != nil {
			return nil
		}
		return evidence.Build(evidence.Input{Summary: sum, Events: s.Timeline().Snapshot(context.Background())}).Evidence
	}
	o.Summary = func(id string) (engine.Summary, bool) {
		s, err := mgr.Get(id)
		if err != nil {
			return engine.Summary{}, false
		}
		return s.Summary(), true
	}
	e, err := New(o)
	if err != nil {
		return nil, err
	}
	w.export = e
	return e, nil
}

// PublishEvent and PublishStatus never block: neither next (by engine.Publisher's contract) nor
// the exporter does.
func (w *Wiring) PublishEvent(session string, ev engine.Event) {
	w.next.PublishEvent(session, ev)
	w.export.PublishEvent(session, ev)
}

func (w *Wiring) PublishStatus(s engine.Summary) {
	w.next.PublishStatus(s)
	w.export.PublishStatus(s)
}
