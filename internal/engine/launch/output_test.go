package launch

import (
	"bytes"
	"io"
	"reflect"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"testing/iotest"
	"time"
)

// collectLines runs readLines on r and returns what it reported, failing if it does not return.
func collectLines(t *testing.T, r io.Reader) []string {
	t.Helper()
	var lines []string
	done := make(chan struct{})
	go func() {
		defer close(done)
		readLines(r, func(s string) { lines = append(lines, s) })
	}()
	select {
	case <-done:
	case <-time.After(30 * time.Second):
		t.Fatal("readLines did not return")
	}
	return lines
}

func TestReadLines(t *testing.T) {
	long := strings.Repeat("0123456789abcdef", maxLine/16*2+1) // just over 2*maxLine
	wide := strings.Repeat("日", maxLine/3+1)                   // 3-byte runes: maxLine falls inside one
	wideCut := maxLine - maxLine%3
	cases := []struct {
		name string
		in   string
		want []string
	}{
		{"empty", "", nil},
		{"one line", "a\n", []string{"a"}},
		{"no final newline", "a\nb", []string{"a", "b"}},
		{"empty lines", "\n\n", []string{"", ""}},
		{"crlf", "a\r\nb\r\n", []string{"a", "b"}},
		{"lone cr kept inside", "a\rb\n", []string{"a\rb"}},
		{"final cr dropped", "a\r", []string{"a"}},
		{"utf-8", "日本\n語\n", []string{"日本", "語"}},
		{"over the reader's buffer", strings.Repeat("y", 100_000) + "\nz\n", []string{strings.Repeat("y", 100_000), "z"}},
		{"exactly maxLine", strings.Repeat("m", maxLine) + "\nz\n", []string{strings.Repeat("m", maxLine), "z"}},
		{"maxLine plus one", strings.Repeat("m", maxLine+1) + "\nz\n", []string{strings.Repeat("m", maxLine), "m", "z"}},
		{"over maxLine, then lines", "before\n" + long + "\nafter\nend\n",
			[]string{"before", long[:maxLine], long[maxLine : 2*maxLine], long[2*maxLine:], "after", "end"}},
		{"over maxLine at EOF", long, []string{long[:maxLine], long[maxLine : 2*maxLine], long[2*maxLine:]}},
		{"over maxLine, cut on a rune boundary", wide + "\nz\n", []string{wide[:wideCut], wide[wideCut:], "z"}},
		{"invalid bytes replaced", "a\xffb\n\xe6\x97\nc\xe6\x97\xa5\n", []string{"a\uFFFDb", "\uFFFD", "c日"}},
		{"over maxLine with crlf", long + "\r\nafter\r\n",
			[]string{long[:maxLine], long[maxLine : 2*maxLine], long[2*maxLine:], "after"}},
	}
	readers := map[string]func(string) io.Reader{
		"whole":    func(s string) io.Reader { return strings.NewReader(s) },
		"half":     func(s string) io.Reader { return iotest.HalfReader(strings.NewReader(s)) },
		"data+EOF": func(s string) io.Reader { return iotest.DataErrReader(strings.NewReader(s)) },
	}
	for _, c := range cases {
		for rname, mk := range readers {
			t.Run(c.name+"/"+rname, func(t *testing.T) {
				got := collectLines(t, mk(c.in))
				if !reflect.DeepEqual(got, c.want) {
					t.Fatalf("lines %s, want %s", summarize(got), summarize(c.want))
				}
				for _, l := range got {
					if len(l) > maxLine {
						t.Fatalf("a %d-byte line, over maxLine", len(l))
					}
				}
			})
		}
	}
}

// TestReadLinesReadError: a read error (a deadline, a closed pipe) ends reading, and the partial
// line read before it is still reported.
func TestReadLinesReadError(t *testing.T) {
	r := io.MultiReader(strings.NewReader("a\npartial"), iotest.ErrReader(syscall.EIO))
	if got := collectLines(t, r); !reflect.DeepEqual(got, []string{"a", "partial"}) {
		t.Fatalf("lines %q", got)
	}
	r = iotest.TimeoutReader(bytes.NewReader([]byte("first\nsecond\n")))
	// TimeoutReader fails the second read; the first read of the buffered reader took everything.
	if got := collectLines(t, r); !reflect.DeepEqual(got, []string{"first", "second"}) {
		t.Fatalf("lines %q", got)
	}
}

func summarize(lines []string) string {
	parts := make([]string, 0, min(len(lines), 6))
	for i, l := range lines {
		if i == 5 && len(lines) > 6 {
			parts = append(parts, "… "+strconv.Itoa(len(lines)-5)+" more lines")
			break
		}
		if len(l) > 20 {
			parts = append(parts, strconv.Quote(l[:10])+"…("+strconv.Itoa(len(l))+" bytes)")
		} else {
			parts = append(parts, strconv.Quote(l))
		}
	}
	return "[" + strings.Join(parts, ", ") + "]"
}
