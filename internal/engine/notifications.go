package engine

import (
	"strings"

	"traced/internal/cdp"
	"traced/internal/cdp/proto"
	"traced/internal/preview"
)

// onEvent turns inspector notifications into events. It runs on the CDP dispatcher goroutine and
// must not wait on the inspector: CDP calls go to the chores loop.
func (dp dispatcher) onEvent(ev cdp.Event) {
	switch ev.Method {
	case proto.EventAttachedToWorker, proto.EventReceivedMessageFromWorker, proto.EventDetachedFromWorker:
		dp.t.workerDomain(ev.Method, ev.Params) // workers.go
	case proto.EventExecutionContextCreated:
		var p executionContextCreated
		if decodeParams(ev.Params, &p) != nil {
			return
		}
		dp.t.mu.Lock()
		if dp.t.mainContext == 0 {
			dp.t.mainContext = p.Context.ID
		}
		dp.t.contexts[p.Context.ID] = ContextInfo{ID: p.Context.ID, Name: p.Context.Name, Origin: p.Context.Origin}
		dp.t.mu.Unlock()
		dp.t.record(Event{Kind: KindContext, Context: &ContextInfo{ID: p.Context.ID, Name: p.Context.Name, Origin: p.Context.Origin}})
	case proto.EventExecutionContextDestroyed:
		var p executionContextDestroyed
		if decodeParams(ev.Params, &p) != nil {
			return
		}
		dp.t.mu.Lock()
		main := p.ExecutionContextID == dp.t.mainContext && dp.t.main()
		delete(dp.t.contexts, p.ExecutionContextID)
		dp.t.mu.Unlock()
		if main {
			// With --inspect-brk node waits for the debugger to disconnect before it exits.
			signal(dp.t.s.detach)
		}
	case proto.EventWaitingForDisconnect:
		if dp.t.main() { // a child's connection watches for it itself (children.go)
			dp.t.s.mu.Lock()
			hold := dp.t.s.exitHold
			if hold != nil { // under mu: releaseExit either sees this signal or no hold was set
				signal(hold) // a slow diagnosis reads its profiles first, then hangs up
			}
			dp.t.s.mu.Unlock()
			if hold == nil {
				signal(dp.t.s.detach) // the program has ended: hang up so node can exit
			}
		}
	case proto.EventWaitingForDebugger:
		dp.t.s.mu.Lock()
		if dp.t.s.attached != nil {
			dp.t.s.attached.waiting = true
		}
		dp.t.s.mu.Unlock()
	case proto.EventScriptParsed:
		var p scriptParsed
		if decodeParams(ev.Params, &p) != nil {
			return
		}
		info := ScriptInfo{
			ScriptID: p.ScriptID, URL: p.URL, File: fileOf(p.URL, dp.t.s.dir()), Hash: p.Hash,
			SourceMapURL: CapText(p.SourceMapURL, dp.t.s.stringCap).Value, Internal: InternalURL(p.URL) || dp.t.s.isPreload(p.URL),
		}
		dp.t.mu.Lock()
		dp.t.scripts[p.ScriptID] = info
		dp.t.mu.Unlock()
		dp.t.maps.noteScript(p.ScriptID, p.URL, p.SourceMapURL, p.Hash)
		if !dp.t.main() && dp.t.s.mode == ModeDebug && !info.Internal {
			dp.t.SourceMapping().watchScript(p.ScriptID, p.URL) // targetmaps.go
		}
		if info.Internal && !dp.t.main() {
			return // node's own, the same in every target: the main thread's list has them
		}
		dp.t.record(Event{Kind: KindScript, Script: &info})
	case proto.EventScriptFailedToParse:
		var p scriptParsed
		if decodeParams(ev.Params, &p) == nil {
			dp.noteFailedParse(&p)
		}
	case proto.EventConsoleAPICalled:
		var p consoleAPICalled
		if decodeParams(ev.Params, &p) != nil {
			return
		}
		dp.t.record(Event{Kind: KindConsole, Console: dp.consoleInfo(&p)})
		dp.t.consoleSeen++
		if dp.t.consoleSeen%dp.t.s.discardEvery == 0 {
			signal(dp.t.discard)
		}
	case proto.EventExceptionThrown:
		var p exceptionThrown
		if decodeParams(ev.Params, &p) != nil {
			return
		}
		if info := dp.holdSyntaxError(dp.exceptionInfo(&p)); info != nil {
			dp.t.record(Event{Kind: KindException, Exception: info})
		}
	case proto.EventPaused:
		var p debuggerPaused
		if decodeParams(ev.Params, &p) != nil {
			return
		}
		dp.onPaused(&p)
	case proto.EventResumed:
		dp.onResumed()
	case proto.EventBindingCalled:
		var p struct {
			Name    string `json:"name"`
			Payload string `json:"payload"`
		}
		if decodeParams(ev.Params, &p) != nil {
			return
		}
		if p.Name == logBinding {
			dp.t.Breakpoints().onLogpoint(p.Payload)
		} else {
			dp.t.onHook(p.Name, p.Payload)
		}
	case proto.EventReportHeapSnapshotProgress:
		var p heapProgress
		if decodeParams(ev.Params, &p) == nil {
			dp.t.Heap().onHeapProgress(p)
		}
	case proto.EventAddHeapSnapshotChunk:
		dp.t.Heap().onHeapChunk(ev.Params)
	case proto.EventBreakpointResolved:
		var p breakpointResolved
		if decodeParams(ev.Params, &p) != nil {
			return
		}
		var bound []BreakpointInfo
		dp.t.lock()
		for _, bp := range dp.t.s.breakpoints {
			if dp.t.Breakpoints().hits(bp, p.BreakpointID) {
				fr := dp.t.Breakpoints().resolvedAt(p.Location)
				if dp.t.SourceMapping().misbound(bp, p.Location, fr) {
					continue // the binding through the script's map names the place (targetmaps.go)
				}
				b := dp.t.Breakpoints().bindingOf(bp)
				b.resolved = append(b.resolved, fr)
				bound = append(bound, BreakpointInfo{Ref: bp.ref(), Location: fr})
			}
		}
		dp.t.unlock()
		for i := range bound {
			dp.t.record(Event{Kind: KindBreakpoint, Breakpoint: &bound[i]})
		}
	}
}

// onPaused records a pause, counts breakpoint hits and wakes whoever waits for the next pause.
// Node's first-line break is kept out of the timeline unless pauseOnStart asked for it: launch
// waits for it and runs past it.
func (dp dispatcher) onPaused(p *debuggerPaused) {
	if dp.ownPause(p) { // a throw to record, or any pause of a trace session (throws.go)
		return
	}
	if dp.t.SourceMapping().misplacedHit(p) { // a transformed file's line binding, before its map moved it
		dp.t.lock()
		dp.beginPass()
		dp.t.unlock()
		go dp.t.SourceMapping().passMisplaced(p)
		return
	}
	dp.t.lock()
	if dp.isFatalPause(p) { // the preload's uncaught exception monitor (fatal.go)
		dp.beginPass()
		dp.t.unlock()
		go dp.passFatal(p)
		return
	}
	p.Reason = dp.pauseReason(p)
	dp.t.unlock()
	if p.Reason == "exception" || p.Reason == "promiseRejection" {
		dp.t.Inspector().awaitingPause(p) // node's or traced's frames alone: the user's awaiting frame instead
	}
	info := &PauseInfo{Reason: p.Reason}
	if len(p.CallFrames) > 0 {
		fr := dp.t.Inspector().pausedFrame(p.CallFrames[0])
		info.Location = &fr
	}
	dp.t.lock()
	if dp.t.SourceMapping().isGatePause(p) {
		dp.t.Control().leavePause() // the chores loop resumes it: a pause asked meanwhile waits for that
		dp.t.gatePause = p
		dp.t.unlock()
		signal(dp.t.gate)
		return
	}
	dp.t.stepping, dp.t.pausing, dp.t.runningTo = false, false, false
	// Node's first-line break, unless V8 reports the user's own pause there instead (a debugger
	// statement or a breakpoint on the first statement): that one is shown as any other.
	first := !dp.t.startSeen && (p.Reason == startReason || dp.t.SourceMapping().hitsGateOnly(p))
	// A first-line break after the first (under --import tsx node breaks again, in tsx's code
	// run through its loader) is node's start-up still, not a pause of the user's.
	// An attached process's start break is the user's (attach marks the start seen): not again.
	again := dp.t.startSeen && p.Reason == startReason && len(p.HitBreakpoints) == 0 && dp.t.s.attached == nil
	if !dp.t.startSeen {
		dp.t.startSeen = true
		close(dp.t.startPause)
	}
	// A worker's start break, or a test file's under --test (launch does not wait for one there):
	// it runs on, as it would untraced.
	if (first && (!dp.t.main() || runsTests(dp.t.s.req.NodeArgs))) || again {
		dp.t.unlock()
		go dp.t.passStart(p)
		return
	}
	if (p.Reason == "exception" || p.Reason == "promiseRejection") && p.Data != nil && p.Data.Uncaught {
		dp.t.stoppedUncaught = true // the preload's monitor will not stop for it again (fatal.go)
	}
	dp.t.paused = p // the status says paused from here: before anyone is woken
	dp.t.s.pauses++
	dp.t.pausedAt = dp.t.s.pauses
	close(dp.t.s.anyPause)
	dp.t.s.anyPause = make(chan struct{})
	for _, id := range p.HitBreakpoints {
		for _, bp := range dp.t.s.breakpoints {
			if dp.t.Breakpoints().hits(bp, id) {
				bp.Hits++
				info.HitBreakpoints = append(info.HitBreakpoints, bp.Ref)
			}
		}
	}
	var pf *prefetch
	if !first || dp.t.s.pauseOnStart {
		pf = dp.t.Inspector().beginPrefetch(p) // before anyone is woken: they wait for its reads to be sent
	}
	close(dp.t.nextPause)
	dp.t.nextPause = make(chan struct{})
	dp.t.unlock()
	dp.t.Inspector().sendPrefetch(pf)
	if first && !dp.t.s.pauseOnStart {
		return // not a pause anyone asked for
	}
	dp.t.record(Event{Kind: KindPause, Pause: info})
	dp.t.s.pub.PublishStatus(dp.t.s.Summary())
}

// onResumed forgets the pause, if it is still the current one.
func (dp dispatcher) onResumed() {
	dp.t.lock()
	dp.t.Control().closeLeaving()
	if dp.t.passing { // traced let its own pause go: nobody saw it
		dp.endPass()
		dp.t.unlock()
		return
	}
	if dp.t.gatePause != nil { // the chores loop passed the gate: the user saw no pause
		dp.t.gatePause = nil
		dp.t.unlock()
		return
	}
	was := dp.t.paused
	dp.t.paused = nil // the status says running from here, in the same step
	dp.t.prefetch = nil
	dp.t.unlock()
	dp.t.record(Event{Kind: KindResume})
	if was != nil {
		dp.t.s.pub.PublishStatus(dp.t.s.Summary())
	}
}

func (dp dispatcher) consoleInfo(p *consoleAPICalled) *ConsoleInfo {
	info := &ConsoleInfo{Level: p.Type, Text: CapText(preview.Console(p.Args, dp.t.s.stringCap), dp.t.s.stringCap)}
	for _, a := range p.Args {
		info.Args = append(info.Args, a.Type)
	}
	if p.StackTrace != nil && len(p.StackTrace.CallFrames) > 0 {
		f := p.StackTrace.CallFrames[0]
		fr := dp.t.SourceMapping().place(f.FunctionName, f.ScriptID, f.URL, f.LineNumber, f.ColumnNumber)
		info.Frame = &fr
	}
	return info
}

func (dp dispatcher) exceptionInfo(p *exceptionThrown) *ExceptionInfo {
	d := &p.ExceptionDetails
	info := &ExceptionInfo{
		Text:      d.Text,
		Stack:     dp.t.SourceMapping().framesOf(d.StackTrace),
		Rejection: strings.Contains(d.Text, "in promise") || d.URL == promisesURL,
	}
	// node names an uncaught exception's script by its path, and its column can fall before the
	// statement (one before the stack's): the top frame, in the same script and line, is exact
	// and spells the URL as every frame does.
	url, scriptID, line0, col0 := d.URL, d.ScriptID, d.LineNumber, d.ColumnNumber
	if scriptID == "" && url != "" {
		scriptID, _ = dp.t.Inspector().scriptFor(url)
	}
	if st := d.StackTrace; st != nil && len(st.CallFrames) > 0 {
		top := st.CallFrames[0]
		// Node rethrows an unhandled rejection from its own code (seen while V8 pauses at every
		// exception): the error's own stack says where it was thrown.
		rethrown := InternalURL(url) && !InternalURL(top.URL) && top.URL != ""
		if url == "" || rethrown || (top.ScriptID == scriptID && top.LineNumber == line0) {
			url, scriptID, line0, col0 = top.URL, top.ScriptID, top.LineNumber, top.ColumnNumber
		}
	}
	if u := dp.t.Inspector().scriptURL(scriptID); u != "" {
		url = u
	}
	if url != "" {
		loc := dp.t.SourceMapping().place("", scriptID, url, line0, col0)
		info.URL, info.File, info.Line, info.Column, info.Generated = loc.URL, loc.File, loc.Line, loc.Column, loc.Generated
	}
	message := d.Text
	if o := d.Exception; o != nil {
		info.Class = o.ClassName
		value := preview.Value(*o)
		if o.Subtype == "error" {
			value, message = errorMessage(o.ClassName, o.Description)
			// A SyntaxError is thrown by node's loader: the user's file is the place worth showing.
			if info.File == "" || InternalURL(info.URL) {
				dp.syntaxSite(d, o, info)
			}
		} else {
			message = value
		}
		info.Value = CapText(value, dp.t.s.stringCap).Value
		dp.addAwaitChain(info, d, o)
	}
	info.Message = CapText(message, dp.t.s.stringCap)
	return info
}

// addAwaitChain adds the await chain of an error's own stack to an exception's stack, and
// places a rejection node's own code made at the user's awaiting frame (asyncframes.go).
func (dp dispatcher) addAwaitChain(info *ExceptionInfo, d *exceptionDetails, o *remoteObject) {
	if o.Subtype != "error" || (d.StackTrace != nil && d.StackTrace.Parent != nil) {
		return // V8 recorded the async parents: async-depth is on
	}
	chain := dp.t.Inspector().asyncFramesOf(o.Description)
	if len(chain) == 0 {
		return
	}
	sync := info.Stack
	info.Stack = append(sync[:min(len(sync), maxFrames-len(chain)):min(len(sync), maxFrames-len(chain))], chain...)
	if !InternalURL(info.URL) && info.File != "" {
		return
	}
	for _, f := range sync {
		if !f.Internal && f.URL != "" {
			return // a user or library frame on the synchronous stack already says where
		}
	}
	if u := dp.t.Inspector().firstUserFrame(chain); u != nil {
		info.URL, info.File, info.Line, info.Column, info.Generated = u.URL, u.File, u.Line, u.Column, u.Generated
	}
}

// promisesURL is node's code that reports unhandled rejections.
const promisesURL = "node:internal/process/promises"

// pauseReason names a pause as a user reads it, under mu: V8 says "other" for a breakpoint, a
// step, a debugger statement and a pause it was asked for alike.
func (dp dispatcher) pauseReason(p *debuggerPaused) string {
	if p.Reason != "other" {
		return p.Reason
	}
	switch {
	case len(p.HitBreakpoints) > 0:
		return "breakpoint"
	case dp.t.stepping:
		return "step"
	case dp.t.pausing:
		return "pause"
	case dp.t.runningTo:
		return "run-to"
	}
	return "debugger statement"
}
