package testreport

import (
	"regexp"
	"strings"
)

var (
	mochaFailing = regexp.MustCompile(`^\d+ failing$`)
	// mochaTitle opens a failure in mocha's epilogue: "  1) suite", its test's name on the
	// lines after it, the last ending in ':'.
	mochaTitle = regexp.MustCompile(`^  (\d+)\) (.*)$`)
)

// parseMocha reads mocha's spec reporter epilogue: after "N failing", each failure is its
// numbered title (the suites, then the test, one a line), its error and diff, then its stack.
func parseMocha(lines []Line) []Failure {
	var out []Failure
	in := false
	for i := 0; i < len(lines); i++ {
		t := strings.TrimSpace(lines[i].Text)
		if mochaFailing.MatchString(t) {
			in = true
			continue
		}
		if !in {
			continue
		}
		m := mochaTitle.FindStringSubmatch(lines[i].Text)
		if m == nil {
			continue
		}
		title := []string{strings.TrimSpace(m[2])}
		j := i + 1
		for !strings.HasSuffix(title[len(title)-1], ":") && j < len(lines) && strings.TrimSpace(lines[j].Text) != "" {
			title = append(title, strings.TrimSpace(lines[j].Text))
			j++
		}
		title[len(title)-1] = strings.TrimSuffix(title[len(title)-1], ":")
		f := Failure{Runner: "mocha", Suite: title[:len(title)-1], Name: title[len(title)-1], Seq: lines[i].Seq}
		var msg, stack []string
		for ; j < len(lines); j++ {
			text := lines[j].Text
			if mochaTitle.MatchString(text) || mochaFailing.MatchString(strings.TrimSpace(text)) {
				break
			}
			if isStackLine(text) {
				stack = append(stack, text)
			} else if len(stack) == 0 {
				msg = append(msg, text)
			}
		}
		i = j - 1
		text := dedent(msg, 6)
		f.Class, f.Message = splitClass(text)
		f.Expected, f.Received = mochaDiff(msg)
		if file, line, col, ok := userFrame(stack); ok {
			f.File, f.Line, f.Column = file, line, col
		}
		out = append(out, f)
	}
	return out
}

// mochaDiff reads a one-line "+ expected - actual" diff: "+7" expected, "-6" actual.
func mochaDiff(msg []string) (expected, actual string) {
	at := -1
	for k, l := range msg {
		if strings.TrimSpace(l) == "+ expected - actual" {
			at = k
		}
	}
	if at < 0 {
		return "", ""
	}
	var plus, minus []string
	for _, l := range msg[at+1:] {
		t := strings.TrimSpace(l)
		switch {
		case strings.HasPrefix(t, "+"):
			plus = append(plus, t[1:])
		case strings.HasPrefix(t, "-"):
			minus = append(minus, t[1:])
		case t != "":
			return "", "" // a context line: a diff of many lines
		}
	}
	if len(plus) == 1 && len(minus) == 1 {
		return plus[0], minus[0]
	}
	return "", ""
}
