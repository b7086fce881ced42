package textform

import (
	"fmt"
	"regexp"
	"strings"

	"traced/api"
)

// A trace of node --test prints the runner's whole report (TAP, or the spec reporter's on node
// 23+ or a TTY), 10-30 lines a test, beside the failing tests the evidence lists. The trace's
// text keeps of a report longer than reportWhole lines each failing test's line ("not ok", or
// "✖" once) and the counts, the evidence listing each failure's place, error, expected and
// received; passing tests, durations and stacks are left out, with a note saying how many lines
// and where they are. The JSON form and `events` keep every line.

// reportWhole is how many lines of stdout a report may have and be shown whole: a short one
// costs less than the note that would replace it.
const reportWhole = 20

// condenseReport returns the events with node --test's report condensed, and how many lines
// were left out (0: no such report, the events as they were).
func condenseReport(events []api.Event) ([]api.Event, int) {
	var keep func(string) bool
	target := ""
	for _, ev := range events {
		if ev.Output == nil || ev.Kind != api.KindStdout {
			continue
		}
		line := ev.Output.Text.Value
		if strings.HasPrefix(line, "TAP version ") {
			keep, target = (&tapState{}).keep, ev.Target
			break
		}
		if specCount.MatchString(line) && strings.HasPrefix(line, "ℹ tests ") {
			keep, target = (&specState{}).keep, ev.Target
			break
		}
	}
	if keep == nil {
		return events, 0
	}
	lines := 0
	for _, ev := range events {
		if ev.Output != nil && ev.Kind == api.KindStdout && ev.Target == target {
			lines++
		}
	}
	if lines <= reportWhole {
		return events, 0
	}
	out := make([]api.Event, 0, len(events))
	dropped := 0
	for _, ev := range events {
		if ev.Output == nil || ev.Kind != api.KindStdout || ev.Target != target || keep(ev.Output.Text.Value) {
			out = append(out, ev)
			continue
		}
		dropped++
	}
	return out, dropped
}

// reportNote says what condenseReport left out.
func reportNote(dropped int) string {
	return fmt.Sprintf("(%d lines of the test report left out; traced events --kinds stdout shows them)\n", dropped)
}

// specCount is a count line of the spec reporter's summary the text keeps.
var specCount = regexp.MustCompile(`^ℹ (tests|pass|fail) \d+$`)

// specState reads a spec report: it keeps each failing test's "✖" line once, and the counts.
type specState struct {
	seen map[string]bool
}

func (s *specState) keep(line string) bool {
	if specCount.MatchString(line) {
		return true
	}
	trimmed := strings.TrimLeft(line, " ")
	if !strings.HasPrefix(trimmed, "✖ ") || trimmed == "✖ failing tests:" || s.seen[trimmed] {
		return false
	}
	if s.seen == nil {
		s.seen = map[string]bool{}
	}
	s.seen[trimmed] = true
	return true
}

// tapState reads a TAP report line by line. After its "TAP version" line the runner's stdout
// is all report: the text keeps the failing tests' "not ok" lines and the counts.
type tapState struct {
	started bool // the "TAP version" line was read
}

func (s *tapState) keep(line string) bool {
	if !s.started {
		s.started = strings.HasPrefix(line, "TAP version ")
		return !s.started // the program's own lines before the report stay
	}
	trimmed := strings.TrimLeft(line, " ")
	if strings.HasPrefix(trimmed, "not ok ") {
		return true
	}
	for _, count := range []string{"# tests ", "# pass ", "# fail "} {
		if strings.HasPrefix(line, count) {
			return true
		}
	}
	return false
}
