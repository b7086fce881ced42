package engine

import "testing"

func TestErrorMessage(t *testing.T) {
	cases := []struct{ class, desc, value, message string }{
		{"TypeError", "TypeError: x is not a function\n    at f (file:///a.js:1:1)", "TypeError: x is not a function", "x is not a function"},
		// node's coded errors, and an assertion's message on the lines after the first
		{"AssertionError", "AssertionError [ERR_ASSERTION]: Expected values to be strictly equal:\n\n6 !== 7\n\n    at t (file:///a.js:9:5)",
			"AssertionError [ERR_ASSERTION]: Expected values to be strictly equal:", "Expected values to be strictly equal:\n\n6 !== 7"},
		// the loader's SyntaxError: the place and an excerpt come first
		{"SyntaxError", "/a.js:2\n  let x = ;\n          ^\n\nSyntaxError: Unexpected token ';'\n    at wrap (node:internal/x:1:1)", "SyntaxError: Unexpected token ';'", "Unexpected token ';'"},
		{"Error", "Error [weird: not a code]: m", "Error [weird: not a code]: m", "Error [weird: not a code]: m"},
		{"", "just text", "just text", "just text"},
	}
	for _, c := range cases {
		if v, m := errorMessage(c.class, c.desc); v != c.value || m != c.message {
			t.Errorf("errorMessage(%q, %q) = %q, %q; want %q, %q", c.class, c.desc, v, m, c.value, c.message)
		}
	}
}
