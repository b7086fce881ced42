package engine

import (
	"reflect"
	"testing"
)

func TestParseStack(t *testing.T) {
	stack := "Error: ENOENT: no such file or directory, open '/x'\n" +
		"    at async open (node:internal/fs/promises:637:25)\n" +
		"    at async Object.readFile (node:internal/fs/promises:1249:14)\n" +
		"    at async loadConfig (/app/a b.js:4:16)\n" +
		"    at async file:///app/tla.mjs:8:13\n" +
		"    at eval (eval at leaf (/app/aw.js:4:3), <anonymous>:1:1)\n" +
		"    at async Promise.all (index 0)\n" +
		"    at leaf (/app/aw.js:4:3)"
	want := []textFrame{
		{async: true, function: "open", url: "node:internal/fs/promises", line: 637, col: 25},
		{async: true, function: "Object.readFile", url: "node:internal/fs/promises", line: 1249, col: 14},
		{async: true, function: "loadConfig", url: "file:///app/a%20b.js", line: 4, col: 16},
		{async: true, url: "file:///app/tla.mjs", line: 8, col: 13},
		{function: "leaf", url: "file:///app/aw.js", line: 4, col: 3},
	}
	if got := parseStack(stack); !reflect.DeepEqual(got, want) {
		t.Fatalf("parseStack:\n got %+v\nwant %+v", got, want)
	}
}

func TestStripANSI(t *testing.T) {
	for in, want := range map[string]string{
		"\x1b[32m- Expected\x1b[39m":              "- Expected",
		"\x1b[1m\x1b[31m FAIL \x1b[22m\x1b[39m x": " FAIL  x",
		"\x1b]8;;http://x\x07link\x1b]8;;\x07":    "link",
		"plain ❯ line":                            "plain ❯ line",
	} {
		if got := stripANSI(in); got != want {
			t.Errorf("stripANSI(%q) = %q, want %q", in, got, want)
		}
	}
}
