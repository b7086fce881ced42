package proto

// The Runtime domain's commands and events traced uses. The values V8 answers with are
// package v8's.

// Events.
const (
	EventExecutionContextCreated   = "Runtime.executionContextCreated"
	EventExecutionContextDestroyed = "Runtime.executionContextDestroyed"
	EventConsoleAPICalled          = "Runtime.consoleAPICalled"
	EventExceptionThrown           = "Runtime.exceptionThrown"
	EventBindingCalled             = "Runtime.bindingCalled"
)

// Commands without parameters.
type (
	RuntimeEnable                  struct{}
	RuntimeRunIfWaitingForDebugger struct{}
	RuntimeDiscardConsoleEntries   struct{}
	RuntimeGetHeapUsage            struct{}
	RuntimeTerminateExecution      struct{}
)

// RuntimeEvaluate evaluates an expression globally.
type RuntimeEvaluate struct {
	Expression        string `json:"expression"`
	ObjectGroup       string `json:"objectGroup,omitempty"`
	Silent            bool   `json:"silent,omitempty"`
	ReturnByValue     bool   `json:"returnByValue,omitempty"`
	GeneratePreview   bool   `json:"generatePreview,omitempty"`
	AwaitPromise      bool   `json:"awaitPromise,omitempty"`
	ReplMode          bool   `json:"replMode,omitempty"` // top-level await, let redeclared
	ThrowOnSideEffect bool   `json:"throwOnSideEffect,omitempty"`
	Timeout           int64  `json:"timeout,omitempty"` // ms; 0: none
}

// RuntimeCallFunctionOn calls a function with an object as this.
type RuntimeCallFunctionOn struct {
	FunctionDeclaration string         `json:"functionDeclaration"`
	ObjectID            string         `json:"objectId,omitempty"`
	Arguments           []CallArgument `json:"arguments,omitempty"`
	Silent              bool           `json:"silent,omitempty"`
	ReturnByValue       bool           `json:"returnByValue,omitempty"`
	GeneratePreview     bool           `json:"generatePreview,omitempty"`
	ObjectGroup         string         `json:"objectGroup,omitempty"`
}

// RuntimeGetProperties lists an object's properties.
type RuntimeGetProperties struct {
	ObjectID        string `json:"objectId"`
	OwnProperties   bool   `json:"ownProperties"`
	GeneratePreview bool   `json:"generatePreview,omitempty"`
}

// RuntimeQueryObjects gathers every live object with a prototype into an array.
type RuntimeQueryObjects struct {
	PrototypeObjectID string `json:"prototypeObjectId"`
	ObjectGroup       string `json:"objectGroup,omitempty"`
}

// RuntimeReleaseObjectGroup releases the objects V8 keeps for a group.
type RuntimeReleaseObjectGroup struct {
	ObjectGroup string `json:"objectGroup"`
}

// RuntimeAddBinding adds a global function whose calls come as Runtime.bindingCalled.
type RuntimeAddBinding struct {
	Name string `json:"name"`
}

// RuntimeRemoveBinding removes a binding (calls to it stop being reported).
type RuntimeRemoveBinding struct {
	Name string `json:"name"`
}

// RuntimeGlobalLexicalScopeNames lists the global let, const and class names.
type RuntimeGlobalLexicalScopeNames struct {
	ExecutionContextID int `json:"executionContextId,omitempty"` // 0: the default context
}

// RuntimeCompileScript compiles without running (a syntax check when not persisted).
type RuntimeCompileScript struct {
	Expression    string `json:"expression"`
	SourceURL     string `json:"sourceURL"`
	PersistScript bool   `json:"persistScript"`
}

func (RuntimeEnable) Method() string                  { return "Runtime.enable" }
func (RuntimeRunIfWaitingForDebugger) Method() string { return "Runtime.runIfWaitingForDebugger" }
func (RuntimeDiscardConsoleEntries) Method() string   { return "Runtime.discardConsoleEntries" }
func (RuntimeGetHeapUsage) Method() string            { return "Runtime.getHeapUsage" }
func (RuntimeTerminateExecution) Method() string      { return "Runtime.terminateExecution" }
func (RuntimeEvaluate) Method() string                { return "Runtime.evaluate" }
func (RuntimeCallFunctionOn) Method() string          { return "Runtime.callFunctionOn" }
func (RuntimeGetProperties) Method() string           { return "Runtime.getProperties" }
func (RuntimeQueryObjects) Method() string            { return "Runtime.queryObjects" }
func (RuntimeReleaseObjectGroup) Method() string      { return "Runtime.releaseObjectGroup" }
func (RuntimeAddBinding) Method() string              { return "Runtime.addBinding" }
func (RuntimeRemoveBinding) Method() string           { return "Runtime.removeBinding" }
func (RuntimeGlobalLexicalScopeNames) Method() string { return "Runtime.globalLexicalScopeNames" }
func (RuntimeCompileScript) Method() string           { return "Runtime.compileScript" }
