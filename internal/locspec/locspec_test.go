package locspec

import "testing"

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
		loc, rest, ok := Cut(tt.in)
		if !ok || loc != tt.loc || rest != tt.rest {
			t.Errorf("Cut(%q) = %q, %q, %v; want %q, %q", tt.in, loc, rest, ok, tt.loc, tt.rest)
		}
	}
	if _, _, ok := Cut("app.js"); ok {
		t.Error("Cut(app.js) found a line")
	}
}
