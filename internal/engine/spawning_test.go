package engine

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestTailBuffer(t *testing.T) {
	cases := []struct {
		name  string
		n     int
		lines []string
	}{
		{"nothing", 10, nil},
		{"fits", 10, []string{"ab", "cd"}},
		{"exactly full", 6, []string{"ab", "cd"}},
		{"one over", 5, []string{"ab", "cd"}},
		{"many lines", 7, []string{"one", "two", "three", "four", "five"}},
		{"one line longer than n", 4, []string{"a", "abcdefghij"}},
		{"empty lines", 3, []string{"", "", "", "", ""}},
		{"zero keeps nothing", 0, []string{"abc"}},
		{"cut on a whole character", 5, []string{"日本語"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			tb := &tailBuffer{n: c.n}
			var all strings.Builder
			for _, l := range c.lines {
				tb.add(l)
				all.WriteString(l + "\n")
				s := all.String()
				want := s[max(0, len(s)-c.n):]
				for len(want) > 0 && !utf8.RuneStart(want[0]) {
					want = want[1:]
				}
				if got := tb.String(); got != want {
					t.Fatalf("after %q: %q, want %q", l, got, want)
				}
			}
			if len(tb.String()) > c.n {
				t.Fatalf("kept %d bytes, over %d", len(tb.String()), c.n)
			}
		})
	}
}
