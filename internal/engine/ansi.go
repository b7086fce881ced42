package engine

import (
	"regexp"
	"strings"
)

// ansiCode is a terminal control sequence: CSI (colours, cursor moves) or OSC (titles, links).
// Runners colour some lines even into a pipe (vitest's Expected/Received diff): a reader of
// the events gets the text alone.
var ansiCode = regexp.MustCompile(`\x1b(?:\[[0-9;?]*[ -/]*[@-~]|\][^\x07\x1b]*(?:\x07|\x1b\\)|[@-Z\\-_])`)

// stripANSI removes terminal control sequences from a line of output.
func stripANSI(s string) string {
	if !strings.Contains(s, "\x1b") {
		return s
	}
	return ansiCode.ReplaceAllString(s, "")
}
