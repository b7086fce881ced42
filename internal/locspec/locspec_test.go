package locspec

import (
	"encoding/json"
	"testing"
)

func TestCut(t *testing.T) {
	tests := []struct{ in, loc, rest string }{
		{"app.js:7", "app.js:7", ""},
		{"app.js:7:i > 2", "app.js:7", "i > 2"},
		{"app.js:7:3", "app.js:7:3", ""},
		{"app.js:7:3:x", "app.js:7:3", "x"},
		{"src/a.js:12:a ? b : c", "src/a.js:12", "a ? b : c"},
		{"C:x.js:5:ok", "C:x.js:5", "ok"},
		{"app.js:9:i=${i}", "app.js:9", "i=${i}"},
	}
	for _, tt := range tests {
		loc, rest, ok := cut(tt.in)
		if !ok || loc != tt.loc || rest != tt.rest {
			t.Errorf("cut(%q) = %q, %q, %v; want %q, %q", tt.in, loc, rest, ok, tt.loc, tt.rest)
		}
	}
	if _, _, ok := cut("app.js"); ok {
		t.Error("cut(app.js) found a line")
	}
}

// TestPoints: the start request bodies of the short forms, as the API reads them.
func TestPoints(t *testing.T) {
	for _, c := range []struct {
		in, bp, lp string // "" when refused
	}{
		{"app.js:7", `"app.js:7"`, ""},
		{"app.js:7:3", `"app.js:7:3"`, ""},
		{"app.js:7:i > 2", `{"location":"app.js:7","condition":"i \u003e 2"}`, `{"location":"app.js:7","template":"i \u003e 2"}`},
		{"app.js:9:i=${i}", `{"location":"app.js:9","condition":"i=${i}"}`, `{"location":"app.js:9","template":"i=${i}"}`},
		{"app.js", "", ""},
	} {
		if bp, ok := Breakpoint(c.in); ok != (c.bp != "") {
			t.Errorf("Breakpoint(%q): ok %v", c.in, ok)
		} else if ok {
			if raw, _ := json.Marshal(bp); string(raw) != c.bp {
				t.Errorf("Breakpoint(%q) = %s, want %s", c.in, raw, c.bp)
			}
		}
		if lp, ok := Logpoint(c.in); ok != (c.lp != "") {
			t.Errorf("Logpoint(%q): ok %v", c.in, ok)
		} else if ok {
			if raw, _ := json.Marshal(lp); string(raw) != c.lp {
				t.Errorf("Logpoint(%q) = %s, want %s", c.in, raw, c.lp)
			}
		}
	}
}
