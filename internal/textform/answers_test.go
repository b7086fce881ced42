package textform

import (
	"testing"

	"traced/api"
	"traced/internal/heapsnap"
)

// TestAnswerLayouts: the answers an agent reads most have a line-an-item layout of their own,
// never the generic key tree (issue 25, point 4).
func TestAnswerLayouts(t *testing.T) {
	for _, c := range []struct {
		name string
		v    any
		want string
	}{
		{"console", api.HistoryResponse{Next: 12, Events: []api.Event{
			{Seq: 9, Kind: "console", Console: &api.ConsoleInfo{Level: "log", Text: api.Text{Value: "listening on :8080"},
				Frame: &api.Frame{File: "app.js", Line: 7}}},
			{Seq: 12, Kind: "console", Target: "t1", Console: &api.ConsoleInfo{Level: "warn", Text: api.Text{Value: "\x1b[33mslow\x1b[0m"}}},
		}}, "9      log   app.js:7  listening on :8080\n12@t1  warn  -         slow\nnext: 12\n"},
		{"no console", api.HistoryResponse{Events: []api.Event{}}, "no console output\nnext: 0\n"},
		{"vars", api.VarsResponse{Frame: "f1", Variables: []api.Variable{{Ref: "v1", Name: "job", Value: "Job {id: 1}"}}},
			"frame f1:\nlocals:\n  v1 job  Job {id: 1}\n"},
		{"stack", api.StackResponse{Stack: []api.StackFrame{{Ref: "f0", Frame: api.Frame{Function: "f", File: "a.js", Line: 2}}}},
			"stack:\n  f0 f  a.js:2\n"},
		{"hotpatch refused", api.HotpatchResult{Status: "CompileError", CompileError: &api.CompileError{Message: "Unexpected token", Line: 3, Column: 5}},
			"hotpatch CompileError\ncompile error at line 3:5: Unexpected token\n"},
		{"restart running", api.RestartResponse{Session: api.Summary{ID: "s2", Mode: "debug", Status: "running", Target: "a.js", Events: 9},
			Previous: "s1", State: api.State{Status: "running", Output: &api.ExecOutput{Entries: []api.OutputEntry{{Seq: 5, Kind: "console", Text: "up"}}}}},
			"s2  debug  running  a.js  9 events  (restart of s1)\noutput:\n  up\n"},
		{"snapshot", api.SnapshotInfo{Ref: "hs1", Tag: "before", Bytes: 4 << 20, Nodes: 100, Total: 3 << 20, Download: "/api/debug/s1/heap/snapshots/hs1",
			Classes: []heapsnap.Class{{Name: "Object", Count: 3, SelfSize: 2048, IDs: []int64{1, 2, 3}}}},
			"hs1 before  100 objects, 3.0 MB self size, 4.0 MB file\n  2.0 KB  3x  Object\ndownload: /api/debug/s1/heap/snapshots/hs1\n"},
		{"sampling start", api.SamplingStartRequest{IntervalBytes: 32768},
			"heap sampling on, a sample every 32768 bytes\nnext: traced heap sample stop answers the top allocation sites\n"},
		{"props", api.Props{Ref: "o1", Value: "Job {id: 1}", Properties: []api.Property{
			{Name: "id", Kind: "own", Value: "1"}, {Name: "tags", Kind: "own", Ref: "o2", Value: "Array(1)",
				Properties: []api.Property{{Name: "0", Kind: "own", Value: "'a'"}}}}},
			"o1 Job {id: 1}\n     id    1\n  o2 tags  Array(1)\n     0  'a'\n"},
		{"start output", api.SessionResponse{Session: api.Summary{ID: "s1", Mode: "debug", Status: "running", Target: "srv.js", Events: 3},
			Output: &api.ExecOutput{Entries: []api.OutputEntry{{Seq: 2, Kind: "stdout", Text: "\x1b[32mlistening on :3000\x1b[0m"}}}},
			"s1  debug  running  srv.js  3 events\noutput:\n  listening on :3000\n"},
	} {
		if got := Answer(c.v); got != c.want {
			t.Errorf("%s:\ngot  %q\nwant %q", c.name, got, c.want)
		}
	}
}

func TestStrip(t *testing.T) {
	for in, want := range map[string]string{
		"plain":                                "plain",
		"\x1b[32mok 1\x1b[0m - adds":           "ok 1 - adds",
		"\x1b[1;31mFAIL\x1b[39;22m x":          "FAIL x",
		"\x1b]8;;http://x\x07link\x1b]8;;\x07": "link",
		"\x1b]0;title\x1b\\text":               "text",
		"cut \x1b[3":                           "cut ",
		"esc at end \x1b":                      "esc at end ",
	} {
		if got := Strip(in); got != want {
			t.Errorf("Strip(%q) = %q, want %q", in, got, want)
		}
	}
}
