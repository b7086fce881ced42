package engine

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"traced/internal/cdp/proto"
)

// A worker or child process traced follows gets what the main thread has before it runs: in a
// trace session capture with its pauses skipped; in a debug session the session's breakpoints,
// logpoints, exception mode, blackbox patterns and async depth, and from then on each change the
// user makes in any target. Breakpoints by URL bind alike in every target (V8 names them after
// their URL and line, so the same id everywhere); those on a function object, on an original
// source no script maps yet or on a URL regex matched by traced stay in the target they were
// set in.

// setUpTarget readies a followed target through c; the caller records it attached and then
// lets it run (letRun), so that its first events come after its attach. A worker breaks at its
// first line once let run (NodeWorker's waitForDebuggerOnStart), a child process does not (the
// preload waits without a break).
func (t *Target) setUpTarget(ctx context.Context, c clientCaller, breaksOnStart bool) error {
	steps := []step{proto.RuntimeEnable{}, proto.DebuggerEnable{}}
	if t.s.mode != ModeDebug {
		steps = append(steps, t.s.Settings().traceSteps()...)
	}
	if err := callSteps(ctx, c, steps...); err != nil {
		return err
	}
	if t.s.mode == ModeDebug {
		// Registered first: a breakpoint set meanwhile is bound here by spread, or read from the
		// list below; one bound both ways answers "already exists", which bindIn lets pass.
		if !t.debugged() {
			return fmt.Errorf("%w: target %s has ended", ErrInspectorLost, t.ref)
		}
		if err := t.adoptDebugger(ctx, c, breaksOnStart); err != nil {
			return err
		}
		// Before it runs: a child waits in the preload, a worker before its script (one run
		// from a file breaks at its first line too, where passStart installs it if this failed).
		t.installCreation(ctx, c)
	}
	return nil
}

// releaseTimeout bounds letting a waiting target run. It is a deadline of its own, never what
// is left of the set-up's: a target whose set-up ran out of time is released, and a release
// never sent would leave it waiting for a debugger for ever.
const releaseTimeout = 5 * time.Second

// letRun lets a target that waits for a debugger run. Once the call is written the target runs
// when it reads it, answered in time or not.
func letRun(c clientCaller, more ...step) error {
	ctx, cancel := context.WithTimeout(context.Background(), releaseTimeout)
	defer cancel()
	return callSteps(ctx, c, append(more, runIfWaiting)...)
}

// adoptDebugger gives a new target the session's debugger settings, the one place they are
// adopted: exception mode, the logpoints' binding and the hooks, blackbox patterns, async
// depth, breakpoints and logpoints, and the source map gate when one waits.
func (t *Target) adoptDebugger(ctx context.Context, c clientCaller, breaksOnStart bool) error {
	t.lock()
	if !breaksOnStart { // its first pause is the user's
		t.startSeen = true
		close(t.startPause)
	}
	mode := t.s.Settings().exceptionModeNow()
	bps := slices.Clone(t.s.breakpoints)
	box, depth := slices.Clone(t.s.blackbox), t.s.asyncDepth
	bindings := []string{logBinding}
	for _, h := range t.s.hooks {
		bindings = append(bindings, h.Name)
	}
	t.unlock()
	if err := t.s.Settings().setPauseOnExceptions(ctx, c, mode); err != nil {
		return err
	}
	for _, name := range bindings {
		if err := proto.Do(ctx, c, proto.RuntimeAddBinding{Name: name}, nil); err != nil {
			return err
		}
	}
	if box = t.s.Settings().v8Blackbox(box); len(box) > 0 {
		if err := proto.Do(ctx, c, proto.DebuggerSetBlackboxPatterns{Patterns: box}, nil); err != nil {
			return err
		}
	}
	if depth > 0 {
		if err := proto.Do(ctx, c, proto.DebuggerSetAsyncCallStackDepth{MaxDepth: depth}, nil); err != nil {
			return err
		}
	}
	for _, bp := range bps {
		if err := t.Breakpoints().bindIn(ctx, c, bp); err != nil { // it runs on without this one
			t.s.log.Debug("breakpoint in target", "session", t.s.id, "target", t.ref, "err", err)
		}
	}
	t.lock()
	gate := t.s.waitsForMaps()
	t.unlock()
	if gate {
		return t.SourceMapping().gateTarget(ctx, c)
	}
	return nil
}

// passStart lets a target run past its start break (onPaused, off the dispatcher: a worker's
// reply comes through it).
// The start break stands where a gate would stop too: what the entry script's map asks for is
// bound first, and a breakpoint bound right there makes it the user's pause.
func (t *Target) passStart(p *debuggerPaused) {
	ctx, cancel := context.WithTimeout(context.Background(), workerSetupTimeout)
	defer cancel()
	c := t.liveConn()
	if c == nil {
		return
	}
	t.mu.Lock()
	gated := t.gateID != ""
	t.mu.Unlock()
	t.installCreation(ctx, c)
	var here []string
	if gated {
		here = t.SourceMapping().bindAtPause(ctx, c, p)
	}
	t.SourceMapping().stopOrPass(ctx, c, p, here)
}

// everywhere reports, under mu, whether a breakpoint binds alike in every target: by URL,
// enabled, not waiting for a source map.
func (bp *breakpoint) everywhere() bool {
	_, byURL := bp.byURL()
	return byURL && bp.watch == nil && !bp.Pending && (bp.log != nil || bp.Enabled)
}

// bindIn binds one of the session's breakpoints in this target, with the V8 id and locations
// it gets here.
func (bs Breakpoints) bindIn(ctx context.Context, c clientCaller, bp *breakpoint) error {
	bs.t.lock()
	ok, call := bp.everywhere(), bp.call
	bs.t.unlock()
	if !ok {
		return nil
	}
	var res setBreakpointResult
	if err := proto.Do(ctx, c, call, &res); err != nil {
		if isProtocolError(err) && strings.Contains(err.Error(), "already exists") {
			return nil // bound by the other path of a target's set-up (setUpTarget)
		}
		return fmt.Errorf("bind %s in %s: %w", bp.ref(), bs.t.ref, err)
	}
	bs.t.lock()
	defer bs.t.unlock()
	bs.bound(bp, res.BreakpointID, res.Locations)
	return nil
}

// resolvedAt places where V8 bound a breakpoint in this target, under mu.
func (bs Breakpoints) resolvedAt(l location) Frame {
	fr := bs.t.SourceMapping().place("", l.ScriptID, bs.t.scripts[l.ScriptID].URL, l.LineNumber, l.ColumnNumber)
	if !bs.t.main() {
		fr.Target = bs.t.ref
	}
	return fr
}

// spread binds a breakpoint just set through this target in every other one traced debugs. A
// target that refuses it (it ended meanwhile) runs on without it.
func (tg *Target) spread(ctx context.Context, ref string) {
	tg.s.mu.Lock()
	others := tg.s.Tree().debuggedBut(tg)
	i := slices.IndexFunc(tg.s.breakpoints, func(bp *breakpoint) bool { return bp.ref() == ref })
	var bp *breakpoint
	if i >= 0 {
		bp = tg.s.breakpoints[i]
	}
	pending := bp != nil && bp.orig != nil && bp.Pending
	tg.s.mu.Unlock()
	if bp == nil {
		return
	}
	if pending && !tg.main() { // set through a worker or child: its gate is served too
		if c := tg.liveConn(); c != nil {
			if err := tg.SourceMapping().gateTarget(ctx, c); err != nil {
				tg.s.log.Debug("gate in target", "session", tg.s.id, "target", tg.ref, "err", err)
			}
		}
	}
	for _, t := range others {
		c := t.liveConn()
		if c == nil {
			continue
		}
		err := t.Breakpoints().bindIn(ctx, c, bp)
		if err == nil && pending { // it waits for the target's own scripts
			err = t.SourceMapping().gateTarget(ctx, c)
		}
		if err != nil {
			tg.s.log.Debug("breakpoint in target", "session", tg.s.id, "target", t.ref, "err", err)
		}
	}
}

// unspread takes a breakpoint out of every other target traced debugs (each binding's V8 ids
// removed there, the binding forgotten) and, in this one, out of the scripts it runs transformed
// in place. Its binding by URL here the caller has removed from V8; the locations stay listed.
func (tg *Target) unspread(ctx context.Context, bp *breakpoint) {
	tg.lock()
	others := tg.s.Tree().debuggedBut(tg)
	var aliases []string
	if b := tg.bindings[bp]; b != nil {
		aliases = b.aliases
		b.v8ID, b.aliases, b.remapped = "", nil, false
	}
	tg.unlock()
	remove := func(t *Target, ids []string) {
		if c := t.liveConn(); c != nil {
			for _, id := range ids {
				if id != "" {
					_ = proto.Do(ctx, c, proto.DebuggerRemoveBreakpoint{BreakpointID: id}, nil)
				}
			}
		}
	}
	remove(tg, aliases)
	for _, t := range others {
		tg.lock()
		var ids []string
		if b := t.bindings[bp]; b != nil {
			ids = append([]string{b.v8ID}, b.aliases...)
			delete(t.bindings, bp)
		}
		tg.unlock()
		remove(t, ids)
	}
}

// toEveryTarget makes the same call in every other target traced debugs (an exception mode,
// blackbox patterns, an async depth), each bounded; one that fails is logged and left.
func (tg *Target) toEveryTarget(ctx context.Context, call proto.Command) {
	tg.s.mu.Lock()
	others := tg.s.Tree().debuggedBut(tg)
	tg.s.mu.Unlock()
	for _, t := range others {
		if c := t.liveConn(); c != nil {
			if err := proto.Do(ctx, c, call, nil); err != nil {
				tg.s.log.Debug("call in target", "session", tg.s.id, "target", t.ref, "method", call.Method(), "err", err)
			}
		}
	}
}

// liveConn is the target's connection, bounded as requests' calls are; nil once it has ended.
func (t *Target) liveConn() clientCaller {
	t.lock()
	defer t.unlock()
	if t.s.targets.live[t.ref] != t {
		return nil
	}
	return t.callerOf(t.caller())
}

// listed is a breakpoint as the list shows it, resolved locations of every target included.
func (us Settings) listed(ref string) Breakpoint {
	us.s.mu.Lock()
	defer us.s.mu.Unlock()
	for _, bp := range us.s.breakpoints {
		if bp.log == nil && bp.Ref == ref {
			b := bp.Breakpoint
			b.Resolved = us.resolvedOf(bp)
			return b
		}
	}
	return Breakpoint{Ref: ref}
}
