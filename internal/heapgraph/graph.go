// Package heapgraph answers what holds memory in a V8 heap snapshot: it reads a .heapsnapshot
// into a graph of flat integer columns and computes dominators, retained sizes, shortest
// retainer paths from the GC roots, and leak clusters.
//
// Use (scripts maps V8 script ids to URLs, from Debugger.scriptParsed; nil keeps the ids):
//
//	g, err := heapgraph.Read(file)              // parse, dominators, retained sizes, paths
//	sum := g.Summary(20)                        // by class, with retained sizes
//	top := g.Largest(10, scripts)               // the objects dominating the most memory
//	in := g.Instances("Session", 5, scripts)    // a class's objects, their paths by shape
//	n, _ := g.NodeByID(id)                      // one object: g.NodeText(n, scripts, 2048)
//	rep := g.Leaks(watermark, 5, scripts)       // born after an id watermark, clustered
//	fmt.Print(rep.Text(2048))                   // a bounded text answer
//
// The watermark of a leak window is the highest heap object id when it began: the
// lastSeenObjectId of HeapProfiler's tracking, or MaxID of a snapshot taken then.
//
// Memory: Read keeps 17 bytes a node and 8 an edge, plus 16 a node of results; its peak adds
// the reverse edges (4 bytes an edge and 4 a node) and 12 a node of scratch: 0.95 × the
// file's size on the 1 GiB benchmark, the densest kind of snapshot (tiny objects). It
// collects its own garbage between phases; a service should still set a memory limit
// (GOMEMLIMIT) to keep other garbage from adding to the peak.
//
// Dominators and paths skip weak edges, shortcut edges (but the root's), the table side of
// WeakMap ephemerons (as Chrome DevTools does), and the handles the inspector holds for its
// clients ("DevTools console" global handles): what traced shows does not pin what it shows.
package heapgraph

import (
	"strings"
)

// none marks an absent node or edge in the uint32 columns.
const none = ^uint32(0)

// Edge types are packed into the top bits of an edge's name column.
const (
	edgeTypeBits  = 3
	edgeNameBits  = 32 - edgeTypeBits
	edgeNameMask  = 1<<edgeNameBits - 1
	maxKeptString = 200 // bytes kept of a name or property: labels, not contents
)

// Graph is a heap snapshot held in columns: node i's fields are nodeType[i], nodeName[i]...;
// its edges are firstEdge[i]..firstEdge[i+1] of the edge columns, and, while the dominators
// are computed, its retainers (the nodes with an essential edge to it) are
// retFrom[firstRet[i]..firstRet[i+1]]. Node 0 is the synthetic root.
type Graph struct {
	nodeType  []uint8
	nodeName  []uint32 // string index
	nodeID    []uint32 // V8's heap object id, stable across snapshots
	selfSize  []uint32
	firstEdge []uint32 // len n+1

	edgeKind []uint32 // type<<edgeNameBits | name or element index
	edgeTo   []uint32 // node ordinal

	firstRet []uint32 // len n+1
	retFrom  []uint32

	strs   stringTable
	types  []string // node type names
	etypes []string // edge type names
	kinds  kinds

	// locations of closures: node ordinal → script id, line, column (0-based), sorted by node.
	locNode, locScript, locLine, locCol []uint32

	// handleLabels: string indices of the edge names of traced's (the inspector's) handles.
	handleLabels map[uint32]bool
	// ephemeronTable: string index of a WeakMap entry's edge name → the table's node id.
	ephemeronTable map[uint32]uint32
	// bigNames: an edge whose element index does not fit the name bits (a sparse array's, a
	// timer list's keyed by a 1e9 ms delay) has edgeNameMask there and its index here.
	bigNames map[uint32]uint32

	gcRoots uint32 // the "(GC roots)" node, or none

	// Analysis results.
	idom       []uint32 // immediate dominator, none when unreachable
	retained   []uint64 // bytes
	parentEdge []uint32 // the edge a shortest path from the root ends with, or none
}

// kinds holds the type indices the analysis tests against; -1 when the snapshot lacks one.
type kinds struct {
	weak, shortcut, element, hidden, property, context, internal                               int
	object, closure, native, synthetic, str, consString, slicedString, code, hiddenNode, array int
}

func indexOf(list []string, s string) int {
	for i, v := range list {
		if v == s {
			return i
		}
	}
	return -1
}

func (g *Graph) setKinds() {
	et, nt := g.etypes, g.types
	g.kinds = kinds{
		weak: indexOf(et, "weak"), shortcut: indexOf(et, "shortcut"), element: indexOf(et, "element"),
		hidden: indexOf(et, "hidden"), internal: indexOf(et, "internal"),
		object: indexOf(nt, "object"), closure: indexOf(nt, "closure"), native: indexOf(nt, "native"),
		synthetic: indexOf(nt, "synthetic"), str: indexOf(nt, "string"),
		consString: indexOf(nt, "concatenated string"), slicedString: indexOf(nt, "sliced string"),
		code: indexOf(nt, "code"), hiddenNode: indexOf(nt, "hidden"), array: indexOf(nt, "array"),
	}
}

// NodeCount is the number of nodes.
func (g *Graph) NodeCount() int { return len(g.nodeType) }

// EdgeCount is the number of edges.
func (g *Graph) EdgeCount() int { return len(g.edgeTo) }

// ID is node n's heap object id.
func (g *Graph) ID(n uint32) uint32 { return g.nodeID[n] }

// SelfSize is node n's own size in bytes.
func (g *Graph) SelfSize(n uint32) uint32 { return g.selfSize[n] }

// RetainedSize is the bytes freed if node n went: its own and those it alone holds.
func (g *Graph) RetainedSize(n uint32) uint64 { return g.retained[n] }

// Dominator is node n's immediate dominator, or false for the root and unreachable nodes.
func (g *Graph) Dominator(n uint32) (uint32, bool) {
	d := g.idom[n]
	return d, d != none && n != 0
}

// NodeByID finds the node with heap object id; false if none.
func (g *Graph) NodeByID(id uint32) (uint32, bool) {
	for i, v := range g.nodeID {
		if v == id {
			return uint32(i), true
		}
	}
	return 0, false
}

// Type is node n's type name ("object", "closure", "string"...).
func (g *Graph) Type(n uint32) string {
	if t := int(g.nodeType[n]); t < len(g.types) {
		return g.types[t]
	}
	return "unknown"
}

// Name is node n's name as kept: a constructor, function or root name; "" for contents the
// graph does not keep (strings, numbers).
func (g *Graph) Name(n uint32) string { return g.strs.get(g.nodeName[n]) }

func (g *Graph) edgeType(e uint32) int { return int(g.edgeKind[e] >> edgeNameBits) }
func (g *Graph) edgeName(e uint32) uint32 {
	name := g.edgeKind[e] & edgeNameMask
	if name == edgeNameMask && g.bigNames != nil {
		if big, ok := g.bigNames[e]; ok {
			return big
		}
	}
	return name
}

// named reports whether edges of type t name their target with a string (else an index).
func (g *Graph) named(t int) bool {
	return t != g.kinds.element && t != g.kinds.hidden
}

// keepsName reports whether the name of a node of type t is worth keeping: not the contents
// of strings and numbers, which can be most of a snapshot's strings table.
func (g *Graph) keepsName(t int) bool {
	switch t {
	case g.kinds.str, g.kinds.consString, g.kinds.slicedString:
		return false
	}
	switch g.types[t] {
	case "number", "bigint", "regexp":
		return false
	}
	return true
}

// essential reports whether edge e from node `from` holds its target for the analysis: weak
// edges do not; shortcuts only at the root (where they mark the global objects); the table
// side of a WeakMap entry does not (the key side holds it); the inspector's handles do not.
func (g *Graph) essential(from, e uint32) bool {
	t := g.edgeType(e)
	switch {
	case t == g.kinds.weak:
		return false
	case t == g.kinds.shortcut:
		return from == 0
	case t == g.kinds.internal && (len(g.handleLabels) > 0 || len(g.ephemeronTable) > 0):
		name := g.edgeName(e)
		if g.handleLabels[name] {
			return false
		}
		if table, ok := g.ephemeronTable[name]; ok && g.nodeID[from] == table {
			return false
		}
	}
	return true
}

// stringTable keeps the strings the graph needs, packed: string i is blob[off[i]:off[i+1]];
// strings past off, or not kept, read as "".
type stringTable struct {
	blob []byte
	off  []uint32
}

func (t *stringTable) get(i uint32) string {
	if int(i)+1 >= len(t.off) {
		return ""
	}
	return string(t.blob[t.off[i]:t.off[i+1]])
}

// bitset marks string indices to keep.
type bitset []uint64

func (b *bitset) set(i uint32) {
	w := int(i / 64)
	if w >= len(*b) {
		*b = append(*b, make([]uint64, w+1-len(*b))...)
	}
	(*b)[w] |= 1 << (i % 64)
}

func (b bitset) has(i int) bool {
	w := i / 64
	return w < len(b) && b[w]&(1<<(uint(i)%64)) != 0
}

// isHandleLabel reports the edge name V8 gives the global handles the inspector keeps for its
// clients (remote objects, console results): "<n> / DevTools console".
func isHandleLabel(s string) bool { return strings.HasSuffix(s, "/ DevTools console") }

// ephemeronTableID reads the table id from a WeakMap entry's edge name:
// "<n> / part of key (K @1) -> value (V @2) pair in WeakMap (table @3)".
func ephemeronTableID(s string) (uint32, bool) {
	const marker = " pair in WeakMap (table @"
	i := strings.LastIndex(s, marker)
	if i < 0 || !strings.HasSuffix(s, ")") {
		return 0, false
	}
	var id uint32
	for _, c := range s[i+len(marker) : len(s)-1] {
		if c < '0' || c > '9' {
			return 0, false
		}
		id = id*10 + uint32(c-'0')
	}
	return id, true
}
