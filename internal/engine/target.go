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
func newTarget(tr *tree, ref string, maps *sessionMaps) *Session {
	return &Session{
		tree:       tr,
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
func (s *Session) newTargetOf(ref string) *Session {
	return newTarget(s.tree, ref, &sessionMaps{byScript: make(map[string]*scriptMap), off: !s.maps.enabled(), load: s.maps.load})
}

// main reports whether the value is the main thread's (t0).
func (s *Session) main() bool { return s.ref == "t0" || s.ref == "" }

// debugged registers a target's value: the debugger routes reach it by ref from here on. A
// target that has ended already is not registered (false).
func (s *Session) debugged() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	select {
	case <-s.ended:
		return false
	default:
	}
	if s.live == nil {
		s.live = map[string]*Session{}
	}
	s.live[s.ref] = s
	return true
}

// undebugged forgets a target that has ended or been let go; its pause, if any, goes too.
func (s *Session) undebugged() {
	s.mu.Lock()
	if s.live[s.ref] == s {
		delete(s.live, s.ref)
	}
	was := s.paused
	s.paused = nil
	select {
	case <-s.ended:
	default:
		close(s.ended)
		close(s.nextPause) // a step waiting in it answers now, with the target gone
		s.nextPause = make(chan struct{})
	}
	s.mu.Unlock()
	if was != nil {
		s.pub.PublishStatus(s.Summary())
	}
}

// On is the session seen through one of its targets: ref "" names the target paused last (t0
// when none is paused), so a caller that says nothing acts where the program stopped.
func (s *Session) On(ref string) (*Session, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	main := s.live["t0"]
	if main == nil {
		main = s
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
func (s *Session) pausedLast() *Session {
	var last *Session
	for _, t := range s.live {
		if t.paused != nil && (last == nil || t.pausedAt > last.pausedAt) {
			last = t
		}
	}
	return last
}

// anyPaused reports, under mu, whether some target stands paused.
func (s *Session) anyPaused() bool {
	if s.paused != nil {
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
func (s *Session) othersPaused() []string {
	var refs []string
	for ref, t := range s.live {
		if t != s && t.paused != nil {
			refs = append(refs, ref)
		}
	}
	slices.SortFunc(refs, func(a, b string) int { return targetNumber(a) - targetNumber(b) })
	return refs
}

// others lists, under mu, the other targets traced debugs, in ref order.
func (s *Session) others() []*Session {
	var out []*Session
	for _, t := range s.live {
		if t != s {
			out = append(out, t)
		}
	}
	slices.SortFunc(out, func(a, b *Session) int { return targetNumber(a.ref) - targetNumber(b.ref) })
	return out
}

// ownConnection reports, under mu, whether the target has a connection of its own (the main
// thread, a child process), where the dispatcher may send calls: a worker's go through the main
// thread's connection and are answered through the same dispatcher.
func (s *Session) ownConnection() bool { return s.client != nil && s.worker == nil }

// conn is the target's inspector connection, under mu; nil before it is attached.
func (s *Session) conn() clientCaller {
	switch {
	case s.worker != nil:
		return s.worker
	case s.client != nil:
		return s.client
	}
	return nil
}
