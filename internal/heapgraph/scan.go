package heapgraph

import (
	"bytes"
	"fmt"
	"io"
	"strconv"
	"unicode/utf16"
	"unicode/utf8"
)

// scanner reads the snapshot text through one fixed buffer: the file is read once, front to
// back, and never held whole.
type scanner struct {
	r      io.Reader
	buf    []byte
	pos, n int
	err    error
}

func newScanner(r io.Reader) *scanner {
	return &scanner{r: r, buf: make([]byte, 1<<20)}
}

// fill refills the buffer; false at the end of the stream.
func (s *scanner) fill() bool {
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

func (s *scanner) next() (byte, bool) {
	if s.pos >= s.n && !s.fill() {
		return 0, false
	}
	b := s.buf[s.pos]
	s.pos++
	return b, true
}

func (s *scanner) eof() error {
	if s.err != nil && s.err != io.EOF {
		return s.err
	}
	return io.ErrUnexpectedEOF
}

// until consumes the stream up to and including tok, returning what came before it (failing
// past limit bytes).
func (s *scanner) until(tok []byte, limit int) ([]byte, error) {
	var kept []byte
	for {
		if s.pos >= s.n && !s.fill() {
			return nil, s.eof()
		}
		b := s.buf[s.pos]
		s.pos++
		if len(kept) >= limit {
			return nil, fmt.Errorf("no %s in the first %d bytes", tok, limit)
		}
		kept = append(kept, b)
		if bytes.HasSuffix(kept, tok) {
			return kept[:len(kept)-len(tok)], nil
		}
	}
}

// key reads the next object key and the '[' of its array value; "" at the closing brace.
func (s *scanner) key() (string, error) {
	for {
		b, ok := s.next()
		if !ok {
			return "", s.eof()
		}
		switch b {
		case ' ', '\t', '\r', '\n', ',':
			continue
		case '}':
			return "", nil
		case '"':
			var k []byte
			if err := s.jsonString(&k, true, 64); err != nil {
				return "", err
			}
			if err := s.expect('['); err != nil {
				return "", err
			}
			return string(k), nil
		}
		return "", fmt.Errorf("unexpected %q before a key", b)
	}
}

// expect skips white space and a colon, then wants c.
func (s *scanner) expect(c byte) error {
	for {
		b, ok := s.next()
		if !ok {
			return s.eof()
		}
		switch b {
		case ' ', '\t', '\r', '\n', ':':
			continue
		case c:
			return nil
		}
		return fmt.Errorf("want %q, found %q", c, b)
	}
}

// skipArray consumes the rest of an array of integers and nested arrays.
func (s *scanner) skipArray() error {
	depth := 1
	for depth > 0 {
		b, ok := s.next()
		if !ok {
			return s.eof()
		}
		switch b {
		case '[':
			depth++
		case ']':
			depth--
		case '"':
			if err := s.jsonString(nil, false, 0); err != nil {
				return err
			}
		}
	}
	return nil
}

// int reads the next integer of an array; end is true at its closing bracket.
func (s *scanner) int() (n int64, end bool, err error) {
	for {
		if s.pos >= s.n && !s.fill() {
			return 0, false, s.eof()
		}
		b := s.buf[s.pos]
		s.pos++
		switch {
		case b == ',' || b == '\n' || b == ' ' || b == '\r' || b == '\t':
			continue
		case b == ']':
			return 0, true, nil
		case b == '-' || (b >= '0' && b <= '9'):
			neg := b == '-'
			if !neg {
				n = int64(b - '0')
			}
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

// row fills dst with the next len(dst) integers of an array (non-negative, as the node and
// edge columns are), reporting end at its closing bracket before the first. It is int for a
// whole row at once: the hot loop of Read, with the buffer position in a local.
func (s *scanner) row(dst []int64) (end bool, err error) {
	pos, n, buf := s.pos, s.n, s.buf
	for i := 0; i < len(dst); {
		if pos >= n {
			s.pos = pos
			if !s.fill() {
				return false, s.eof()
			}
			pos, n, buf = s.pos, s.n, s.buf
		}
		b := buf[pos]
		if b < '0' || b > '9' {
			switch b {
			case ',', '\n', ' ', '\r', '\t':
				pos++
				continue
			case ']':
				if i == 0 {
					s.pos = pos + 1
					return true, nil
				}
			}
			// A sign, a partial row or junk: the general reader says which.
			s.pos = pos
			v, end, err := s.int()
			if err != nil || end || v < 0 {
				if err == nil {
					err = fmt.Errorf("unexpected value in a row (end %v, %d)", end, v)
				}
				return false, err
			}
			dst[i] = v
			i++
			pos, n, buf = s.pos, s.n, s.buf
			continue
		}
		v := int64(b - '0')
		pos++
		for {
			if pos >= n {
				s.pos = pos
				if !s.fill() {
					break
				}
				pos, n, buf = s.pos, s.n, s.buf
			}
			c := buf[pos]
			if c < '0' || c > '9' {
				break
			}
			v = v*10 + int64(c-'0')
			pos++
		}
		dst[i] = v
		i++
	}
	s.pos = pos
	return false, nil
}

// jsonString reads a JSON string after its opening quote, appending up to limit bytes of its
// text to out when keep is set.
func (s *scanner) jsonString(out *[]byte, keep bool, limit int) error {
	add := func(p ...byte) {
		if keep && len(*out) < limit {
			*out = append(*out, p[:min(len(p), limit-len(*out))]...)
		}
	}
	for {
		// Fast path: copy or skip the run up to the next quote or backslash.
		start := s.pos
		for s.pos < s.n && s.buf[s.pos] != '"' && s.buf[s.pos] != '\\' {
			s.pos++
		}
		add(s.buf[start:s.pos]...)
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
				add('\n')
			case 't':
				add('\t')
			case 'r':
				add('\r')
			case 'b':
				add('\b')
			case 'f':
				add('\f')
			case 'u':
				r, err := s.hex4()
				if err != nil {
					return err
				}
				if utf16.IsSurrogate(r) {
					r = s.lowSurrogate(r)
				}
				add(utf8.AppendRune(nil, r)...)
			default: // \" \\ \/
				add(e)
			}
		}
	}
}

// lowSurrogate completes a surrogate pair; a lone half becomes U+FFFD.
func (s *scanner) lowSurrogate(hi rune) rune {
	b1, ok := s.next()
	if !ok {
		return utf8.RuneError
	}
	if b1 != '\\' {
		s.pos-- // not an escape: read it again
		return utf8.RuneError
	}
	if b2, ok := s.next(); !ok || b2 != 'u' {
		return utf8.RuneError
	}
	lo, err := s.hex4()
	if err != nil {
		return utf8.RuneError
	}
	return utf16.DecodeRune(hi, lo)
}

func (s *scanner) hex4() (rune, error) {
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
