package snapscan

import (
	"encoding/hex"
	"fmt"
	"unicode/utf16"
	"unicode/utf8"
)

// escape decodes the escape after a backslash in a string, appending its text as keep does.
// Surrogates read as encoding/json reads them: a pair is one character, and a half that is not
// part of a pair is U+FFFD while the escape after it still reads on its own. V8 writes a lone
// half so for a string that holds one, and the name that follows must not lose a character.
func (s *Scanner) escape(dst []byte, base, limit int) ([]byte, error) {
	e, ok := s.next()
	if !ok {
		return dst, s.eof()
	}
	if e != 'u' {
		return keep(dst, base, limit, unescape(e)), nil
	}
	r, err := s.hex4()
	if err != nil {
		return dst, err
	}
	for 0xD800 <= r && r < 0xDC00 {
		// A high half: the low half must follow as the next escape.
		b, ok := s.next()
		if !ok {
			return dst, s.eof()
		}
		if b != '\\' {
			s.pos-- // not an escape: read it again
			break
		}
		if e, ok = s.next(); !ok {
			return dst, s.eof()
		}
		if e != 'u' {
			dst = keepRune(dst, base, limit, utf8.RuneError)
			return keep(dst, base, limit, unescape(e)), nil
		}
		lo, err := s.hex4()
		if err != nil {
			return dst, err
		}
		if pair := utf16.DecodeRune(r, lo); pair != utf8.RuneError {
			return keepRune(dst, base, limit, pair), nil
		}
		dst = keepRune(dst, base, limit, utf8.RuneError)
		r = lo // not a low half: it reads as an escape of its own
	}
	// A lone half, high or low, is not a character: AppendRune writes it as U+FFFD.
	return keepRune(dst, base, limit, r), nil
}

// unescape is the byte a one-letter escape stands for; \" \\ \/ (and, leniently, any other
// letter) stand for themselves.
func unescape(e byte) byte {
	switch e {
	case 'n':
		return '\n'
	case 't':
		return '\t'
	case 'r':
		return '\r'
	case 'b':
		return '\b'
	case 'f':
		return '\f'
	}
	return e
}

// hex4 reads the four hex digits of a \u escape.
func (s *Scanner) hex4() (rune, error) {
	var h [4]byte
	for i := range h {
		b, ok := s.next()
		if !ok {
			return 0, s.eof()
		}
		h[i] = b
	}
	var v [2]byte
	if _, err := hex.Decode(v[:], h[:]); err != nil {
		return 0, fmt.Errorf("bad \\u escape %q: %w", h[:], err)
	}
	return rune(v[0])<<8 | rune(v[1]), nil
}
