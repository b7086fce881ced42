package textform

import "strings"

// Strip removes terminal escape sequences (ANSI colours, cursor moves, OSC titles and links) from
// s: test runners colour their reports when they think a terminal reads them, and an agent pays
// for every byte of "\x1b[32m". Only ECMA-48 sequences are removed; other text is kept as it is.
func Strip(s string) string {
	i := strings.IndexByte(s, 0x1b)
	if i < 0 {
		return s // the common case: one scan, no copy
	}
	var b strings.Builder
	b.Grow(len(s))
	for i >= 0 {
		b.WriteString(s[:i])
		s = s[i+1:]
		s = s[escapeLen(s):]
		i = strings.IndexByte(s, 0x1b)
	}
	b.WriteString(s)
	return b.String()
}

// escapeLen is the length of the rest of an escape sequence whose ESC was just read.
func escapeLen(s string) int {
	if s == "" {
		return 0
	}
	switch s[0] {
	case '[': // CSI: parameter and intermediate bytes, then one final byte in @..~
		for i := 1; i < len(s); i++ {
			if s[i] >= 0x40 && s[i] <= 0x7e {
				return i + 1
			}
		}
		return len(s)
	case ']', 'P', '_', '^': // OSC, DCS, APC, PM: up to BEL or ST (ESC \)
		for i := 1; i < len(s); i++ {
			if s[i] == 0x07 {
				return i + 1
			}
			if s[i] == 0x1b && i+1 < len(s) && s[i+1] == '\\' {
				return i + 2
			}
		}
		return len(s)
	}
	return 1 // a two-byte sequence (ESC 7, ESC c...)
}
