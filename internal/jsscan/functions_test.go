package jsscan

import (
	"fmt"
	"strings"
	"testing"
)

// TestFunctionRanges: every kind of function is found with its name, from its first token to
// its last, nested ones inside their parents; braces in strings, templates and parameters do
// not end a body.
func TestFunctionRanges(t *testing.T) {
	src := `'use strict';
function mix(x) {
  const s = "}";
  return s + x;
}
const run = (n, { k } = {}) => {
  return items.map((i) => i * 2).filter(i => i > 1);
};
class Box {
  static async load(a) { return ` + "`${a}}`" + `; }
  get size() { return 1; }
}
const o = { f: function () { if (x) { y(); } }, g() {} };
async function later() {}
`
	got := FunctionRanges(strings.Split(src, "\n"))
	var rows []string
	for _, r := range got {
		rows = append(rows, fmt.Sprintf("%s %d:%d-%d:%d", r.Name, r.Start.Line, r.Start.Column, r.End.Line, r.End.Column))
	}
	want := []string{
		"mix 1:0-4:1",
		"run 5:12-7:1",
		" 6:19-6:31",
		" 6:40-6:50",
		"load 9:2-9:42",
		"size 10:2-10:26",
		"f 12:15-12:46",
		"g 12:48-12:54",
		"later 13:0-13:25",
	}
	if strings.Join(rows, "\n") != strings.Join(want, "\n") {
		t.Fatalf("ranges:\n%s\nwant:\n%s", strings.Join(rows, "\n"), strings.Join(want, "\n"))
	}
}
