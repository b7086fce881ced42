// Package convert builds the api wire types from the engine's and the evidence package's data
// types, at the edge (routes, the stream's source, the in-process CLI run): one file per area, as
// delve's service/api/conversions.go. It is the only package that sees both sides.
package convert

import (
	"traced/api"
	"traced/internal/engine"
)

// FromEvent converts engine.Event to its wire type.
func FromEvent(x engine.Event) api.Event {
	return api.Event{
		Seq:        x.Seq,
		Time:       x.Time,
		Kind:       api.Kind(x.Kind),
		Target:     x.Target,
		TargetInfo: FromTargetInfoPtr(x.TargetInfo),
		Context:    FromContextInfoPtr(x.Context),
		Script:     FromScriptInfoPtr(x.Script),
		Console:    FromConsoleInfoPtr(x.Console),
		Exception:  FromExceptionInfoPtr(x.Exception),
		Pause:      FromPauseInfoPtr(x.Pause),
		Output:     FromOutputInfoPtr(x.Output),
		Exit:       FromExitInfoPtr(x.Exit),
		Logpoint:   FromLogpointInfoPtr(x.Logpoint),
		Hook:       FromHookInfoPtr(x.Hook),
		Breakpoint: FromBreakpointInfoPtr(x.Breakpoint),
		Progress:   FromProgressInfoPtr(x.Progress),
		Throw:      FromThrowInfoPtr(x.Throw),
	}
}

// FromFrame converts engine.Frame to its wire type.
func FromFrame(x engine.Frame) api.Frame {
	return api.Frame{
		Function:  x.Function,
		URL:       x.URL,
		File:      x.File,
		Line:      x.Line,
		Column:    x.Column,
		Internal:  x.Internal,
		Generated: FromGeneratedPtr(x.Generated),
		Target:    x.Target,
		Async:     x.Async,
	}
}

// FromText converts engine.Text to its wire type.
func FromText(x engine.Text) api.Text {
	return api.Text{
		Value:     x.Value,
		Truncated: x.Truncated,
		Length:    x.Length,
	}
}

// FromContextInfo converts engine.ContextInfo to its wire type.
func FromContextInfo(x engine.ContextInfo) api.ContextInfo {
	return api.ContextInfo{
		ID:     x.ID,
		Name:   x.Name,
		Origin: x.Origin,
	}
}

// FromScriptInfo converts engine.ScriptInfo to its wire type.
func FromScriptInfo(x engine.ScriptInfo) api.ScriptInfo {
	return api.ScriptInfo{
		ScriptID:      x.ScriptID,
		URL:           x.URL,
		File:          x.File,
		Hash:          x.Hash,
		SourceMapURL:  x.SourceMapURL,
		Sources:       x.Sources,
		Internal:      x.Internal,
		FailedToParse: x.FailedToParse,
	}
}

// FromConsoleInfo converts engine.ConsoleInfo to its wire type.
func FromConsoleInfo(x engine.ConsoleInfo) api.ConsoleInfo {
	return api.ConsoleInfo{
		Level: x.Level,
		Text:  FromText(x.Text),
		Args:  x.Args,
		Frame: FromFramePtr(x.Frame),
	}
}

// FromExceptionInfo converts engine.ExceptionInfo to its wire type.
func FromExceptionInfo(x engine.ExceptionInfo) api.ExceptionInfo {
	return api.ExceptionInfo{
		Text:      x.Text,
		Message:   FromText(x.Message),
		Class:     x.Class,
		Value:     x.Value,
		URL:       x.URL,
		File:      x.File,
		Line:      x.Line,
		Column:    x.Column,
		Stack:     FromFrames(x.Stack),
		Generated: FromGeneratedPtr(x.Generated),
		Rejection: x.Rejection,
	}
}

// FromPauseInfo converts engine.PauseInfo to its wire type.
func FromPauseInfo(x engine.PauseInfo) api.PauseInfo {
	return api.PauseInfo{
		Reason:         x.Reason,
		Location:       FromFramePtr(x.Location),
		HitBreakpoints: x.HitBreakpoints,
	}
}

// FromOutputInfo converts engine.OutputInfo to its wire type.
func FromOutputInfo(x engine.OutputInfo) api.OutputInfo {
	return api.OutputInfo{
		Text: FromText(x.Text),
	}
}

// FromExitInfo converts engine.ExitInfo to its wire type.
func FromExitInfo(x engine.ExitInfo) api.ExitInfo {
	return api.ExitInfo{
		Code:   x.Code,
		Signal: x.Signal,
	}
}

// FromLogpointInfo converts engine.LogpointInfo to its wire type.
func FromLogpointInfo(x engine.LogpointInfo) api.LogpointInfo {
	return api.LogpointInfo{
		Ref:      x.Ref,
		Text:     FromText(x.Text),
		Disabled: x.Disabled,
	}
}

// FromHookInfo converts engine.HookInfo to its wire type.
func FromHookInfo(x engine.HookInfo) api.HookInfo {
	return api.HookInfo{
		Name:    x.Name,
		Payload: FromText(x.Payload),
	}
}

// FromSummary converts engine.Summary to its wire type.
func FromSummary(x engine.Summary) api.Summary {
	return api.Summary{
		ID:            x.ID,
		Name:          x.Name,
		Mode:          x.Mode,
		Status:        api.Status(x.Status),
		Target:        x.Target,
		Args:          x.Args,
		NodeArgs:      x.NodeArgs,
		Cwd:           x.Cwd,
		PID:           x.PID,
		ExitCode:      x.ExitCode,
		Signal:        x.Signal,
		Error:         x.Error,
		Counts:        FromKindIntMap(x.Counts),
		Events:        x.Events,
		Dropped:       x.Dropped,
		ThrowsSkipped: x.ThrowsSkipped,
		Redacted:      x.Redacted,
		LastSeq:       x.LastSeq,
		MaxEvents:     x.MaxEvents,
		StartedAt:     x.StartedAt,
		EndedAt:       x.EndedAt,
		InspectorLost: x.InspectorLost,
		StoppedBy:     x.StoppedBy,
		StillRunning:  x.StillRunning,
		Unresponsive:  x.Unresponsive,
		RestartOf:     x.RestartOf,
		RestartedAs:   x.RestartedAs,
	}
}

// FromBreakpointInfo converts engine.BreakpointInfo to its wire type.
func FromBreakpointInfo(x engine.BreakpointInfo) api.BreakpointInfo {
	return api.BreakpointInfo{
		Ref:      x.Ref,
		Location: FromFrame(x.Location),
		Change:   x.Change,
	}
}

// FromProgressInfo converts engine.ProgressInfo to its wire type.
func FromProgressInfo(x engine.ProgressInfo) api.ProgressInfo {
	return api.ProgressInfo{
		Op:       x.Op,
		Ref:      x.Ref,
		Done:     x.Done,
		Total:    x.Total,
		Finished: x.Finished,
	}
}

// FromGenerated converts engine.Generated to its wire type.
func FromGenerated(x engine.Generated) api.Generated {
	return api.Generated{
		URL:    x.URL,
		File:   x.File,
		Line:   x.Line,
		Column: x.Column,
	}
}

// FromGap converts engine.Gap to its wire type.
func FromGap(x engine.Gap) api.Gap {
	return api.Gap{
		From: x.From,
		To:   x.To,
	}
}

// FromThrowInfo converts engine.ThrowInfo to its wire type.
func FromThrowInfo(x engine.ThrowInfo) api.ThrowInfo {
	return api.ThrowInfo{
		Class:    x.Class,
		Message:  FromText(x.Message),
		Value:    x.Value,
		Caught:   x.Caught,
		Location: FromFramePtr(x.Location),
		Thrower:  FromFramePtr(x.Thrower),
		Stack:    FromFrames(x.Stack),
		Locals:   FromVariables(x.Locals),
		Skipped:  x.Skipped,
	}
}

// FromTargetInfo converts engine.TargetInfo to its wire type.
func FromTargetInfo(x engine.TargetInfo) api.TargetInfo {
	return api.TargetInfo{
		Ref:    x.Ref,
		Kind:   x.Kind,
		Title:  x.Title,
		URL:    x.URL,
		PID:    x.PID,
		Status: x.Status,
		Reason: x.Reason,
	}
}

// Page builds an events page answer.
func Page(sum api.Summary, p engine.Page) api.EventsResponse {
	return api.EventsResponse{Session: sum.ID, Status: string(sum.Status), Events: FromEvents(p.Events),
		Oldest: p.Oldest, Newest: p.Newest, Gap: FromGapPtr(p.Gap), Next: p.Next, More: p.More}
}

// Wait builds a wait answer from the page the wait ended with.
func Wait(sum api.Summary, p engine.Page, timedOut bool) api.WaitResponse {
	w := api.WaitResponse{Session: sum.ID, Status: string(sum.Status), TimedOut: timedOut,
		Oldest: p.Oldest, Newest: p.Newest, Gap: FromGapPtr(p.Gap), Next: p.Next}
	if len(p.Events) > 0 {
		ev := FromEvent(p.Events[0])
		w.Event = &ev
	} else if !timedOut {
		w.Finished = true
	}
	return w
}

// ToKindSet converts a kinds filter the other way, for the engine's reads.
func ToKindSet(x map[api.Kind]bool) engine.KindSet {
	if x == nil {
		return nil
	}
	out := make(engine.KindSet, len(x))
	for k, v := range x {
		out[engine.Kind(k)] = v
	}
	return out
}
