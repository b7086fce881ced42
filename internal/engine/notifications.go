package engine

import (
	"strings"

	"traced/internal/cdp"
	"traced/internal/preview"
)

// onEvent turns inspector notifications into events. It runs on the CDP dispatcher goroutine and
// must not wait on the inspector: CDP calls go to the chores loop.
func (s *Session) onEvent(ev cdp.Event) {
	switch ev.Method {
	case "NodeWorker.attachedToWorker", "NodeWorker.receivedMessageFromWorker", "NodeWorker.detachedFromWorker":
		s.workerDomain(ev.Method, ev.Params) // workers.go
	case "Runtime.executionContextCreated":
		var p executionContextCreated
		if decodeParams(ev.Params, &p) != nil {
			return
		}
		s.mu.Lock()
		if s.mainContext == 0 {
			s.mainContext = p.Context.ID
		}
		s.contexts[p.Context.ID] = ContextInfo{ID: p.Context.ID, Name: p.Context.Name, Origin: p.Context.Origin}
		s.mu.Unlock()
		s.record(Event{Kind: KindContext, Context: &ContextInfo{ID: p.Context.ID, Name: p.Context.Name, Origin: p.Context.Origin}})
	case "Runtime.executionContextDestroyed":
		var p executionContextDestroyed
		if decodeParams(ev.Params, &p) != nil {
			return
		}
		s.mu.Lock()
		main := p.ExecutionContextID == s.mainContext && s.main()
		delete(s.contexts, p.ExecutionContextID)
		s.mu.Unlock()
		if main {
			// With --inspect-brk node waits for the debugger to disconnect before it exits.
			signal(s.detach)
		}
	case "NodeRuntime.waitingForDisconnect":
		if s.main() { // a child's connection watches for it itself (children.go)
			signal(s.detach) // the program has ended: hang up so node can exit
		}
	case "NodeRuntime.waitingForDebugger":
		s.mu.Lock()
		if s.attached != nil {
			s.attached.waiting = true
		}
		s.mu.Unlock()
	case "Debugger.scriptParsed":
		var p scriptParsed
		if decodeParams(ev.Params, &p) != nil {
			return
		}
		info := ScriptInfo{
			ScriptID: p.ScriptID, URL: p.URL, File: fileOf(p.URL, s.cwd), Hash: p.Hash,
			SourceMapURL: CapText(p.SourceMapURL, s.stringCap).Value, Internal: InternalURL(p.URL) || s.isPreload(p.URL),
		}
		s.mu.Lock()
		s.scripts[p.ScriptID] = info
		s.mu.Unlock()
		s.maps.noteScript(p.ScriptID, p.URL, p.SourceMapURL, p.Hash)
		if !s.main() && s.mode == ModeDebug && !info.Internal {
			s.watchScript(p.ScriptID, p.URL) // targetmaps.go
		}
		if info.Internal && !s.main() {
			return // node's own, the same in every target: the main thread's list has them
		}
		s.record(Event{Kind: KindScript, Script: &info})
	case "Debugger.scriptFailedToParse":
		var p scriptParsed
		if decodeParams(ev.Params, &p) == nil {
			s.noteFailedParse(&p)
		}
	case "Runtime.consoleAPICalled":
		var p consoleAPICalled
		if decodeParams(ev.Params, &p) != nil {
			return
		}
		s.record(Event{Kind: KindConsole, Console: s.consoleInfo(&p)})
		s.consoleSeen++
		if s.consoleSeen%s.discardEvery == 0 {
			signal(s.discard)
		}
	case "Runtime.exceptionThrown":
		var p exceptionThrown
		if decodeParams(ev.Params, &p) != nil {
			return
		}
		if info := s.holdSyntaxError(s.exceptionInfo(&p)); info != nil {
			s.record(Event{Kind: KindException, Exception: info})
		}
	case "Debugger.paused":
		var p debuggerPaused
		if decodeParams(ev.Params, &p) != nil {
			return
		}
		s.onPaused(&p)
	case "Debugger.resumed":
		s.onResumed()
	case "Runtime.bindingCalled":
		var p struct {
			Name    string `json:"name"`
			Payload string `json:"payload"`
		}
		if decodeParams(ev.Params, &p) != nil {
			return
		}
		if p.Name == logBinding {
			s.onLogpoint(p.Payload)
		} else {
			s.onHook(p.Name, p.Payload)
		}
	case "HeapProfiler.reportHeapSnapshotProgress":
		var p heapProgress
		if decodeParams(ev.Params, &p) == nil {
			s.onHeapProgress(p)
		}
	case "HeapProfiler.addHeapSnapshotChunk":
		s.onHeapChunk(ev.Params)
	case "Debugger.breakpointResolved":
		var p breakpointResolved
		if decodeParams(ev.Params, &p) != nil {
			return
		}
		var bound []BreakpointInfo
		s.mu.Lock()
		for _, bp := range s.breakpoints {
			if bp.is(p.BreakpointID) {
				fr := s.resolvedAt(p.Location)
				bp.resolved = append(bp.resolved, fr)
				bound = append(bound, BreakpointInfo{Ref: bp.ref(), Location: fr})
			}
		}
		s.mu.Unlock()
		for i := range bound {
			s.record(Event{Kind: KindBreakpoint, Breakpoint: &bound[i]})
		}
	}
}

// onPaused records a pause, counts breakpoint hits and wakes whoever waits for the next pause.
// Node's first-line break is kept out of the timeline unless pauseOnStart asked for it: launch
// waits for it and runs past it.
func (s *Session) onPaused(p *debuggerPaused) {
	if s.ownPause(p) { // a throw to record, or any pause of a trace session (throws.go)
		return
	}
	if s.misplacedHit(p) { // a transformed file's line binding, before its map moved it
		s.mu.Lock()
		s.beginPass()
		s.mu.Unlock()
		go s.passMisplaced(p)
		return
	}
	s.mu.Lock()
	if s.isFatalPause(p) { // the preload's uncaught exception monitor (fatal.go)
		s.beginPass()
		s.mu.Unlock()
		go s.passFatal(p)
		return
	}
	s.mu.Unlock()
	info := &PauseInfo{Reason: p.Reason}
	if len(p.CallFrames) > 0 {
		fr := s.pausedFrame(p.CallFrames[0])
		info.Location = &fr
	}
	s.mu.Lock()
	if s.isGatePause(p) {
		s.leavePause() // the chores loop resumes it: a pause asked meanwhile waits for that
		s.gatePause = p
		s.mu.Unlock()
		signal(s.gate)
		return
	}
	s.stepping = false
	// Node's first-line break, unless V8 reports the user's own pause there instead (a debugger
	// statement or a breakpoint on the first statement): that one is shown as any other.
	first := !s.startSeen && (p.Reason == startReason || s.hitsGateOnly(p))
	if !s.startSeen {
		s.startSeen = true
		close(s.startPause)
	}
	// A worker's start break, or a test file's under --test (launch does not wait for one there):
	// it runs on, as it would untraced.
	if first && (!s.main() || runsTests(s.req.NodeArgs)) {
		s.mu.Unlock()
		go s.passStart(p)
		return
	}
	if (p.Reason == "exception" || p.Reason == "promiseRejection") && p.Data != nil && p.Data.Uncaught {
		s.stoppedUncaught = true // the preload's monitor will not stop for it again (fatal.go)
	}
	s.paused = p // the status says paused from here: before anyone is woken
	s.pauses++
	s.pausedAt = s.pauses
	close(s.anyPause)
	s.anyPause = make(chan struct{})
	for _, id := range p.HitBreakpoints {
		for _, bp := range s.breakpoints {
			if bp.is(id) {
				bp.Hits++
				info.HitBreakpoints = append(info.HitBreakpoints, bp.Ref)
			}
		}
	}
	var pf *prefetch
	if !first || s.pauseOnStart {
		pf = s.beginPrefetch(p) // before anyone is woken: they wait for its reads to be sent
	}
	close(s.nextPause)
	s.nextPause = make(chan struct{})
	s.mu.Unlock()
	s.sendPrefetch(pf)
	if first && !s.pauseOnStart {
		return // not a pause anyone asked for
	}
	s.record(Event{Kind: KindPause, Pause: info})
	s.pub.PublishStatus(s.Summary())
}

// onResumed forgets the pause, if it is still the current one.
func (s *Session) onResumed() {
	s.mu.Lock()
	s.closeLeaving()
	if s.passing { // traced let its own pause go: nobody saw it
		s.endPass()
		s.mu.Unlock()
		return
	}
	if s.gatePause != nil { // the chores loop passed the gate: the user saw no pause
		s.gatePause = nil
		s.mu.Unlock()
		return
	}
	was := s.paused
	s.paused = nil // the status says running from here, in the same step
	s.prefetch = nil
	s.mu.Unlock()
	s.record(Event{Kind: KindResume})
	if was != nil {
		s.pub.PublishStatus(s.Summary())
	}
}

func (s *Session) consoleInfo(p *consoleAPICalled) *ConsoleInfo {
	info := &ConsoleInfo{Level: p.Type, Text: CapText(preview.Console(p.Args, s.stringCap), s.stringCap)}
	for _, a := range p.Args {
		info.Args = append(info.Args, a.Type)
	}
	if p.StackTrace != nil && len(p.StackTrace.CallFrames) > 0 {
		f := p.StackTrace.CallFrames[0]
		fr := s.place(f.FunctionName, f.ScriptID, f.URL, f.LineNumber, f.ColumnNumber)
		info.Frame = &fr
	}
	return info
}

func (s *Session) exceptionInfo(p *exceptionThrown) *ExceptionInfo {
	d := &p.ExceptionDetails
	info := &ExceptionInfo{
		Text:      d.Text,
		Stack:     s.framesOf(d.StackTrace),
		Rejection: strings.Contains(d.Text, "in promise") || d.URL == promisesURL,
	}
	// node names an uncaught exception's script by its path, and its column can fall before the
	// statement (one before the stack's): the top frame, in the same script and line, is exact
	// and spells the URL as every frame does.
	url, scriptID, line0, col0 := d.URL, d.ScriptID, d.LineNumber, d.ColumnNumber
	if scriptID == "" && url != "" {
		scriptID, _ = s.scriptFor(url)
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
	if u := s.scriptURL(scriptID); u != "" {
		url = u
	}
	if url != "" {
		loc := s.place("", scriptID, url, line0, col0)
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
				s.syntaxSite(d, o, info)
			}
		} else {
			message = value
		}
		info.Value = CapText(value, s.stringCap).Value
	}
	info.Message = CapText(message, s.stringCap)
	return info
}

// promisesURL is node's code that reports unhandled rejections.
const promisesURL = "node:internal/process/promises"
