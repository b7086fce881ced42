package routes

import (
	"testing"

	"traced/api"
	"traced/internal/heapgraph"
)

// TestUserSite: an allocation inside a builtin is named at its nearest caller with a file, never
// at node's own code; a site with no such frame names nothing.
func TestUserSite(t *testing.T) {
	cases := []struct {
		site api.AllocationSite
		want string
	}{
		{api.AllocationSite{Function: "LogLine", File: "leaks/kinds.js", Line: 9}, "LogLine leaks/kinds.js:9"},
		{api.AllocationSite{Function: "push", Stack: []string{"push", "emit node:events:10", "leakArray leaks/kinds.js:25", "(anonymous)"}}, "leakArray leaks/kinds.js:25"},
		{api.AllocationSite{Function: "(V8 API)", Stack: []string{"(V8 API)", "(root)"}}, ""},
	}
	for _, c := range cases {
		if got := userSite(c.site); got != c.want {
			t.Errorf("userSite(%+v) = %q, want %q", c.site, got, c.want)
		}
	}
}

// TestFrameOf: a sampled stack's "function file:line" frames read back into their parts; a
// frame without a file (a builtin, node's own code) is its function alone.
func TestFrameOf(t *testing.T) {
	cases := []struct {
		in   string
		want heapgraph.Frame
	}{
		{"globalThis.leakMap leaks/kinds.js:25", heapgraph.Frame{Function: "globalThis.leakMap", File: "leaks/kinds.js", Line: 25}},
		{"get value /srv/app/c:d.js:7", heapgraph.Frame{Function: "get value", File: "/srv/app/c:d.js", Line: 7}},
		{"push", heapgraph.Frame{Function: "push"}},
		{"(anonymous)", heapgraph.Frame{Function: "(anonymous)"}},
		{"emit node:events", heapgraph.Frame{Function: "emit node:events"}},
		{"f file.js:x", heapgraph.Frame{Function: "f file.js:x"}},
	}
	for _, c := range cases {
		if got := frameOf(c.in); got != c.want {
			t.Errorf("frameOf(%q) = %+v, want %+v", c.in, got, c.want)
		}
	}
}
