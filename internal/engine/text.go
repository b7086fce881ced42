package engine

import (
	"strings"
	"unicode/utf8"
)

// CapText cuts s to at most max bytes on a rune boundary and marks the cut. The OTLP export
// caps what the store does not (argv, stacks, locals) with it too, so both cut alike.
func CapText(s string, max int) Text {
	if len(s) <= max {
		return Text{Value: s}
	}
	cut := runeCut(s, max)
	return Text{Value: s[:cut], Truncated: true, Length: len(s)}
}

// runeCut is where to cut s (longer than max) to at most max bytes: backed up at most to the
// start of the rune the cut falls in. Input that is not UTF-8 (a child's binary output) is cut
// at max rather than emptied.
func runeCut[T ~string | ~[]byte](s T, max int) int {
	cut := max
	for back := 0; cut > 0 && back < utf8.UTFMax-1 && !utf8Start(s[cut]); back++ {
		cut--
	}
	if !utf8Start(s[cut]) {
		return max
	}
	return cut
}

func utf8Start(b byte) bool { return b&0xC0 != 0x80 }

// firstLine returns s up to its first newline.
func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}
