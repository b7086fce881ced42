package engine

import (
	"testing"

	"traced/internal/engine/launch"
)

func TestParseArrow(t *testing.T) {
	cases := []struct {
		name, text   string
		ok           bool
		path         string
		line, column int
	}{
		{"node 20 description", "/w/bad.js:3\nconst b = a +* 2;\n             ^\n\nSyntaxError: Unexpected token '*'", true, "/w/bad.js", 3, 14},
		{"end of input: no caret", "/w/syntax.js:3\n\n\n\nSyntaxError: Unexpected end of input", true, "/w/syntax.js", 3, 0},
		{"preview cut after the line", "/w/bad.js:3\nconst b", true, "/w/bad.js", 3, 0},
		{"preview cut inside the number", "/w/bad.js:1", false, "", 0, 0},
		{"node 24 description", "SyntaxError: Unexpected end of input\n    at wrapSafe (node:internal/modules/cjs/loader:1900:18)", false, "", 0, 0},
		{"relative path", "bad.js:3\nx\n^", false, "", 0, 0},
	}
	for _, c := range cases {
		a, ok := parseArrow(c.text)
		if ok != c.ok || a.path != c.path || a.line != c.line || a.column != c.column {
			t.Errorf("%s: %+v %v, want %s %d:%d %v", c.name, a, ok, c.path, c.line, c.column, c.ok)
		}
	}
}

func TestPreviewPropKeepsTheHead(t *testing.T) {
	p := &objectPreview{Properties: []propertyPreview{
		{Name: "stack", Type: "string", Value: "/a/long/path/bad.js:3\n\n\n\nS…)\n    at node:internal/main/run_main_module:33:47"},
	}}
	if got := previewProp(p, "stack"); got != "/a/long/path/bad.js:3\n\n\n\nS" {
		t.Fatalf("head %q", got)
	}
	if got := previewProp(nil, "stack"); got != "" {
		t.Fatalf("nil preview: %q", got)
	}
}

// TestSyntaxArrowEitherOrder: a held syntax error gets its line from node's arrow on stderr,
// whether the arrow comes before or after the exception, and a look-alike line the program
// printed first does not take its place.
func TestSyntaxArrowEitherOrder(t *testing.T) {
	arrowLines := []string{"/w/bad.js:3", "const b = a +* 2;", "             ^", "", "SyntaxError: Unexpected token '*'"}
	for _, stderrFirst := range []bool{true, false} {
		s := &Target{s: &Session{child: &launch.Child{}}}
		dir := "/w"
		s.s.cwd.Store(&dir)
		s.syntax.failed = &failedParse{info: ScriptInfo{URL: "file:///w/bad.js"}}
		var got *ExceptionInfo
		feed := func() {
			for _, l := range append([]string{"/w/other.js:9"}, arrowLines...) {
				if info := s.dispatcher().syntaxOutput(l); info != nil {
					got = info
				}
			}
		}
		if stderrFirst {
			feed()
		}
		if info := s.dispatcher().holdSyntaxError(&ExceptionInfo{URL: "file:///w/bad.js", File: "bad.js"}); info != nil {
			got = info
		}
		if !stderrFirst {
			if got != nil {
				t.Fatalf("exception recorded before its line: %+v", got)
			}
			feed()
		}
		if got == nil || got.Line != 3 || got.Column != 14 {
			t.Fatalf("stderr first %v: %+v, want bad.js 3:14", stderrFirst, got)
		}
		if s.dispatcher().releaseSyntax() != nil {
			t.Fatalf("stderr first %v: the exception was held twice", stderrFirst)
		}
	}
}
