package api

import (
	"testing"
	"time"
)

// TestDefaultSession: the newest session, live or ended (an ended one stays the default rather
// than an older live one taking its place); of two started at once, the later listed.
func TestDefaultSession(t *testing.T) {
	t0 := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	s := func(id string, st Status, sec int) Summary {
		return Summary{ID: id, Status: st, StartedAt: t0.Add(time.Duration(sec) * time.Second)}
	}
	cases := []struct {
		name string
		list []Summary
		want string
	}{
		{"none", nil, ""},
		{"a newer ended one over an older live one", []Summary{s("a", "running", 1), s("b", "exited", 2)}, "b"},
		{"newest of the live", []Summary{s("a", "paused", 2), s("b", "running", 1)}, "a"},
		{"newest of the finished", []Summary{s("a", "stopped", 1), s("b", "failed", 3), s("c", "exited", 2)}, "b"},
		{"tie: the later listed", []Summary{s("a", "running", 1), s("b", "running", 1)}, "b"},
	}
	for _, c := range cases {
		id, ok := ListResponse{Sessions: c.list}.DefaultSession()
		if id != c.want || ok != (c.want != "") {
			t.Errorf("%s: DefaultSession() = %q, %v; want %q", c.name, id, ok, c.want)
		}
	}
}
