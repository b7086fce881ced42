package engine

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"time"
)

// ErrNotRestartable: the session was not started by traced (attached), so there is no start
// request to run again.
var ErrNotRestartable = errors.New("session cannot be restarted")

// Restartable reports whether Restart can run the session's program again: a debug session
// traced started (not attached to).
func (s *Session) Restartable() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.mode == ModeDebug && s.attached == nil && s.req.Target != ""
}

// carried is what a restart takes over from the session it replaces, set before the new
// program runs (prepare).
type carried struct {
	breakpoints []carriedBreakpoint
	logpoints   []LogpointSpec
	blackbox    []string
	exceptions  string   // pause-on-exceptions mode
	classes     []string // and the classes it stops at
	asyncDepth  int
}

type carriedBreakpoint struct {
	spec    BreakpointSpec
	enabled bool
}

// Restarted is a restart's outcome: the new session, the one it replaced, and what could not
// be carried over (function breakpoints: their function exists only once the program runs).
type Restarted struct {
	Session    *Session
	Previous   string   // the replaced session's id
	NotCarried []string // refs of breakpoints not set again, with why
}

// Restart runs a debug session's program again: the same start request (target, args, cwd,
// env, node flags, limits), with the session's breakpoints, logpoints, blackbox patterns,
// pause-on-exceptions mode and async depth as they are now. The old session is stopped if it
// still runs and gives up its name, which the new session takes; the old one stays listed
// under its id, its summary naming the new one (restartedAs). It is what live edit was for,
// on every node: edit the file, restart, see the fix.
func (m *Manager) Restart(ctx context.Context, idOrName string) (Restarted, error) {
	old, err := m.Get(idOrName)
	if err != nil {
		return Restarted{}, err
	}
	if err := old.debugOnly(); err != nil {
		return Restarted{}, err
	}
	old.mu.Lock()
	attached := old.attached != nil
	old.mu.Unlock()
	if attached || old.req.Target == "" {
		return Restarted{}, fmt.Errorf("%w: %s was attached to, not started by traced; start it again yourself", ErrNotRestartable, old.id)
	}
	carry, notCarried := old.carryOver()
	req := old.req
	req.Breakpoints, req.Logpoints = nil, nil // carried as they are now (enabled or not) instead
	req.PauseOnExceptions, req.ExceptionClasses = carry.exceptions, carry.classes
	req.carry = &carry

	if _, err := m.Stop(ctx, old.id); err != nil {
		return Restarted{}, err
	}
	name := m.retireName(old)
	req.Name = name
	s, err := m.Start(ctx, req)
	if err != nil {
		m.restoreName(old, name)
		return Restarted{}, fmt.Errorf("restart %s: %w", old.id, err)
	}
	old.mu.Lock()
	old.restartedAs = s.id
	old.mu.Unlock()
	s.mu.Lock()
	s.restartOf = old.id
	s.mu.Unlock()
	m.pub.PublishStatus(old.Summary())
	return Restarted{Session: s, Previous: old.id, NotCarried: notCarried}, nil
}

// retireName takes a session's name away (under both locks: Get reads names under m.mu,
// Summary under s.mu) and returns it.
func (m *Manager) retireName(s *Session) string {
	m.mu.Lock()
	defer m.mu.Unlock()
	s.mu.Lock()
	defer s.mu.Unlock()
	name := s.name
	s.name = ""
	return name
}

// restoreName gives a name back after a failed restart, unless another session took it.
func (m *Manager) restoreName(s *Session, name string) {
	if name == "" {
		return
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	for _, x := range m.sessions {
		if x.name == name {
			return
		}
	}
	s.mu.Lock()
	s.name = name
	s.mu.Unlock()
}

// carryOver lists the session's debugger settings as specs to set again.
func (s *Session) carryOver() (carried, []string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	c := carried{blackbox: append([]string(nil), s.blackbox...), exceptions: s.Settings().exceptionModeNow(), asyncDepth: s.asyncDepth}
	c.classes = s.Settings().exceptionClasses()
	var not []string
	for _, bp := range s.breakpoints {
		switch {
		case bp.log != nil:
			l := bp.log
			c.logpoints = append(c.logpoints, LogpointSpec{Location: l.Location, Template: l.Template, Condition: l.Condition, Max: l.Max})
		case bp.Function != "":
			not = append(not, bp.Ref+" (a function breakpoint: set it again once the function exists)")
		case bp.URLRegex != "":
			spec := BreakpointSpec{URLRegex: bp.URLRegex, Condition: bp.Condition, HitCount: bp.HitCount}
			call, _ := bp.byURL()
			spec.Line = call.LineNumber + 1
			if call.ColumnNumber != nil {
				spec.Column = *call.ColumnNumber + 1
			}
			c.breakpoints = append(c.breakpoints, carriedBreakpoint{spec: spec, enabled: bp.Enabled})
		default:
			spec := BreakpointSpec{Location: bp.Location, Condition: bp.Condition, HitCount: bp.HitCount}
			c.breakpoints = append(c.breakpoints, carriedBreakpoint{spec: spec, enabled: bp.Enabled})
		}
	}
	return c, not
}

// applyCarry sets what a restart carried over, before the program runs.
func (t *Target) applyCarry(ctx context.Context, c clientCaller, carry *carried) error {
	for _, b := range carry.breakpoints {
		// One set on the ended session was not checked by V8 (there was none to ask).
		if err := t.Breakpoints().checkSyntax(ctx, c, "condition", b.spec.Condition, b.spec.Condition); err != nil {
			return fmt.Errorf("breakpoint at %s: %w", cmp.Or(b.spec.Location, b.spec.URLRegex), err)
		}
		var bp Breakpoint
		var err error
		if b.spec.URLRegex != "" {
			bp, err = t.Breakpoints().setURLRegexBreakpoint(ctx, c, b.spec)
		} else {
			bp, err = t.Breakpoints().setBreakpoint(ctx, c, b.spec)
		}
		if err != nil {
			return err
		}
		if !b.enabled {
			off := false
			if _, err := t.Breakpoints().Toggle(ctx, bp.Ref, &off); err != nil {
				return err
			}
		}
	}
	for _, l := range carry.logpoints {
		if err := t.Breakpoints().checkPoint(ctx, c, "", l.Condition, l.Template); err != nil {
			return fmt.Errorf("logpoint at %s: %w", l.Location, err)
		}
		if _, err := t.Breakpoints().SetLogpoint(ctx, l); err != nil {
			return err
		}
	}
	if len(carry.blackbox) > 0 {
		if _, err := t.Control().setBlackbox(ctx, carry.blackbox); err != nil {
			return err
		}
	}
	if carry.asyncDepth > 0 {
		if err := t.Control().SetAsyncCallStackDepth(ctx, carry.asyncDepth); err != nil {
			return err
		}
	}
	return nil
}

// StartState is the state of a session as its start or attach answers, with what the program
// printed and threw before it.
func (t *Target) StartState(ctx context.Context) (State, error) {
	return t.s.Timeline().outputAfter(0)(t.Inspector().State(ctx, 0, 0))
}

// FirstStop is the state of a just-started debug session: paused already (at pauseOnStart or a
// breakpoint on the first statement), else at its first pause within wait (in any target: a
// breakpoint in a worker's file stops there), else running.
func (t *Target) FirstStop(ctx context.Context, wait time.Duration) (State, error) {
	t.lock()
	at, next := t, t.s.anyPause // the first pause may come in a worker or a child
	if t.paused == nil {
		at = t.s.Tree().pausedLast()
	}
	t.unlock()
	if at != nil {
		return t.s.Timeline().outputAfter(0)(at.Inspector().State(ctx, 0, 0))
	}
	return t.s.Timeline().outputAfter(0)(t.Control().awaitPause(ctx, next, wait))
}
