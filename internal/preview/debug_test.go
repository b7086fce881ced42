package preview

import (
	"strconv"
	"testing"

	"traced/internal/v8"
)

func TestDebugPreview(t *testing.T) {
	indexes := func(n int, value func(int) string, typ string) []v8.PropertyPreview {
		var out []v8.PropertyPreview
		for i := range n {
			out = append(out, v8.PropertyPreview{Name: strconv.Itoa(i), Type: typ, Value: value(i)})
		}
		return out
	}
	for _, c := range []struct {
		name string
		in   v8.RemoteObject
		want string
		cut  bool
	}{
		{"function with params", v8.RemoteObject{Type: "function", ClassName: "Function", Description: "function processResult(job, opts) {\n  return 1\n}"},
			"Function processResult(job, opts)", false},
		{"arrow", v8.RemoteObject{Type: "function", ClassName: "Function", Description: "x => x * 2"}, "Function (anonymous)(x)", false},
		{"async", v8.RemoteObject{Type: "function", ClassName: "AsyncFunction", Description: "async function load(url) {}"}, "AsyncFunction load(url)", false},
		{"class", v8.RemoteObject{Type: "function", ClassName: "Function", Description: "class Job extends Base {}"}, "class Job extends Base", false},
		{"error at its place", v8.RemoteObject{Type: "object", Subtype: "error", Description: "Error: connection refused\n    at connect (/w/src/db.js:12:9)\n    at main (/w/app.js:3:1)"},
			"Error: connection refused (at src/db.js:12)", true},
		{"error without a stack", v8.RemoteObject{Type: "object", Subtype: "error", Description: "TypeError: x"}, "TypeError: x", true},
		{"long array", v8.RemoteObject{Type: "object", Subtype: "array", Description: "Array(47)", Preview: &v8.ObjectPreview{Subtype: "array", Description: "Array(47)",
			Overflow: true, Properties: indexes(20, func(i int) string { return "a" + strconv.Itoa(i) }, "string")}},
			"Array(47) [ 'a0', 'a1', 'a2', 'a3', 'a4', 'a5', 'a6', 'a7', 'a8', 'a9', … ]", true},
		{"buffer", v8.RemoteObject{Type: "object", Subtype: "typedarray", Description: "Buffer(1024)", Preview: &v8.ObjectPreview{Subtype: "typedarray", Description: "Buffer(1024)",
			Overflow: true, Properties: indexes(5, func(i int) string { return strconv.Itoa(int("Hello"[i])) }, "number")}},
			"Buffer(1024) <48 65 6c 6c 6f …>", true},
		{"pending promise", v8.RemoteObject{Type: "object", Subtype: "promise", Description: "Promise", Preview: &v8.ObjectPreview{Subtype: "promise",
			Properties: []v8.PropertyPreview{{Name: "[[PromiseState]]", Type: "string", Value: "pending"}, {Name: "[[PromiseResult]]", Type: "undefined", Value: "undefined"}}}},
			"Promise { <pending> }", false},
		{"small object", v8.RemoteObject{Type: "object", ClassName: "Job", Description: "Job", Preview: &v8.ObjectPreview{Description: "Job",
			Properties: []v8.PropertyPreview{{Name: "id", Type: "string", Value: "test-123"}, {Name: "retries", Type: "number", Value: "2"}}}},
			"Job { id: 'test-123', retries: 2 }", false},
		{"number", v8.RemoteObject{Type: "number", Value: 3.0, Description: "3"}, "3", false},
	} {
		t.Run(c.name, func(t *testing.T) {
			got, cut := Debug(c.in, "/w")
			if got != c.want || cut != c.cut {
				t.Errorf("Debug = %q, %v; want %q, %v", got, cut, c.want, c.cut)
			}
		})
	}
}
