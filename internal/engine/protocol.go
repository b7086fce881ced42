package engine

import (
	"fmt"

	jsonv2 "github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"

	"traced/internal/v8"
)

// Our own small structs for the CDP messages the engine reads. Enums are plain strings: a newer
// V8 sends values an older list would not know. Field names follow the devtools-protocol JSON.

// The Runtime domain's values are package v8's, shared with the packages that render them.
type (
	remoteObject    = v8.RemoteObject
	objectPreview   = v8.ObjectPreview
	propertyPreview = v8.PropertyPreview
	entryPreview    = v8.EntryPreview
)

type callFrame struct {
	FunctionName string `json:"functionName"`
	ScriptID     string `json:"scriptId"`
	URL          string `json:"url"`
	LineNumber   int    `json:"lineNumber"`   // 0-based
	ColumnNumber int    `json:"columnNumber"` // 0-based
}

type stackTrace struct {
	Description string      `json:"description,omitempty"` // of an async parent: await, setTimeout...
	CallFrames  []callFrame `json:"callFrames"`
	Parent      *stackTrace `json:"parent,omitempty"`
}

type executionContextCreated struct {
	Context struct {
		ID      int            `json:"id"`
		Origin  string         `json:"origin"`
		Name    string         `json:"name"`
		AuxData map[string]any `json:"auxData"`
	} `json:"context"`
}

type executionContextDestroyed struct {
	ExecutionContextID int `json:"executionContextId"`
}

type scriptParsed struct {
	ScriptID           string `json:"scriptId"`
	URL                string `json:"url"`
	Hash               string `json:"hash"`
	SourceMapURL       string `json:"sourceMapURL"`
	ExecutionContextID int    `json:"executionContextId"`
	// StackTrace is where the script was compiled from (scriptFailedToParse: node's loader).
	StackTrace *stackTrace `json:"stackTrace,omitempty"`
}

type consoleAPICalled struct {
	Type       string         `json:"type"`
	Args       []remoteObject `json:"args"`
	StackTrace *consoleStack  `json:"stackTrace,omitempty"`
}

// consoleStack is a console call's stack as traced reads it: its top frame, the caller.
type consoleStack struct {
	CallFrames topFrames `json:"callFrames"`
}

// topFrames decodes a call frames array keeping its first frame only: V8 sends a console call's
// whole stack (up to 200 frames) with every call, and all but the top one were decoded for
// nothing. The rest is skipped, scanned but not decoded.
type topFrames []callFrame

func (t *topFrames) UnmarshalJSONFrom(dec *jsontext.Decoder) error {
	*t = nil
	tok, err := dec.ReadToken()
	switch {
	case err != nil:
		return err
	case tok.Kind() == 'n':
		return nil
	case tok.Kind() != '[':
		return fmt.Errorf("call frames: %v, not an array", tok.Kind())
	}
	for dec.PeekKind() != ']' {
		if len(*t) > 0 {
			if err := dec.SkipValue(); err != nil {
				return err
			}
			continue
		}
		var f callFrame
		if err := jsonv2.UnmarshalDecode(dec, &f); err != nil {
			return err
		}
		*t = append(*t, f)
	}
	_, err = dec.ReadToken()
	return err
}

type exceptionThrown struct {
	ExceptionDetails exceptionDetails `json:"exceptionDetails"`
}

type exceptionDetails struct {
	Text         string        `json:"text"`
	LineNumber   int           `json:"lineNumber"`   // 0-based
	ColumnNumber int           `json:"columnNumber"` // 0-based
	ScriptID     string        `json:"scriptId"`
	URL          string        `json:"url"`
	StackTrace   *stackTrace   `json:"stackTrace,omitempty"`
	Exception    *remoteObject `json:"exception,omitempty"`
}

type debuggerPaused struct {
	CallFrames     []pausedFrame `json:"callFrames"`
	Reason         string        `json:"reason"`
	Data           *pauseData    `json:"data,omitempty"` // an exception pause's exception
	HitBreakpoints []string      `json:"hitBreakpoints"`
	AsyncStack     *stackTrace   `json:"asyncStackTrace,omitempty"` // the async parents
	// chain is the await chain read when V8 recorded no async parents (asyncframes.go), once
	// chainRead; under mu.
	chain     []Frame
	chainRead bool
}

type pausedFrame struct {
	CallFrameID  string        `json:"callFrameId"`
	FunctionName string        `json:"functionName"`
	Location     location      `json:"location"`
	URL          string        `json:"url"`                   // empty in node 20: resolve by scriptId
	ReturnValue  *remoteObject `json:"returnValue,omitempty"` // only when paused at a return point
	// The scopes and this, decoded on use (scopes, this): they are most of a pause's bytes, and
	// a pause needs one frame's at most (a step's state, a throw's locals), often none.
	ScopeChain jsontext.Value `json:"scopeChain"`
	This       jsontext.Value `json:"this"`
	// async marks a frame read from an error's await chain (asyncframes.go): no call frame.
	async string
}

// scopes decodes the frame's scope chain (nil if V8 sent none).
func (f pausedFrame) scopes() []scope {
	var out []scope
	if len(f.ScopeChain) > 0 && decodeParams(f.ScopeChain, &out) != nil {
		return nil
	}
	return out
}

// this decodes the frame's this.
func (f pausedFrame) this() remoteObject {
	var o remoteObject
	if len(f.This) > 0 {
		decodeParams(f.This, &o) // a malformed one stays the zero value: no this shown
	}
	return o
}

type scope struct {
	Type   string       `json:"type"` // global, local, with, closure, catch, block, script, eval, module...
	Name   string       `json:"name,omitempty"`
	Object remoteObject `json:"object"`
	// StartLocation and EndLocation bound a function or block scope's source.
	StartLocation *location `json:"startLocation,omitempty"`
	EndLocation   *location `json:"endLocation,omitempty"`
}

type propertyDescriptor struct {
	Name  string        `json:"name"`
	Value *remoteObject `json:"value,omitempty"`
	Get   *remoteObject `json:"get,omitempty"`
	Set   *remoteObject `json:"set,omitempty"`
	IsOwn bool          `json:"isOwn,omitempty"`
}

type propertiesResult struct {
	Result   []propertyDescriptor `json:"result"`
	Internal []propertyDescriptor `json:"internalProperties,omitempty"`
	Private  []propertyDescriptor `json:"privateProperties,omitempty"`
}

type evaluateResult struct {
	Result           remoteObject `json:"result"`
	ExceptionDetails *struct {
		Text      string        `json:"text"`
		Exception *remoteObject `json:"exception,omitempty"`
	} `json:"exceptionDetails,omitempty"`
}

type setBreakpointResult struct {
	BreakpointID string     `json:"breakpointId"`
	Locations    []location `json:"locations"`
}

type breakpointResolved struct {
	BreakpointID string   `json:"breakpointId"`
	Location     location `json:"location"`
}

// pauseData is what an exception pause says of the exception: the thrown value, and whether V8
// predicts that nothing catches it.
type pauseData struct {
	remoteObject
	Uncaught bool `json:"uncaught"`
}
