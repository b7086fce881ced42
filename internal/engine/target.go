package engine

import (
	"errors"
	"fmt"
	"slices"
)

// ErrNoTarget: no target of the session has that ref, or it is not one traced debugs.
var ErrNoTarget = errors.New("no such target")

// newTarget makes a session's value for one of its targets, with the per-connection state
// empty; the caller sets its connection and registers it (debugged).
func newTarget(tr *Session, ref string, maps *sessionMaps) *Target {
	return &Target{
		s:          tr,
		ref:        ref,
		maps:       maps,
		scripts:    make(map[string]ScriptInfo),
		sources:    make(map[string][]string),
		contexts:   make(map[int]ContextInfo),
		startPause: make(chan struct{}),
		nextPause:  make(chan struct{}),
		discard:    make(chan struct{}, 1),
		unbind:     make(chan struct{}, 1),
		gate:       make(chan struct{}, 1),
		ended:      make(chan struct{}),
	}
}

// newTargetOf makes the value of a worker or child process of the session, its source maps
// read as the main thread's are.
func (t *Target) newTargetOf(ref string) *Target {
	return newTarget(t.s, ref, &sessionMaps{byScript: make(map[string]*scriptMap), off: !t.maps.enabled(), load: t.maps.load})
}

// main reports whether the value is the main thread's (t0).
func (t *Target) main() bool { return t.ref == "t0" || t.ref == "" }

// debugged registers a target's value: the debugger routes reach it by ref from here on. A
// target that has ended already is not registered (false).
func (t *Target) debugged() bool {
	t.s.mu.Lock()
	defer t.s.mu.Unlock()
	select {
	case <-t.ended:
		return false
	default:
	}
	if t.s.live == nil {
		t.s.live = map[string]*Target{}
	}
	t.s.live[t.ref] = t
	return true
}

// undebugged forgets a target that has ended or been let go; its pause, if any, goes too.
func (t *Target) undebugged() {
	t.s.mu.Lock()
	if t.s.live[t.ref] == t {
		delete(t.s.live, t.ref)
	}
	was := t.paused
	t.paused = nil
	select {
	case <-t.ended:
	default:
		close(t.ended)
		close(t.nextPause) // a step waiting in it answers now, with the target gone
		t.nextPause = make(chan struct{})
	}
	t.s.mu.Unlock()
	if was != nil {
		t.s.pub.PublishStatus(t.s.Summary())
	}
}

// On is the session seen through one of its targets: ref "" names the target paused last (t0
// when none is paused), so a caller that says nothing acts where the program stopped.
func (s *Session) On(ref string) (*Target, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	main := s.live["t0"]
	if main == nil {
		main = s.main
	}
	if ref == "" {
		if t := s.pausedLast(); t != nil {
			return t, nil
		}
		return main, nil
	}
	if t := s.live[ref]; t != nil {
		return t, nil
	}
	if ref == "t0" {
		return main, nil
	}
	return nil, fmt.Errorf("%w: %s is not a target traced debugs in session %s", ErrNoTarget, ref, s.id)
}

// pausedLast is the target that paused most recently, under mu; nil when none stands paused.
func (s *Session) pausedLast() *Target {
	var last *Target
	for _, t := range s.live {
		if t.paused != nil && (last == nil || t.pausedAt > last.pausedAt) {
			last = t
		}
	}
	return last
}

// anyPaused reports, under mu, whether some target stands paused.
func (s *Session) anyPaused() bool {
	if s.main.paused != nil {
		return true
	}
	for _, t := range s.live {
		if t.paused != nil {
			return true
		}
	}
	return false
}

// othersPaused lists, under mu, the refs of the other targets that stand paused.
func (tg *Target) othersPaused() []string {
	var refs []string
	for ref, t := range tg.s.live {
		if t != tg && t.paused != nil {
			refs = append(refs, ref)
		}
	}
	slices.SortFunc(refs, func(a, b string) int { return targetNumber(a) - targetNumber(b) })
	return refs
}

// others lists, under mu, the other targets traced debugs, in ref order.
func (tg *Target) others() []*Target {
	var out []*Target
	for _, t := range tg.s.live {
		if t != tg {
			out = append(out, t)
		}
	}
	slices.SortFunc(out, func(a, b *Target) int { return targetNumber(a.ref) - targetNumber(b.ref) })
	return out
}

// ownConnection reports, under mu, whether the target has a connection of its own (the main
// thread, a child process), where the dispatcher may send calls: a worker's go through the main
// thread's connection and are answered through the same dispatcher.
func (t *Target) ownConnection() bool { return t.client != nil && t.worker == nil }

// conn is the target's inspector connection, under mu; nil before it is attached.
func (t *Target) conn() clientCaller {
	switch {
	case t.worker != nil:
		return t.worker
	case t.client != nil:
		return t.client
	}
	return nil
}

// Session is the session the target belongs to.
func (t *Target) Session() *Session { return t.s }

// Main is the session's main thread (t0).
func (s *Session) Main() *Target { return s.main }
