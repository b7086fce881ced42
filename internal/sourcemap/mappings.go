package sourcemap

import (
	"fmt"
	"strings"
)

// segment is one decoded mapping that names an original position. All fields are 0-based, as in
// the format; they become 1-based only in [Pos]. Segments with only a generated column (which
// map that code to nothing) are not kept: the reverse index has nothing to say about them.
type segment struct {
	genLine, genCol int32
	src             int32 // index into the section's sources
	line, col       int32
}

// decodeMappings decodes a "mappings" string into its segments, in generated order. nSources is
// the length of the map's sources, so that a segment pointing past it is an error here rather
// than a panic in the library's lookup. It rejects what the library silently accepts: bytes that
// are not base64 digits (the library reads them as zero), segments of 2, 3 or more than 5 fields,
// values that overflow, and negative positions. A map either decodes the same way in both, or
// is refused.
func decodeMappings(s string, nSources int) ([]segment, error) {
	segs := make([]segment, 0, strings.Count(s, ",")+strings.Count(s, ";")+1)
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
		n := 0
		for i < len(s) && s[i] != ',' && s[i] != ';' {
			if n == len(field) {
				return nil, fmt.Errorf("mappings offset %d: segment has more than 5 fields", start)
			}
			v, next, err := decodeVLQ(s, i)
			if err != nil {
				return nil, fmt.Errorf("mappings offset %d: %w", next, err)
			}
			field[n] = v
			n++
			i = next
		}
		genCol += field[0]
		if genCol < 0 {
			return nil, fmt.Errorf("mappings offset %d: negative generated column", start)
		}
		switch n {
		case 1:
			continue
		case 4, 5:
		default:
			return nil, fmt.Errorf("mappings offset %d: segment has %d fields, want 1, 4 or 5", start, n)
		}
		src += field[1]
		line += field[2]
		col += field[3]
		switch {
		case src < 0 || int(src) >= nSources:
			return nil, fmt.Errorf("mappings offset %d: source index %d out of range [0,%d)", start, src, nSources)
		case line < 0:
			return nil, fmt.Errorf("mappings offset %d: negative original line", start)
		case col < 0:
			return nil, fmt.Errorf("mappings offset %d: negative original column", start)
		}
		segs = append(segs, segment{genLine: genLine, genCol: genCol, src: src, line: line, col: col})
	}
	return segs, nil
}
