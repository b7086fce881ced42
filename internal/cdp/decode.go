package cdp

import (
	"encoding/json"

	jsonv2 "github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
)

// Decode decodes a CDP message's params or result. Messages are most of the traffic (a console
// line each, a pause's frames, a scope's properties) and encoding/json's reflection and second
// validation pass were half of capture's CPU; json v2 (go-json-experiment, what
// encoding/json/v2 becomes) decodes in one pass at about twice the speed with a fifth of the
// allocations. It takes strings as V8 sends them (lone surrogates, a repeated name: the last
// wins) and matches names as encoding/json does.
func Decode(data []byte, v any) error {
	return jsonv2.Unmarshal(data, v, jsontext.AllowInvalidUTF8(true), jsontext.AllowDuplicateNames(true), jsonv2.MatchCaseInsensitiveNames(true))
}

// Message is one message of the peer's, a reply or a notification, its params or result left
// for the receiver to decode.
type Message struct {
	ID     int64           `json:"id"`
	Method string          `json:"method"`
	Params json.RawMessage `json:"params"`
	Result json.RawMessage `json:"result"`
	Error  *Error          `json:"error"`
}

// ParseMessage reads one message: a notification in V8's own layout without decoding its params
// (splitEvent), anything else in one decoding pass. NodeWorker relays a worker's messages as
// strings, which go through here too.
func ParseMessage(data []byte) (Message, error) {
	if m, ok := splitEvent(data); ok {
		return m, nil
	}
	var m Message
	err := Decode(data, &m)
	return m, err
}
