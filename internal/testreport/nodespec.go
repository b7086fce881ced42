package testreport

import (
	"regexp"
	"strings"
)

// specMark is a line of node --test's spec reporter tree: "▶ suite", "✔ test (1.2ms)",
// "✖ test (1.2ms)".
var specMark = regexp.MustCompile(`^(▶|✔|✖|﹣|⚠) (.*?)(?: \([0-9.]+m?s\))?(?: # .*)?$`)

// specTestAt opens a failure in the spec reporter's "failing tests:" list.
var specTestAt = regexp.MustCompile(`^(?:test|suite|hook) at (.*)$`)

// parseNodeSpec reads node --test's spec reporter (node 24+, and any node with a terminal): the
// tree gives each failing test's suites, and the "✖ failing tests:" list after it gives each
// failure's error, stack and, in the error's inspected properties, actual and expected.
func parseNodeSpec(lines []Line) []Failure {
	type open struct {
		indent int
		name   string
	}
	var stack []open
	suites := map[string][][]string{} // a failing test's name -> the suites of each such test, in order
	list := -1
	for i, l := range lines {
		t := strings.TrimSpace(l.Text)
		if t == "✖ failing tests:" {
			list = i + 1
			break
		}
		m := specMark.FindStringSubmatch(t)
		if m == nil {
			continue
		}
		ind := indent(l.Text)
		for len(stack) > 0 && stack[len(stack)-1].indent >= ind {
			stack = stack[:len(stack)-1]
		}
		switch m[1] {
		case "▶":
			stack = append(stack, open{ind, m[2]})
		case "✖":
			var path []string
			for _, o := range stack {
				path = append(path, o.name)
			}
			suites[m[2]] = append(suites[m[2]], path)
		}
	}
	if list < 0 {
		return nil
	}
	var out []Failure
	for i := list; i < len(lines); i++ {
		at := specTestAt.FindStringSubmatch(strings.TrimSpace(lines[i].Text))
		if at == nil || i+1 >= len(lines) {
			continue
		}
		m := specMark.FindStringSubmatch(strings.TrimSpace(lines[i+1].Text))
		if m == nil || m[1] != "✖" {
			continue
		}
		f := Failure{Runner: "node:test", Name: m[2], Seq: lines[i].Seq}
		if paths := suites[f.Name]; len(paths) > 0 {
			f.Suite, suites[f.Name] = paths[0], paths[1:]
			if f.Suite != nil && len(f.Suite) > 0 && f.Suite[len(f.Suite)-1] == f.Name {
				f.Suite = f.Suite[:len(f.Suite)-1] // a failing suite's own line
			}
		}
		// The error: indented lines up to the next "test at" (or the end).
		j := i + 2
		for j < len(lines) && specTestAt.FindStringSubmatch(strings.TrimSpace(lines[j].Text)) == nil {
			j++
		}
		body := make([]string, 0, j-i-2)
		for _, l := range lines[i+2 : j] {
			body = append(body, l.Text)
		}
		msg, stack, props := splitNodeError(body)
		f.Class, f.Message = splitClass(dedent(msg, 2))
		f.Message = strings.Trim(f.Message, "'")
		f.Expected, f.Received = props["expected"], props["actual"]
		if file, line, col, ok := userFrame(stack); ok {
			f.File, f.Line, f.Column = file, line, col
		} else if file, line, col, ok := position(at[1]); ok {
			f.File, f.Line, f.Column = file, line, col
		}
		out = append(out, f)
		i = j - 1
	}
	return out
}

// splitNodeError cuts node's printed error into its message, its stack lines and the one-line
// properties of the "{ ... }" util.inspect adds after the stack.
func splitNodeError(body []string) (msg, stack []string, props map[string]string) {
	props = map[string]string{}
	k := 0
	for k < len(body) && !isStackLine(body[k]) {
		k++
	}
	msg = body[:k]
	for ; k < len(body) && isStackLine(body[k]); k++ {
		stack = append(stack, body[k])
	}
	for _, l := range body[k:] {
		key, value, ok := strings.Cut(strings.TrimSpace(l), ": ")
		if ok && (key == "actual" || key == "expected") {
			props[key] = inspected(strings.TrimSuffix(value, ","))
		}
	}
	return msg, stack, props
}

// inspected reads a string util.inspect quoted ('74') as TAP's YAML gives it (74), so that both
// reporters of node --test say the same; other values stay as printed.
func inspected(v string) string {
	if len(v) >= 2 && v[0] == '\'' && v[len(v)-1] == '\'' {
		return strings.ReplaceAll(v[1:len(v)-1], `\'`, "'")
	}
	return v
}
