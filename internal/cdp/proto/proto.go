// Package proto types the Chrome DevTools Protocol commands and events traced uses: one small
// struct per command's parameters, named Domain+Command (DebuggerSetBreakpointByURL is
// "Debugger.setBreakpointByUrl"), and the events' method names as constants. It is written by
// hand for these commands only; enums are plain strings, as a newer V8 may send values an
// older list would not know.
//
// Absent and zero differ on the wire, and V8 reads some absent fields as "not given" rather
// than zero (a breakpoint's columnNumber, say). So a field is:
//   - without omitempty when the protocol requires it or traced always sends it;
//   - a pointer with omitempty when traced sends it only sometimes and its zero is meaningful;
//   - omitempty when its zero is what V8 takes for absent (an optional boolean, whose protocol
//     default is false; a string such as objectGroup or condition, where "" means none).
//
// The results traced decodes stay with the code that reads them (package engine's
// protocol.go and package v8's values).
package proto

import "context"

// Command is one command's parameters; Method is the command's name on the wire.
type Command interface {
	Method() string
}

// Caller makes CDP calls: a cdp.Conn, or anything with its Call.
type Caller interface {
	Call(ctx context.Context, method string, params, result any) error
}

// Do sends cmd through c and decodes the reply's result into result (nil: not read).
func Do(ctx context.Context, c Caller, cmd Command, result any) error {
	return c.Call(ctx, cmd.Method(), cmd, result)
}

// Int gives an optional integer field its value (a pointer: absent when nil, even at zero).
func Int(v int) *int { return &v }

// Location is a position in a script: Debugger.Location. Lines and columns are 0-based.
type Location struct {
	ScriptID     string `json:"scriptId"`
	LineNumber   int    `json:"lineNumber"`
	ColumnNumber *int   `json:"columnNumber,omitempty"` // nil: the line's start
}

// CallArgument is a value passed to V8: Runtime.CallArgument. Set one of the three fields;
// none at all is undefined.
type CallArgument struct {
	// Value is a JSON value. nil is absent (undefined); JSON null is json.RawMessage("null").
	Value               any    `json:"value,omitempty"`
	UnserializableValue string `json:"unserializableValue,omitempty"` // NaN, Infinity, -0, 12n
	ObjectID            string `json:"objectId,omitempty"`
}
