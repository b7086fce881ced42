package engine

import (
	"strings"

	"traced/internal/cdp"
	"traced/internal/preview"
)

// onEvent turns inspector notifications into events. It runs on the CDP dispatcher goroutine and
// must not wait on the inspector: CDP calls go to the chores loop.
func (t *Target) onEvent(ev cdp.Event) {
	switch ev.Method {
	case "NodeWorker.attachedToWorker", "NodeWorker.receivedMessageFromWorker", "NodeWorker.detachedFromWorker":
		t.workerDomain(ev.Method, ev.Params) // workers.go
	case "Runtime.executionContextCreated":
		var p executionContextCreated
		if decodeParams(ev.Params, &p) != nil {
			return
		}
		t.s.mu.Lock()
		if t.mainContext == 0 {
			t.mainContext = p.Context.ID
		}
		t.contexts[p.Context.ID] = ContextInfo{ID: p.Context.ID, Name: p.Context.Name, Origin: p.Context.Origin}
		t.s.mu.Unlock()
		t.record(Event{Kind: KindContext, Context: &ContextInfo{ID: p.Context.ID, Name: p.Context.Name, Origin: p.Context.Origin}})
	case "Runtime.executionContextDestroyed":
		var p executionContextDestroyed
		if decodeParams(ev.Params, &p) != nil {
			return
		}
		t.s.mu.Lock()
		main := p.ExecutionContextID == t.mainContext && t.main()
		delete(t.contexts, p.ExecutionContextID)
		t.s.mu.Unlock()
		if main {
			// With --inspect-brk node waits for the debugger to disconnect before it exits.
			signal(t.s.detach)
		}
	case "NodeRuntime.waitingForDisconnect":
		if t.main() { // a child's connection watches for it itself (children.go)
			t.s.mu.Lock()
			hold := t.s.exitHold
			if hold != nil { // under mu: releaseExit either sees this signal or no hold was set
				signal(hold) // a slow diagnosis reads its profiles first, then hangs up
			}
			t.s.mu.Unlock()
			if hold == nil {
				signal(t.s.detach) // the program has ended: hang up so node can exit
			}
		}
	case "NodeRuntime.waitingForDebugger":
		t.s.mu.Lock()
		if t.s.attached != nil {
			t.s.attached.waiting = true
		}
		t.s.mu.Unlock()
	case "Debugger.scriptParsed":
		var p scriptParsed
		if decodeParams(ev.Params, &p) != nil {
			return
		}
		info := ScriptInfo{
			ScriptID: p.ScriptID, URL: p.URL, File: fileOf(p.URL, t.s.cwd), Hash: p.Hash,
			SourceMapURL: CapText(p.SourceMapURL, t.s.stringCap).Value, Internal: InternalURL(p.URL) || t.s.isPreload(p.URL),
		}
		t.s.mu.Lock()
		t.scripts[p.ScriptID] = info
		t.s.mu.Unlock()
		t.maps.noteScript(p.ScriptID, p.URL, p.SourceMapURL, p.Hash)
		if !t.main() && t.s.mode == ModeDebug && !info.Internal {
			t.watchScript(p.ScriptID, p.URL) // targetmaps.go
		}
		if info.Internal && !t.main() {
			return // node's own, the same in every target: the main thread's list has them
		}
		t.record(Event{Kind: KindScript, Script: &info})
	case "Debugger.scriptFailedToParse":
		var p scriptParsed
		if decodeParams(ev.Params, &p) == nil {
			t.noteFailedParse(&p)
		}
	case "Runtime.consoleAPICalled":
		var p consoleAPICalled
		if decodeParams(ev.Params, &p) != nil {
			return
		}
		t.record(Event{Kind: KindConsole, Console: t.consoleInfo(&p)})
		t.consoleSeen++
		if t.consoleSeen%t.s.discardEvery == 0 {
			signal(t.discard)
		}
	case "Runtime.exceptionThrown":
		var p exceptionThrown
		if decodeParams(ev.Params, &p) != nil {
			return
		}
		if info := t.holdSyntaxError(t.exceptionInfo(&p)); info != nil {
			t.record(Event{Kind: KindException, Exception: info})
		}
	case "Debugger.paused":
		var p debuggerPaused
		if decodeParams(ev.Params, &p) != nil {
			return
		}
		t.onPaused(&p)
	case "Debugger.resumed":
		t.onResumed()
	case "Runtime.bindingCalled":
		var p struct {
			Name    string `json:"name"`
			Payload string `json:"payload"`
		}
		if decodeParams(ev.Params, &p) != nil {
			return
		}
		if p.Name == logBinding {
			t.onLogpoint(p.Payload)
		} else {
			t.onHook(p.Name, p.Payload)
		}
	case "HeapProfiler.reportHeapSnapshotProgress":
		var p heapProgress
		if decodeParams(ev.Params, &p) == nil {
			t.onHeapProgress(p)
		}
	case "HeapProfiler.addHeapSnapshotChunk":
		t.onHeapChunk(ev.Params)
	case "Debugger.breakpointResolved":
		var p breakpointResolved
		if decodeParams(ev.Params, &p) != nil {
			return
		}
		var bound []BreakpointInfo
		t.s.mu.Lock()
		for _, bp := range t.s.breakpoints {
			if t.hits(bp, p.BreakpointID) {
				fr := t.resolvedAt(p.Location)
				if t.misbound(bp, p.Location, fr) {
					continue // the binding through the script's map names the place (targetmaps.go)
				}
				b := t.bindingOf(bp)
				b.resolved = append(b.resolved, fr)
				bound = append(bound, BreakpointInfo{Ref: bp.ref(), Location: fr})
			}
		}
		t.s.mu.Unlock()
		for i := range bound {
			t.record(Event{Kind: KindBreakpoint, Breakpoint: &bound[i]})
		}
	}
}

// onPaused records a pause, counts breakpoint hits and wakes whoever waits for the next pause.
// Node's first-line break is kept out of the timeline unless pauseOnStart asked for it: launch
// waits for it and runs past it.
func (t *Target) onPaused(p *debuggerPaused) {
	if t.ownPause(p) { // a throw to record, or any pause of a trace session (throws.go)
		return
	}
	if t.misplacedHit(p) { // a transformed file's line binding, before its map moved it
		t.s.mu.Lock()
		t.beginPass()
		t.s.mu.Unlock()
		go t.passMisplaced(p)
		return
	}
	t.s.mu.Lock()
	if t.isFatalPause(p) { // the preload's uncaught exception monitor (fatal.go)
		t.beginPass()
		t.s.mu.Unlock()
		go t.passFatal(p)
		return
	}
	p.Reason = t.pauseReason(p)
	t.s.mu.Unlock()
	if p.Reason == "exception" || p.Reason == "promiseRejection" {
		t.awaitingPause(p) // node's or traced's frames alone: the user's awaiting frame instead
	}
	info := &PauseInfo{Reason: p.Reason}
	if len(p.CallFrames) > 0 {
		fr := t.pausedFrame(p.CallFrames[0])
		info.Location = &fr
	}
	t.s.mu.Lock()
	if t.isGatePause(p) {
		t.leavePause() // the chores loop resumes it: a pause asked meanwhile waits for that
		t.gatePause = p
		t.s.mu.Unlock()
		signal(t.gate)
		return
	}
	t.stepping, t.pausing, t.runningTo = false, false, false
	// Node's first-line break, unless V8 reports the user's own pause there instead (a debugger
	// statement or a breakpoint on the first statement): that one is shown as any other.
	first := !t.startSeen && (p.Reason == startReason || t.hitsGateOnly(p))
	// A first-line break after the first (under --import tsx node breaks again, in tsx's code
	// run through its loader) is node's start-up still, not a pause of the user's.
	// An attached process's start break is the user's (attach marks the start seen): not again.
	again := t.startSeen && p.Reason == startReason && len(p.HitBreakpoints) == 0 && t.s.attached == nil
	if !t.startSeen {
		t.startSeen = true
		close(t.startPause)
	}
	// A worker's start break, or a test file's under --test (launch does not wait for one there):
	// it runs on, as it would untraced.
	if (first && (!t.main() || runsTests(t.s.req.NodeArgs))) || again {
		t.s.mu.Unlock()
		go t.passStart(p)
		return
	}
	if (p.Reason == "exception" || p.Reason == "promiseRejection") && p.Data != nil && p.Data.Uncaught {
		t.stoppedUncaught = true // the preload's monitor will not stop for it again (fatal.go)
	}
	t.paused = p // the status says paused from here: before anyone is woken
	t.s.pauses++
	t.pausedAt = t.s.pauses
	close(t.s.anyPause)
	t.s.anyPause = make(chan struct{})
	for _, id := range p.HitBreakpoints {
		for _, bp := range t.s.breakpoints {
			if t.hits(bp, id) {
				bp.Hits++
				info.HitBreakpoints = append(info.HitBreakpoints, bp.Ref)
			}
		}
	}
	var pf *prefetch
	if !first || t.s.pauseOnStart {
		pf = t.beginPrefetch(p) // before anyone is woken: they wait for its reads to be sent
	}
	close(t.nextPause)
	t.nextPause = make(chan struct{})
	t.s.mu.Unlock()
	t.sendPrefetch(pf)
	if first && !t.s.pauseOnStart {
		return // not a pause anyone asked for
	}
	t.record(Event{Kind: KindPause, Pause: info})
	t.s.pub.PublishStatus(t.s.Summary())
}

// onResumed forgets the pause, if it is still the current one.
func (t *Target) onResumed() {
	t.s.mu.Lock()
	t.closeLeaving()
	if t.passing { // traced let its own pause go: nobody saw it
		t.endPass()
		t.s.mu.Unlock()
		return
	}
	if t.gatePause != nil { // the chores loop passed the gate: the user saw no pause
		t.gatePause = nil
		t.s.mu.Unlock()
		return
	}
	was := t.paused
	t.paused = nil // the status says running from here, in the same step
	t.prefetch = nil
	t.s.mu.Unlock()
	t.record(Event{Kind: KindResume})
	if was != nil {
		t.s.pub.PublishStatus(t.s.Summary())
	}
}

func (t *Target) consoleInfo(p *consoleAPICalled) *ConsoleInfo {
	info := &ConsoleInfo{Level: p.Type, Text: CapText(preview.Console(p.Args, t.s.stringCap), t.s.stringCap)}
	for _, a := range p.Args {
		info.Args = append(info.Args, a.Type)
	}
	if p.StackTrace != nil && len(p.StackTrace.CallFrames) > 0 {
		f := p.StackTrace.CallFrames[0]
		fr := t.place(f.FunctionName, f.ScriptID, f.URL, f.LineNumber, f.ColumnNumber)
		info.Frame = &fr
	}
	return info
}

func (t *Target) exceptionInfo(p *exceptionThrown) *ExceptionInfo {
	d := &p.ExceptionDetails
	info := &ExceptionInfo{
		Text:      d.Text,
		Stack:     t.framesOf(d.StackTrace),
		Rejection: strings.Contains(d.Text, "in promise") || d.URL == promisesURL,
	}
	// node names an uncaught exception's script by its path, and its column can fall before the
	// statement (one before the stack's): the top frame, in the same script and line, is exact
	// and spells the URL as every frame does.
	url, scriptID, line0, col0 := d.URL, d.ScriptID, d.LineNumber, d.ColumnNumber
	if scriptID == "" && url != "" {
		scriptID, _ = t.scriptFor(url)
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
	if u := t.scriptURL(scriptID); u != "" {
		url = u
	}
	if url != "" {
		loc := t.place("", scriptID, url, line0, col0)
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
				t.syntaxSite(d, o, info)
			}
		} else {
			message = value
		}
		info.Value = CapText(value, t.s.stringCap).Value
		t.addAwaitChain(info, d, o)
	}
	info.Message = CapText(message, t.s.stringCap)
	return info
}

// addAwaitChain adds the await chain of an error's own stack to an exception's stack, and
// places a rejection node's own code made at the user's awaiting frame (asyncframes.go).
func (t *Target) addAwaitChain(info *ExceptionInfo, d *exceptionDetails, o *remoteObject) {
	if o.Subtype != "error" || (d.StackTrace != nil && d.StackTrace.Parent != nil) {
		return // V8 recorded the async parents: async-depth is on
	}
	chain := t.asyncFramesOf(o.Description)
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
	if u := t.firstUserFrame(chain); u != nil {
		info.URL, info.File, info.Line, info.Column, info.Generated = u.URL, u.File, u.Line, u.Column, u.Generated
	}
}

// promisesURL is node's code that reports unhandled rejections.
const promisesURL = "node:internal/process/promises"

// pauseReason names a pause as a user reads it, under mu: V8 says "other" for a breakpoint, a
// step, a debugger statement and a pause it was asked for alike.
func (t *Target) pauseReason(p *debuggerPaused) string {
	if p.Reason != "other" {
		return p.Reason
	}
	switch {
	case len(p.HitBreakpoints) > 0:
		return "breakpoint"
	case t.stepping:
		return "step"
	case t.pausing:
		return "pause"
	case t.runningTo:
		return "run-to"
	}
	return "debugger statement"
}
