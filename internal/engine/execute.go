package engine

import (
	"context"
	"errors"
	"fmt"
	"time"

	"traced/internal/cdp/proto"
)

// Execution commands.
const (
	ExecContinue = "continue"
	ExecOver     = "over"
	ExecInto     = "into"
	ExecOut      = "out"
	ExecPause    = "pause"
)

// Execute runs one execution command and returns the state at the next pause, or a running
// state once wait has passed without one.
func (ct Control) Execute(ctx context.Context, cmd string, wait time.Duration) (State, error) {
	c, err := ct.t.liveClient()
	if err != nil {
		return State{}, err
	}
	call := map[string]proto.Command{ExecContinue: proto.DebuggerResume{}, ExecOver: proto.DebuggerStepOver{},
		ExecInto: proto.DebuggerStepInto{}, ExecOut: proto.DebuggerStepOut{}, ExecPause: proto.DebuggerPause{}}[cmd]
	if call == nil {
		return State{}, fmt.Errorf("%w: unknown command %q", ErrBadInput, cmd)
	}
	ct.t.mu.Lock()
	paused := ct.t.paused != nil
	ct.t.mu.Unlock()
	switch {
	case cmd == ExecPause && paused:
		return ct.t.Inspector().State(ctx, 0, 0) // already there
	case cmd != ExecPause && !paused:
		return State{}, fmt.Errorf("%w: %s needs a paused program", ErrRunning, cmd)
	}
	since := ct.t.s.Timeline().lastSeq()
	if cmd == ExecOver || cmd == ExecInto || cmd == ExecOut {
		return ct.t.s.Timeline().outputAfter(since)(ct.t.SourceMapping().stepMapped(ctx, c, cmd, call, wait))
	}
	return ct.t.s.Timeline().outputAfter(since)(ct.run(ctx, c, cmd, call, wait))
}

// run sends an execution command and returns the state at the next pause, or a running state
// once wait has passed. It releases the values evals made since the last command first, and a
// command that leaves a pause marks the program running as soon as V8 accepts it.
func (ct Control) run(ctx context.Context, c clientCaller, cmd string, call proto.Command, wait time.Duration) (State, error) {
	_, resume := call.(proto.DebuggerResume)
	_, pause := call.(proto.DebuggerPause)
	_, runTo := call.(proto.DebuggerContinueToLocation)
	stepping := false
	switch call.(type) {
	case proto.DebuggerStepOver, proto.DebuggerStepInto, proto.DebuggerStepOut:
		stepping = true
	}
	ct.t.lock()
	from := ct.t.paused
	next := ct.t.nextPause
	if resume {
		next = ct.t.s.anyPause // the program may stop next in another target: that pause answers
	}
	ct.t.unlock()
	ct.t.lock()
	release := ct.t.evalValues
	ct.t.evalValues = false
	ct.t.unlock()
	if release {
		if err := proto.Do(ctx, c, proto.RuntimeReleaseObjectGroup{ObjectGroup: evalGroup}, nil); err != nil {
			return State{}, fmt.Errorf("%s: %w", cmd, err)
		}
	}
	if !pause {
		if err := ct.t.Profiler().endLaunchCoverage(ctx, c); err != nil {
			return State{}, fmt.Errorf("%s: %w", cmd, err)
		}
	}
	if pause {
		if err := ct.awaitLeaving(ctx); err != nil {
			return State{}, fmt.Errorf("%s: %w", cmd, err)
		}
	}
	if err := ct.t.dispatcher().exceptionsFor(ctx, c, call); err != nil {
		return State{}, fmt.Errorf("%s: %w", cmd, err)
	}
	defer ct.t.dispatcher().widen(ctx, c)
	if pause {
		unbox, err := ct.t.dispatcher().unboxNode(ctx, c)
		if err != nil {
			return State{}, fmt.Errorf("%s: %w", cmd, err)
		}
		defer unbox()
	}
	ct.t.lock()
	if stepping {
		ct.t.stepping = true // before the call: its pause can arrive before its reply
	}
	if pause {
		ct.t.pausing = true
	}
	if runTo {
		ct.t.runningTo = true // V8 says "other" at the location: not a debugger statement
	}
	if from != nil && !pause {
		ct.leavePause()
	}
	ct.t.unlock()
	if err := proto.Do(ctx, c, call, nil); err != nil {
		ct.t.lock()
		ct.closeLeaving()
		ct.t.unlock()
		return State{}, fmt.Errorf("%s: %w", cmd, err)
	}
	if from != nil && !pause {
		ct.leftPause(from)
	}
	return ct.awaitPause(ctx, next, wait)
}

// awaitPause waits at most wait for next (the next pause) or the end, and returns the state then.
func (ct Control) awaitPause(ctx context.Context, next <-chan struct{}, wait time.Duration) (State, error) {
	t := time.NewTimer(wait)
	defer t.Stop()
	paused := false
	select {
	case <-next:
		paused = true
	case <-ct.t.s.done:
	case <-t.C:
	case <-ctx.Done():
		return State{}, ctx.Err()
	}
	ct.t.mu.Lock()
	here := ct.t.paused != nil
	ct.t.mu.Unlock()
	if paused && !here { // the pause came in another target: that one answers
		if t, err := ct.t.s.On(""); err == nil && t != ct.t {
			return t.Inspector().State(ctx, 0, 0)
		}
	}
	return ct.t.Inspector().State(ctx, 0, 0)
}

// leftPause marks the program running once a resume or step was accepted, unless a newer pause
// already arrived: Debugger.resumed comes later, and a state read meanwhile must not describe a
// pause that is gone.
func (ct Control) leftPause(from *debuggerPaused) {
	ct.t.lock()
	defer ct.t.unlock()
	if ct.t.paused == from && from != nil {
		ct.t.paused = nil // the status says running from here (statusNow)
	}
}

// RunTo continues to file:line[:col] without a persistent breakpoint and returns the state there
// (or a running state once wait has passed). The file's script must be loaded.
func (ct Control) RunTo(ctx context.Context, location string, wait time.Duration) (State, error) {
	c, err := ct.t.liveClient()
	if err != nil {
		return State{}, err
	}
	path, line, col, err := ct.t.s.Settings().parseLocation(location)
	if err != nil {
		return State{}, err
	}
	ct.t.mu.Lock()
	paused := ct.t.paused != nil
	ct.t.mu.Unlock()
	if !paused {
		return State{}, fmt.Errorf("%w: run-to needs a paused program", ErrRunning)
	}
	var loc proto.Location
	if scriptID, ok := ct.t.Inspector().scriptFor(path); ok {
		loc = proto.Location{ScriptID: scriptID, LineNumber: line - 1}
		if col > 0 {
			loc.ColumnNumber = proto.Int(col - 1)
		}
	} else {
		t, found, err := ct.t.SourceMapping().originalTarget(location, path, line)
		switch {
		case err != nil:
			return State{}, err
		case !found:
			return State{}, fmt.Errorf("%w: %s is not loaded yet; set a breakpoint there instead", ErrBadInput, location)
		}
		line0, col0 := t.gen.CDP()
		loc = proto.Location{ScriptID: t.scriptID, LineNumber: line0, ColumnNumber: proto.Int(col0)}
	}
	since := ct.t.s.Timeline().lastSeq()
	return ct.t.s.Timeline().outputAfter(since)(ct.run(ctx, c, "run-to", proto.DebuggerContinueToLocation{Location: loc}, wait))
}

// KillExecution ends the JavaScript running now (an infinite loop, say) with
// Runtime.terminateExecution; the process and the session stay. V8 answers the terminate only
// once it has happened, so a paused program is resumed first. It returns the state after.
func (ct Control) KillExecution(ctx context.Context, wait time.Duration) (State, error) {
	c, err := ct.t.liveClient()
	if err != nil {
		return State{}, err
	}
	ct.t.lock()
	paused, async := ct.t.paused != nil, ct.t.s.asyncDepth > 0
	ct.t.unlock()
	if async {
		// With async stacks on, node tracks async contexts in its async hooks; a callback cut
		// short leaves node's async stack corrupted and node aborts ("async hook stack has
		// become corrupted"), even when they are turned off inside the callback.
		return State{}, fmt.Errorf("%w: kill-execution would make node abort while async stacks are on (async-depth %d)", ErrAsyncStacks, ct.t.s.asyncDepth)
	}
	since := ct.t.s.Timeline().lastSeq()
	if paused {
		if _, err := ct.run(ctx, c, "kill-execution", proto.DebuggerResume{}, 0); err != nil {
			return State{}, err
		}
	}
	if err := proto.Do(ctx, c, proto.RuntimeTerminateExecution{}, nil); err != nil {
		return State{}, fmt.Errorf("kill-execution: %w", err)
	}
	return ct.t.s.Timeline().outputAfter(since)(ct.t.Inspector().State(ctx, 0, 0))
}

// ContinueAll resumes every target of the session that stands paused, this one last, and
// returns the state at the next pause in any of them, or a running state once wait has passed:
// a program paused in several workers runs on with one command.
func (ct Control) ContinueAll(ctx context.Context, wait time.Duration) (State, error) {
	if _, err := ct.t.liveClient(); err != nil {
		return State{}, err
	}
	ct.t.lock()
	var paused []*Target
	for _, o := range ct.t.s.Tree().debuggedBut(ct.t) {
		if o.paused != nil {
			paused = append(paused, o)
		}
	}
	if ct.t.paused != nil {
		paused = append(paused, ct.t)
	}
	ct.t.unlock()
	if len(paused) == 0 {
		return State{}, fmt.Errorf("%w: no target stands paused", ErrRunning)
	}
	for _, o := range paused[:len(paused)-1] {
		if _, err := o.Control().Execute(ctx, ExecContinue, 0); err != nil && !errors.Is(err, ErrRunning) && !errors.Is(err, ErrFinished) {
			return State{}, fmt.Errorf("continue %s: %w", o.ref, err)
		}
	}
	return paused[len(paused)-1].Control().Execute(ctx, ExecContinue, wait)
}
