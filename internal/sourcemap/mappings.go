package sourcemap

import "fmt"

// segment is one decoded mapping. All fields are 0-based, as in the format; they become 1-based
// only in [Pos]. A segment with only a generated column maps its code to nothing: its src is -1
// and its line and col are zero.
type segment struct {
	genLine, genCol int32
	src             int32 // index into the section's sources, or -1
	line, col       int32
}

// decodeMappings decodes a "mappings" string, handing each segment to emit in the string's order,
// and returns how many it handed over. (A callback, not a slice: a large map has millions of
// segments, and the caller keeps a smaller form of each.) nSources is the length of the map's
// sources, so that a segment pointing past it is an error here rather than a panic in the
// library's lookup. It rejects what the library silently accepts: bytes that
// are not base64 digits (the library reads them as zero), segments of 2, 3 or more than 5 fields,
// values that overflow, and negative positions. A map either decodes the same way in both, or
// is refused.
func decodeMappings(s string, nSources int, emit func(segment)) (int, error) {
	n := 0
	// The running state: every field is a delta from the previous segment's, and only the
	// generated column resets at a new line.
	var genLine, genCol, src, line, col int32
	var field [5]int32
	i := 0
	for i < len(s) {
		switch s[i] {
		case ';':
			genLine++
			genCol = 0
			i++
			continue
		case ',':
			i++
			continue
		}
		start := i
		nf := 0
		for i < len(s) && s[i] != ',' && s[i] != ';' {
			if nf == len(field) {
				return n, fmt.Errorf("mappings offset %d: segment has more than 5 fields", start)
			}
			// Most values are one digit (-15..15); decode those here, without the call.
			if d := vlqValue[s[i]]; d >= 0 && d&vlqContinuation == 0 {
				field[nf] = int32(d>>1) * (1 - 2*int32(d&1))
				nf++
				i++
				continue
			}
			v, next, err := decodeVLQ(s, i)
			if err != nil {
				return n, fmt.Errorf("mappings offset %d: %w", next, err)
			}
			field[nf] = v
			nf++
			i = next
		}
		genCol += field[0]
		if genCol < 0 {
			return n, fmt.Errorf("mappings offset %d: negative generated column", start)
		}
		switch nf {
		case 1:
			emit(segment{genLine: genLine, genCol: genCol, src: -1})
			n++
			continue
		case 4, 5:
		default:
			return n, fmt.Errorf("mappings offset %d: segment has %d fields, want 1, 4 or 5", start, nf)
		}
		src += field[1]
		line += field[2]
		col += field[3]
		switch {
		case src < 0 || int(src) >= nSources:
			return n, fmt.Errorf("mappings offset %d: source index %d out of range [0,%d)", start, src, nSources)
		case line < 0:
			return n, fmt.Errorf("mappings offset %d: negative original line", start)
		case line == 1<<31-1:
			// The library counts lines from 1 in an int32: this one would wrap.
			return n, fmt.Errorf("mappings offset %d: original line overflows", start)
		case col < 0:
			return n, fmt.Errorf("mappings offset %d: negative original column", start)
		}
		emit(segment{genLine: genLine, genCol: genCol, src: src, line: line, col: col})
		n++
	}
	return n, nil
}
