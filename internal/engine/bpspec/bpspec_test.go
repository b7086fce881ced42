package bpspec

import (
	"errors"
	"strings"
	"testing"
)

// TestLocationBounds: a line or column past MaxPosition (CDP takes int32) is bad input, not a
// number V8 refuses later; so are digits past int64, which Atoi cannot read.
func TestLocationBounds(t *testing.T) {
	for _, c := range []struct {
		location  string
		line, col int
		bad       string // a substring of the error, "" when accepted
	}{
		{"app.js:7", 7, 0, ""},
		{"app.js:7:3", 7, 3, ""},
		{"app.js:1000000000:1000000000", MaxPosition, MaxPosition, ""},
		{"app.js:1000000001", 0, 0, "line 1000000001 is past"},
		{"app.js:99999999999", 0, 0, "line 99999999999 is past"},
		{"app.js:7:2147483648", 0, 0, "column 2147483648 is past"},
		{"app.js:99999999999999999999999", 0, 0, "line"},
		{"app.js:0", 0, 0, "lines start at 1"},
		{"app.js", 0, 0, "not file:line"},
	} {
		_, line, col, err := Location(c.location)
		switch {
		case c.bad == "" && (err != nil || line != c.line || col != c.col):
			t.Errorf("%s: %d:%d %v, want %d:%d", c.location, line, col, err, c.line, c.col)
		case c.bad != "" && (!errors.Is(err, ErrBad) || !strings.Contains(err.Error(), c.bad)):
			t.Errorf("%s: %v, want bad input saying %q", c.location, err, c.bad)
		}
	}
}

func TestRefAndLine(t *testing.T) {
	if got := Ref("BP#3", "bp", "BP#"); got != "bp3" {
		t.Errorf("Ref(BP#3) = %q", got)
	}
	if got := Ref("@v7", "v", "V#"); got != "v7" {
		t.Errorf("Ref(@v7) = %q", got)
	}
	if f, n, ok := Line("src/a:b.js:12"); !ok || f != "src/a:b.js" || n != 12 {
		t.Errorf("Line = %q %d %v", f, n, ok)
	}
	if _, _, ok := Line("nowhere"); ok {
		t.Error("Line accepted a location without a line")
	}
}

func TestConditions(t *testing.T) {
	if got := Condition("bp1", "i > 2", 0); got != "i > 2" {
		t.Errorf("no hit count: %q", got)
	}
	got := Condition("bp1", "i > 2", 3)
	if !strings.HasPrefix(got, "(i > 2) && ") || !strings.HasSuffix(got, "=== 3") {
		t.Errorf("hit count: %q", got)
	}
	if got := TemplateLiteral("a `b` \\ ${c}"); got != "`a \\`b\\` \\\\ ${c}`" {
		t.Errorf("template: %q", got)
	}
	lp := LogCondition("lp1", "__emit", "x=${x}", "x > 1")
	if !strings.HasPrefix(lp, "(x > 1) && (() => {") || !strings.Contains(lp, "globalThis.__emit(") || !strings.Contains(lp, "return false;") {
		t.Errorf("logpoint: %q", lp)
	}
}
