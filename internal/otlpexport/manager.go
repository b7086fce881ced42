package otlpexport

import (
	"traced/internal/engine"
	"traced/internal/evidence"
)

// NewForManager starts an exporter of mgr's sessions, filling in what only the engine knows:
// node's version, the string cap, each finished session's evidence chain and its summary at
// shutdown. mgr's Config.ChildEnv and ExportOf are the caller's to point at the exporter.
func NewForManager(o Options, mgr *engine.Manager) (*Exporter, error) {
	c := mgr.Capabilities()
	o.NodeVersion, o.StringCap = c.NodeVersion, c.Config.StringCap
	o.Evidence = func(sum engine.Summary) *evidence.Evidence {
		s, err := mgr.Get(sum.ID)
		if err != nil {
			return nil
		}
		return evidence.Build(evidence.Input{Summary: sum, Events: s.Snapshot()}).Evidence
	}
	o.Summary = func(id string) (engine.Summary, bool) {
		s, err := mgr.Get(id)
		if err != nil {
			return engine.Summary{}, false
		}
		return s.Summary(), true
	}
	return New(o)
}
