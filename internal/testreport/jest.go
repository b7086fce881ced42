package testreport

import (
	"regexp"
	"strings"
)

var (
	jestFile  = regexp.MustCompile(`^(?:FAIL|PASS) (.+?)(?: \(.*\))?$`)
	jestTitle = regexp.MustCompile(`^  ● (.+)$`)
	// jestCode is a line of jest's code frame ("    > 6 |     expect(got).toBe(7);").
	jestCode = regexp.MustCompile(`^\s*>?\s*\d*\s*\|`)
)

// parseJest reads jest's default reporter: under "FAIL file", each failure is "● suite › test",
// its message with Expected and Received, a code frame, then the stack. "Summary of all failing
// tests" repeats them (dedupe drops the repeats).
func parseJest(lines []Line) []Failure {
	var out []Failure
	file := ""
	for i := 0; i < len(lines); i++ {
		if m := jestFile.FindStringSubmatch(lines[i].Text); m != nil {
			file = m[1]
			continue
		}
		m := jestTitle.FindStringSubmatch(lines[i].Text)
		if m == nil || m[1] == "Console" {
			continue
		}
		path := strings.Split(m[1], " › ")
		f := Failure{Runner: "jest", Suite: path[:len(path)-1], Name: path[len(path)-1], Seq: lines[i].Seq}
		var msg, stack []string
		code := false
		j := i + 1
		for ; j < len(lines); j++ {
			if otherStream(lines[j], lines[i]) {
				continue // the progress and summary on the other stream
			}
			text := lines[j].Text
			if jestTitle.MatchString(text) || jestFile.MatchString(text) {
				break
			}
			switch {
			case isStackLine(text):
				stack = append(stack, text)
			case jestCode.MatchString(text):
				code = true
			case !code && len(stack) == 0:
				msg = append(msg, text)
			}
		}
		i = j - 1
		f.Message = dedent(msg, 4)
		for _, l := range msg {
			t := strings.TrimSpace(l)
			if v, ok := strings.CutPrefix(t, "Expected: "); ok {
				f.Expected = v
			} else if v, ok := strings.CutPrefix(t, "Received: "); ok {
				f.Received = v
			}
		}
		if first, _, _ := strings.Cut(f.Message, "\n"); classRe.MatchString(first) {
			f.Class, f.Message = splitClass(f.Message)
		}
		if fl, line, col, ok := userFrame(stack); ok {
			f.File, f.Line, f.Column = fl, line, col
		} else {
			f.File = file
		}
		out = append(out, f)
	}
	return out
}
