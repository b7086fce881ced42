package engine

import (
	"context"
	"slices"
	"strings"

	"traced/internal/cdp/proto"
	"traced/internal/sourcemap"
)

// Source maps in a worker or child process. The session's breakpoints are bound in a target by
// URL and line (targetsetup.go); two kinds need the target's own scripts first:
//   - a breakpoint on an original source (src/app.ts) no script maps yet: pending, bound in each
//     target where a script's map has it (or node runs the file itself, types erased);
//   - a breakpoint on a file a runner transforms in place (babel-jest, vite-node, tsx): the
//     script has the file's own path as URL and an inline map back to it, so the URL binding
//     stops at another original line; it moves to the generated line the map gives.
// While a pending breakpoint exists the target has a gate, as the main thread has (mapbind.go):
// every file script stops before its first statement, is looked at, and runs on. Otherwise a
// script is looked at once parsed, which misses code it runs the moment it loads.
// A binding in a target is kept as an alias of the breakpoint's V8 id, by target.

// watchScript looks at a just-parsed script of a target, on the dispatcher: when no gate stops
// it, the calls go to a goroutine of their own.
func (sm SourceMapping) watchScript(scriptID, url string) {
	sm.t.lock()
	gated := sm.t.gateID != ""
	want := sm.wantsLook(scriptID, url)
	sm.t.unlock()
	if gated || !want {
		return
	}
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), workerSetupTimeout)
		defer cancel()
		if c := sm.t.liveConn(); c != nil {
			sm.bindHere(ctx, c, scriptID, url, nil)
		}
	}()
}

// wantsLook reports, under mu, whether a script may need a breakpoint of the session bound by
// its map: it has a map or is an original source node runs itself, and some breakpoint waits.
func (sm SourceMapping) wantsLook(scriptID, url string) bool {
	sc := sm.t.scripts[scriptID]
	if sc.Internal {
		return false
	}
	path := fileOf(url, "")
	for _, bp := range sm.t.s.breakpoints {
		if sm.t.Breakpoints().remapped(bp) {
			continue
		}
		if bp.orig != nil && (sc.SourceMapURL != "" || bp.orig.path == path) {
			return true
		}
		if bp.everywhere() && sc.SourceMapURL != "" && strings.HasPrefix(bp.at, path+":") {
			return true
		}
	}
	return false
}

// bindHere binds what the script's map asks for in this target and returns the V8 ids bound
// right where the gate pause at stands (nil: no gate pause), which make that pause the user's:
// V8 would not stop there again once resumed.
func (sm SourceMapping) bindHere(ctx context.Context, c clientCaller, scriptID, url string, at *location) (here []string) {
	path := fileOf(url, "")
	m := sm.t.maps.of(scriptID)
	sm.t.lock()
	var bps []*breakpoint
	for _, bp := range sm.t.s.breakpoints {
		if !sm.t.Breakpoints().remapped(bp) && (bp.orig != nil || bp.everywhere()) && (bp.log != nil || bp.Enabled) {
			bps = append(bps, bp)
		}
	}
	sm.t.unlock()
	for _, bp := range bps {
		call, ok := sm.mappedCall(bp, m, url, path)
		if !ok {
			continue
		}
		sm.t.lock()
		old := sm.t.Breakpoints().v8IDOf(bp) // its binding by URL here, which this one replaces
		sm.t.unlock()
		if bp.orig == nil && old != "" { // the URL binding of the file stops elsewhere: drop it here
			if err := proto.Do(ctx, c, proto.DebuggerRemoveBreakpoint{BreakpointID: old}, nil); err != nil {
				sm.t.s.log.Debug("breakpoint on a transformed script", "session", sm.t.s.id, "target", sm.t.ref, "err", err)
				continue
			}
		}
		var res setBreakpointResult
		if err := proto.Do(ctx, c, call, &res); err != nil {
			sm.t.s.log.Debug("breakpoint by source map in target", "session", sm.t.s.id, "target", sm.t.ref, "bp", bp.ref(), "err", err)
			continue
		}
		var bound []BreakpointInfo
		sm.t.lock()
		if !slices.Contains(sm.t.s.breakpoints, bp) { // removed meanwhile
			sm.t.unlock()
			_ = proto.Do(ctx, c, proto.DebuggerRemoveBreakpoint{BreakpointID: res.BreakpointID}, nil)
			continue
		}
		b := sm.t.Breakpoints().bindingOf(bp)
		b.aliases = append(b.aliases, res.BreakpointID)
		b.remapped, b.resolved = true, nil
		for _, l := range res.Locations {
			fr := sm.t.Breakpoints().resolvedAt(l)
			b.resolved = append(b.resolved, fr)
			bound = append(bound, BreakpointInfo{Ref: bp.ref(), Location: fr})
			if at != nil && l == *at {
				here = append(here, res.BreakpointID)
			}
		}
		sm.t.unlock()
		for i := range bound {
			sm.t.record(Event{Kind: KindBreakpoint, Breakpoint: &bound[i]})
		}
	}
	return here
}

// mappedCall is how a breakpoint binds in a script of this target through its map m (nil:
// none); false when the script is not the breakpoint's concern or the map keeps its line.
func (sm SourceMapping) mappedCall(bp *breakpoint, m *sourcemap.Map, url, path string) (proto.DebuggerSetBreakpointByURL, bool) {
	sm.t.s.mu.Lock()
	orig, at, cond := bp.orig, bp.at, bp.condition()
	sm.t.s.mu.Unlock()
	var src string
	var line, col int
	if orig != nil {
		src, line, col = orig.path, orig.line, orig.col
	} else {
		src, line, col, _ = splitLocation(at)
		if src != path {
			return proto.DebuggerSetBreakpointByURL{}, false // a file's own breakpoint moves only in its own transformed script
		}
	}
	if m == nil {
		if orig != nil && src == path { // node runs the original itself: by URL, for later loads too
			call := proto.DebuggerSetBreakpointByURL{URLRegex: fileURLRegex(src), LineNumber: line - 1, Condition: cond}
			if col > 0 {
				call.ColumnNumber = proto.Int(col - 1)
			}
			return call, true
		}
		return proto.DebuggerSetBreakpointByURL{}, false
	}
	for _, s := range m.MatchSource(src) {
		if gens := m.Reverse(s, line); len(gens) > 0 {
			line0, col0 := gens[0].CDP()
			if orig == nil && line0 == line-1 {
				return proto.DebuggerSetBreakpointByURL{}, false // the map keeps the line: the URL binding is right
			}
			return proto.DebuggerSetBreakpointByURL{
				URL: url, LineNumber: line0, ColumnNumber: proto.Int(col0), Condition: cond,
			}, true
		}
	}
	return proto.DebuggerSetBreakpointByURL{}, false
}

// gateTarget sets the gate in this target, once, and serves its pauses until the target ends.
// The main thread's gate is served by its chores loop.
func (sm SourceMapping) gateTarget(ctx context.Context, c clientCaller) error {
	if err := sm.ensureGate(ctx, c); err != nil || sm.t.main() {
		return err
	}
	sm.t.mu.Lock()
	serving := sm.t.gating
	sm.t.gating = true
	sm.t.mu.Unlock()
	if serving {
		return nil
	}
	go func() {
		for {
			select {
			case <-sm.t.gate:
				ctx, cancel := context.WithTimeout(context.Background(), callTimeout)
				sm.passTargetGate(ctx)
				cancel()
			case <-sm.t.ended:
				return
			case <-sm.t.s.done:
				return
			}
		}
	}()
	return nil
}

// passTargetGate binds what the gated script's map asks for and lets it run, unless a
// breakpoint bound right where it stands: that pause is the user's.
func (sm SourceMapping) passTargetGate(ctx context.Context) {
	sm.t.mu.Lock()
	p := sm.t.gatePause
	sm.t.mu.Unlock()
	c := sm.t.liveConn()
	if p == nil || c == nil {
		return
	}
	sm.stopOrPass(ctx, c, p, sm.bindAtPause(ctx, c, p))
}

// bindAtPause binds what the map of the script a pause stands in asks for (bindHere), and
// returns the V8 ids bound right there.
func (sm SourceMapping) bindAtPause(ctx context.Context, c clientCaller, p *debuggerPaused) []string {
	if len(p.CallFrames) == 0 {
		return nil
	}
	at := p.CallFrames[0].Location
	sm.t.mu.Lock()
	url := sm.t.scripts[at.ScriptID].URL
	sm.t.mu.Unlock()
	return sm.bindHere(ctx, c, at.ScriptID, url, &at)
}

// waitsForMaps reports, under mu, whether a breakpoint waits for a target's source maps.
func (s *Session) waitsForMaps() bool {
	return slices.ContainsFunc(s.breakpoints, func(bp *breakpoint) bool { return bp.orig != nil && bp.Pending })
}

// misplacedHit reports whether a pause stands only at breakpoints bound by URL and line in a
// script a runner transformed in place, where the line is another original line: the rebinding
// through the script's map (watchScript) comes a round trip after node ran the code. Such a
// pause is passed (passMisplaced), never shown.
func (sm SourceMapping) misplacedHit(p *debuggerPaused) bool {
	if len(p.HitBreakpoints) == 0 || len(p.CallFrames) == 0 {
		return false
	}
	top := p.CallFrames[0]
	path, want, ok := sm.lineBoundHit(p, top)
	if !ok {
		return false
	}
	m := sm.t.maps.of(top.Location.ScriptID)
	if m == nil || len(m.MatchSource(path)) == 0 {
		return false
	}
	return sm.t.Inspector().pausedFrame(top).Line != want
}

// lineBoundHit is the file of the pause's script and the one line every breakpoint it hit is
// bound to by URL there; false when one is not (the gate's, a function's, another file's or
// line's, one bound through a map already).
func (sm SourceMapping) lineBoundHit(p *debuggerPaused, top pausedFrame) (string, int, bool) {
	sm.t.lock()
	defer sm.t.unlock()
	path := fileOf(sm.t.scripts[top.Location.ScriptID].URL, "")
	want := -1
	for _, id := range p.HitBreakpoints {
		i := slices.IndexFunc(sm.t.s.breakpoints, func(bp *breakpoint) bool { return sm.t.Breakpoints().hits(bp, id) })
		if i < 0 {
			return "", 0, false
		}
		bp := sm.t.s.breakpoints[i]
		file, line, _, err := splitLocation(bp.at)
		if bp.orig != nil || !bp.everywhere() || err != nil || file != path || (want >= 0 && line != want) {
			return "", 0, false
		}
		want = line
	}
	return path, want, true
}

// misbound reports, under mu, whether V8 bound a breakpoint asked on a file's line by URL and
// line at fr, in a script a runner transformed in place, where fr is not that line: the
// script's line is another original one, or code the runner added (coverage counters, whose
// lines number in the thousands). That is no place to name: its first hit is passed as
// misplaced and the binding through the script's map, at the asked line, replaces it.
func (sm SourceMapping) misbound(bp *breakpoint, l location, fr Frame) bool {
	file, line, _, err := splitLocation(bp.at)
	path := fileOf(sm.t.scripts[l.ScriptID].URL, "")
	if bp.orig != nil || !bp.everywhere() || sm.t.Breakpoints().remapped(bp) || err != nil || file != path || fr.Line == line {
		return false
	}
	m := sm.t.maps.of(l.ScriptID)
	return m != nil && len(m.MatchSource(path)) > 0
}

// passMisplaced binds the breakpoints of a misplaced hit through the script's map and lets the
// pause go, unless one now stands right there.
func (sm SourceMapping) passMisplaced(p *debuggerPaused) {
	ctx, cancel := passContext()
	defer cancel()
	c := sm.t.liveConn()
	if c == nil {
		return
	}
	here := sm.bindAtPause(ctx, c, p)
	if len(here) > 0 {
		sm.t.mu.Lock()
		sm.t.dispatcher().endPass() // the pause is the user's after all
		sm.t.mu.Unlock()
	}
	sm.stopOrPass(ctx, c, p, here)
}
