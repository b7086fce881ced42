// Package snapscan reads the JSON text of a V8 heap snapshot front to back through one fixed
// buffer, never holding it whole: a snapshot runs to gigabytes, and its readers (heapgraph's
// analysis, heapsnap's summary) want only its flat integer arrays and a few of its strings.
// It knows the few shapes a snapshot is made of (a header, arrays of integers, an array of
// strings) and nothing of what the values mean.
package snapscan

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"unicode/utf8"
)

// Scanner reads a stream through one fixed buffer; its methods consume the stream as they read.
type Scanner struct {
	r      io.Reader
	buf    []byte
	pos, n int
	err    error
}

// New reads r through a buffer of size bytes (at least one).
func New(r io.Reader, size int) *Scanner {
	return &Scanner{r: r, buf: make([]byte, max(size, 1))}
}

// fill refills the buffer; false at the end of the stream.
func (s *Scanner) fill() bool {
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

// next reads one byte. The byte stays in the buffer until the next call, so s.pos-- reads it
// again.
func (s *Scanner) next() (byte, bool) {
	if s.pos >= s.n && !s.fill() {
		return 0, false
	}
	b := s.buf[s.pos]
	s.pos++
	return b, true
}

// eof is the error of a stream that ended before the value being read: the reader's own
// error, or io.ErrUnexpectedEOF at a clean end.
func (s *Scanner) eof() error {
	if s.err != nil && s.err != io.EOF {
		return s.err
	}
	return io.ErrUnexpectedEOF
}

// separator reports the bytes skipped between the values of an array or an object.
func separator(b byte) bool {
	return b == ' ' || b == '\t' || b == '\r' || b == '\n' || b == ','
}

// Until consumes the stream up to and including tok and returns what came before it, failing
// when tok has not ended within limit bytes: the header a caller decodes on its own. With
// limit < 0 it keeps nothing and reads as far as it takes: a skip past sections not wanted.
func (s *Scanner) Until(tok []byte, limit int) ([]byte, error) {
	if len(tok) == 0 {
		return nil, nil
	}
	// tok is matched as the bytes go by, so that it may straddle refills. fail[i] is how much
	// of tok is still matched after a mismatch that follows i+1 matched bytes (Knuth-Morris-
	// Pratt): a plain restart would miss a tok such as "aab" in "aaab".
	fail := make([]int, len(tok))
	for i, k := 1, 0; i < len(tok); i++ {
		for k > 0 && tok[i] != tok[k] {
			k = fail[k-1]
		}
		if tok[i] == tok[k] {
			k++
		}
		fail[i] = k
	}
	var kept []byte
	matched := 0
	for {
		if s.pos >= s.n && !s.fill() {
			return nil, s.eof()
		}
		if matched == 0 {
			// Nothing matched: skip the run up to tok's first byte at once.
			run := s.buf[s.pos:s.n]
			if i := bytes.IndexByte(run, tok[0]); i >= 0 {
				run = run[:i]
			}
			if limit >= 0 {
				if len(kept)+len(run) > limit {
					return nil, fmt.Errorf("no %s in the first %d bytes", tok, limit)
				}
				kept = append(kept, run...)
			}
			s.pos += len(run)
			if s.pos >= s.n {
				continue
			}
		}
		b := s.buf[s.pos]
		s.pos++
		if limit >= 0 {
			if len(kept) >= limit {
				return nil, fmt.Errorf("no %s in the first %d bytes", tok, limit)
			}
			kept = append(kept, b)
		}
		for matched > 0 && b != tok[matched] {
			matched = fail[matched-1]
		}
		if b == tok[matched] {
			matched++
		}
		if matched == len(tok) {
			if limit < 0 {
				return nil, nil
			}
			return kept[:len(kept)-len(tok)], nil
		}
	}
}

// Expect skips white space and a colon, then wants c: the '[' that opens a key's array.
func (s *Scanner) Expect(c byte) error {
	for {
		b, ok := s.next()
		if !ok {
			return fmt.Errorf("want %q: %w", c, s.eof())
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

// Key reads the next key of the snapshot's object and the '[' of its array value (every
// value after the header is an array); "" at the object's closing brace.
func (s *Scanner) Key() (string, error) {
	for {
		b, ok := s.next()
		if !ok {
			return "", s.eof()
		}
		switch {
		case separator(b):
			continue
		case b == '}':
			return "", nil
		case b == '"':
			k, err := s.String(nil, 64)
			if err != nil {
				return "", err
			}
			if err := s.Expect('['); err != nil {
				return "", err
			}
			return string(k), nil
		}
		return "", fmt.Errorf("unexpected %q before a key", b)
	}
}

// SkipArray consumes the rest of an array of integers, strings and nested arrays: a section
// the reader does not want.
func (s *Scanner) SkipArray() error {
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
			if _, err := s.String(nil, 0); err != nil {
				return err
			}
		}
	}
	return nil
}

// Int reads the next integer of an array; end is true at its closing bracket.
func (s *Scanner) Int() (n int64, end bool, err error) {
	for {
		b, ok := s.next()
		if !ok {
			return 0, false, s.eof()
		}
		switch {
		case separator(b):
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

// Row fills dst with the next len(dst) integers of an array (non-negative, as the node and
// edge columns are), reporting end at its closing bracket before the first. It is Int for a
// whole row at once: the hot loop of reading a snapshot, with the buffer position in a local.
func (s *Scanner) Row(dst []int64) (end bool, err error) {
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
			v, end, err := s.Int()
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

// NextString reads the next string of an array of strings (the strings table), appending at
// most limit bytes of its text to dst as String does; end is true at the array's closing
// bracket.
func (s *Scanner) NextString(dst []byte, limit int) (out []byte, end bool, err error) {
	b, ok := s.next()
	for ok && separator(b) {
		b, ok = s.next()
	}
	switch {
	case !ok:
		return dst, false, s.eof()
	case b == ']':
		return dst, true, nil
	case b != '"':
		return dst, false, fmt.Errorf("unexpected %q in an array of strings", b)
	}
	dst, err = s.String(dst, limit)
	return dst, false, err
}

// String reads a JSON string after its opening quote and appends at most limit bytes of its
// text to dst: a name is wanted whole only up to a bound, and limit 0 skips the string. Text
// that is not UTF-8 (a lone surrogate, a name cut inside a character) reads as U+FFFD.
func (s *Scanner) String(dst []byte, limit int) ([]byte, error) {
	base := len(dst)
	for {
		// Fast path: copy or skip the run up to the next quote or backslash.
		start := s.pos
		for s.pos < s.n && s.buf[s.pos] != '"' && s.buf[s.pos] != '\\' {
			s.pos++
		}
		dst = keep(dst, base, limit, s.buf[start:s.pos]...)
		if s.pos >= s.n {
			if !s.fill() {
				return dst, s.eof()
			}
			continue
		}
		b := s.buf[s.pos]
		s.pos++
		if b == '"' {
			if len(dst) > base && !utf8.Valid(dst[base:]) {
				dst = append(dst[:base], bytes.ToValidUTF8(dst[base:], []byte("\uFFFD"))...)
			}
			return dst, nil
		}
		var err error
		if dst, err = s.escape(dst, base, limit); err != nil {
			return dst, err
		}
	}
}

// keep appends p to dst as far as the string begun at dst[base] stays within limit bytes.
func keep(dst []byte, base, limit int, p ...byte) []byte {
	if room := limit - (len(dst) - base); room > 0 {
		dst = append(dst, p[:min(len(p), room)]...)
	}
	return dst
}

// keepRune is keep for one character.
func keepRune(dst []byte, base, limit int, r rune) []byte {
	var b [utf8.UTFMax]byte
	return keep(dst, base, limit, utf8.AppendRune(b[:0], r)...)
}
