package convert

import (
	"traced/api"
	"traced/internal/engine"
	"traced/internal/evidence"
)

// Converters of pointers, slices and maps of engine types, shared by the areas' conversions.

// FromAllocationSites converts []engine.AllocationSite.
func FromAllocationSites(x []engine.AllocationSite) []api.AllocationSite {
	if x == nil {
		return nil
	}
	out := make([]api.AllocationSite, len(x))
	for i := range x {
		out[i] = FromAllocationSite(x[i])
	}
	return out
}

// FromBreakpointInfoPtr converts *engine.BreakpointInfo.
func FromBreakpointInfoPtr(x *engine.BreakpointInfo) *api.BreakpointInfo {
	if x == nil {
		return nil
	}
	v := FromBreakpointInfo(*x)
	return &v
}

// FromBreakpoints converts []engine.Breakpoint.
func FromBreakpoints(x []engine.Breakpoint) []api.Breakpoint {
	if x == nil {
		return nil
	}
	out := make([]api.Breakpoint, len(x))
	for i := range x {
		out[i] = FromBreakpoint(x[i])
	}
	return out
}

// FromCompileErrorPtr converts *engine.CompileError.
func FromCompileErrorPtr(x *engine.CompileError) *api.CompileError {
	if x == nil {
		return nil
	}
	v := FromCompileError(*x)
	return &v
}

// FromConsoleInfoPtr converts *engine.ConsoleInfo.
func FromConsoleInfoPtr(x *engine.ConsoleInfo) *api.ConsoleInfo {
	if x == nil {
		return nil
	}
	v := FromConsoleInfo(*x)
	return &v
}

// FromContextInfoPtr converts *engine.ContextInfo.
func FromContextInfoPtr(x *engine.ContextInfo) *api.ContextInfo {
	if x == nil {
		return nil
	}
	v := FromContextInfo(*x)
	return &v
}

// FromEvidencePtr converts *evidence.Evidence.
func FromEvidencePtr(x *evidence.Evidence) *api.Evidence {
	if x == nil {
		return nil
	}
	v := FromEvidence(*x)
	return &v
}

// FromExceptionInfoPtr converts *engine.ExceptionInfo.
func FromExceptionInfoPtr(x *engine.ExceptionInfo) *api.ExceptionInfo {
	if x == nil {
		return nil
	}
	v := FromExceptionInfo(*x)
	return &v
}

// FromExecOutputPtr converts *engine.ExecOutput.
func FromExecOutputPtr(x *engine.ExecOutput) *api.ExecOutput {
	if x == nil {
		return nil
	}
	v := FromExecOutput(*x)
	return &v
}

// FromExitInfoPtr converts *engine.ExitInfo.
func FromExitInfoPtr(x *engine.ExitInfo) *api.ExitInfo {
	if x == nil {
		return nil
	}
	v := FromExitInfo(*x)
	return &v
}

// FromFramePtr converts *engine.Frame.
func FromFramePtr(x *engine.Frame) *api.Frame {
	if x == nil {
		return nil
	}
	v := FromFrame(*x)
	return &v
}

// FromFrames converts []engine.Frame.
func FromFrames(x []engine.Frame) []api.Frame {
	if x == nil {
		return nil
	}
	out := make([]api.Frame, len(x))
	for i := range x {
		out[i] = FromFrame(x[i])
	}
	return out
}

// FromFunctionTimes converts []engine.FunctionTime.
func FromFunctionTimes(x []engine.FunctionTime) []api.FunctionTime {
	if x == nil {
		return nil
	}
	out := make([]api.FunctionTime, len(x))
	for i := range x {
		out[i] = FromFunctionTime(x[i])
	}
	return out
}

// FromGeneratedPtr converts *engine.Generated.
func FromGeneratedPtr(x *engine.Generated) *api.Generated {
	if x == nil {
		return nil
	}
	v := FromGenerated(*x)
	return &v
}

// FromHookInfoPtr converts *engine.HookInfo.
func FromHookInfoPtr(x *engine.HookInfo) *api.HookInfo {
	if x == nil {
		return nil
	}
	v := FromHookInfo(*x)
	return &v
}

// FromItemPtr converts *evidence.Item.
func FromItemPtr(x *evidence.Item) *api.EvidenceItem {
	if x == nil {
		return nil
	}
	v := FromEvidenceItem(*x)
	return &v
}

// FromItems converts []evidence.Item.
func FromItems(x []evidence.Item) []api.EvidenceItem {
	if x == nil {
		return nil
	}
	out := make([]api.EvidenceItem, len(x))
	for i := range x {
		out[i] = FromEvidenceItem(x[i])
	}
	return out
}

// FromKindIntMap converts map[engine.Kind]int.
func FromKindIntMap(x map[engine.Kind]int) map[api.Kind]int {
	if x == nil {
		return nil
	}
	out := make(map[api.Kind]int, len(x))
	for k, v := range x {
		out[api.Kind(k)] = v
	}
	return out
}

// FromLogpointInfoPtr converts *engine.LogpointInfo.
func FromLogpointInfoPtr(x *engine.LogpointInfo) *api.LogpointInfo {
	if x == nil {
		return nil
	}
	v := FromLogpointInfo(*x)
	return &v
}

// FromLogpoints converts []engine.Logpoint.
func FromLogpoints(x []engine.Logpoint) []api.Logpoint {
	if x == nil {
		return nil
	}
	out := make([]api.Logpoint, len(x))
	for i := range x {
		out[i] = FromLogpoint(x[i])
	}
	return out
}

// FromOutputEntrys converts []engine.OutputEntry.
func FromOutputEntrys(x []engine.OutputEntry) []api.OutputEntry {
	if x == nil {
		return nil
	}
	out := make([]api.OutputEntry, len(x))
	for i := range x {
		out[i] = FromOutputEntry(x[i])
	}
	return out
}

// FromOutputInfoPtr converts *engine.OutputInfo.
func FromOutputInfoPtr(x *engine.OutputInfo) *api.OutputInfo {
	if x == nil {
		return nil
	}
	v := FromOutputInfo(*x)
	return &v
}

// FromPauseInfoPtr converts *engine.PauseInfo.
func FromPauseInfoPtr(x *engine.PauseInfo) *api.PauseInfo {
	if x == nil {
		return nil
	}
	v := FromPauseInfo(*x)
	return &v
}

// FromProgressInfoPtr converts *engine.ProgressInfo.
func FromProgressInfoPtr(x *engine.ProgressInfo) *api.ProgressInfo {
	if x == nil {
		return nil
	}
	v := FromProgressInfo(*x)
	return &v
}

// FromPropertys converts []engine.Property.
func FromPropertys(x []engine.Property) []api.Property {
	if x == nil {
		return nil
	}
	out := make([]api.Property, len(x))
	for i := range x {
		out[i] = FromProperty(x[i])
	}
	return out
}

// FromScriptInfoPtr converts *engine.ScriptInfo.
func FromScriptInfoPtr(x *engine.ScriptInfo) *api.ScriptInfo {
	if x == nil {
		return nil
	}
	v := FromScriptInfo(*x)
	return &v
}

// FromSourceLines converts []engine.SourceLine.
func FromSourceLines(x []engine.SourceLine) []api.SourceLine {
	if x == nil {
		return nil
	}
	out := make([]api.SourceLine, len(x))
	for i := range x {
		out[i] = FromSourceLine(x[i])
	}
	return out
}

// FromSourceMapStatuss converts []engine.SourceMapStatus.
func FromSourceMapStatuss(x []engine.SourceMapStatus) []api.SourceMapStatus {
	if x == nil {
		return nil
	}
	out := make([]api.SourceMapStatus, len(x))
	for i := range x {
		out[i] = FromSourceMapStatus(x[i])
	}
	return out
}

// FromStackFrames converts []engine.StackFrame.
func FromStackFrames(x []engine.StackFrame) []api.StackFrame {
	if x == nil {
		return nil
	}
	out := make([]api.StackFrame, len(x))
	for i := range x {
		out[i] = FromStackFrame(x[i])
	}
	return out
}

// FromStatePtr converts *engine.State.
func FromStatePtr(x *engine.State) *api.State {
	if x == nil {
		return nil
	}
	v := FromState(*x)
	return &v
}

// FromTargetInfoPtr converts *engine.TargetInfo.
func FromTargetInfoPtr(x *engine.TargetInfo) *api.TargetInfo {
	if x == nil {
		return nil
	}
	v := FromTargetInfo(*x)
	return &v
}

// FromThrowInfoPtr converts *engine.ThrowInfo.
func FromThrowInfoPtr(x *engine.ThrowInfo) *api.ThrowInfo {
	if x == nil {
		return nil
	}
	v := FromThrowInfo(*x)
	return &v
}

// FromVariablePtr converts *engine.Variable.
func FromVariablePtr(x *engine.Variable) *api.Variable {
	if x == nil {
		return nil
	}
	v := FromVariable(*x)
	return &v
}

// FromVariables converts []engine.Variable.
func FromVariables(x []engine.Variable) []api.Variable {
	if x == nil {
		return nil
	}
	out := make([]api.Variable, len(x))
	for i := range x {
		out[i] = FromVariable(x[i])
	}
	return out
}

// FromEvents converts []engine.Event.
func FromEvents(x []engine.Event) []api.Event {
	if x == nil {
		return nil
	}
	out := make([]api.Event, len(x))
	for i := range x {
		out[i] = FromEvent(x[i])
	}
	return out
}

// FromGapPtr converts *engine.Gap.
func FromGapPtr(x *engine.Gap) *api.Gap {
	if x == nil {
		return nil
	}
	v := FromGap(*x)
	return &v
}

// convertAll converts each of x with f; nil stays nil (null on the wire), empty stays empty.
func convertAll[T, W any](x []T, f func(T) W) []W {
	if x == nil {
		return nil
	}
	out := make([]W, len(x))
	for i := range x {
		out[i] = f(x[i])
	}
	return out
}

// FromBreakableLines converts a breakable answer's lines.
func FromBreakableLines(x []engine.BreakableLine) []api.BreakableLine {
	return convertAll(x, FromBreakableLine)
}

// FromHooks converts the injected hooks.
func FromHooks(x []engine.Hook) []api.Hook { return convertAll(x, FromHook) }

// FromScriptInfos converts a script list.
func FromScriptInfos(x []engine.ScriptInfo) []api.ScriptInfo { return convertAll(x, FromScriptInfo) }

// FromMatches converts search matches.
func FromMatches(x []engine.Match) []api.Match { return convertAll(x, FromMatch) }

// FromContextViews converts the live contexts.
func FromContextViews(x []engine.ContextView) []api.ContextView {
	return convertAll(x, FromContextView)
}

// FromTargetInfos converts a session's targets.
func FromTargetInfos(x []engine.TargetInfo) []api.TargetInfo { return convertAll(x, FromTargetInfo) }
