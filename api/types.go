// Package api holds the wire types of traced's HTTP and WebSocket surface, whose JSON names equal
// the schemas of the embedded OpenAPI contract. It imports nothing of the server, so clients (the
// CLI, the dashboard) link it alone; api/convert builds these types from the engine's at the edge.
package api

import (
	"fmt"
	"strings"
)

// KindList names every event kind, comma-separated, for error hints.
func KindList() string {
	names := make([]string, len(Kinds))
	for i, k := range Kinds {
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
