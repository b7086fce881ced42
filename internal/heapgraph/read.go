package heapgraph

import (
	"bytes"
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"runtime"
	"slices"

	"traced/internal/snapscan"
)

// Bounds of the reader, against a hostile or broken file.
const (
	maxHeader   = 1 << 20 // bytes before "nodes": the meta is a few KiB
	maxEdgeName = 1024    // bytes read of an edge name to recognise handles and WeakMap entries
)

// The columns are sized from the header's counts before the values stream by: a snapshot
// is trusted that far (it comes from V8), within these bounds (a 10 GiB snapshot has about
// 150 million nodes). Variables, so that the fuzz test can lower them.
var (
	maxNodes = 1 << 28
	maxEdges = 1 << 30
)

// ErrFormat: the file is not a heap snapshot this reader understands.
var ErrFormat = errors.New("not a heap snapshot")

type header struct {
	Snapshot struct {
		Meta struct {
			NodeFields     []string          `json:"node_fields"`
			NodeTypes      []json.RawMessage `json:"node_types"`
			EdgeFields     []string          `json:"edge_fields"`
			EdgeTypes      []json.RawMessage `json:"edge_types"`
			LocationFields []string          `json:"location_fields"`
		} `json:"meta"`
		NodeCount int `json:"node_count"`
		EdgeCount int `json:"edge_count"`
	} `json:"snapshot"`
}

// Read parses a .heapsnapshot stream and analyses it: dominators, retained sizes and the
// shortest paths from the root. Memory is the columns (17 bytes a node and 8 an edge, then
// 16 a node of results) plus the analysis' scratch at its peak (the reverse edges, 4 bytes an
// edge, and 16 a node), never the file.
func Read(r io.Reader) (*Graph, error) {
	g, err := parse(r)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrFormat, err)
	}
	runtime.GC() // the parse's garbage (growth of the names and locations), before the peak
	g.buildRetainers()
	g.computeDominators()
	// Only the dominators need the reverse edges; Retainers scans the forward ones. They and
	// the dominators' scratch are the largest garbage Read makes: collect it now, so that the
	// next phase's columns reuse its memory rather than grow the heap past the peak.
	g.firstRet, g.retFrom = nil, nil
	runtime.GC()
	g.computeRetained(g.computePaths())
	return g, nil
}

// parse reads the columns and the strings they need.
func parse(r io.Reader) (*Graph, error) {
	sc := snapscan.New(r, 1<<20)
	head, err := sc.Until([]byte(`"nodes"`), maxHeader)
	if err != nil {
		return nil, fmt.Errorf("header: %w", err)
	}
	head = bytes.TrimSuffix(bytes.TrimRight(head, " \t\r\n"), []byte(","))
	var h header
	if err := json.Unmarshal(append(head, '}'), &h); err != nil {
		return nil, fmt.Errorf("header: %w", err)
	}
	m := h.Snapshot.Meta
	g := &Graph{gcRoots: none, handleLabels: map[uint32]bool{}, ephemeronTable: map[uint32]uint32{}}
	if len(m.NodeTypes) > 0 {
		_ = json.Unmarshal(m.NodeTypes[0], &g.types)
	}
	if len(m.EdgeTypes) > 0 {
		_ = json.Unmarshal(m.EdgeTypes[0], &g.etypes)
	}
	if len(g.etypes) > 1<<edgeTypeBits || len(g.types) > 255 {
		return nil, errors.New("too many node or edge types")
	}
	g.setKinds()
	n, e := h.Snapshot.NodeCount, h.Snapshot.EdgeCount
	if n <= 0 || e < 0 || n > maxNodes || e > maxEdges {
		return nil, fmt.Errorf("node_count %d, edge_count %d", n, e)
	}
	nf := fieldIndex(m.NodeFields, "type", "name", "id", "self_size", "edge_count")
	ef := fieldIndex(m.EdgeFields, "type", "name_or_index", "to_node")
	if nf == nil || ef == nil {
		return nil, errors.New("node_fields or edge_fields lack a field")
	}
	lf := fieldIndex(m.LocationFields, "object_index", "script_id", "line", "column")

	var keep bitset
	if err := sc.Expect('['); err != nil {
		return nil, err
	}
	if err := g.readNodes(sc, n, len(m.NodeFields), nf, &keep); err != nil {
		return nil, fmt.Errorf("nodes: %w", err)
	}
	for {
		k, err := sc.Key()
		if err != nil {
			return nil, err
		}
		switch k {
		case "":
			if len(g.edgeTo) != e {
				return nil, fmt.Errorf("no edges")
			}
			return g, nil
		case "edges":
			if err := g.readEdges(sc, e, len(m.EdgeFields), len(m.NodeFields), ef, &keep); err != nil {
				return nil, fmt.Errorf("edges: %w", err)
			}
		case "locations":
			if err := g.readLocations(sc, len(m.LocationFields), len(m.NodeFields), lf); err != nil {
				return nil, fmt.Errorf("locations: %w", err)
			}
		case "strings":
			if err := g.readStrings(sc, keep); err != nil {
				return nil, fmt.Errorf("strings: %w", err)
			}
		default:
			if err := sc.SkipArray(); err != nil {
				return nil, fmt.Errorf("%s: %w", k, err)
			}
		}
	}
}

// fieldIndex finds each wanted field's position; nil when one is missing.
func fieldIndex(fields []string, want ...string) []int {
	out := make([]int, len(want))
	for i, w := range want {
		if out[i] = slices.Index(fields, w); out[i] < 0 {
			return nil
		}
	}
	return out
}

func (g *Graph) readNodes(sc *snapscan.Scanner, n, width int, f []int, keep *bitset) error {
	g.nodeType = make([]uint8, n)
	g.nodeName = make([]uint32, n)
	g.nodeID = make([]uint32, n)
	g.selfSize = make([]uint32, n)
	g.firstEdge = make([]uint32, n+1)
	row := make([]int64, width)
	var edges uint64
	for i := 0; i < n; i++ {
		end, err := sc.Row(row)
		if err != nil {
			return err
		}
		if end {
			return fmt.Errorf("%d nodes, want %d", i, n)
		}
		t, name, id, size, ec := row[f[0]], row[f[1]], row[f[2]], row[f[3]], row[f[4]]
		if t < 0 || int(t) >= len(g.types) || name < 0 || name > math.MaxUint32 || id < 0 || id > math.MaxUint32 || size < 0 || ec < 0 {
			return fmt.Errorf("node %d out of range", i)
		}
		g.nodeType[i] = uint8(t)
		g.nodeName[i] = uint32(name)
		g.nodeID[i] = uint32(id)
		g.selfSize[i] = uint32(min(size, math.MaxUint32))
		g.firstEdge[i] = uint32(edges)
		edges += uint64(ec)
		if g.keepsName(int(t)) {
			keep.set(uint32(name))
		}
	}
	if edges >= math.MaxUint32 {
		return errors.New("too many edges")
	}
	g.firstEdge[n] = uint32(edges)
	if _, end, err := sc.Int(); err != nil || !end {
		return fmt.Errorf("more nodes than node_count (%v)", err)
	}
	return nil
}

func (g *Graph) readEdges(sc *snapscan.Scanner, e, width, nodeWidth int, f []int, keep *bitset) error {
	if int(g.firstEdge[len(g.nodeType)]) != e {
		return fmt.Errorf("nodes' edge counts sum to %d, edge_count is %d", g.firstEdge[len(g.nodeType)], e)
	}
	g.edgeKind = make([]uint32, e)
	g.edgeTo = make([]uint32, e)
	row := make([]int64, width)
	n := int64(len(g.nodeType))
	for i := 0; i < e; i++ {
		end, err := sc.Row(row)
		if err != nil {
			return err
		}
		if end {
			return fmt.Errorf("%d edges, want %d", i, e)
		}
		t, name, to := row[f[0]], row[f[1]], row[f[2]]
		if t < 0 || int(t) >= len(g.etypes) || name < 0 || name > 1<<32-1 || to < 0 || to%int64(nodeWidth) != 0 || to/int64(nodeWidth) >= n {
			return fmt.Errorf("edge %d out of range", i)
		}
		if name >= edgeNameMask { // an index past the name bits: kept apart (edgeName)
			if g.named(int(t)) {
				return fmt.Errorf("edge %d names string %d, past the strings a snapshot can have", i, name)
			}
			if g.bigNames == nil {
				g.bigNames = map[uint32]uint32{}
			}
			g.bigNames[uint32(i)] = uint32(name)
			name = edgeNameMask
		}
		g.edgeKind[i] = uint32(t)<<edgeNameBits | uint32(name)
		g.edgeTo[i] = uint32(to / int64(nodeWidth))
		if g.named(int(t)) && int(t) != g.kinds.weak {
			keep.set(uint32(name))
		}
	}
	if _, end, err := sc.Int(); err != nil || !end {
		return fmt.Errorf("more edges than edge_count (%v)", err)
	}
	return nil
}

// readLocations keeps where closures were defined: [object_index, script_id, line, column].
func (g *Graph) readLocations(sc *snapscan.Scanner, width, nodeWidth int, f []int) error {
	if f == nil {
		return sc.SkipArray()
	}
	row := make([]int64, width)
	for {
		for j := range row {
			v, end, err := sc.Int()
			if err != nil {
				return err
			}
			if end {
				if j != 0 {
					return errors.New("a partial location")
				}
				g.sortLocations()
				return nil
			}
			row[j] = v
		}
		obj, script, line, col := row[f[0]], row[f[1]], row[f[2]], row[f[3]]
		if obj < 0 || obj%int64(nodeWidth) != 0 || obj/int64(nodeWidth) >= int64(len(g.nodeType)) || script < 0 || line < 0 || col < 0 {
			continue
		}
		if int(g.nodeType[obj/int64(nodeWidth)]) != g.kinds.closure {
			continue // objects carry their constructor's: one per object, and not needed
		}
		g.locNode = append(g.locNode, uint32(obj/int64(nodeWidth)))
		g.locScript = append(g.locScript, uint32(script))
		g.locLine = append(g.locLine, uint32(line))
		g.locCol = append(g.locCol, uint32(col))
	}
}

// readStrings decodes the strings keep marks and skips the rest; it notes which edge names are
// the inspector's handles and which are WeakMap entries.
func (g *Graph) readStrings(sc *snapscan.Scanner, keep bitset) error {
	last := len(keep)*64 - 1
	for last >= 0 && !keep.has(last) {
		last--
	}
	g.strs.off = make([]uint32, last+2)
	var cur []byte
	for i := 0; ; i++ {
		needed := i <= last && keep.has(i)
		limit := 0
		if needed {
			limit = maxEdgeName
		}
		var end bool
		var err error
		if cur, end, err = sc.NextString(cur[:0], limit); err != nil {
			return err
		}
		if end {
			for j := i; j <= last; j++ { // names past the table's end stay empty
				g.strs.off[j+1] = uint32(len(g.strs.blob))
			}
			return nil
		}
		if !needed {
			if i <= last {
				g.strs.off[i+1] = uint32(len(g.strs.blob))
			}
			continue
		}
		s := string(cur)
		if isHandleLabel(s) {
			g.handleLabels[uint32(i)] = true
		}
		if id, ok := ephemeronTableID(s); ok {
			g.ephemeronTable[uint32(i)] = id
		}
		if len(cur) > maxKeptString {
			cur = bytes.ToValidUTF8(cur[:maxKeptString], nil)
		}
		if len(g.strs.blob)+len(cur) >= math.MaxUint32 {
			return errors.New("names too large")
		}
		g.strs.blob = append(g.strs.blob, cur...)
		g.strs.off[i+1] = uint32(len(g.strs.blob))
	}
}

// buildRetainers fills the reverse edges in CSR form, a count pass then a placing pass. Only
// essential edges retain (see Graph.essential): the others hold nothing for the analysis.
func (g *Graph) buildRetainers() {
	n := len(g.nodeType)
	g.firstRet = make([]uint32, n+1)
	for from := 0; from < n; from++ {
		for e := g.firstEdge[from]; e < g.firstEdge[from+1]; e++ {
			if g.essential(uint32(from), e) {
				g.firstRet[g.edgeTo[e]+1]++
			}
		}
	}
	for i := 0; i < n; i++ {
		g.firstRet[i+1] += g.firstRet[i]
	}
	g.retFrom = make([]uint32, g.firstRet[n])
	// Place with firstRet[to] as a moving cursor, then shift the cursors back.
	for from := 0; from < n; from++ {
		for e := g.firstEdge[from]; e < g.firstEdge[from+1]; e++ {
			if !g.essential(uint32(from), e) {
				continue
			}
			to := g.edgeTo[e]
			g.retFrom[g.firstRet[to]] = uint32(from)
			g.firstRet[to]++
		}
	}
	for i := n; i > 0; i-- {
		g.firstRet[i] = g.firstRet[i-1]
	}
	g.firstRet[0] = 0
	// The "(GC roots)" node: the root's synthetic child of that name.
	for e := g.firstEdge[0]; e < g.firstEdge[1]; e++ {
		if to := g.edgeTo[e]; g.Name(to) == "(GC roots)" {
			g.gcRoots = to
		}
	}
}

// location is where closure n was defined; false if the snapshot does not say.
func (g *Graph) location(n uint32) (script, line, col uint32, ok bool) {
	i, found := slices.BinarySearch(g.locNode, n)
	if !found {
		return 0, 0, 0, false
	}
	return g.locScript[i], g.locLine[i], g.locCol[i], true
}

// sortLocations orders the locations by node for location's binary search; V8 writes them in
// node order already.
func (g *Graph) sortLocations() {
	if slices.IsSorted(g.locNode) {
		return
	}
	perm := make([]int, len(g.locNode))
	for i := range perm {
		perm[i] = i
	}
	slices.SortStableFunc(perm, func(a, b int) int { return cmp.Compare(g.locNode[a], g.locNode[b]) })
	for _, col := range [][]uint32{g.locNode, g.locScript, g.locLine, g.locCol} {
		sorted := make([]uint32, len(col))
		for i, j := range perm {
			sorted[i] = col[j]
		}
		copy(col, sorted)
	}
}
