package snapscan

import (
	"encoding/json"
	"errors"
	"io"
	"strings"
	"testing"
	"unicode/utf8"
)

// strs are JSON strings (with their quotes, as they stand in a snapshot) and their text.
var strs = []struct{ json, text string }{
	{`""`, ""},
	{`"plain"`, "plain"},
	{`"a\"b\\c\/d"`, `a"b\c/d`},
	{`"\n\t\r\b\f"`, "\n\t\r\b\f"},
	{`"f\u00e9\u00E9"`, "féé"},
	{`"é😀 raw"`, "é😀 raw"},
	{`"\ud83d\ude00"`, "😀"},             // a pair
	{`"\uD83D\uDE00x"`, "😀x"},           // upper case
	{`"\ud83dx"`, "\uFFFDx"},            // a high half alone
	{`"\ud83d"`, "\uFFFD"},              // ... before the closing quote
	{`"\ud83d\n"`, "\uFFFD\n"},          // ... before another escape
	{`"\ud83d\u0041"`, "\uFFFDA"},       // ... before a \u that is not a low half
	{`"\ud83d\ud83d\ude00"`, "\uFFFD😀"}, // ... before a pair
	{`"\ude00\ud83d"`, "\uFFFD\uFFFD"},  // a low half first
	{`"\ud83d\ude00\ude00"`, "😀\uFFFD"}, // a pair and a low half
	{`"\u0000\u001f"`, "\x00\x1f"},      // control characters
	{"\"\xff\xfeok\"", "\uFFFDok"},      // bytes that are not UTF-8: one U+FFFD a run
	{`"tail` + strings.Repeat("x", 100) + `"`, "tail" + strings.Repeat("x", 100)},
}

func TestString(t *testing.T) {
	for _, c := range strs {
		// The cases read as encoding/json reads them, but for bytes that are not UTF-8.
		var want string
		if utf8.ValidString(c.json) && (json.Unmarshal([]byte(c.json), &want) != nil || want != c.text) {
			t.Errorf("%s: encoding/json reads %q, the case says %q", c.json, want, c.text)
		}
		scanners(t, c.json[1:]+`,"next"`, func(t *testing.T, s *Scanner) { // past the opening quote
			got, err := s.String([]byte("pre"), 1<<10)
			if err != nil || string(got) != "pre"+c.text {
				t.Fatalf("String of %s (buffer %d) = %q, %v; want %q", c.json, len(s.buf), got, err, "pre"+c.text)
			}
			if left := rest(t, s); left != `,"next"` {
				t.Errorf("String of %s left %q", c.json, left)
			}
		})
	}
}

func TestStringLimit(t *testing.T) {
	for _, c := range []struct {
		json  string
		limit int
		text  string
	}{
		{`"abcdef"`, 3, "abc"},
		{`"ab\ncd"`, 3, "ab\n"},
		{`"abcdef"`, 0, ""},
		{`"\ud83d\ude00"`, 0, ""},
		{`"é"`, 1, "\uFFFD"},               // cut inside a character
		{`"a\ud83d\ude00b"`, 3, "a\uFFFD"}, // cut inside an escaped one
		{`"\u00e9\u00e9"`, 3, "é\uFFFD"},
	} {
		scanners(t, c.json[1:], func(t *testing.T, s *Scanner) {
			got, err := s.String(nil, c.limit)
			if err != nil || string(got) != c.text {
				t.Errorf("String of %s with limit %d = %q, %v; want %q", c.json, c.limit, got, err, c.text)
			}
			if left := rest(t, s); left != "" {
				t.Errorf("String of %s with limit %d left %q", c.json, c.limit, left)
			}
		})
	}
}

func TestStringFails(t *testing.T) {
	errEscape := errors.New("bad \\u escape")
	for in, want := range map[string]error{
		`abc`:           io.ErrUnexpectedEOF,
		`abc\`:          io.ErrUnexpectedEOF,
		`\u12`:          io.ErrUnexpectedEOF,
		`\u12"`:         io.ErrUnexpectedEOF, // the quote is read as the escape's third digit
		`\ud83d`:        io.ErrUnexpectedEOF,
		`\ud83d\`:       io.ErrUnexpectedEOF,
		`\ud83d\u`:      io.ErrUnexpectedEOF,
		`\u12"x`:        errEscape,
		`\uzzzz"`:       errEscape,
		`\ud83d\uzzzz"`: errEscape,
	} {
		scanners(t, in, func(t *testing.T, s *Scanner) {
			got, err := s.String(nil, 100)
			switch {
			case err == nil:
				t.Errorf("String of %q = %q, no error", in, got)
			case want == errEscape && !strings.HasPrefix(err.Error(), want.Error()):
				t.Errorf("String of %q: %v, want %v", in, err, want)
			case want != errEscape && !errors.Is(err, want):
				t.Errorf("String of %q: %v, want %v", in, err, want)
			}
		})
	}
}

// FuzzString: whatever encoding/json reads as a string, String reads the same, through any
// buffer size.
func FuzzString(f *testing.F) {
	for _, c := range strs {
		f.Add(c.json, uint8(3))
	}
	f.Fuzz(func(t *testing.T, in string, size uint8) {
		var want string
		if !utf8.ValidString(in) || json.Unmarshal([]byte(in), &want) != nil || len(in) == 0 || in[0] != '"' {
			return
		}
		s := New(strings.NewReader(in[1:]), int(size))
		got, err := s.String(nil, len(in))
		if err != nil || string(got) != want {
			t.Fatalf("String of %q = %q, %v; encoding/json reads %q", in, got, err, want)
		}
	})
}
