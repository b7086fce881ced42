package evidence

import (
	"path/filepath"
	"strings"

	"traced/internal/engine"
	"traced/internal/testreport"
)

// maxFailingTests caps the failing tests evidence lists: a suite that fails wholesale (a broken
// import) says so in its first few; the rest are counted.
const maxFailingTests = 20

// FailingTest is one test its runner reported failing, matched with the throw that failed it
// when traced recorded that throw.
type FailingTest struct {
	Name     string // its suites, then the test: "math › scales"
	Runner   string // node:test, mocha, jest or vitest
	Location *engine.Frame
	Class    string
	Message  string // the runner's message, Expected/Received included
	Expected string
	Received string
	Locals   []engine.Variable // the throwing frame's, when the throw was recorded
	Target   string            // where the test ran; absent for the main thread
	// ThrowSeq is the throw event that failed the test; absent when none was recorded (throw
	// events off, past the rate cap, or an assertion the runner made itself).
	ThrowSeq  uint64
	ReportSeq uint64 // the runner's report of the failure
	throwAt   int    // index of the throw event, -1 for none
	reportAt  int    // index of the report's output event
}

// failingTests reads the failing tests the runner printed and matches each with the throw
// event at its assertion: the runner's own report decides which tests failed, so a passing
// test's expected throw (assert.throws, expect().toThrow) never becomes a failure.
func failingTests(in Input) []FailingTest {
	var lines []testreport.Line
	var index []int
	for i, e := range in.Events {
		if (e.Kind == engine.KindStdout || e.Kind == engine.KindStderr) && e.Output != nil {
			lines = append(lines, testreport.Line{Seq: e.Seq, Target: e.Target, Text: e.Output.Text.Value, Stream: string(e.Kind)})
			index = append(index, i)
		}
	}
	reported := testreport.Parse(lines)
	if len(reported) == 0 {
		return nil
	}
	at := make(map[uint64]int, len(lines))
	for k, l := range lines {
		at[l.Seq] = index[k]
	}
	out := make([]FailingTest, 0, len(reported))
	used := map[int]bool{}
	for _, r := range reported {
		t := FailingTest{Name: r.Title(), Runner: r.Runner, Class: r.Class, Message: r.Message, Expected: r.Expected,
			Received: r.Received, ReportSeq: r.Seq, reportAt: at[r.Seq], throwAt: -1}
		file := localPath(r.File, in.Summary.Cwd)
		if r.Line > 0 {
			t.Location = &engine.Frame{File: file, Line: r.Line, Column: r.Column}
		}
		if j := matchThrow(in.Events[:t.reportAt], file, r, used); j >= 0 {
			used[j] = true
			e := in.Events[j]
			t.throwAt, t.ThrowSeq, t.Target = j, e.Seq, e.Target
			t.Locals = append([]engine.Variable{}, e.Throw.Locals...)
			if t.Class == "" {
				t.Class = e.Throw.Class
			}
			if l := e.Throw.Location; l != nil {
				t.Location = cloneFrame(l)
			}
		}
		out = append(out, t)
	}
	return out
}

// matchThrow is the index of the throw before the report that failed the test: at the
// assertion's file and line, one no earlier test took, the one whose message the runner's quotes
// first, else the earliest (tests run, and fail, in report order); failing that, the last one in
// that file whose message the runner's message holds. -1 for none.
func matchThrow(evs []engine.Event, file string, r testreport.Failure, used map[int]bool) int {
	atLine, quoted, byMessage := -1, -1, -1
	for i := len(evs) - 1; i >= 0; i-- {
		t := evs[i].Throw
		if evs[i].Kind != engine.KindThrow || t == nil || t.Location == nil || used[i] || !samePath(t.Location.File, file) {
			continue
		}
		first, _, _ := strings.Cut(testreport.StripANSI(t.Message.Value), "\n")
		says := first != "" && strings.Contains(r.Message, first)
		switch {
		case r.Line > 0 && t.Location.Line == r.Line:
			atLine = i
			if says {
				quoted = i
			}
		case says && byMessage < 0:
			byMessage = i
		}
	}
	switch {
	case quoted >= 0:
		return quoted
	case atLine >= 0:
		return atLine
	}
	return byMessage
}

// localPath makes a runner's absolute path relative to the session's cwd, as traced's frames are.
func localPath(file, cwd string) string {
	file = strings.TrimPrefix(file, "file://")
	if cwd != "" && filepath.IsAbs(file) {
		if rel, err := filepath.Rel(cwd, file); err == nil && !strings.HasPrefix(rel, "..") {
			return rel
		}
	}
	return filepath.Clean(file)
}

// samePath reports whether two paths name the same file, one perhaps relative to a directory
// the other is not (a runner's rootDir).
func samePath(a, b string) bool {
	if a == "" || b == "" {
		return false
	}
	a, b = filepath.Clean(a), filepath.Clean(b)
	return a == b || strings.HasSuffix(a, "/"+b) || strings.HasSuffix(b, "/"+a)
}

// testFailure is the failure of a run whose runner reported failing tests: its first failing
// test, told by the throw that failed it when one was recorded. at is the event's index.
func testFailure(in Input, t FailingTest) (*Failure, int) {
	code, signal := exitOf(in)
	if t.throwAt >= 0 {
		f := throwFailure(in.Events[t.throwAt], code, signal)
		f.Test, f.Message = t.Name, t.Message
		return f, t.throwAt
	}
	f := exitFailure(t.ReportSeq, code, signal)
	f.Kind, f.Test, f.Class, f.Message, f.Location = FailureTest, t.Name, t.Class, t.Message, cloneFrame(t.Location)
	return f, t.reportAt
}

// exitOf is the run's exit status when it has ended.
func exitOf(in Input) (*int, string) {
	for i := len(in.Events) - 1; i >= 0; i-- {
		if e := in.Events[i]; e.Kind == engine.KindExit && e.Exit != nil {
			return e.Exit.Code, e.Exit.Signal
		}
	}
	if in.Summary.Status.Finished() {
		return in.Summary.ExitCode, in.Summary.Signal
	}
	return nil, ""
}
