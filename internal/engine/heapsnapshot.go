package engine

import (
	"bytes"
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"unicode/utf16"
	"unicode/utf8"
)

// A .heapsnapshot file is one JSON object: a small header ("snapshot": meta and counts), then
// flat integer arrays (nodes, edges, trace data, samples, locations) and last the strings table.
// summarizeHeapSnapshot reads it once, front to back, without holding the nodes or the strings:
// nodes are aggregated by (type, name index) as they stream by, then only the names those
// aggregates need are decoded from the strings table. Memory is the aggregates, not the file.

// Bounds of the scanner, against a hostile or broken file.
const (
	maxSnapshotHeader = 1 << 20 // bytes before "nodes": the meta is a few KiB
	maxClassName      = 1024    // bytes kept of a constructor name
	classIDs          = 3       // node ids kept per class, for heap/inspect
)

// errSnapshotFormat: the file is not a heap snapshot this scanner understands.
var errSnapshotFormat = errors.New("not a heap snapshot")

// HeapClass is the objects of one constructor (or one kind of non-object: "(string)",
// "(array)", "(closure)"...) in a snapshot.
type HeapClass struct {
	Name     string  `json:"name"`
	Count    int     `json:"count"`
	SelfSize int64   `json:"selfSize"`          // bytes
	IDs      []int64 `json:"nodeIds,omitempty"` // the first few heap object ids, for heap/inspect
}

// HeapSummary aggregates a snapshot by constructor, largest self size first.
type HeapSummary struct {
	Nodes     int         `json:"nodes"`
	Edges     int         `json:"edges"`
	TotalSize int64       `json:"totalSize"` // self sizes summed, bytes
	Classes   []HeapClass `json:"classes"`
	// Retained says what retained sizes are: they need a dominator tree, not built here.
	Retained string `json:"retained"`
}

type snapshotHeader struct {
	Snapshot struct {
		Meta struct {
			NodeFields []string          `json:"node_fields"`
			NodeTypes  []json.RawMessage `json:"node_types"`
		} `json:"meta"`
		NodeCount int `json:"node_count"`
		EdgeCount int `json:"edge_count"`
	} `json:"snapshot"`
}

// classKey groups nodes: objects and natives by their name, other types as one group each.
type classKey struct{ typ, name int }

type classAgg struct {
	count int
	size  int64
	ids   []int64
}

// summarizeHeapSnapshot stream-parses a .heapsnapshot.
func summarizeHeapSnapshot(r io.Reader) (*HeapSummary, error) {
	sc := &byteScanner{r: r, buf: make([]byte, 256<<10)}
	head, err := sc.until([]byte(`"nodes"`), maxSnapshotHeader)
	if err != nil {
		return nil, fmt.Errorf("%w: header: %v", errSnapshotFormat, err)
	}
	head = bytes.TrimRight(head, " \t\r\n")
	head = bytes.TrimSuffix(head, []byte(","))
	var h snapshotHeader
	if err := json.Unmarshal(append(head, '}'), &h); err != nil {
		return nil, fmt.Errorf("%w: header: %v", errSnapshotFormat, err)
	}
	fields := h.Snapshot.Meta.NodeFields
	fType, fName, fID, fSize := slices.Index(fields, "type"), slices.Index(fields, "name"), slices.Index(fields, "id"), slices.Index(fields, "self_size")
	if len(fields) == 0 || fType < 0 || fName < 0 || fID < 0 || fSize < 0 {
		return nil, fmt.Errorf("%w: node_fields lack type, name, id or self_size", errSnapshotFormat)
	}
	var types []string
	if len(h.Snapshot.Meta.NodeTypes) > 0 {
		_ = json.Unmarshal(h.Snapshot.Meta.NodeTypes[0], &types)
	}
	if err := sc.expect('['); err != nil {
		return nil, err
	}

	aggs := map[classKey]*classAgg{}
	row := make([]int64, len(fields))
	sum := &HeapSummary{Edges: h.Snapshot.EdgeCount, Retained: "not computed (needs a dominator tree)"}
	for i := 0; ; i++ {
		n, end, err := sc.int()
		if err != nil {
			return nil, fmt.Errorf("%w: nodes: %v", errSnapshotFormat, err)
		}
		if end {
			if i%len(fields) != 0 {
				return nil, fmt.Errorf("%w: nodes: %d values is not a whole number of nodes", errSnapshotFormat, i)
			}
			break
		}
		row[i%len(fields)] = n
		if i%len(fields) != len(fields)-1 {
			continue
		}
		key := classKey{typ: int(row[fType]), name: -1}
		if t := typeName(types, key.typ); t == "object" || t == "native" || t == "synthetic" {
			key.name = int(row[fName])
		}
		a := aggs[key]
		if a == nil {
			a = &classAgg{}
			aggs[key] = a
		}
		a.count++
		a.size += row[fSize]
		if len(a.ids) < classIDs {
			a.ids = append(a.ids, row[fID])
		}
		sum.Nodes++
		sum.TotalSize += row[fSize]
	}

	// The names: every later section but strings holds integers only, so the first "strings"
	// key after the nodes is the table's.
	want := map[int]string{}
	for k := range aggs {
		if k.name >= 0 {
			want[k.name] = ""
		}
	}
	if len(want) > 0 {
		if _, err := sc.until([]byte(`"strings"`), -1); err != nil {
			return nil, fmt.Errorf("%w: strings: %v", errSnapshotFormat, err)
		}
		if err := sc.expect('['); err != nil {
			return nil, err
		}
		if err := sc.strings(want); err != nil {
			return nil, fmt.Errorf("%w: strings: %v", errSnapshotFormat, err)
		}
	}

	byName := map[string]*HeapClass{}
	for k, a := range aggs {
		name := "(" + typeName(types, k.typ) + ")"
		switch t := typeName(types, k.typ); {
		case k.name >= 0:
			name = want[k.name]
		case t == "concatenated string" || t == "sliced string":
			name = "(string)"
		case t == "code":
			name = "(compiled code)"
		case t == "hidden":
			name = "(system)"
		}
		c := byName[name]
		if c == nil {
			c = &HeapClass{Name: name}
			byName[name] = c
		}
		c.Count += a.count
		c.SelfSize += a.size
		for _, id := range a.ids {
			if len(c.IDs) < classIDs {
				c.IDs = append(c.IDs, id)
			}
		}
	}
	sum.Classes = make([]HeapClass, 0, len(byName))
	for _, c := range byName {
		sum.Classes = append(sum.Classes, *c)
	}
	slices.SortFunc(sum.Classes, func(a, b HeapClass) int {
		if a.SelfSize != b.SelfSize {
			return cmp.Compare(b.SelfSize, a.SelfSize)
		}
		return cmp.Compare(a.Name, b.Name)
	})
	return sum, nil
}

func typeName(types []string, i int) string {
	if i >= 0 && i < len(types) {
		return types[i]
	}
	return "unknown"
}

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
			return fmt.Errorf("%w: want %q: %v", errSnapshotFormat, c, s.eof())
		}
		switch b {
		case ' ', '\t', '\r', '\n', ':':
			continue
		case c:
			return nil
		}
		return fmt.Errorf("%w: want %q, found %q", errSnapshotFormat, c, b)
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
