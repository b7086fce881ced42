package snapscan

import (
	"errors"
	"io"
	"slices"
	"strings"
	"testing"
	"testing/iotest"
)

// sizes are the buffer sizes each case is read through: one byte, so that every value
// straddles a refill, a few odd sizes, and one that holds the whole input.
var sizes = []int{1, 2, 3, 5, 7, 1 << 16}

// scanners calls f with a Scanner of in for each buffer size; the reader hands out one byte a
// call as well, so that a short read is not taken for the end.
func scanners(t *testing.T, in string, f func(t *testing.T, s *Scanner)) {
	t.Helper()
	for _, size := range sizes {
		f(t, New(strings.NewReader(in), size))
	}
	f(t, New(iotest.OneByteReader(strings.NewReader(in)), 4))
}

// rest is what the scanner has not read yet.
func rest(t *testing.T, s *Scanner) string {
	t.Helper()
	var b []byte
	for {
		c, ok := s.next()
		if !ok {
			return string(b)
		}
		b = append(b, c)
	}
}

func TestUntil(t *testing.T) {
	for _, c := range []struct {
		in, tok    string
		limit      int
		kept, left string
	}{
		{`{"snapshot":{},"nodes":[1]`, `"nodes"`, 100, `{"snapshot":{},`, `:[1]`},
		{`{"snapshot":{},"nodes":[1]`, `"nodes"`, -1, ``, `:[1]`},
		{`"node"nodes"nodes"x`, `"nodes"`, -1, ``, `nodes"x`},
		{`aaab`, `aab`, 10, `a`, ``},               // a plain restart after "aa" + "a" misses it
		{`abababc!`, `ababc`, -1, ``, `!`},         // the mismatch keeps "ab" matched
		{`0123"nodes"`, `"nodes"`, 11, `0123`, ``}, // tok ends on the limit's last byte
	} {
		scanners(t, c.in, func(t *testing.T, s *Scanner) {
			kept, err := s.Until([]byte(c.tok), c.limit)
			if err != nil || string(kept) != c.kept {
				t.Fatalf("Until(%q, %d) of %q (buffer %d) = %q, %v; want %q", c.tok, c.limit, c.in, len(s.buf), kept, err, c.kept)
			}
			if c.limit < 0 && kept != nil {
				t.Errorf("Until with limit < 0 kept %q", kept)
			}
			if left := rest(t, s); left != c.left {
				t.Errorf("Until(%q) of %q left %q, want %q", c.tok, c.in, left, c.left)
			}
		})
	}
}

func TestUntilFails(t *testing.T) {
	scanners(t, `0123"nodes"`, func(t *testing.T, s *Scanner) {
		if _, err := s.Until([]byte(`"nodes"`), 10); err == nil || !strings.Contains(err.Error(), "first 10 bytes") {
			t.Errorf("tok past the limit: %v", err)
		}
	})
	scanners(t, `0123"nodes"`+strings.Repeat(" ", 40), func(t *testing.T, s *Scanner) {
		if _, err := s.Until([]byte(`"nodes"`), 10); err == nil {
			t.Errorf("no error for tok past the limit, with more to read")
		}
	})
	scanners(t, `{"snapshot":{},"nod`, func(t *testing.T, s *Scanner) {
		if _, err := s.Until([]byte(`"nodes"`), -1); !errors.Is(err, io.ErrUnexpectedEOF) {
			t.Errorf("no tok: %v, want io.ErrUnexpectedEOF", err)
		}
	})
	broken := errors.New("disk on fire")
	s := New(io.MultiReader(strings.NewReader(`{"snap`), iotest.ErrReader(broken)), 4)
	if _, err := s.Until([]byte(`"nodes"`), 100); !errors.Is(err, broken) {
		t.Errorf("a failing reader: %v, want its error", err)
	}
}

func TestInt(t *testing.T) {
	scanners(t, " 0,12 ,\n-345,\t9223372036854775807]x", func(t *testing.T, s *Scanner) {
		var got []int64
		for {
			n, end, err := s.Int()
			if err != nil {
				t.Fatal(err)
			}
			if end {
				break
			}
			got = append(got, n)
		}
		if want := []int64{0, 12, -345, 9223372036854775807}; !slices.Equal(got, want) {
			t.Errorf("Int read %v, want %v", got, want)
		}
		if left := rest(t, s); left != "x" {
			t.Errorf("left %q after the array", left)
		}
	})
	for _, in := range []string{"-,1]", "1,x]", "1.5]", `"1"]`, "1,", ""} {
		scanners(t, in, func(t *testing.T, s *Scanner) {
			for {
				_, end, err := s.Int()
				if err != nil {
					return
				}
				if end {
					t.Fatalf("no error for %q", in)
				}
			}
		})
	}
}

func TestRow(t *testing.T) {
	scanners(t, "1,22,333\n,4444,5,-0,\n7, 8 ,9],", func(t *testing.T, s *Scanner) {
		row := make([]int64, 3)
		var got [][]int64
		for {
			end, err := s.Row(row)
			if err != nil {
				t.Fatalf("buffer %d: %v", len(s.buf), err)
			}
			if end {
				break
			}
			got = append(got, slices.Clone(row))
		}
		want := [][]int64{{1, 22, 333}, {4444, 5, 0}, {7, 8, 9}}
		if !slices.EqualFunc(got, want, slices.Equal) {
			t.Errorf("buffer %d: rows %v, want %v", len(s.buf), got, want)
		}
		if left := rest(t, s); left != "," {
			t.Errorf("left %q after the array", left)
		}
	})
	for _, in := range []string{
		"1,2]",    // a partial row
		"1,-2,3]", // a negative value
		"1,-,3]",  // a lone sign
		"1,x,3]",  // junk
		"1,2",     // the end of the stream
	} {
		scanners(t, in, func(t *testing.T, s *Scanner) {
			if end, err := s.Row(make([]int64, 3)); err == nil {
				t.Errorf("Row of %q: end %v, no error", in, end)
			}
		})
	}
	scanners(t, "1,2", func(t *testing.T, s *Scanner) {
		if _, err := s.Row(make([]int64, 3)); !errors.Is(err, io.ErrUnexpectedEOF) {
			t.Errorf("a truncated row: %v, want io.ErrUnexpectedEOF", err)
		}
	})
}

// TestSnapshotShape reads a snapshot's layout with the calls its readers make.
func TestSnapshotShape(t *testing.T) {
	in := `{"snapshot":{"meta":{}},
"nodes":[1,2],
"trace_tree":[1,[2,["x]",[]]]],
"strings" : ["a","b\"]","c"]}`
	scanners(t, in, func(t *testing.T, s *Scanner) {
		if _, err := s.Until([]byte(`"nodes"`), 100); err != nil {
			t.Fatal(err)
		}
		if err := s.Expect('['); err != nil {
			t.Fatal(err)
		}
		if end, err := s.Row(make([]int64, 2)); end || err != nil {
			t.Fatalf("nodes: %v %v", end, err)
		}
		if _, end, err := s.Int(); !end || err != nil {
			t.Fatalf("nodes' end: %v %v", end, err)
		}
		var keys, strs []string
		for {
			k, err := s.Key()
			if err != nil {
				t.Fatal(err)
			}
			if k == "" {
				break
			}
			keys = append(keys, k)
			if k != "strings" {
				if err := s.SkipArray(); err != nil {
					t.Fatal(err)
				}
				continue
			}
			for i := 0; ; i++ {
				str, end, err := s.NextString(nil, 10*(i%2)) // the second one skipped
				if err != nil {
					t.Fatal(err)
				}
				if end {
					break
				}
				strs = append(strs, string(str))
			}
		}
		if !slices.Equal(keys, []string{"trace_tree", "strings"}) || !slices.Equal(strs, []string{"", `b"]`, ""}) {
			t.Errorf("keys %q, strings %q", keys, strs)
		}
	})
	for _, in := range []string{`"nodes"[`, `"nodes":[`, "\"nodes\" :\n\t[", "x\"nodes\"\r\n:["} {
		scanners(t, in, func(t *testing.T, s *Scanner) {
			_, _ = s.Until([]byte(`"nodes"`), -1)
			if err := s.Expect('['); err != nil {
				t.Errorf("Expect('[') of %q: %v", in, err)
			}
		})
	}
	for in, want := range map[string]error{`:{`: nil, ``: io.ErrUnexpectedEOF} {
		scanners(t, in, func(t *testing.T, s *Scanner) {
			if err := s.Expect('['); err == nil || (want != nil && !errors.Is(err, want)) {
				t.Errorf("Expect('[') of %q: %v", in, err)
			}
		})
	}
	for _, in := range []string{`x`, `"k":{`, `"k`, `"`} {
		scanners(t, in, func(t *testing.T, s *Scanner) {
			if k, err := s.Key(); err == nil {
				t.Errorf("Key of %q: %q, no error", in, k)
			}
		})
	}
	for _, in := range []string{`1]`, `"a`, ``} {
		scanners(t, in, func(t *testing.T, s *Scanner) {
			if str, end, err := s.NextString(nil, 10); err == nil {
				t.Errorf("NextString of %q: %q, end %v, no error", in, str, end)
			}
		})
	}
	for _, in := range []string{`1,2`, `["a]`, `"x`} {
		scanners(t, in, func(t *testing.T, s *Scanner) {
			if err := s.SkipArray(); !errors.Is(err, io.ErrUnexpectedEOF) {
				t.Errorf("SkipArray of %q: %v, want io.ErrUnexpectedEOF", in, err)
			}
		})
	}
}
