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
	// jestLabel is a line of a matcher's message that gives a value: "Expected: 7", "Received
	// number of calls: 0", "Expected value to strictly be equal to:" (the value on the next line).
	jestLabel = regexp.MustCompile(`^(Expected|Received)((?: [a-z]+)*):(?:\s+(.*))?$`)
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
		f.Expected, f.Received = jestValues(msg)
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

// jestValues reads the expected and received values of a jest failure's message. Matchers name
// them "Expected: 7" / "Received: 6" (toBe, toEqual), or with what they compare: "Expected
// number of calls: 1" / "Received number of calls: 0" (toHaveBeenCalledTimes), "Expected length"
// / "Received length" (toHaveLength), "Expected value" / "Received array" (toContain); node:assert's
// errors under jest give the value on the line after "Expected value to strictly be equal to:".
// The plain pair wins, then "value" (toBeCloseTo's, beside its difference), then the first
// pair of one name, then the first of each. A value of many lines (a diff) is none; a lone
// "Expected: not 7" is the expected value alone.
func jestValues(msg []string) (expected, received string) {
	type value struct{ name, text string }
	var exp, rec []value
	for i, l := range msg {
		m := jestLabel.FindStringSubmatch(strings.TrimSpace(l))
		if m == nil {
			continue
		}
		v := value{strings.TrimSpace(m[2]), strings.TrimSpace(m[3])}
		if v.text == "" {
			ind := indent(l)
			if i+1 >= len(msg) || strings.TrimSpace(msg[i+1]) == "" || indent(msg[i+1]) <= ind ||
				i+2 < len(msg) && strings.TrimSpace(msg[i+2]) != "" && indent(msg[i+2]) > ind {
				continue // no value, or one of many lines
			}
			v.text = strings.TrimSpace(msg[i+1])
		}
		if m[1] == "Expected" {
			exp = append(exp, v)
		} else {
			rec = append(rec, v)
		}
	}
	for _, name := range []string{"", "value", "*"} {
		for _, e := range exp {
			for _, r := range rec {
				if e.name == r.name && (name == "*" || e.name == name) {
					return e.text, r.text
				}
			}
		}
	}
	if len(exp) > 0 {
		expected = exp[0].text
	}
	if len(rec) > 0 {
		received = rec[0].text
	}
	return expected, received
}
