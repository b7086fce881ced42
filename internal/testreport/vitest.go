package testreport

import (
	"regexp"
	"strings"
)

var (
	// vitestFail opens a failure: " FAIL  file > suite > test" (or " FAIL  file [ file ]" for a
	// file that failed to load).
	vitestFail = regexp.MustCompile(`^ FAIL  (.+)$`)
	// vitestAt is the failure's position: " ❯ file:line:col".
	vitestAt  = regexp.MustCompile(`^\s*❯ (.+)$`)
	vitestEnd = regexp.MustCompile(`^⎯{3,}`)
)

// parseVitest reads vitest's default reporter's "Failed Tests" blocks: the test's path from its
// file, the error line, the "- Expected / + Received" diff, and the position after "❯".
func parseVitest(lines []Line) []Failure {
	var out []Failure
	for i := 0; i < len(lines); i++ {
		m := vitestFail.FindStringSubmatch(lines[i].Text)
		if m == nil {
			continue
		}
		path := strings.Split(m[1], " > ")
		f := Failure{Runner: "vitest", Seq: lines[i].Seq}
		if len(path) == 1 {
			f.Name, f.File = m[1], strings.TrimSpace(strings.Split(m[1], " [")[0])
		} else {
			f.File, f.Suite, f.Name = path[0], path[1:len(path)-1], path[len(path)-1]
		}
		var msg []string
		located := false
		j := i + 1
		for ; j < len(lines); j++ {
			if otherStream(lines[j], lines[i]) {
				continue // the progress and summary on the other stream
			}
			text := lines[j].Text
			if vitestFail.MatchString(text) || vitestEnd.MatchString(strings.TrimSpace(text)) {
				break
			}
			if at := vitestAt.FindStringSubmatch(text); at != nil {
				if !located {
					if file, line, col, ok := userFrame([]string{at[1]}); ok {
						f.File, f.Line, f.Column, located = file, line, col, true
					}
				}
				continue
			}
			if !located {
				msg = append(msg, text)
			}
		}
		i = j - 1
		f.Class, f.Message = splitClass(dedent(msg, 0))
		f.Expected, f.Received = vitestDiff(msg)
		out = append(out, f)
	}
	return out
}

// vitestDiff reads the expected and received values: "Expected: x" and "Received: y" lines
// (node:assert's errors), or a one-line "- Expected / + Received" diff.
func vitestDiff(msg []string) (expected, received string) {
	var minus, plus []string
	for _, l := range msg {
		if v, ok := strings.CutPrefix(l, "Expected: "); ok {
			expected = v
			continue
		}
		if v, ok := strings.CutPrefix(l, "Received: "); ok {
			received = v
			continue
		}
		switch {
		case l == "- Expected" || l == "+ Received" || strings.HasPrefix(l, "- Expected ") || strings.HasPrefix(l, "+ Received "):
		case strings.HasPrefix(l, "- "):
			minus = append(minus, l[2:])
		case strings.HasPrefix(l, "+ "):
			plus = append(plus, l[2:])
		case strings.HasPrefix(l, "  "):
			return "", "" // a context line: a diff of many lines
		}
	}
	if expected == "" && received == "" && len(minus) == 1 && len(plus) == 1 {
		return minus[0], plus[0]
	}
	return expected, received
}
