// Package api holds the wire types of traced's HTTP and WebSocket surface, whose JSON names equal
// the schemas of the embedded OpenAPI contract, and the one place that converts to them.
package api

import (
	"fmt"
	"strings"

	"traced/internal/engine"
)

// Event payloads are stored by the engine in their wire shape; these aliases name them here so
// clients of the api package need not import the engine.
type (
	Event         = engine.Event
	Frame         = engine.Frame
	Text          = engine.Text
	ContextInfo   = engine.ContextInfo
	ScriptInfo    = engine.ScriptInfo
	ConsoleInfo   = engine.ConsoleInfo
	ExceptionInfo = engine.ExceptionInfo
	PauseInfo     = engine.PauseInfo
	OutputInfo    = engine.OutputInfo
	ExitInfo      = engine.ExitInfo
	ThrowInfo     = engine.ThrowInfo
	Summary       = engine.Summary
	Gap           = engine.Gap
	Kind          = engine.Kind
)

// ValidKind reports whether k is an event kind the engine produces.
func ValidKind(k Kind) bool { return engine.ValidKind(k) }

// KindList names every event kind, comma-separated, for error hints.
func KindList() string {
	names := make([]string, len(engine.Kinds))
	for i, k := range engine.Kinds {
		names[i] = string(k)
	}
	return strings.Join(names, ",")
}

// ParseKinds reads a kinds query parameter, a comma list such as "console,exception", into a set.
// "" gives a nil set, which filters nothing. Spaces are not trimmed: the contract's pattern
// ^[a-z]+(,[a-z]+)*$ admits none, and the REST routes and the stream must agree on what they take.
func ParseKinds(s string) (map[Kind]bool, error) {
	if s == "" {
		return nil, nil
	}
	set := make(map[Kind]bool)
	i := 0
	for name := range strings.SplitSeq(s, ",") {
		i++
		k := Kind(name)
		switch {
		case name == "":
			return nil, fmt.Errorf("element %d is empty; kinds is a comma list of: %s", i, KindList())
		case !ValidKind(k):
			return nil, fmt.Errorf("unknown kind %q; kinds is a comma list of: %s", name, KindList())
		}
		set[k] = true
	}
	return set, nil
}

// ErrorBody is the single error envelope of every failed request.
type ErrorBody struct {
	Error ErrorDetail `json:"error"`
}

// ErrorDetail says what went wrong and which call to make next.
type ErrorDetail struct {
	Code    string `json:"code"`
	Message string `json:"message"`
	Hint    string `json:"hint,omitempty"`
}

// Stream message types, the value of StreamMessage.Type.
const (
	MsgEvent   = "event"   // one captured event
	MsgGap     = "gap"     // seqs from..to of a session can no longer be replayed
	MsgSession = "session" // a session changed status (started, paused, exited...)
	MsgLive    = "live"    // the replay of a resumed subscription is complete; live events follow
)

// StreamMessage is one JSON text message on /api/stream.
type StreamMessage struct {
	Type    string   `json:"type"`
	Session string   `json:"session,omitempty"`
	Event   *Event   `json:"event,omitempty"`
	Gap     *Gap     `json:"gap,omitempty"`
	Summary *Summary `json:"summary,omitempty"` // for MsgSession
	Newest  uint64   `json:"newest,omitempty"`  // for MsgLive: the session's newest seq at that moment
}
