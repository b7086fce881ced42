package textform

import (
	"fmt"
	"strings"

	"traced/api"
)

// maxMessageLines caps the lines of a failure's message the text form shows: a long diff of two
// objects says what differed in its first lines.
const maxMessageLines = 8

// evidenceText renders the failure evidence for a reader who acts on it: what failed (the failing
// tests as the runner reported them, first), the value and the throwing frame's locals, the
// closest earlier user event, the confidence and the caveat.
//
//	failure: throw AssertionError in test "cart › totals" at failing/nt.test.js:10 (exit code 1)
//	  4 !== 11
//	failing tests (1): this one: expected 11, received 4  [t1]
//	    locals: items=Array(2) [ {…}, {…} ]  sum=4
//
// (with more failing tests than the one in the headline, a line each: name, file:line, expected
// and received or the message's first line, the target, and their locals)
//
//	before it: seq 12 console.log: totals (failing/nt.test.js:8)
//	confidence: high: The failure resolves to ...
//	caveat: Events near the failure: correlation, not causation. ...
func evidenceText(b *strings.Builder, r api.EvidenceResponse) {
	e := r.Evidence
	if e == nil {
		fmt.Fprintf(b, "%s %s: no failure: %s\n", r.Session, r.Status, r.Reason)
		return
	}
	f := e.Failure
	head := "failure: " + string(f.Kind)
	if f.Class != "" {
		head += " " + f.Class
	}
	if f.Test != "" {
		head += fmt.Sprintf(" in test %q", f.Test)
	}
	if f.Location != nil {
		head += " at " + whereBoth(*f.Location)
	}
	if f.Target != "" {
		head += " in " + f.Target
	}
	switch {
	case f.Signal != "":
		head += " (" + f.Signal + ")"
	case f.ExitCode != nil:
		head += fmt.Sprintf(" (exit code %d)", *f.ExitCode)
	}
	fmt.Fprintf(b, "%s %s %s\n", r.Session, r.Status, head)
	message(b, "  ", f.Message)
	if len(e.FailingTests) > 0 {
		fmt.Fprintf(b, "failing tests (%d):", len(e.FailingTests)+e.FailingTestsOmitted)
		only := len(e.FailingTests) == 1 && e.FailingTestsOmitted == 0 && e.FailingTests[0].Name == f.Test
		if !only {
			b.WriteString("\n")
		}
		for _, t := range e.FailingTests {
			line := "  " + t.Name
			switch {
			case only: // the headline named it and its place
				line = " this one"
			case t.Location != nil:
				line += "  " + frameWhere(*t.Location)
			}
			sep := "  "
			if only {
				sep = ": "
			}
			if t.Expected != "" || t.Received != "" {
				line += fmt.Sprintf("%sexpected %s, received %s", sep, t.Expected, t.Received)
			} else if first, _, _ := strings.Cut(t.Message, "\n"); first != "" && !only {
				line += "  " + first
			}
			if t.Target != "" {
				line += "  [" + t.Target + "]"
			}
			b.WriteString(line + "\n")
			if len(t.Locals) > 0 {
				b.WriteString("    locals: " + inline(t.Locals) + "\n")
			}
		}
		if e.FailingTestsOmitted > 0 {
			fmt.Fprintf(b, "  … %d more\n", e.FailingTestsOmitted)
		}
	} else if v := e.OriginatingValue; len(v.Locals) > 0 {
		b.WriteString("locals: " + inline(v.Locals) + "\n")
	}
	if c := e.ImmediateCause; c != nil {
		line := fmt.Sprintf("before it: seq %d %s", c.Seq, c.Summary)
		if c.Location != nil {
			line += " (" + frameWhere(*c.Location) + ")"
		}
		b.WriteString(line + "\n")
	}
	fmt.Fprintf(b, "confidence: %s: %s\n", e.Confidence, e.ConfidenceReason)
	b.WriteString("caveat: " + e.Caveat + "\n")
}

// message writes a message's first lines, indented, and says how many more there were.
func message(b *strings.Builder, indent, msg string) {
	msg = strings.TrimSpace(msg)
	if msg == "" {
		return
	}
	lines := strings.Split(msg, "\n")
	for _, l := range lines[:min(len(lines), maxMessageLines)] {
		b.WriteString(indent + strings.TrimRight(l, " ") + "\n")
	}
	if len(lines) > maxMessageLines {
		fmt.Fprintf(b, "%s… %d more lines\n", indent, len(lines)-maxMessageLines)
	}
}

// inline renders variables on one line: name=value, two spaces apart.
func inline(vars []api.Variable) string {
	parts := make([]string, len(vars))
	for i, v := range vars {
		parts[i] = v.Name + "=" + v.Value
	}
	return strings.Join(parts, "  ")
}
