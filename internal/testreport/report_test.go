package testreport

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// read turns a captured output file into lines, seq from 1.
func read(t *testing.T, name string) []Line {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	var lines []Line
	for i, l := range strings.Split(strings.TrimRight(string(b), "\n"), "\n") {
		lines = append(lines, Line{Seq: uint64(i + 1), Text: l})
	}
	return lines
}

// brief is a failure in one line, for comparing.
func brief(f Failure) string {
	return fmt.Sprintf("%s | %s | %s:%d | %s | exp=%q got=%q", f.Runner, f.Title(), f.File, f.Line, f.Class, f.Expected, f.Received)
}

func TestParseRunners(t *testing.T) {
	cases := []struct {
		file string
		want []string
	}{
		{"nodetest-tap-node20.txt", []string{
			`node:test | math › scales | /tmp/rt/t/nt.test.js:8 | AssertionError | exp="7" got="6"`,
			`node:test | deep | /tmp/rt/t/nt.test.js:13 | AssertionError | exp="a: 1\nb:\n  0: 1\n  1: 3" got="a: 1\nb:\n  0: 1\n  1: 2"`,
		}},
		{"nodetest-tap-node22.txt", []string{
			`node:test | math › scales | /tmp/rt/t/nt.test.js:8 | AssertionError | exp="7" got="6"`,
			`node:test | deep | /tmp/rt/t/nt.test.js:13 | AssertionError | exp="a: 1\nb:\n  0: 1\n  1: 3" got="a: 1\nb:\n  0: 1\n  1: 2"`,
		}},
		{"nodetest-spec-node24.txt", []string{
			`node:test | math › scales | /tmp/rt/t/nt.test.js:8 | AssertionError | exp="7" got="6"`,
			`node:test | deep | /tmp/rt/t/nt.test.js:13 | AssertionError | exp="{ a: 1, b: [ 1, 3 ] }" got="{ a: 1, b: [ 1, 2 ] }"`,
		}},
		{"mocha-spec.txt", []string{
			`mocha | math › scales | m/m.test.js:7 | AssertionError | exp="7" got="6"`,
			`mocha | math › nested › deep | m/m.test.js:11 | AssertionError | exp="" got=""`,
		}},
		{"jest.txt", []string{
			`jest | Test suite failed to run | t/nt.test.js:0 |  | exp="" got=""`,
			`jest | math › scales | m/m.test.js:7 |  | exp="7" got="6"`,
			`jest | math › nested › deep | m/m.test.js:11 |  | exp="{\"a\": 1, \"b\": [1, 3]}" got="{\"a\": 1, \"b\": [1, 2]}"`,
			`jest | math › scales | j/j.test.js:6 |  | exp="7" got="6"`,
			`jest | math › nested › deep | j/j.test.js:10 |  | exp="" got=""`,
		}},
		{"vitest.txt", []string{
			`vitest | math › scales | v/v.test.js:7 | AssertionError | exp="7" got="6"`,
			`vitest | math › nested › deep | v/v.test.js:11 | AssertionError | exp="" got=""`,
		}},
	}
	for _, c := range cases {
		t.Run(c.file, func(t *testing.T) {
			got := Parse(read(t, c.file))
			var lines []string
			for _, f := range got {
				lines = append(lines, brief(f))
			}
			if strings.Join(lines, "\n") != strings.Join(c.want, "\n") {
				t.Errorf("got\n%s\nwant\n%s", strings.Join(lines, "\n"), strings.Join(c.want, "\n"))
			}
			for _, f := range got {
				t.Logf("%s\n%s", f.Title(), f.Message)
			}
		})
	}
}

// TestInterleavedStreams: vitest's failure block (stderr) read whole though its summary (stdout)
// arrived in the middle of it, as it does under --pool=threads.
func TestInterleavedStreams(t *testing.T) {
	lines := []Line{
		{Seq: 1, Stream: "stderr", Text: " FAIL  v/v.test.js > math > scales"},
		{Seq: 2, Stream: "stderr", Text: "AssertionError: expected 6 to be 7 // Object.is equality"},
		{Seq: 3, Stream: "stdout", Text: " Test Files  1 failed (1)"},
		{Seq: 4, Stream: "stdout", Text: "      Tests  1 failed | 2 passed (3)"},
		{Seq: 5, Stream: "stderr", Text: ""},
		{Seq: 6, Stream: "stderr", Text: "- Expected"},
		{Seq: 7, Stream: "stderr", Text: "+ Received"},
		{Seq: 8, Stream: "stderr", Text: ""},
		{Seq: 9, Stream: "stderr", Text: "- 7"},
		{Seq: 10, Stream: "stderr", Text: "+ 6"},
		{Seq: 11, Stream: "stdout", Text: "   Duration  531ms"},
		{Seq: 12, Stream: "stderr", Text: " ❯ v/v.test.js:7:17"},
	}
	got := Parse(lines)
	if len(got) != 1 || brief(got[0]) != `vitest | math › scales | v/v.test.js:7 | AssertionError | exp="7" got="6"` || strings.Contains(got[0].Message, "Test Files") {
		t.Fatalf("got %+v", got)
	}
}

// TestJestValues: the expected and received values of jest's matchers that name them otherwise
// than "Expected:" and "Received:" (cron's own suite fails on toHaveBeenCalledTimes).
func TestJestValues(t *testing.T) {
	cases := []struct {
		name, msg, exp, got string
	}{
		{"toBe", "expect(received).toBe(expected) // Object.is equality\n\nExpected: 7\nReceived: 6", "7", "6"},
		{"toHaveBeenCalledTimes", "expect(jest.fn()).toHaveBeenCalledTimes(expected)\n\nExpected number of calls: 1\nReceived number of calls: 0", "1", "0"},
		{"toHaveLength", "expect(received).toHaveLength(expected)\n\nExpected length: 3\nReceived length: 2\nReceived array:  [1, 2]", "3", "2"},
		{"toContain", "expect(received).toContain(expected) // indexOf\n\nExpected value: 3\nReceived array: [1, 2]", "3", "[1, 2]"},
		{"toBeCloseTo", "expect(received).toBeCloseTo(expected)\n\nExpected precision:    2\nExpected difference: < 0.005\nReceived difference:   0.1\n\nExpected value:   0.3\nReceived value:   0.4", "0.3", "0.4"},
		{"not.toBe", "expect(received).not.toBe(expected) // Object.is equality\n\nExpected: not 7", "not 7", ""},
		{"node:assert", "assert.strictEqual(received, expected)\n\nExpected value to strictly be equal to:\n  7\nReceived:\n  6", "7", "6"},
		{"a diff", "expect(received).toEqual(expected) // deep equality\n\n- Expected  - 1\n+ Received  + 1\n\n  Object {\n-   \"a\": 1,\n+   \"a\": 2,\n  }", "", ""},
		{"many lines", "assert.deepStrictEqual(received, expected)\n\nExpected value to deeply and strictly equal to:\n  {\n    a: 1\n  }\nReceived:\n  {\n    a: 2\n  }", "", ""},
	}
	for _, c := range cases {
		exp, got := jestValues(strings.Split(c.msg, "\n"))
		if exp != c.exp || got != c.got {
			t.Errorf("%s: expected %q received %q, want %q and %q", c.name, exp, got, c.exp, c.got)
		}
	}
}
