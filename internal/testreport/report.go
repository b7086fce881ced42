// Package testreport reads the failing tests a test runner reports in its own output: node --test's
// TAP and spec reporters, mocha's spec reporter, jest's and vitest's default reporters.
package testreport

import (
	"regexp"
	"strconv"
	"strings"
)

// Line is one line a program printed, as traced captured it (ANSI colour codes allowed).
type Line struct {
	Seq    uint64
	Target string
	Text   string
	// Stream is "stdout" or "stderr" ("" unknown): a runner that writes its failure blocks to
	// one and its progress to the other has them interleaved as they arrive.
	Stream string
}

// otherStream reports whether l came on a stream other than the block's header did.
func otherStream(l, header Line) bool {
	return l.Stream != "" && header.Stream != "" && l.Stream != header.Stream
}

// Failure is one failing test as its runner reported it.
type Failure struct {
	Runner string   // "node:test", "mocha", "jest" or "vitest"
	Suite  []string // the describe blocks around the test, outermost first
	Name   string   // the test's own name
	// File, Line and Column are the failing assertion's position as the runner printed it
	// (absolute, or relative to the runner's cwd); Line 0 when it printed none.
	File         string
	Line, Column int
	Class        string // the error's class, e.g. "AssertionError"
	Message      string // the runner's message, its Expected/Received or diff included
	Expected     string // when the runner gives the expected value on a line of its own
	Received     string // the actual value, likewise
	Seq          uint64 // the first line of the runner's report of the failure
}

// Title is the test's full name, its suites first.
func (f Failure) Title() string {
	return strings.Join(append(append([]string{}, f.Suite...), f.Name), " › ")
}

// maxMessage caps a failure's message: the first lines say what differed; a long diff of two
// big objects would cost an AI reader more than it tells.
const maxMessage = 1500

// Parse finds every failing test the lines report, in report order, each once.
func Parse(lines []Line) []Failure {
	clean := make([]Line, len(lines))
	for i, l := range lines {
		clean[i] = Line{Seq: l.Seq, Target: l.Target, Text: StripANSI(strings.TrimRight(l.Text, "\r\n")), Stream: l.Stream}
	}
	var all []Failure
	for _, parse := range []func([]Line) []Failure{parseTAP, parseNodeSpec, parseMocha, parseJest, parseVitest} {
		all = append(all, parse(clean)...)
	}
	return dedupe(all)
}

// dedupe drops a failure reported again (jest's and vitest's summaries repeat their blocks),
// keeping the first report.
func dedupe(fs []Failure) []Failure {
	seen := map[string]bool{}
	out := fs[:0]
	for _, f := range fs {
		key := f.Runner + "\x00" + f.Title() + "\x00" + f.File + ":" + strconv.Itoa(f.Line)
		if seen[key] {
			continue
		}
		seen[key] = true
		if len(f.Message) > maxMessage {
			cut := maxMessage
			for cut > 0 && !isRuneStart(f.Message[cut]) {
				cut--
			}
			f.Message = f.Message[:cut] + "…"
		}
		out = append(out, f)
	}
	return out
}

func isRuneStart(b byte) bool { return b&0xC0 != 0x80 }

var ansi = regexp.MustCompile(`\x1b\[[0-9;?]*[ -/]*[@-~]`)

// StripANSI removes terminal colour and cursor codes.
func StripANSI(s string) string {
	if !strings.Contains(s, "\x1b") {
		return s
	}
	return ansi.ReplaceAllString(s, "")
}

// frameRe finds a stack frame's position: "(file:line:col)" or a bare "file:line:col" at the end.
var frameRe = regexp.MustCompile(`(?:\(|\s|^)((?:file://)?[^\s()]+?):(\d+):(\d+)\)?(?: \{)?\s*$`)

// userFrame reads the first frame of the lines that is in neither node's own code nor a
// package: the assertion's place in the test. ok is false when there is none.
func userFrame(lines []string) (file string, line, col int, ok bool) {
	for _, l := range lines {
		m := frameRe.FindStringSubmatch(strings.TrimSpace(l))
		if m == nil {
			continue
		}
		f := strings.TrimPrefix(m[1], "file://")
		if strings.HasPrefix(f, "node:") || strings.Contains(f, "/node_modules/") || strings.HasPrefix(f, "node_modules/") || f == "<anonymous>" {
			continue
		}
		line, _ = strconv.Atoi(m[2])
		col, _ = strconv.Atoi(m[3])
		return f, line, col, true
	}
	return "", 0, 0, false
}

// position reads "file:line:col" (a runner's own "location" field).
func position(s string) (file string, line, col int, ok bool) {
	m := frameRe.FindStringSubmatch(strings.TrimSpace(s))
	if m == nil {
		return "", 0, 0, false
	}
	line, _ = strconv.Atoi(m[2])
	col, _ = strconv.Atoi(m[3])
	return strings.TrimPrefix(m[1], "file://"), line, col, true
}

// classRe reads an error's first line: "Class: message" or node's "Class [CODE]: message".
var classRe = regexp.MustCompile(`^([A-Z][A-Za-z0-9_$]*(?:Error|Exception))(?: \[[A-Z0-9_]+\])?: ?(.*)$`)

// splitClass cuts the error's class off its message's first line.
func splitClass(msg string) (class, rest string) {
	first, more, _ := strings.Cut(msg, "\n")
	m := classRe.FindStringSubmatch(first)
	if m == nil {
		return "", msg
	}
	rest = m[2]
	if more != "" {
		rest += "\n" + more
	}
	return m[1], strings.TrimSpace(rest)
}

// indent is the count of leading spaces.
func indent(s string) int { return len(s) - len(strings.TrimLeft(s, " ")) }

// dedent removes up to n leading spaces from each line and trims blank lines at both ends.
func dedent(lines []string, n int) string {
	out := make([]string, len(lines))
	for i, l := range lines {
		k := min(n, indent(l))
		out[i] = strings.TrimRight(l[k:], " ")
	}
	return strings.Trim(strings.Join(out, "\n"), "\n")
}

// isStackLine reports whether a line is a stack frame ("    at f (file:1:2)").
func isStackLine(s string) bool { return strings.HasPrefix(strings.TrimSpace(s), "at ") }
