package testreport

import (
	"regexp"
	"strings"
)

// tapResult is a TAP test line: "not ok 2 - scales", with an optional "# SKIP"/"# TODO".
var tapResult = regexp.MustCompile(`^(not ok|ok) \d+(?: - (.*?))?(?: # (?i:(SKIP|TODO))\b.*)?$`)

// parseTAP reads node --test's TAP reporter (node 20 and 22 without a terminal): "# Subtest:"
// lines nest by indent, a "not ok" line is followed by a YAML block with the error, the
// expected and actual values and the stack. A suite's "subtestsFailed" is not a test's failure.
func parseTAP(lines []Line) []Failure {
	type open struct {
		indent int
		name   string
	}
	var stack []open
	pop := func(ind int) {
		for len(stack) > 0 && stack[len(stack)-1].indent >= ind {
			stack = stack[:len(stack)-1]
		}
	}
	var out []Failure
	for i := 0; i < len(lines); i++ {
		text := lines[i].Text
		ind, t := indent(text), strings.TrimSpace(text)
		if name, ok := strings.CutPrefix(t, "# Subtest: "); ok {
			pop(ind)
			stack = append(stack, open{ind, name})
			continue
		}
		m := tapResult.FindStringSubmatch(t)
		if m == nil {
			continue
		}
		var suite []string
		for _, o := range stack {
			if o.indent < ind {
				suite = append(suite, o.name)
			}
		}
		pop(ind)
		if m[1] != "not ok" || m[3] != "" {
			continue
		}
		fields, end := tapYAML(lines, i+1, ind+2)
		at := i
		i = end - 1
		if fields["failureType"] == "subtestsFailed" || fields["type"] == "suite" && fields["failureType"] != "testCodeFailure" {
			continue
		}
		f := Failure{Runner: "node:test", Suite: suite, Name: tapUnescape(m[2]), Seq: lines[at].Seq,
			Class: fields["name"], Message: fields["error"], Expected: fields["expected"], Received: fields["actual"]}
		if file, line, col, ok := userFrame(strings.Split(fields["stack"], "\n")); ok {
			f.File, f.Line, f.Column = file, line, col
		} else if file, line, col, ok := position(fields["location"]); ok {
			f.File, f.Line, f.Column = file, line, col
		}
		out = append(out, f)
	}
	return out
}

// tapYAML reads the YAML block that starts at lines[from] ("---" at indent ind) into its
// top-level keys, block scalars and nested maps as their text; end is the index after "...".
// Without a block it returns nothing and from.
func tapYAML(lines []Line, from, ind int) (map[string]string, int) {
	if from >= len(lines) || strings.TrimSpace(lines[from].Text) != "---" || indent(lines[from].Text) != ind {
		return nil, from
	}
	fields := map[string]string{}
	i := from + 1
	for i < len(lines) {
		text := lines[i].Text
		t := strings.TrimSpace(text)
		if t == "..." && indent(text) == ind {
			return fields, i + 1
		}
		if indent(text) != ind || t == "" {
			i++
			continue
		}
		key, value, ok := strings.Cut(t, ":")
		i++
		if !ok {
			continue
		}
		value = strings.TrimSpace(value)
		if value == "" || value == "|-" || value == "|" || value == ">-" || value == ">" {
			// A block scalar or a nested map: every deeper (or blank) line after it.
			var block []string
			for i < len(lines) && (indent(lines[i].Text) > ind || strings.TrimSpace(lines[i].Text) == "") {
				block = append(block, lines[i].Text)
				i++
			}
			fields[key] = dedent(block, ind+2)
			continue
		}
		fields[key] = yamlScalar(value)
	}
	return fields, i
}

// yamlScalar unquotes a single- or double-quoted YAML scalar.
func yamlScalar(v string) string {
	if len(v) >= 2 && v[0] == '\'' && v[len(v)-1] == '\'' {
		return strings.ReplaceAll(v[1:len(v)-1], "''", "'")
	}
	if len(v) >= 2 && v[0] == '"' && v[len(v)-1] == '"' {
		return strings.NewReplacer(`\"`, `"`, `\\`, `\`, `\n`, "\n").Replace(v[1 : len(v)-1])
	}
	if v == "~" {
		return ""
	}
	return v
}

// tapUnescape undoes TAP's escapes of '#' and '\' in a test name.
func tapUnescape(s string) string {
	return strings.NewReplacer(`\#`, "#", `\\`, `\`).Replace(s)
}
