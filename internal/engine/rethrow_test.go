package engine

import "testing"

func TestRethrown(t *testing.T) {
	lib := "file:///app/node_modules/expect/index.js"
	user := Frame{URL: "file:///app/a.test.js", Line: 8, Column: 17}
	runner := Frame{URL: "file:///app/node_modules/circus.js", Line: 1834, Column: 28}
	first := &ThrowInfo{Class: "JestAssertionError", Message: Text{Value: "boom"},
		Stack: []Frame{{Function: "processResult", URL: lib, Line: 2216}, {Function: "throwingMatcher", URL: lib, Line: 2249}, user, runner}}
	again := &ThrowInfo{Class: "JestAssertionError", Message: Text{Value: "boom"},
		Stack: []Frame{{Function: "handleError", URL: lib, Line: 2231}, {Function: "throwingMatcher", URL: lib, Line: 2252}, user, runner}}
	loop := &ThrowInfo{Class: "JestAssertionError", Message: Text{Value: "boom"}, Stack: first.Stack}
	other := &ThrowInfo{Class: "JestAssertionError", Message: Text{Value: "bang"}, Stack: again.Stack}
	for _, c := range []struct {
		name string
		t    *ThrowInfo
		want bool
	}{{"rethrown by its library", again, true}, {"the same throw again (a loop)", loop, false}, {"another message", other, false}} {
		if got := rethrown(recordedThrow{first, 2}, recordedThrow{c.t, 2}); got != c.want {
			t.Errorf("%s: rethrown = %v, want %v", c.name, got, c.want)
		}
	}
}
