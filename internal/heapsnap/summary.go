// Package heapsnap reads V8 heap snapshots: it summarises a .heapsnapshot file by constructor
// as it streams by, compares two summaries, and decodes the chunks V8 streams a snapshot in.
// It knows nothing of sessions or of the inspector connection.
package heapsnap

import (
	"bytes"
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"

	"traced/internal/snapscan"
)

// A .heapsnapshot file is one JSON object: a small header ("snapshot": meta and counts), then
// flat integer arrays (nodes, edges, trace data, samples, locations) and last the strings table.
// Summarize reads it once, front to back, without holding the nodes or the strings:
// nodes are aggregated by (type, name index) as they stream by, then only the names those
// aggregates need are decoded from the strings table. Memory is the aggregates, not the file.

// Bounds of the scanner, against a hostile or broken file.
const (
	maxSnapshotHeader = 1 << 20 // bytes before "nodes": the meta is a few KiB
	maxClassName      = 1024    // bytes kept of a constructor name
	classIDs          = 3       // node ids kept per class, for heap/inspect
)

// ErrFormat: the file is not a heap snapshot this scanner understands.
var ErrFormat = errors.New("not a heap snapshot")

// Class is the objects of one constructor (or one kind of non-object: "(string)",
// "(array)", "(closure)"...) in a snapshot.
type Class struct {
	Name     string  `json:"name"`
	Count    int     `json:"count"`
	SelfSize int64   `json:"selfSize"`          // bytes
	IDs      []int64 `json:"nodeIds,omitempty"` // the first few heap object ids, for heap/inspect
}

// Summary aggregates a snapshot by constructor, largest self size first.
type Summary struct {
	Nodes     int     `json:"nodes"`
	Edges     int     `json:"edges"`
	TotalSize int64   `json:"totalSize"` // self sizes summed, bytes
	Classes   []Class `json:"classes"`
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

// Summarize stream-parses a .heapsnapshot.
func Summarize(r io.Reader) (*Summary, error) {
	sc := snapscan.New(r, 256<<10)
	head, err := sc.Until([]byte(`"nodes"`), maxSnapshotHeader)
	if err != nil {
		return nil, fmt.Errorf("%w: header: %v", ErrFormat, err)
	}
	head = bytes.TrimRight(head, " \t\r\n")
	head = bytes.TrimSuffix(head, []byte(","))
	var h snapshotHeader
	if err := json.Unmarshal(append(head, '}'), &h); err != nil {
		return nil, fmt.Errorf("%w: header: %v", ErrFormat, err)
	}
	fields := h.Snapshot.Meta.NodeFields
	fType, fName, fID, fSize := slices.Index(fields, "type"), slices.Index(fields, "name"), slices.Index(fields, "id"), slices.Index(fields, "self_size")
	if len(fields) == 0 || fType < 0 || fName < 0 || fID < 0 || fSize < 0 {
		return nil, fmt.Errorf("%w: node_fields lack type, name, id or self_size", ErrFormat)
	}
	var types []string
	if len(h.Snapshot.Meta.NodeTypes) > 0 {
		_ = json.Unmarshal(h.Snapshot.Meta.NodeTypes[0], &types)
	}
	if err := sc.Expect('['); err != nil {
		return nil, fmt.Errorf("%w: %w", ErrFormat, err)
	}

	aggs := map[classKey]*classAgg{}
	row := make([]int64, len(fields))
	sum := &Summary{Edges: h.Snapshot.EdgeCount, Retained: "by class and by object: POST heap/retainers {\"snapshot\":\"<ref>\"} (dominators; traced's own handles left out)"}
	for i := 0; ; i++ {
		n, end, err := sc.Int()
		if err != nil {
			return nil, fmt.Errorf("%w: nodes: %v", ErrFormat, err)
		}
		if end {
			if i%len(fields) != 0 {
				return nil, fmt.Errorf("%w: nodes: %d values is not a whole number of nodes", ErrFormat, i)
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
		if _, err := sc.Until([]byte(`"strings"`), -1); err != nil {
			return nil, fmt.Errorf("%w: strings: %v", ErrFormat, err)
		}
		if err := sc.Expect('['); err != nil {
			return nil, fmt.Errorf("%w: strings: %w", ErrFormat, err)
		}
		if err := readNames(sc, want); err != nil {
			return nil, fmt.Errorf("%w: strings: %v", ErrFormat, err)
		}
	}

	byName := map[string]*Class{}
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
			c = &Class{Name: name}
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
	sum.Classes = make([]Class, 0, len(byName))
	for _, c := range byName {
		sum.Classes = append(sum.Classes, *c)
	}
	slices.SortFunc(sum.Classes, func(a, b Class) int {
		if a.SelfSize != b.SelfSize {
			return cmp.Compare(b.SelfSize, a.SelfSize)
		}
		return cmp.Compare(a.Name, b.Name)
	})
	return sum, nil
}

// readNames walks the strings table, decoding the entries whose index want holds, and stops
// once it has them all.
func readNames(sc *snapscan.Scanner, want map[int]string) error {
	var name []byte
	for i, left := 0, len(want); left > 0; i++ {
		_, needed := want[i]
		limit := 0 // a name not wanted is skipped
		if needed {
			limit = maxClassName
		}
		var end bool
		var err error
		name, end, err = sc.NextString(name[:0], limit)
		switch {
		case err != nil:
			return err
		case end:
			return nil // names past the table's end stay empty
		case needed:
			want[i] = string(name)
			left--
		}
	}
	return nil
}

func typeName(types []string, i int) string {
	if i >= 0 && i < len(types) {
		return types[i]
	}
	return "unknown"
}
