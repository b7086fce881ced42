package proto

import (
	"context"
	"encoding/json"
	"testing"
)

// The wire form is what V8 reads: an optional field left out must stay out, and a zero that
// means something (column 0, scope 0, depth 0, an empty sourceURL) must be sent.
func TestMarshal(t *testing.T) {
	for _, tc := range []struct {
		cmd  Command
		want string
	}{
		{DebuggerEnable{}, `{}`},
		{DebuggerSetBreakpointByURL{URLRegex: "^a$", LineNumber: 0},
			`{"lineNumber":0,"urlRegex":"^a$"}`},
		{DebuggerSetBreakpointByURL{URL: "file:///a.js", LineNumber: 3, ColumnNumber: Int(0), Condition: "x == 1"},
			`{"lineNumber":3,"url":"file:///a.js","columnNumber":0,"condition":"x == 1"}`},
		{DebuggerGetPossibleBreakpoints{Start: Location{ScriptID: "7", LineNumber: 0, ColumnNumber: Int(0)},
			End: &Location{ScriptID: "7", LineNumber: 2, ColumnNumber: Int(0)}},
			`{"start":{"scriptId":"7","lineNumber":0,"columnNumber":0},"end":{"scriptId":"7","lineNumber":2,"columnNumber":0}}`},
		{DebuggerContinueToLocation{Location: Location{ScriptID: "7", LineNumber: 4}},
			`{"location":{"scriptId":"7","lineNumber":4}}`},
		{DebuggerSetAsyncCallStackDepth{}, `{"maxDepth":0}`},
		{DebuggerSetBlackboxPatterns{Patterns: []string{}}, `{"patterns":[]}`},
		{DebuggerSetVariableValue{VariableName: "x", NewValue: CallArgument{Value: json.RawMessage("null")}, CallFrameID: "f"},
			`{"scopeNumber":0,"variableName":"x","newValue":{"value":null},"callFrameId":"f"}`},
		{DebuggerSetReturnValue{}, `{"newValue":{}}`}, // undefined
		{DebuggerSetReturnValue{NewValue: CallArgument{Value: 0}}, `{"newValue":{"value":0}}`},
		{RuntimeEvaluate{Expression: "1"}, `{"expression":"1"}`},
		{RuntimeEvaluate{Expression: "1", ObjectGroup: "g", ReturnByValue: true, GeneratePreview: true, Timeout: 5000},
			`{"expression":"1","objectGroup":"g","returnByValue":true,"generatePreview":true,"timeout":5000}`},
		{RuntimeGetProperties{ObjectID: "o"}, `{"objectId":"o","ownProperties":false}`},
		{RuntimeGlobalLexicalScopeNames{}, `{}`},
		{RuntimeGlobalLexicalScopeNames{ExecutionContextID: 2}, `{"executionContextId":2}`},
		{RuntimeCompileScript{Expression: "x"}, `{"expression":"x","sourceURL":"","persistScript":false}`},
		{RuntimeCallFunctionOn{ObjectID: "o", FunctionDeclaration: "f", Arguments: []CallArgument{{Value: "k"}}},
			`{"functionDeclaration":"f","objectId":"o","arguments":[{"value":"k"}]}`},
		{ProfilerStartPreciseCoverage{}, `{"callCount":false,"detailed":false}`},
		{HeapProfilerTakeHeapSnapshot{ReportProgress: true}, `{"reportProgress":true}`},
		{NodeWorkerEnable{WaitForDebuggerOnStart: true}, `{"waitForDebuggerOnStart":true}`},
	} {
		got, err := json.Marshal(tc.cmd)
		if err != nil {
			t.Fatalf("%s: %v", tc.cmd.Method(), err)
		}
		if string(got) != tc.want {
			t.Errorf("%s:\n got %s\nwant %s", tc.cmd.Method(), got, tc.want)
		}
	}
}

type recorder struct{ method string }

func (r *recorder) Call(_ context.Context, method string, _, _ any) error {
	r.method = method
	return nil
}

func TestDoNamesTheCommand(t *testing.T) {
	var r recorder
	if err := Do(context.Background(), &r, DebuggerSetBreakpointByURL{}, nil); err != nil || r.method != "Debugger.setBreakpointByUrl" {
		t.Fatalf("Do called %q, %v", r.method, err)
	}
}
