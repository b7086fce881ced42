package engine

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"

	"traced/internal/cdp"
)

// ErrNoTarget: no target of the session has that ref, or it is not one traced debugs.
var ErrNoTarget = errors.New("no such target")

// registry is the session's one record of its targets, under Session.mu: every worker thread
// and child process in attach order (t0, the main thread, is Session.main), the ones traced
// debugs by ref, a worker's by its NodeWorker session id, and the child connections the
// session's end hangs up and waits for.
type registry struct {
	next    int                     // the last target ref given
	entries []*targetEntry          // t1, t2... in attach order
	live    map[string]*Target      // the targets traced debugs, by ref, t0 included
	workers map[string]*targetEntry // by NodeWorker session id

	conns  sync.WaitGroup // the child connections (children.go)
	ending chan struct{}  // closed when the session ends
	ended  bool           // no child connection is tracked from here on
}

func newRegistry() registry {
	return registry{live: map[string]*Target{}, workers: map[string]*targetEntry{}, ending: make(chan struct{})}
}

// targetEntry is one worker or child process of the session.
type targetEntry struct {
	info TargetInfo // what the target list shows, under Session.mu
	t    *Target    // the target; nil for a child that is only let run
	// A worker's: NodeWorker's id of it, the main connection and its own, tunnelled through it.
	sessionID string
	parent    cdp.Conn
	worker    *cdp.Worker
	gone      bool // a worker's end was handled
}

// add gives a new worker or child process the next ref and lists it, under mu.
func (r *registry) add(info TargetInfo) *targetEntry {
	r.next++
	info.Ref = "t" + strconv.Itoa(r.next)
	e := &targetEntry{info: info}
	r.entries = append(r.entries, e)
	return e
}

// snapshot is what the target list shows of e now.
func (tr Tree) snapshot(e *targetEntry) *TargetInfo {
	tr.s.mu.Lock()
	defer tr.s.mu.Unlock()
	info := e.info
	return &info
}

// Targets lists the session's targets: the main thread, then its workers and child processes
// in attach order.
func (s *Session) Targets() []TargetInfo {
	s.mu.Lock()
	defer s.mu.Unlock()
	status := TargetAttached
	if s.endedAt != nil {
		status = TargetExited
	}
	out := []TargetInfo{{Ref: "t0", Kind: "main", Title: s.program, Status: status}}
	for _, e := range s.targets.entries {
		out = append(out, e.info)
	}
	return out
}

func targetNumber(ref string) int { n, _ := strconv.Atoi(strings.TrimPrefix(ref, "t")); return n }

// debugged registers a target: the debugger routes reach it by ref from here on. A target that
// has ended already is not registered (false).
func (t *Target) debugged() bool {
	t.lock()
	defer t.unlock()
	select {
	case <-t.ended:
		return false
	default:
	}
	t.s.targets.live[t.ref] = t
	return true
}

// undebugged forgets a target that has ended or been let go; its pause, if any, goes too.
func (t *Target) undebugged() {
	t.lock()
	if t.s.targets.live[t.ref] == t {
		delete(t.s.targets.live, t.ref)
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
	t.unlock()
	if was != nil {
		t.s.pub.PublishStatus(t.s.Summary())
	}
}

// On is one of the session's targets: ref "" names the target paused last (t0 when none is
// paused), so a caller that says nothing acts where the program stopped.
func (s *Session) On(ref string) (*Target, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if ref == "" {
		if t := s.Tree().pausedLast(); t != nil {
			return t, nil
		}
		return s.main, nil
	}
	if t := s.targets.live[ref]; t != nil {
		return t, nil
	}
	if ref == "t0" {
		return s.main, nil
	}
	return nil, fmt.Errorf("%w: %s is not a target traced debugs in session %s", ErrNoTarget, ref, s.id)
}

// Named is the session's id and, in a session with more than one target to debug, this
// target's ref: what an answer about the target names, as the state does.
func (t *Target) Named() (session, target string) {
	t.s.mu.Lock()
	defer t.s.mu.Unlock()
	if len(t.s.targets.live) > 1 || !t.main() {
		target = t.ref
	}
	return t.s.id, target
}

// pausedLast is the target that paused most recently, under mu; nil when none stands paused.
func (tr Tree) pausedLast() *Target {
	var last *Target
	for _, t := range tr.s.targets.live {
		if t.paused != nil && (last == nil || t.pausedAt > last.pausedAt) {
			last = t
		}
	}
	return last
}

// anyPaused reports, under mu, whether some target stands paused.
func (tr Tree) anyPaused() bool {
	if tr.s.main.paused != nil {
		return true
	}
	for _, t := range tr.s.targets.live {
		if t.paused != nil {
			return true
		}
	}
	return false
}

// othersPaused lists, under mu, the refs of the targets but t that stand paused.
func (tr Tree) othersPaused(t *Target) []string {
	var refs []string
	for ref, o := range tr.s.targets.live {
		if o != t && o.paused != nil {
			refs = append(refs, ref)
		}
	}
	slices.SortFunc(refs, func(a, b string) int { return targetNumber(a) - targetNumber(b) })
	return refs
}

// debuggedBut lists, under mu, the targets traced debugs but t (nil: all), in ref order.
func (tr Tree) debuggedBut(t *Target) []*Target {
	var out []*Target
	for _, o := range tr.s.targets.live {
		if o != t {
			out = append(out, o)
		}
	}
	slices.SortFunc(out, func(a, b *Target) int { return targetNumber(a.ref) - targetNumber(b.ref) })
	return out
}

// PausedTargets is the set of refs of the targets that stand paused now.
func (tr Tree) PausedTargets() map[string]bool {
	tr.s.mu.Lock()
	defer tr.s.mu.Unlock()
	refs := map[string]bool{}
	if tr.s.main.paused != nil {
		refs["t0"] = true
	}
	for ref, t := range tr.s.targets.live {
		if t.paused != nil {
			refs[cmpRef(ref)] = true
		}
	}
	return refs
}

// cmpRef is a target's ref as events name it: "" for the main thread.
func cmpRef(ref string) string {
	if ref == "t0" {
		return ""
	}
	return ref
}
