package convert

import (
	"traced/api"
	"traced/internal/engine"
)

// FromSnapshotInfo converts engine.SnapshotInfo to its wire type.
func FromSnapshotInfo(x engine.SnapshotInfo) api.SnapshotInfo {
	return api.SnapshotInfo{
		Ref:      x.Ref,
		Tag:      x.Tag,
		Bytes:    x.Bytes,
		Download: x.Download,
		Nodes:    x.Nodes,
		Total:    x.Total,
		Classes:  x.Classes,
		Retained: x.Retained,
	}
}

// FromDeleteSnapshotResponse converts engine.DeletedSnapshot to its wire type.
func FromDeleteSnapshotResponse(x engine.DeletedSnapshot) api.DeleteSnapshotResponse {
	return api.DeleteSnapshotResponse{
		Ref:      x.Ref,
		Bytes:    x.Bytes,
		Held:     x.Held,
		MaxBytes: x.MaxBytes,
	}
}

// FromHeapUsage converts engine.HeapUsage to its wire type.
func FromHeapUsage(x engine.HeapUsage) api.HeapUsage {
	return api.HeapUsage{
		Used:         x.Used,
		Total:        x.Total,
		Embedder:     x.Embedder,
		BackingStore: x.BackingStore,
		HeldByTraced: x.HeldByTraced,
	}
}

// FromFunctionTime converts engine.FunctionTime to its wire type.
func FromFunctionTime(x engine.FunctionTime) api.FunctionTime {
	return api.FunctionTime{
		Function:    x.Function,
		File:        x.File,
		Line:        x.Line,
		SelfMs:      x.SelfMs,
		SelfPct:     x.SelfPct,
		TotalMs:     x.TotalMs,
		TotalPct:    x.TotalPct,
		Deopt:       x.Deopt,
		Lines:       FromHotLines(x.Lines),
		InlinedInto: x.InlinedInto,
		RunBy:       x.RunBy,
	}
}

// FromHotLine converts engine.HotLine to its wire type.
func FromHotLine(x engine.HotLine) api.HotLine {
	return api.HotLine{File: x.File, Line: x.Line, Ticks: x.Ticks, Pct: x.Pct}
}

// FromHotLines converts []engine.HotLine.
func FromHotLines(x []engine.HotLine) []api.HotLine {
	if x == nil {
		return nil
	}
	out := make([]api.HotLine, len(x))
	for i := range x {
		out[i] = FromHotLine(x[i])
	}
	return out
}

// FromCPUProfile converts engine.CPUProfile to its wire type.
func FromCPUProfile(x engine.CPUProfile) api.CPUProfile {
	return api.CPUProfile{
		Ref:        x.Ref,
		Download:   x.Download,
		DurationMs: x.DurationMs,
		Samples:    x.Samples,
		IdleMs:     x.IdleMs,
		GCMs:       x.GCMs,
		ProgramMs:  x.ProgramMs,
		Self:       FromFunctionTimes(x.Self),
		Total:      FromFunctionTimes(x.Total),
		Text:       x.Text,
	}
}

// FromAllocationSite converts engine.AllocationSite to its wire type.
func FromAllocationSite(x engine.AllocationSite) api.AllocationSite {
	return api.AllocationSite{
		Function: x.Function,
		File:     x.File,
		Line:     x.Line,
		Bytes:    x.Bytes,
		Pct:      x.Pct,
		Stack:    x.Stack,
	}
}

// FromHeapSampling converts engine.HeapSampling to its wire type.
func FromHeapSampling(x engine.HeapSampling) api.HeapSampling {
	return api.HeapSampling{
		TotalBytes: x.TotalBytes,
		Sites:      FromAllocationSites(x.Sites),
	}
}

// FromJobResult converts what a finished job answered (a heap snapshot's SnapshotInfo; a heap
// diff is heapsnap's wire type already).
func FromJobResult(x any) any {
	if sn, ok := x.(engine.SnapshotInfo); ok {
		return FromSnapshotInfo(sn)
	}
	return x
}

// FromSlowTarget converts engine.SlowTarget to its wire type.
func FromSlowTarget(x engine.SlowTarget) api.SlowTarget {
	return api.SlowTarget{
		Target:        x.Target,
		Kind:          x.Kind,
		Category:      x.Category,
		Headline:      x.Headline,
		BusyPct:       x.BusyPct,
		GCPct:         x.GCPct,
		ProgramPct:    x.ProgramPct,
		DependencyPct: x.DependencyPct,
		StallCount:    x.StallCount,
		StallMs:       x.StallMs,
		LoopDelayP99:  x.LoopDelayP99,
		Utilization:   x.Utilization,
		Error:         x.Error,
	}
}

// FromSlowReport converts engine.SlowReport to its wire type.
func FromSlowReport(x engine.SlowReport) api.SlowReport {
	out := api.SlowReport{WindowMs: x.WindowMs, Ended: x.Ended, Targets: make([]api.SlowTarget, len(x.Targets)), Text: x.Text}
	for i := range x.Targets {
		out.Targets[i] = FromSlowTarget(x.Targets[i])
	}
	return out
}

// FromAliveHandle converts engine.AliveHandle to its wire type.
func FromAliveHandle(x engine.AliveHandle) api.AliveHandle {
	return api.AliveHandle{
		Kind: x.Kind, Type: x.Type, Ref: x.Ref, FD: x.FD, Address: x.Address, Peer: x.Peer, Local: x.Local, PID: x.PID,
		Command: x.Command, DelayMs: x.DelayMs, Callback: x.Callback, Location: x.Location, ThreadID: x.ThreadID,
		CreatedAt: x.CreatedAt, Creation: x.Creation,
	}
}

// fromAliveHandles converts []engine.AliveHandle, never nil: an empty list is an answer.
func fromAliveHandles(x []engine.AliveHandle) []api.AliveHandle {
	out := make([]api.AliveHandle, len(x))
	for i := range x {
		out[i] = FromAliveHandle(x[i])
	}
	return out
}

// FromAliveTarget converts engine.AliveTarget to its wire type.
func FromAliveTarget(x engine.AliveTarget) api.AliveTarget {
	return api.AliveTarget{
		Target: x.Target, Kind: x.Kind, PID: x.PID, ThreadID: x.ThreadID,
		Keeping: fromAliveHandles(x.Keeping), NotKeeping: fromAliveHandles(x.NotKeeping), Error: x.Error,
	}
}

// FromAliveReport converts engine.AliveReport to its wire type.
func FromAliveReport(x engine.AliveReport) api.AliveReport {
	out := api.AliveReport{Targets: make([]api.AliveTarget, len(x.Targets)), Text: x.Text}
	for i := range x.Targets {
		out.Targets[i] = FromAliveTarget(x.Targets[i])
	}
	return out
}
