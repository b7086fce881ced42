package dap

import (
	"testing"

	"traced/api"
)

func TestThreadIDs(t *testing.T) {
	for _, c := range []struct {
		target string
		id     int
	}{{"", 1}, {"t0", 1}, {"t1", 2}, {"t12", 13}} {
		if got := threadID(c.target); got != c.id {
			t.Errorf("threadID(%q) = %d, want %d", c.target, got, c.id)
		}
		if c.target != "" {
			if got := targetOf(c.id); got != c.target {
				t.Errorf("targetOf(%d) = %q, want %q", c.id, got, c.target)
			}
		}
	}
}

func TestLogTemplate(t *testing.T) {
	got := logTemplateRE.ReplaceAllString("sum={sum} of {a + b}", "$${$1}")
	if want := "sum=${sum} of ${a + b}"; got != want {
		t.Errorf("template %q, want %q", got, want)
	}
}

func TestThreadName(t *testing.T) {
	for _, c := range []struct {
		info api.TargetInfo
		want string
	}{
		{api.TargetInfo{Ref: "t0", Kind: "main"}, "main"},
		{api.TargetInfo{Ref: "t1", Kind: "worker", Title: "[worker 1]", URL: "file:///w/tree.js"}, "[worker 1] tree.js"},
		{api.TargetInfo{Ref: "t2", Kind: "process", PID: 42, URL: "file:///w/kid.js"}, "process 42 kid.js"},
	} {
		if got := threadName(c.info); got != c.want {
			t.Errorf("threadName(%+v) = %q, want %q", c.info, got, c.want)
		}
	}
}

func TestExpandable(t *testing.T) {
	for _, c := range []struct {
		typ, value, ref string
		want            bool
	}{
		{"object", "{a: 1}", "v1", true},
		{"function", "f()", "v2", true},
		{"object", "null", "v3", false},
		{"number", "4", "v4", false},
		{"object", "{}", "", false},
	} {
		if got := expandable(c.typ, c.value, c.ref); got != c.want {
			t.Errorf("expandable(%q, %q, %q) = %v", c.typ, c.value, c.ref, got)
		}
	}
}
