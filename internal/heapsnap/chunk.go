package heapsnap

import (
	"bytes"
	"encoding/json"
	"unicode/utf16"
	"unicode/utf8"
)

// A snapshot arrives as thousands of HeapProfiler.addHeapSnapshotChunk events of ~100 KB, each
// {"chunk":"<the JSON text, escaped as a JSON string>"}. Decoding them with encoding/json costs
// a validation pass and a fresh string per chunk; while the dispatcher is that slow, the CDP
// reader queues the chunks V8 streams faster, and the queue is most of the service's memory
// during a snapshot. So the chunk is unescaped in one pass into a buffer the caller reuses.

// chunkPrefix and chunkSuffix frame the params V8 sends for a chunk.
var (
	chunkPrefix = []byte(`{"chunk":"`)
	chunkSuffix = []byte(`"}`)
)

// AppendChunk appends to dst the snapshot text that one chunk's params carry, and reports
// false for params that are not a chunk's.
func AppendChunk(dst, params []byte) ([]byte, bool) {
	if raw, framed := bytes.CutPrefix(params, chunkPrefix); framed && bytes.HasSuffix(raw, chunkSuffix) {
		if out, ok := unescapeJSON(dst, raw[:len(raw)-len(chunkSuffix)]); ok {
			return out, true
		}
	}
	// Another spelling of the same params: let encoding/json read it.
	var p struct {
		Chunk string `json:"chunk"`
	}
	if json.Unmarshal(params, &p) != nil {
		return dst, false
	}
	return append(dst, p.Chunk...), true
}

// End tells where the JSON text of a snapshot ends as its chunks go by: the reply to the call
// that streams a snapshot can overtake its last chunks.
type End struct {
	depth    int
	inString bool
	escaped  bool
	started  bool
}

// Scan reads the next chunk of the text and reports whether its outermost value has closed.
func (e *End) Scan(chunk []byte) bool {
	for i := 0; i < len(chunk); i++ {
		c := chunk[i]
		switch {
		case e.inString:
			switch {
			case e.escaped:
				e.escaped = false
			case c == '\\':
				e.escaped = true
			case c == '"':
				e.inString = false
			}
		case c == '"':
			e.inString = true
		case c == '{' || c == '[':
			e.depth++
			e.started = true
		case c == '}' || c == ']':
			e.depth--
		}
	}
	return e.started && e.depth == 0
}

// unescapeJSON appends to dst the text of the JSON string body src (without its quotes), as
// encoding/json decodes it: a lone surrogate escape becomes U+FFFD. It reports false for a body
// that is not a JSON string's: a raw quote or control character, a bad escape.
func unescapeJSON(dst, src []byte) ([]byte, bool) {
	for len(src) > 0 {
		i := bytes.IndexByte(src, '\\')
		if i < 0 {
			i = len(src)
		}
		run := src[:i]
		if bytes.IndexByte(run, '"') >= 0 || hasControl(run) {
			return dst, false
		}
		dst = append(dst, run...)
		src = src[i:]
		if len(src) == 0 {
			break
		}
		if len(src) < 2 {
			return dst, false
		}
		switch c := src[1]; c {
		case '"', '\\', '/':
			dst = append(dst, c)
		case 'b':
			dst = append(dst, '\b')
		case 'f':
			dst = append(dst, '\f')
		case 'n':
			dst = append(dst, '\n')
		case 'r':
			dst = append(dst, '\r')
		case 't':
			dst = append(dst, '\t')
		case 'u':
			r, ok := hex4(src[2:])
			if !ok {
				return dst, false
			}
			src = src[6:]
			if utf16.IsSurrogate(r) {
				r2, ok2 := rune(-1), false
				if len(src) >= 6 && src[0] == '\\' && src[1] == 'u' {
					r2, ok2 = hex4(src[2:])
				}
				if dec := utf16.DecodeRune(r, r2); ok2 && dec != utf8.RuneError {
					r = dec
					src = src[6:]
				} else {
					r = utf8.RuneError
				}
			}
			dst = utf8.AppendRune(dst, r)
			continue
		default:
			return dst, false
		}
		src = src[2:]
	}
	return dst, true
}

// hasControl reports a byte below 0x20, which a JSON string may not hold raw.
func hasControl(b []byte) bool {
	for _, c := range b {
		if c < 0x20 {
			return true
		}
	}
	return false
}

// hex4 reads the four hex digits of a \u escape.
func hex4(b []byte) (rune, bool) {
	if len(b) < 4 {
		return 0, false
	}
	var r rune
	for _, c := range b[:4] {
		switch {
		case '0' <= c && c <= '9':
			c -= '0'
		case 'a' <= c && c <= 'f':
			c -= 'a' - 10
		case 'A' <= c && c <= 'F':
			c -= 'A' - 10
		default:
			return 0, false
		}
		r = r<<4 | rune(c)
	}
	return r, true
}
