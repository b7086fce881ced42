package engine

import (
	"context"
	"fmt"
	"strings"
)

// The manager's sessions by id or name: find, list, stop and forget them.

// Get finds a session by id or name.
func (m *Manager) Get(idOrName string) (*Session, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	for _, s := range m.sessions {
		if s.id == idOrName || (s.name != "" && s.name == idOrName) { // names never look like ids
			return s, nil
		}
	}
	return nil, fmt.Errorf("%w: %q", ErrNotFound, idOrName)
}

// looksLikeID reports whether name has the shape of a session id ("s" and digits), which a name
// may not take: it could shadow the id of a later session.
func looksLikeID(name string) bool {
	digits := strings.TrimPrefix(name, "s")
	if digits == name || digits == "" {
		return false
	}
	for _, c := range digits {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// List returns every retained session, oldest first.
func (m *Manager) List() []Summary {
	m.mu.Lock()
	sessions := append([]*Session(nil), m.sessions...)
	m.mu.Unlock()
	out := make([]Summary, 0, len(sessions))
	for _, s := range sessions {
		out = append(out, s.Summary())
	}
	return out
}

// Stop ends a session's program (SIGTERM, then SIGKILL after StopGrace: stopping.go) and waits
// (bounded by ctx) until its exit is recorded. A finished session is returned as it is.
func (m *Manager) Stop(ctx context.Context, idOrName string) (Summary, error) {
	s, err := m.Get(idOrName)
	if err != nil {
		return Summary{}, err
	}
	go s.stop("")
	select {
	case <-s.done:
	case <-ctx.Done():
		return s.Summary(), fmt.Errorf("stop %s: %w", s.id, ctx.Err())
	}
	return s.Summary(), nil
}

// Delete forgets a finished session: its events, its directory of heap snapshots and profiles,
// its name. A live one answers ErrLive: stop it first.
func (m *Manager) Delete(idOrName string) (Summary, error) {
	s, err := m.Get(idOrName)
	if err != nil {
		return Summary{}, err
	}
	sum := s.Summary()
	if !sum.Status.Finished() {
		return sum, fmt.Errorf("%w: session %s is %s", ErrLive, s.id, sum.Status)
	}
	m.remove(s) // its files went when it ended (heap.go); the rest goes with the last reference
	return sum, nil
}
