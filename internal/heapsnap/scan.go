package heapsnap

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"strconv"
	"unicode/utf16"
	"unicode/utf8"
)

// byteScanner reads a stream through one fixed buffer.
type byteScanner struct {
	r      io.Reader
	buf    []byte
	pos, n int
	err    error
}

// fill refills the buffer; false at the end of the stream.
func (s *byteScanner) fill() bool {
	if s.err != nil {
		return false
	}
	s.pos = 0
	s.n, s.err = io.ReadAtLeast(s.r, s.buf, 1)
	if s.err == io.ErrUnexpectedEOF {
		s.err = nil
	}
	return s.n > 0
}

func (s *byteScanner) next() (byte, bool) {
	if s.pos >= s.n && !s.fill() {
		return 0, false
	}
	b := s.buf[s.pos]
	s.pos++
	return b, true
}

func (s *byteScanner) eof() error {
	if s.err != nil && s.err != io.EOF {
		return s.err
	}
	return io.ErrUnexpectedEOF
}

// until consumes the stream up to and including tok. It returns what came before tok when
// limit >= 0 (failing past limit bytes); with limit < 0 it keeps nothing.
func (s *byteScanner) until(tok []byte, limit int) ([]byte, error) {
	var kept []byte
	matched := 0
	for {
		b, ok := s.next()
		if !ok {
			return nil, s.eof()
		}
		if limit >= 0 {
			if len(kept) >= limit {
				return nil, fmt.Errorf("no %s in the first %d bytes", tok, limit)
			}
			kept = append(kept, b)
		}
		switch {
		case b == tok[matched]:
			matched++
		case b == tok[0]:
			matched = 1
		default:
			matched = 0
		}
		if matched == len(tok) {
			if limit >= 0 {
				kept = kept[:len(kept)-len(tok)]
			}
			return kept, nil
		}
	}
}

// expect skips white space and a colon, then wants c.
func (s *byteScanner) expect(c byte) error {
	for {
		b, ok := s.next()
		if !ok {
			return fmt.Errorf("%w: want %q: %v", ErrFormat, c, s.eof())
		}
		switch b {
		case ' ', '\t', '\r', '\n', ':':
			continue
		case c:
			return nil
		}
		return fmt.Errorf("%w: want %q, found %q", ErrFormat, c, b)
	}
}

// int reads the next integer of an array; end is true at its closing bracket.
func (s *byteScanner) int() (n int64, end bool, err error) {
	for {
		b, ok := s.next()
		if !ok {
			return 0, false, s.eof()
		}
		switch {
		case b == ' ' || b == '\t' || b == '\r' || b == '\n' || b == ',':
			continue
		case b == ']':
			return 0, true, nil
		case b == '-' || (b >= '0' && b <= '9'):
			neg := b == '-'
			if !neg {
				n = int64(b - '0')
			}
			digits := !neg
			for {
				if s.pos >= s.n && !s.fill() {
					break
				}
				c := s.buf[s.pos]
				if c < '0' || c > '9' {
					break
				}
				s.pos++
				n = n*10 + int64(c-'0')
				digits = true
			}
			if !digits {
				return 0, false, errors.New("a lone minus sign")
			}
			if neg {
				n = -n
			}
			return n, false, nil
		default:
			return 0, false, fmt.Errorf("unexpected %q in an integer array", b)
		}
	}
}

// strings walks the strings table, decoding the entries whose index want holds, and stops
// once it has them all.
func (s *byteScanner) strings(want map[int]string) error {
	left := len(want)
	var cur []byte
	for i := 0; left > 0; i++ {
		b, ok := s.next()
		for ok && (b == ' ' || b == '\t' || b == '\r' || b == '\n' || b == ',') {
			b, ok = s.next()
		}
		if !ok {
			return s.eof()
		}
		if b == ']' {
			return nil // names past the table's end stay empty
		}
		if b != '"' {
			return fmt.Errorf("unexpected %q in the strings table", b)
		}
		_, needed := want[i]
		cur = cur[:0]
		if err := s.jsonString(&cur, needed); err != nil {
			return err
		}
		if needed {
			want[i] = string(cur)
			left--
		}
	}
	return nil
}

// jsonString reads a JSON string after its opening quote, appending its text to out when keep
// is set (capped at maxClassName bytes).
func (s *byteScanner) jsonString(out *[]byte, keep bool) error {
	add := func(p []byte) {
		if keep && len(*out) < maxClassName {
			*out = append(*out, p[:min(len(p), maxClassName-len(*out))]...)
		}
	}
	for {
		if !keep { // fast path: look for the next quote or backslash in the buffer
			for s.pos < s.n && s.buf[s.pos] != '"' && s.buf[s.pos] != '\\' {
				s.pos++
			}
		}
		b, ok := s.next()
		if !ok {
			return s.eof()
		}
		switch b {
		case '"':
			if keep && !utf8.Valid(*out) {
				*out = bytes.ToValidUTF8(*out, []byte("\uFFFD"))
			}
			return nil
		case '\\':
			e, ok := s.next()
			if !ok {
				return s.eof()
			}
			switch e {
			case 'n':
				add([]byte{'\n'})
			case 't':
				add([]byte{'\t'})
			case 'r':
				add([]byte{'\r'})
			case 'b':
				add([]byte{'\b'})
			case 'f':
				add([]byte{'\f'})
			case 'u':
				r, err := s.hex4()
				if err != nil {
					return err
				}
				if utf16.IsSurrogate(r) {
					// A pair is \uD8xx\uDCxx; a lone half becomes U+FFFD.
					if b1, ok := s.next(); ok && b1 == '\\' {
						if b2, ok := s.next(); ok && b2 == 'u' {
							r2, err := s.hex4()
							if err != nil {
								return err
							}
							r = utf16.DecodeRune(r, r2)
						}
					} else {
						if ok {
							s.pos-- // not an escape: read it again
						}
						r = utf8.RuneError
					}
				}
				add(utf8.AppendRune(nil, r))
			default: // \" \\ \/
				add([]byte{e})
			}
		default:
			add([]byte{b})
		}
	}
}

func (s *byteScanner) hex4() (rune, error) {
	var h [4]byte
	for i := range h {
		b, ok := s.next()
		if !ok {
			return 0, s.eof()
		}
		h[i] = b
	}
	n, err := strconv.ParseUint(string(h[:]), 16, 16)
	if err != nil {
		return 0, fmt.Errorf("bad \\u escape %q", h[:])
	}
	return rune(n), nil
}
