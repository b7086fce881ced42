package engine

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestCapText(t *testing.T) {
	cases := []struct {
		name      string
		in        string
		max       int
		want      string
		truncated bool
	}{
		{"fits", "hello", 5, "hello", false},
		{"empty", "", 0, "", false},
		{"ascii cut", "hello world", 5, "hello", true},
		{"cut to nothing", "abc", 0, "", true},
		{"cut after a whole rune", "héllo", 3, "hé", true},
		{"cut inside a 2-byte rune", "héllo", 2, "h", true},
		{"cut inside a 3-byte rune", "a€b", 2, "a", true},
		{"cut inside a 3-byte rune, later byte", "a€b", 3, "a", true},
		{"cut inside a 4-byte rune", "x😀y", 4, "x", true},
		{"cut before a 4-byte rune", "x😀y", 1, "x", true},
		{"rune at the very start", "😀😀", 3, "", true},
		{"all multi-byte", strings.Repeat("日本", 100), 100, strings.Repeat("日本", 16) + "日", true},
		// Not UTF-8 (a child's binary output): cut where asked, not emptied.
		{"continuation bytes only", strings.Repeat("\x80", 20), 10, strings.Repeat("\x80", 10), true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := CapText(c.in, c.max)
			if got.Value != c.want || got.Truncated != c.truncated {
				t.Fatalf("CapText(%q, %d) = %q truncated=%v, want %q truncated=%v",
					c.in, c.max, got.Value, got.Truncated, c.want, c.truncated)
			}
			if len(got.Value) > c.max {
				t.Errorf("value is %d bytes, over the cap %d", len(got.Value), c.max)
			}
			if c.truncated && got.Length != len(c.in) {
				t.Errorf("Length %d, want %d", got.Length, len(c.in))
			}
			if !c.truncated && got.Length != 0 {
				t.Errorf("Length %d set on an uncut text", got.Length)
			}
			if utf8.ValidString(c.in) && !utf8.ValidString(got.Value) {
				t.Errorf("cut valid UTF-8 into invalid %q", got.Value)
			}
		})
	}
}

// TestCapTextEveryCut cuts a mixed-width string at every length.
func TestCapTextEveryCut(t *testing.T) {
	s := "aé€😀b日本語😀é"
	for max := 0; max <= len(s)+1; max++ {
		got := CapText(s, max)
		if !utf8.ValidString(got.Value) || !strings.HasPrefix(s, got.Value) || len(got.Value) > max ||
			len(got.Value) < max-(utf8.UTFMax-1) || got.Truncated != (max < len(s)) {
			t.Errorf("CapText(%q, %d) = %+v", s, max, got)
		}
	}
}

func TestFirstLine(t *testing.T) {
	for in, want := range map[string]string{"": "", "a": "a", "a\nb": "a", "\nb": "", "a\r\nb": "a\r"} {
		if got := firstLine(in); got != want {
			t.Errorf("firstLine(%q) = %q, want %q", in, got, want)
		}
	}
}
