package routes

import (
	"testing"

	"traced/api"
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
