package jsscan

import (
	"strings"
	"testing"
)

func TestDeclaration(t *testing.T) {
	src := strings.Split(`function f(a) {
  // let fake = 1; "const fake2 = 2"
  const s = "let quoted = 1", t = `+"`const x = ${a}`"+`;
  let { key: bound, plain, deep: [inner] = [] } = a
  let late = 3
  class Thing {}
  /* const hidden = 4 */
  for (const item of a) {}
  const é = 5;
  const 𝑥 = 6;
}`, "\n")
	whole := func() (Pos, Pos) {
		return Pos{}, Pos{Line: len(src) - 1, Column: 1}
	}
	cases := []struct {
		name      string
		line, col int // where the binding is initialised: the end of its declarator
		found     bool
	}{
		{"s", 2, 28, true}, {"t", 2, 50, true}, {"bound", 4, 2, true}, {"plain", 4, 2, true},
		{"inner", 4, 2, true}, {"late", 5, 2, true}, {"Thing", 5, 8, true}, {"item", 7, 18, true},
		{"é", 8, 13, true}, {"𝑥", 9, 14, true},
		{"key", 0, 0, false}, {"deep", 0, 0, false}, {"fake", 0, 0, false}, {"fake2", 0, 0, false},
		{"quoted", 0, 0, false}, {"x", 0, 0, false}, {"hidden", 0, 0, false}, {"a", 0, 0, false},
	}
	for _, c := range cases {
		from, to := whole()
		at, ok := Declaration(src, c.name, from, to)
		if ok != c.found || (ok && (at.Line != c.line || at.Column != c.col)) {
			t.Errorf("declaration of %s = %d:%d %v, want %d:%d %v", c.name, at.Line, at.Column, ok, c.line, c.col, c.found)
		}
	}
	// Only inside the scope's bounds.
	if _, ok := Declaration(src, "late", Pos{Line: 5}, Pos{Line: 9}); ok {
		t.Error("found a declaration before the scope's start")
	}
}
