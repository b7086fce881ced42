package api

import (
	"bytes"
	"encoding/json"
)

// StartBreakpoint is one breakpoint of a start request. On the wire it is either the plain
// "file:line[:col]" string or the object POST /api/debug/{session}/breakpoints takes (a
// condition, a hit count, urlRegex with line), so a conditional breakpoint needs no extra call
// before the program runs.
type StartBreakpoint BreakpointRequest

// BreakpointsAt gives start breakpoints for plain locations ("app.js:47").
func BreakpointsAt(locations ...string) []StartBreakpoint {
	bps := make([]StartBreakpoint, 0, len(locations))
	for _, l := range locations {
		bps = append(bps, StartBreakpoint{Location: l})
	}
	return bps
}

// UnmarshalJSON reads the string or the object form; the object's unknown fields are refused,
// as in the body of POST breakpoints (the outer decoder's setting does not reach in here).
func (b *StartBreakpoint) UnmarshalJSON(raw []byte) error {
	var location string
	if json.Unmarshal(raw, &location) == nil {
		*b = StartBreakpoint{Location: location}
		return nil
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	var req BreakpointRequest
	if err := dec.Decode(&req); err != nil {
		return err
	}
	*b = StartBreakpoint(req)
	return nil
}

// MarshalJSON writes a breakpoint that is only a location in the string form.
func (b StartBreakpoint) MarshalJSON() ([]byte, error) {
	if b == (StartBreakpoint{Location: b.Location}) {
		return json.Marshal(b.Location)
	}
	return json.Marshal(BreakpointRequest(b))
}
