package engine

import (
	"context"
	"fmt"
	"slices"
	"time"

	"traced/internal/cdp/proto"
	"traced/internal/engine/bpspec"
)

// Breakpoints on original sources (src/app.ts:9) bind to the generated code a source map says
// the line became. A script is only known once node parses it, and node runs a module right
// after parsing it, faster than a CDP round trip: so while such a breakpoint waits, a "gate"
// breakpoint at line 0 of every file script stops each one before its first statement, the
// waiting breakpoints are bound in it, and it runs on. The gate goes once nothing waits.

// gateURLRegex matches every script loaded from a file, as CJS (a path) or ESM (a file:// URL).
const gateURLRegex = `^(file://)?/`

// origin is the original position a breakpoint was asked on, 1-based.
type origin struct {
	path      string // absolute
	line, col int
}

// bindOriginal binds a breakpoint on an original source line to the generated code of the
// newest loaded script whose map has it. ok is false when no loaded script's map has path and
// path does not look like an original source: the caller then binds it as a generated file.
// A source not loaded yet leaves the breakpoint pending until a script that maps it loads.
func (sm SourceMapping) bindOriginal(ctx context.Context, c clientCaller, location, at, path string, line, col int, condition string) (bp *breakpoint, ok bool, err error) {
	t, found, err := sm.originalTarget(location, path, line)
	switch {
	case err != nil:
		return nil, true, err
	case found:
		line0, col0 := t.gen.CDP()
		call := proto.DebuggerSetBreakpointByURL{
			URL: t.url, LineNumber: line0, ColumnNumber: proto.Int(col0), Condition: condition,
		}
		bp, err := sm.t.Breakpoints().bindWith(ctx, c, at, location, call)
		if err != nil {
			return nil, true, err
		}
		bp.orig = &origin{path: path, line: line, col: col}
		// V8 moves a breakpoint to the next statement; one that lands on another original
		// line is refused, as on a generated file, naming where it would have stopped.
		sm.t.lock()
		resolved, id := slices.Clone(sm.t.Breakpoints().bindingOf(bp).resolved), sm.t.Breakpoints().v8IDOf(bp)
		sm.t.unlock()
		var moved []int
		for _, r := range resolved {
			if r.Line == line && r.Generated != nil {
				return bp, true, nil
			}
			if r.Generated != nil && !slices.Contains(moved, r.Line) {
				moved = append(moved, r.Line)
			}
		}
		if len(resolved) == 0 {
			return bp, true, nil // V8 binds it when the script runs again
		}
		if err := proto.Do(ctx, c, proto.DebuggerRemoveBreakpoint{BreakpointID: id}, nil); err != nil {
			return nil, true, fmt.Errorf("remove moved breakpoint %s: %w", location, err)
		}
		slices.Sort(moved)
		return nil, true, &NotBreakableError{Location: location, File: bpspec.File(location), Nearest: moved}
	case mapsOriginal(path) && sm.t.maps.enabled():
		if err := sm.ensureGate(ctx, c); err != nil {
			return nil, true, err
		}
		return &breakpoint{Breakpoint: Breakpoint{Pending: true}, at: at, orig: &origin{path: path, line: line, col: col},
			call: proto.DebuggerSetBreakpointByURL{Condition: condition}}, true, nil
	}
	return nil, false, nil
}

// ensureGate sets the gate breakpoint unless it is set.
func (sm SourceMapping) ensureGate(ctx context.Context, c clientCaller) error {
	sm.t.mu.Lock()
	set := sm.t.gateID != ""
	sm.t.mu.Unlock()
	if set {
		return nil
	}
	var res setBreakpointResult
	if err := proto.Do(ctx, c, proto.DebuggerSetBreakpointByURL{
		URLRegex: gateURLRegex, LineNumber: 0, ColumnNumber: proto.Int(0),
	}, &res); err != nil {
		return err
	}
	sm.t.mu.Lock()
	defer sm.t.mu.Unlock()
	sm.t.gateID = res.BreakpointID
	return nil
}

// dropGate removes the gate once no breakpoint waits for a source map.
func (sm SourceMapping) dropGate(ctx context.Context, c clientCaller) {
	sm.t.lock()
	id := sm.t.gateID
	waiting := slices.ContainsFunc(sm.t.s.breakpoints, func(bp *breakpoint) bool { return bp.Pending || bp.watch != nil })
	if id == "" || waiting {
		sm.t.unlock()
		return
	}
	sm.t.gateID = ""
	sm.t.unlock()
	if err := proto.Do(ctx, c, proto.DebuggerRemoveBreakpoint{BreakpointID: id}, nil); err != nil {
		sm.t.s.log.Debug("remove source map gate", "session", sm.t.s.id, "err", err)
	}
}

// isGatePause reports, under mu, whether a pause is the gate's alone: not a breakpoint of the
// user's, not a step of theirs that happened to land there.
func (sm SourceMapping) isGatePause(p *debuggerPaused) bool {
	return sm.hitsGateOnly(p) && !sm.t.stepping && p.Reason != startReason && (sm.t.startSeen || sm.inPreload(p))
}

// inPreload reports, under mu, whether a pause stands in traced's preload, which runs before the
// main script (and before node's first-line break): the gate stops there too.
func (sm SourceMapping) inPreload(p *debuggerPaused) bool {
	return len(p.CallFrames) > 0 && sm.t.s.preloadURL != "" && sm.t.scripts[p.CallFrames[0].Location.ScriptID].Internal
}

// isStartGate reports whether a pause is the gate's alone.
// usersFirstPause reports whether the first pause of a launch is the user's, which V8 reports
// instead of node's first-line break when both fall on the first statement: a debugger
// statement, or a breakpoint of theirs ("ambiguous" when V8 counts the break too). Asked
// before resolvePending, which may drop the gate.
func (sm SourceMapping) usersFirstPause(p *debuggerPaused) bool {
	sm.t.mu.Lock()
	defer sm.t.mu.Unlock()
	if p == nil || p.Reason == startReason || sm.hitsGateOnly(p) {
		return false
	}
	if p.Reason != "ambiguous" || len(p.HitBreakpoints) == 0 { // no breakpoint: a debugger statement
		return true
	}
	return slices.ContainsFunc(p.HitBreakpoints, func(id string) bool { return id != sm.t.gateID })
}

// hitsGateOnly reports, under mu, whether the gate is the one breakpoint a pause hit. Before
// node's first-line break is seen, such a pause is that break: the gate stands on the same
// first statement and V8 then reports it as a breakpoint.
func (sm SourceMapping) hitsGateOnly(p *debuggerPaused) bool {
	return sm.t.gateID != "" && len(p.CallFrames) > 0 && len(p.HitBreakpoints) == 1 && p.HitBreakpoints[0] == sm.t.gateID
}

// resolvePending binds the pending breakpoints that the source map of the script paused in p
// has, and returns the V8 ids of those that bound right where p stands (V8 would not stop there
// again once resumed).
func (sm SourceMapping) resolvePending(ctx context.Context, c clientCaller, p *debuggerPaused) (here []string) {
	if len(p.CallFrames) == 0 {
		return nil
	}
	at := p.CallFrames[0].Location
	sm.t.lock()
	var pending []*breakpoint
	for _, bp := range sm.t.s.breakpoints {
		if bp.Pending && (bp.log != nil || bp.Enabled) {
			pending = append(pending, bp)
		}
	}
	url := sm.t.scripts[at.ScriptID].URL
	itself := make([]bool, len(pending)) // the script is the breakpoint's own file (native TypeScript)
	for i, bp := range pending {
		itself[i] = sm.runsItself(at.ScriptID, bp.orig.path)
	}
	sm.t.unlock()
	here = sm.t.dispatcher().rewatch(ctx, c, url, at.ScriptID, at.LineNumber, at.ColumnNumber)
	m := sm.t.maps.of(at.ScriptID)
	if len(pending) == 0 || (m == nil && !slices.Contains(itself, true)) {
		return here
	}
	for i, bp := range pending {
		var call proto.DebuggerSetBreakpointByURL
		switch {
		case itself[i]: // by URL, as a file node runs as it is: it binds in later loads too
			call = proto.DebuggerSetBreakpointByURL{
				URLRegex: fileURLRegex(bp.orig.path), LineNumber: bp.orig.line - 1, Condition: bp.condition(),
			}
			if bp.orig.col > 0 {
				call.ColumnNumber = proto.Int(bp.orig.col - 1)
			}
		case m != nil:
			srcs := m.MatchSource(bp.orig.path)
			if len(srcs) == 0 {
				continue
			}
			gens := m.Reverse(srcs[0], bp.orig.line)
			if len(gens) == 0 {
				sm.t.s.log.Debug("pending breakpoint line has no mapping", "session", sm.t.s.id, "bp", bp.ref(), "script", url)
				continue
			}
			line0, col0 := gens[0].CDP()
			call = proto.DebuggerSetBreakpointByURL{
				URL: url, LineNumber: line0, ColumnNumber: proto.Int(col0), Condition: bp.condition(),
			}
		default:
			continue
		}
		var res setBreakpointResult
		if err := proto.Do(ctx, c, call, &res); err != nil {
			sm.t.s.log.Debug("bind pending breakpoint", "session", sm.t.s.id, "bp", bp.ref(), "err", err)
			continue
		}
		var bound []BreakpointInfo
		sm.t.lock()
		if !bp.Pending || !slices.Contains(sm.t.s.breakpoints, bp) { // removed or bound meanwhile
			sm.t.unlock()
			_ = proto.Do(ctx, c, proto.DebuggerRemoveBreakpoint{BreakpointID: res.BreakpointID}, nil)
			continue
		}
		bp.Pending, bp.call = false, call
		b := sm.t.Breakpoints().bindingOf(bp)
		b.v8ID = res.BreakpointID
		for _, l := range res.Locations {
			fr := sm.t.Breakpoints().resolvedAt(l)
			b.resolved = append(b.resolved, fr)
			bound = append(bound, BreakpointInfo{Ref: bp.ref(), Location: fr})
			if l.ScriptID == at.ScriptID && l.LineNumber == at.LineNumber && l.ColumnNumber == at.ColumnNumber {
				here = append(here, res.BreakpointID)
			}
		}
		sm.t.unlock()
		for i := range bound {
			sm.t.record(Event{Kind: KindBreakpoint, Breakpoint: &bound[i]})
		}
	}
	sm.dropGate(ctx, c)
	return here
}

// passGate handles a gate pause on the chores loop: bind what waits, then run on, unless a
// breakpoint just bound where the program stands, which makes it the user's pause.
func (sm SourceMapping) passGate(ctx context.Context, c clientCaller) {
	sm.t.mu.Lock()
	p := sm.t.gatePause
	sm.t.mu.Unlock()
	if p == nil {
		return
	}
	sm.stopOrPass(ctx, c, p, sm.resolvePending(ctx, c, p))
}

// stopOrPass ends a pause traced made for itself (a gate, a target's start break): when
// breakpoints just bound right where it stands (here), V8 would not stop there again, so it
// becomes the user's pause at them; else the program runs on.
func (sm SourceMapping) stopOrPass(ctx context.Context, c clientCaller, p *debuggerPaused, here []string) {
	if len(here) > 0 {
		sm.t.mu.Lock()
		if sm.t.gatePause == p {
			sm.t.gatePause = nil
		}
		sm.t.mu.Unlock()
		user := *p
		user.Reason, user.HitBreakpoints = "breakpoint", here
		sm.t.dispatcher().onPaused(&user)
		return
	}
	if err := proto.Do(ctx, c, proto.DebuggerResume{}, nil); err != nil {
		sm.t.s.log.Debug("resume past traced's own pause", "session", sm.t.s.id, "target", sm.t.ref, "err", err)
	}
}

// maxMappedSteps bounds the V8 steps one step over original lines takes: a generated line is
// rarely more than a few statements, and a runaway loop must still answer.
const maxMappedSteps = 50

// spot is where a pause stands, as stepping over original lines compares it.
type spot struct {
	frame  Frame
	depth  int
	inMap  bool // the script has a source map in use
	asUser bool // a breakpoint or exception stopped it, not the step
	paused bool
	user   bool // the frame is user code (not a library's, not node's)
}

func (sm SourceMapping) spotNow() spot {
	sm.t.mu.Lock()
	p := sm.t.paused
	sm.t.mu.Unlock()
	if p == nil || len(p.CallFrames) == 0 {
		return spot{}
	}
	top := p.CallFrames[0]
	fr := sm.t.Inspector().pausedFrame(top)
	return spot{frame: fr, depth: len(p.CallFrames), paused: true, user: sm.t.s.isUserURL(sm.t.dispatcher().frameURL(top)),
		inMap:  sm.t.maps.of(top.Location.ScriptID) != nil,
		asUser: len(p.HitBreakpoints) > 0 || p.Reason == "exception" || p.Reason == "promiseRejection"}
}

// stepMapped steps as a user reads the code: in a script with a source map, a step that ends on
// the original line it started from (in the same frame), or on generated code the map leaves
// out, is taken again, so that steps move by original lines; a step into user code's call
// passes the library code in between.
func (sm SourceMapping) stepMapped(ctx context.Context, c clientCaller, cmd string, call proto.Command, wait time.Duration) (State, error) {
	from := sm.spotNow()
	st, err := sm.t.Control().run(ctx, c, cmd, call, wait)
	for i := 0; err == nil && i < maxMappedSteps; i++ {
		at := sm.spotNow()
		if !at.paused || at.asUser {
			break
		}
		// A step into from user code that lands in a library's code deeper down (vite-node's
		// export getter between a test and the function it imports) goes on to the callee.
		if cmd == ExecInto && from.user && !at.user && at.depth > from.depth {
			st, err = sm.t.Control().run(ctx, c, cmd, call, wait)
			continue
		}
		if !at.inMap {
			break
		}
		unmapped := at.frame.Generated == nil
		sameLine := cmd != ExecOut && from.frame.Generated != nil && at.depth == from.depth &&
			at.frame.URL == from.frame.URL && at.frame.Line == from.frame.Line
		if !unmapped && !sameLine {
			break
		}
		st, err = sm.t.Control().run(ctx, c, cmd, call, wait)
	}
	return st, err
}
