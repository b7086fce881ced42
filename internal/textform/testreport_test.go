package textform

import (
	"fmt"
	"strings"
	"testing"

	"traced/api"
)

func stdoutEvents(lines ...string) []api.Event {
	evs := make([]api.Event, len(lines))
	for i, l := range lines {
		evs[i] = api.Event{Seq: uint64(i + 1), Kind: api.KindStdout, Output: &api.OutputInfo{Text: api.Text{Value: l}}}
	}
	return evs
}

// TestCondenseReport: a node --test report keeps its failing tests and counts, in TAP and in the
// spec reporter's form; a program's own lines, and output with no report, stay whole.
func TestCondenseReport(t *testing.T) {
	pad := func(prefix string) []string {
		var p []string
		for i := range 10 {
			p = append(p, fmt.Sprintf("%s%d", prefix, i))
		}
		return p
	}
	tap := stdoutEvents(append(append([]string{"starting", "TAP version 13"}, pad("ok - pad ")...), "# Subtest: a", "ok 1 - a", "  ---", "  duration_ms: 1.2", "  ...",
		"# Subtest: b", "not ok 2 - b", "  ---", "  location: '/x/b.test.js:9:1'", "  error: |-", "    1 !== 2", "  ...",
		"1..2", "# tests 2", "# suites 0", "# pass 1", "# fail 1", "# duration_ms 3")...)
	spec := stdoutEvents(append(pad("✔ pad "), "✔ a (1ms)", "✖ b (2ms)", "ℹ tests 2", "ℹ suites 0", "ℹ pass 1", "ℹ fail 1", "ℹ duration_ms 5",
		"  AssertionError [ERR_ASSERTION]: 1 !== 2", "      at TestContext.<anonymous> (/x/b.test.js:10:10)",
		"      at Test.run (node:internal/test_runner/test:796:25)", "    code: 'ERR_ASSERTION',", "    actual: 1,", "✖ failing tests:", "✖ b (2ms)")...)
	short := stdoutEvents("TAP version 13", "ok 1 - adds", "1..1", "# tests 1", "# pass 1")
	plain := stdoutEvents("✔ done", "ℹ tests are fun", "ok 1")
	cases := []struct {
		name    string
		in      []api.Event
		want    []string
		dropped int
	}{
		{"tap", tap, []string{"starting", "not ok 2 - b", "# tests 2", "# pass 1", "# fail 1"}, 25},
		{"spec", spec, []string{"✖ b (2ms)", "ℹ tests 2", "ℹ pass 1", "ℹ fail 1"}, 20},
		{"short", short, []string{"TAP version 13", "ok 1 - adds", "1..1", "# tests 1", "# pass 1"}, 0},
		{"plain", plain, []string{"✔ done", "ℹ tests are fun", "ok 1"}, 0},
	}
	for _, c := range cases {
		out, dropped := condenseReport(c.in)
		var got []string
		for _, ev := range out {
			got = append(got, ev.Output.Text.Value)
		}
		if strings.Join(got, "\n") != strings.Join(c.want, "\n") || dropped != c.dropped {
			t.Errorf("%s: kept %q (%d dropped), want %q (%d dropped)", c.name, got, dropped, c.want, c.dropped)
		}
	}
}
