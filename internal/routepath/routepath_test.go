package routepath

import "testing"

func TestMatch(t *testing.T) {
	for _, c := range []struct {
		pattern, path string
		want          bool
	}{
		{"/api/debug/{session}/state", "/api/debug/s1/state", true},
		{"/api/debug/{session}/state", "/api/debug/s1/eval", false},
		{"/api/debug/{session}/breakpoints/{ref}", "/api/debug/s1/breakpoints", false},
		{"/api/trace/list", "/api/trace/list", true},
	} {
		if got := Match(c.pattern, c.path); got != c.want {
			t.Errorf("Match(%q, %q) = %v, want %v", c.pattern, c.path, got, c.want)
		}
	}
}
