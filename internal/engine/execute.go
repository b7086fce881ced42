package engine

import (
	"context"
	"errors"
	"fmt"
	"time"
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
func (t *Target) Execute(ctx context.Context, cmd string, wait time.Duration) (State, error) {
	c, err := t.liveClient()
	if err != nil {
		return State{}, err
	}
	method := map[string]string{ExecContinue: "Debugger.resume", ExecOver: "Debugger.stepOver",
		ExecInto: "Debugger.stepInto", ExecOut: "Debugger.stepOut", ExecPause: "Debugger.pause"}[cmd]
	if method == "" {
		return State{}, fmt.Errorf("%w: unknown command %q", ErrBadInput, cmd)
	}
	t.s.mu.Lock()
	paused := t.paused != nil
	t.s.mu.Unlock()
	switch {
	case cmd == ExecPause && paused:
		return t.State(ctx, 0, 0) // already there
	case cmd != ExecPause && !paused:
		return State{}, fmt.Errorf("%w: %s needs a paused program", ErrRunning, cmd)
	}
	since := t.s.lastSeq()
	if cmd == ExecOver || cmd == ExecInto || cmd == ExecOut {
		return t.s.outputAfter(since)(t.stepMapped(ctx, c, cmd, method, wait))
	}
	return t.s.outputAfter(since)(t.run(ctx, c, cmd, method, nil, wait))
}

// run sends an execution command and returns the state at the next pause, or a running state
// once wait has passed. It releases the values evals made since the last command first, and a
// command that leaves a pause marks the program running as soon as V8 accepts it.
func (t *Target) run(ctx context.Context, c clientCaller, cmd, method string, params any, wait time.Duration) (State, error) {
	t.s.mu.Lock()
	from := t.paused
	next := t.nextPause
	if method == "Debugger.resume" {
		next = t.s.anyPause // the program may stop next in another target: that pause answers
	}
	t.s.mu.Unlock()
	t.s.mu.Lock()
	release := t.evalValues
	t.evalValues = false
	t.s.mu.Unlock()
	if release {
		if err := c.Call(ctx, "Runtime.releaseObjectGroup", map[string]any{"objectGroup": evalGroup}, nil); err != nil {
			return State{}, fmt.Errorf("%s: %w", cmd, err)
		}
	}
	if method != "Debugger.pause" {
		if err := t.endLaunchCoverage(ctx, c); err != nil {
			return State{}, fmt.Errorf("%s: %w", cmd, err)
		}
	}
	if method == "Debugger.pause" {
		if err := t.awaitLeaving(ctx); err != nil {
			return State{}, fmt.Errorf("%s: %w", cmd, err)
		}
	}
	if err := t.exceptionsFor(ctx, c, method); err != nil {
		return State{}, fmt.Errorf("%s: %w", cmd, err)
	}
	defer t.widen(ctx, c)
	if method == "Debugger.pause" {
		unbox, err := t.unboxNode(ctx, c)
		if err != nil {
			return State{}, fmt.Errorf("%s: %w", cmd, err)
		}
		defer unbox()
	}
	t.s.mu.Lock()
	if method == "Debugger.stepOver" || method == "Debugger.stepInto" || method == "Debugger.stepOut" {
		t.stepping = true // before the call: its pause can arrive before its reply
	}
	if method == "Debugger.pause" {
		t.pausing = true
	}
	if method == "Debugger.continueToLocation" {
		t.runningTo = true // V8 says "other" at the location: not a debugger statement
	}
	if from != nil && method != "Debugger.pause" {
		t.leavePause()
	}
	t.s.mu.Unlock()
	if err := c.Call(ctx, method, params, nil); err != nil {
		t.s.mu.Lock()
		t.closeLeaving()
		t.s.mu.Unlock()
		return State{}, fmt.Errorf("%s: %w", cmd, err)
	}
	if from != nil && method != "Debugger.pause" {
		t.leftPause(from)
	}
	return t.awaitPause(ctx, next, wait)
}

// awaitPause waits at most wait for next (the next pause) or the end, and returns the state then.
func (tg *Target) awaitPause(ctx context.Context, next <-chan struct{}, wait time.Duration) (State, error) {
	t := time.NewTimer(wait)
	defer t.Stop()
	paused := false
	select {
	case <-next:
		paused = true
	case <-tg.s.done:
	case <-t.C:
	case <-ctx.Done():
		return State{}, ctx.Err()
	}
	tg.s.mu.Lock()
	here := tg.paused != nil
	tg.s.mu.Unlock()
	if paused && !here { // the pause came in another target: that one answers
		if t, err := tg.s.On(""); err == nil && t != tg {
			return t.State(ctx, 0, 0)
		}
	}
	return tg.State(ctx, 0, 0)
}

// leftPause marks the program running once a resume or step was accepted, unless a newer pause
// already arrived: Debugger.resumed comes later, and a state read meanwhile must not describe a
// pause that is gone.
func (t *Target) leftPause(from *debuggerPaused) {
	t.s.mu.Lock()
	defer t.s.mu.Unlock()
	if t.paused == from && from != nil {
		t.paused = nil // the status says running from here (statusNow)
	}
}

// RunTo continues to file:line[:col] without a persistent breakpoint and returns the state there
// (or a running state once wait has passed). The file's script must be loaded.
func (tg *Target) RunTo(ctx context.Context, location string, wait time.Duration) (State, error) {
	c, err := tg.liveClient()
	if err != nil {
		return State{}, err
	}
	path, line, col, err := tg.s.parseLocation(location)
	if err != nil {
		return State{}, err
	}
	tg.s.mu.Lock()
	paused := tg.paused != nil
	tg.s.mu.Unlock()
	if !paused {
		return State{}, fmt.Errorf("%w: run-to needs a paused program", ErrRunning)
	}
	var loc map[string]any
	if scriptID, ok := tg.scriptFor(path); ok {
		loc = map[string]any{"scriptId": scriptID, "lineNumber": line - 1}
		if col > 0 {
			loc["columnNumber"] = col - 1
		}
	} else {
		t, found, err := tg.originalTarget(location, path, line)
		switch {
		case err != nil:
			return State{}, err
		case !found:
			return State{}, fmt.Errorf("%w: %s is not loaded yet; set a breakpoint there instead", ErrBadInput, location)
		}
		line0, col0 := t.gen.CDP()
		loc = map[string]any{"scriptId": t.scriptID, "lineNumber": line0, "columnNumber": col0}
	}
	since := tg.s.lastSeq()
	return tg.s.outputAfter(since)(tg.run(ctx, c, "run-to", "Debugger.continueToLocation", map[string]any{"location": loc}, wait))
}

// KillExecution ends the JavaScript running now (an infinite loop, say) with
// Runtime.terminateExecution; the process and the session stay. V8 answers the terminate only
// once it has happened, so a paused program is resumed first. It returns the state after.
func (t *Target) KillExecution(ctx context.Context, wait time.Duration) (State, error) {
	c, err := t.liveClient()
	if err != nil {
		return State{}, err
	}
	t.s.mu.Lock()
	paused, async := t.paused != nil, t.s.asyncDepth > 0
	t.s.mu.Unlock()
	if async {
		// With async stacks on, node tracks async contexts in its async hooks; a callback cut
		// short leaves node's async stack corrupted and node aborts ("async hook stack has
		// become corrupted"), even when they are turned off inside the callback.
		return State{}, fmt.Errorf("%w: kill-execution would make node abort while async stacks are on (async-depth %d)", ErrAsyncStacks, t.s.asyncDepth)
	}
	since := t.s.lastSeq()
	if paused {
		if _, err := t.run(ctx, c, "kill-execution", "Debugger.resume", nil, 0); err != nil {
			return State{}, err
		}
	}
	if err := c.Call(ctx, "Runtime.terminateExecution", nil, nil); err != nil {
		return State{}, fmt.Errorf("kill-execution: %w", err)
	}
	return t.s.outputAfter(since)(t.State(ctx, 0, 0))
}

// ContinueAll resumes every target of the session that stands paused, this one last, and
// returns the state at the next pause in any of them, or a running state once wait has passed:
// a program paused in several workers runs on with one command.
func (t *Target) ContinueAll(ctx context.Context, wait time.Duration) (State, error) {
	if _, err := t.liveClient(); err != nil {
		return State{}, err
	}
	t.s.mu.Lock()
	var paused []*Target
	for _, o := range t.s.debuggedBut(t) {
		if o.paused != nil {
			paused = append(paused, o)
		}
	}
	if t.paused != nil {
		paused = append(paused, t)
	}
	t.s.mu.Unlock()
	if len(paused) == 0 {
		return State{}, fmt.Errorf("%w: no target stands paused", ErrRunning)
	}
	for _, o := range paused[:len(paused)-1] {
		if _, err := o.Execute(ctx, ExecContinue, 0); err != nil && !errors.Is(err, ErrRunning) && !errors.Is(err, ErrFinished) {
			return State{}, fmt.Errorf("continue %s: %w", o.ref, err)
		}
	}
	return paused[len(paused)-1].Execute(ctx, ExecContinue, wait)
}
