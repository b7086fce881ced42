package service

import (
	"traced/api"
	"traced/api/convert"
	"traced/internal/engine"
	"traced/internal/stream"
)

// hubPublisher is the engine's publisher in front of the stream hub: it converts what sessions
// capture to the wire types, an event only when a subscriber wants it (most events of a busy
// program have no reader, and capture must stay cheap), and adds the OTLP export's counts to
// summaries. Like every engine.Publisher it is called under a session's store lock and never blocks.
type hubPublisher struct {
	hub *stream.Hub
	// exportOf tells how a session fares in the OTLP export; nil when export is off. Set by New
	// before any session starts.
	exportOf func(session string) *api.ExportCounts
}

func (p *hubPublisher) PublishEvent(session string, ev engine.Event) {
	if !p.hub.Wants(session, api.Kind(ev.Kind)) {
		return
	}
	p.hub.PublishEvent(session, convert.FromEvent(ev))
}

func (p *hubPublisher) PublishStatus(s engine.Summary) {
	sum := convert.FromSummary(s)
	if p.exportOf != nil {
		sum.Export = p.exportOf(s.ID)
	}
	p.hub.PublishStatus(sum)
}
