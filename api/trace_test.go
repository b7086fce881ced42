package api

import (
	"testing"
	"time"
)

// TestDefaultSession: the newest live session wins over any finished one, else the newest; of
// two started at once, the later listed.
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
		{"newest live over newer finished", []Summary{s("a", "running", 1), s("b", "exited", 2)}, "a"},
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
