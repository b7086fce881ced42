package engine

import (
	"context"

	"traced/internal/jsscan"
)

// A let, const or class binding read before its declaration ran is in its temporal dead zone:
// it has no value yet. Node 22+ sends such a binding without a value; node 20 sends undefined,
// so there the declaration is looked up in the source (declared at or after the pause).
const (
	uninitializedType  = "uninitialized"
	uninitializedValue = "<uninitialized>"
)

// location is a CDP position in a script: line and column 0-based.
type location struct {
	ScriptID     string `json:"scriptId"`
	LineNumber   int    `json:"lineNumber"`
	ColumnNumber int    `json:"columnNumber"`
}

func (l location) before(o location) bool {
	return l.LineNumber < o.LineNumber || (l.LineNumber == o.LineNumber && l.ColumnNumber < o.ColumnNumber)
}

// uninitialized says whether a scope entry is a binding in its temporal dead zone.
func (in Inspector) uninitialized(ctx context.Context, c clientCaller, f pausedFrame, sc scope, pd propertyDescriptor) bool {
	if pd.Value == nil {
		return pd.Get == nil && pd.Set == nil // node 22+: no value at all
	}
	if pd.Value.Type != "undefined" || sc.StartLocation == nil || sc.EndLocation == nil ||
		(sc.Type != "local" && sc.Type != "block") || sc.StartLocation.ScriptID != f.Location.ScriptID {
		return false
	}
	lines, err := in.source(ctx, c, f.Location.ScriptID)
	if err != nil {
		return false // no source: undefined is what node said
	}
	from := jsscan.Pos{Line: sc.StartLocation.LineNumber, Column: sc.StartLocation.ColumnNumber}
	to := jsscan.Pos{Line: sc.EndLocation.LineNumber, Column: sc.EndLocation.ColumnNumber}
	at, ok := jsscan.Declaration(lines, pd.Name, from, to)
	decl := location{LineNumber: at.Line, ColumnNumber: at.Column}
	pause := location{LineNumber: f.Location.LineNumber, ColumnNumber: f.Location.ColumnNumber}
	return ok && !decl.before(pause)
}
