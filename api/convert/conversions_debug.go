package convert

import (
	"traced/api"
	"traced/internal/engine"
)

// FromBreakableLine converts engine.BreakableLine to its wire type.
func FromBreakableLine(x engine.BreakableLine) api.BreakableLine {
	return api.BreakableLine{
		Line:    x.Line,
		Columns: x.Columns,
	}
}

// FromBreakpoint converts engine.Breakpoint to its wire type.
func FromBreakpoint(x engine.Breakpoint) api.Breakpoint {
	return api.Breakpoint{
		Ref:       x.Ref,
		Location:  x.Location,
		Condition: x.Condition,
		HitCount:  x.HitCount,
		Hits:      x.Hits,
		Resolved:  FromFrames(x.Resolved),
		URLRegex:  x.URLRegex,
		Function:  x.Function,
		Enabled:   x.Enabled,
		Pending:   x.Pending,
		Warning:   x.Warning,
	}
}

// FromSourceLine converts engine.SourceLine to its wire type.
func FromSourceLine(x engine.SourceLine) api.SourceLine {
	return api.SourceLine{
		Line:    x.Line,
		Text:    x.Text,
		Current: x.Current,
	}
}

// FromVariable converts engine.Variable to its wire type.
func FromVariable(x engine.Variable) api.Variable {
	return api.Variable{
		Ref:    x.Ref,
		Name:   x.Name,
		Type:   x.Type,
		Value:  x.Value,
		Scope:  x.Scope,
		Expand: x.Expand,
	}
}

// FromStackFrame converts engine.StackFrame to its wire type.
func FromStackFrame(x engine.StackFrame) api.StackFrame {
	return api.StackFrame{
		Ref:   x.Ref,
		Frame: FromFrame(x.Frame),
	}
}

// FromState converts engine.State to its wire type.
func FromState(x engine.State) api.State {
	return api.State{
		Session:     x.Session,
		Target:      x.Target,
		AlsoPaused:  x.AlsoPaused,
		Status:      api.Status(x.Status),
		Reason:      x.Reason,
		Hit:         x.Hit,
		Location:    FromFramePtr(x.Location),
		Frame:       x.Frame,
		Source:      FromSourceLines(x.Source),
		Locals:      FromVariables(x.Locals),
		Stack:       FromStackFrames(x.Stack),
		Breakpoints: FromBreakpoints(x.Breakpoints),
		Logpoints:   FromLogpoints(x.Logpoints),
		ReturnValue: FromVariablePtr(x.ReturnValue),
		Output:      FromExecOutputPtr(x.Output),
	}
}

// FromEvalResult converts engine.EvalResult to its wire type.
func FromEvalResult(x engine.EvalResult) api.EvalResult {
	return api.EvalResult{
		Ref:       x.Ref,
		Type:      x.Type,
		Value:     x.Value,
		Exception: x.Exception,
		Expand:    x.Expand,
		Hint:      x.Hint,
		Session:   x.Session,
		Target:    x.Target,
	}
}

// FromExecOutput converts engine.ExecOutput to its wire type.
func FromExecOutput(x engine.ExecOutput) api.ExecOutput {
	return api.ExecOutput{
		Entries: FromOutputEntrys(x.Entries),
		More:    x.More,
	}
}

// FromOutputEntry converts engine.OutputEntry to its wire type.
func FromOutputEntry(x engine.OutputEntry) api.OutputEntry {
	return api.OutputEntry{
		Seq:  x.Seq,
		Kind: api.Kind(x.Kind),
		Text: x.Text,
	}
}

// FromHook converts engine.Hook to its wire type.
func FromHook(x engine.Hook) api.Hook {
	return api.Hook{
		Name:  x.Name,
		Calls: x.Calls,
	}
}

// FromCompileError converts engine.CompileError to its wire type.
func FromCompileError(x engine.CompileError) api.CompileError {
	return api.CompileError{
		Message: x.Message,
		Line:    x.Line,
		Column:  x.Column,
	}
}

// FromHotpatchResult converts engine.HotpatchResult to its wire type.
func FromHotpatchResult(x engine.HotpatchResult) api.HotpatchResult {
	return api.HotpatchResult{
		Status:         x.Status,
		DryRun:         x.DryRun,
		CompileError:   FromCompileErrorPtr(x.CompileError),
		RestartedFrame: x.RestartedFrame,
		State:          FromStatePtr(x.State),
	}
}

// FromLogpoint converts engine.Logpoint to its wire type.
func FromLogpoint(x engine.Logpoint) api.Logpoint {
	return api.Logpoint{
		Ref:       x.Ref,
		Location:  x.Location,
		Template:  x.Template,
		Condition: x.Condition,
		Max:       x.Max,
		Emitted:   x.Emitted,
		Disabled:  x.Disabled,
		Resolved:  FromFrames(x.Resolved),
		Warning:   x.Warning,
	}
}
