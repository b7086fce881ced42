package proto

// The Debugger domain's commands and events traced uses.

// Events.
const (
	EventPaused              = "Debugger.paused"
	EventResumed             = "Debugger.resumed"
	EventScriptParsed        = "Debugger.scriptParsed"
	EventScriptFailedToParse = "Debugger.scriptFailedToParse"
	EventBreakpointResolved  = "Debugger.breakpointResolved"
)

// DebuggerEnable turns the domain on: scripts are reported, pauses happen.
type DebuggerEnable struct{}

// DebuggerSetBreakpointByURL binds a breakpoint in every script, loaded now or later, whose URL
// is URL or matches URLRegex (set one).
type DebuggerSetBreakpointByURL struct {
	LineNumber   int    `json:"lineNumber"`
	URL          string `json:"url,omitempty"`
	URLRegex     string `json:"urlRegex,omitempty"`
	ColumnNumber *int   `json:"columnNumber,omitempty"`
	Condition    string `json:"condition,omitempty"`
}

// DebuggerSetBreakpointOnFunctionCall pauses at the start of each call of a function object.
type DebuggerSetBreakpointOnFunctionCall struct {
	ObjectID  string `json:"objectId"`
	Condition string `json:"condition,omitempty"`
}

// DebuggerSetInstrumentationBreakpoint pauses at an instrumentation point.
type DebuggerSetInstrumentationBreakpoint struct {
	Instrumentation string `json:"instrumentation"` // beforeScriptExecution, beforeScriptWithSourceMapExecution
}

// DebuggerRemoveBreakpoint removes a breakpoint by the id V8 gave it.
type DebuggerRemoveBreakpoint struct {
	BreakpointID string `json:"breakpointId"`
}

// DebuggerSetBreakpointsActive turns every breakpoint on or off at once.
type DebuggerSetBreakpointsActive struct {
	Active bool `json:"active"`
}

// DebuggerSetSkipAllPauses makes V8 pass every pause (breakpoints, debugger statements).
type DebuggerSetSkipAllPauses struct {
	Skip bool `json:"skip"`
}

// DebuggerGetPossibleBreakpoints lists where breakpoints can bind in [Start, End).
type DebuggerGetPossibleBreakpoints struct {
	Start              Location  `json:"start"`
	End                *Location `json:"end,omitempty"`
	RestrictToFunction bool      `json:"restrictToFunction,omitempty"`
}

// DebuggerSetPauseOnExceptions sets which exceptions pause.
type DebuggerSetPauseOnExceptions struct {
	State string `json:"state"` // none, caught, uncaught, all
}

// DebuggerSetBlackboxPatterns replaces the patterns of script URLs stepping and pauses skip.
type DebuggerSetBlackboxPatterns struct {
	Patterns []string `json:"patterns"`
}

// DebuggerSetAsyncCallStackDepth sets how many async parents stacks record (0: none).
type DebuggerSetAsyncCallStackDepth struct {
	MaxDepth int `json:"maxDepth"`
}

// DebuggerResume, DebuggerPause and the steps move a paused (or running) thread.
type (
	DebuggerResume   struct{}
	DebuggerPause    struct{}
	DebuggerStepOver struct{}
	DebuggerStepInto struct{}
	DebuggerStepOut  struct{}
)

// DebuggerContinueToLocation runs to a location once.
type DebuggerContinueToLocation struct {
	Location Location `json:"location"`
}

// DebuggerRestartFrame restarts a paused frame.
type DebuggerRestartFrame struct {
	CallFrameID string `json:"callFrameId"`
	Mode        string `json:"mode,omitempty"` // StepInto
}

// DebuggerEvaluateOnCallFrame evaluates an expression in a paused frame.
type DebuggerEvaluateOnCallFrame struct {
	CallFrameID       string `json:"callFrameId"`
	Expression        string `json:"expression"`
	ObjectGroup       string `json:"objectGroup,omitempty"`
	Silent            bool   `json:"silent,omitempty"`
	ReturnByValue     bool   `json:"returnByValue,omitempty"`
	GeneratePreview   bool   `json:"generatePreview,omitempty"`
	ThrowOnSideEffect bool   `json:"throwOnSideEffect,omitempty"`
	Timeout           int64  `json:"timeout,omitempty"` // ms; 0: none
}

// DebuggerSetVariableValue sets a variable of a paused frame's scope (0: the innermost).
type DebuggerSetVariableValue struct {
	ScopeNumber  int          `json:"scopeNumber"`
	VariableName string       `json:"variableName"`
	NewValue     CallArgument `json:"newValue"`
	CallFrameID  string       `json:"callFrameId"`
}

// DebuggerSetReturnValue sets the value a frame paused at its return returns.
type DebuggerSetReturnValue struct {
	NewValue CallArgument `json:"newValue"`
}

// DebuggerGetScriptSource reads a script's source.
type DebuggerGetScriptSource struct {
	ScriptID string `json:"scriptId"`
}

// DebuggerSearchInContent searches a script's source.
type DebuggerSearchInContent struct {
	ScriptID      string `json:"scriptId"`
	Query         string `json:"query"`
	CaseSensitive bool   `json:"caseSensitive"`
	IsRegex       bool   `json:"isRegex"`
}

// DebuggerSetScriptSource replaces a script's source (live edit).
type DebuggerSetScriptSource struct {
	ScriptID             string `json:"scriptId"`
	ScriptSource         string `json:"scriptSource"`
	DryRun               bool   `json:"dryRun"`
	AllowTopFrameEditing bool   `json:"allowTopFrameEditing"`
}

func (DebuggerEnable) Method() string             { return "Debugger.enable" }
func (DebuggerSetBreakpointByURL) Method() string { return "Debugger.setBreakpointByUrl" }
func (DebuggerSetBreakpointOnFunctionCall) Method() string {
	return "Debugger.setBreakpointOnFunctionCall"
}
func (DebuggerSetInstrumentationBreakpoint) Method() string {
	return "Debugger.setInstrumentationBreakpoint"
}
func (DebuggerRemoveBreakpoint) Method() string       { return "Debugger.removeBreakpoint" }
func (DebuggerSetBreakpointsActive) Method() string   { return "Debugger.setBreakpointsActive" }
func (DebuggerSetSkipAllPauses) Method() string       { return "Debugger.setSkipAllPauses" }
func (DebuggerGetPossibleBreakpoints) Method() string { return "Debugger.getPossibleBreakpoints" }
func (DebuggerSetPauseOnExceptions) Method() string   { return "Debugger.setPauseOnExceptions" }
func (DebuggerSetBlackboxPatterns) Method() string    { return "Debugger.setBlackboxPatterns" }
func (DebuggerSetAsyncCallStackDepth) Method() string { return "Debugger.setAsyncCallStackDepth" }
func (DebuggerResume) Method() string                 { return "Debugger.resume" }
func (DebuggerPause) Method() string                  { return "Debugger.pause" }
func (DebuggerStepOver) Method() string               { return "Debugger.stepOver" }
func (DebuggerStepInto) Method() string               { return "Debugger.stepInto" }
func (DebuggerStepOut) Method() string                { return "Debugger.stepOut" }
func (DebuggerContinueToLocation) Method() string     { return "Debugger.continueToLocation" }
func (DebuggerRestartFrame) Method() string           { return "Debugger.restartFrame" }
func (DebuggerEvaluateOnCallFrame) Method() string    { return "Debugger.evaluateOnCallFrame" }
func (DebuggerSetVariableValue) Method() string       { return "Debugger.setVariableValue" }
func (DebuggerSetReturnValue) Method() string         { return "Debugger.setReturnValue" }
func (DebuggerGetScriptSource) Method() string        { return "Debugger.getScriptSource" }
func (DebuggerSearchInContent) Method() string        { return "Debugger.searchInContent" }
func (DebuggerSetScriptSource) Method() string        { return "Debugger.setScriptSource" }
