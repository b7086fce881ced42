package heapgraph

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
)

// computePaths fills g.parentEdge by breadth-first search from the root over essential edges,
// as Chrome DevTools measures distances: first from the root's non-synthetic children (the
// global objects, whose paths a JS developer reads best), then from the synthetic roots ("(GC
// roots)"...) for what the globals do not reach. It answers the order it reached the nodes in.
func (g *Graph) computePaths() (order []uint32) {
	n := len(g.nodeType)
	g.parentEdge = make([]uint32, n)
	for i := range g.parentEdge {
		g.parentEdge[i] = none
	}
	queue := make([]uint32, 0, n)
	seen := func(w uint32) bool { return w == 0 || g.parentEdge[w] != none }
	head := 0
	for _, userRoots := range []bool{true, false} {
		for e := g.firstEdge[0]; e < g.firstEdge[1]; e++ {
			w := g.edgeTo[e]
			if seen(w) || !g.essential(0, e) || (int(g.nodeType[w]) == g.kinds.synthetic) == userRoots {
				continue
			}
			g.parentEdge[w] = e
			queue = append(queue, w)
		}
		for ; head < len(queue); head++ {
			v := queue[head]
			for e := g.firstEdge[v]; e < g.firstEdge[v+1]; e++ {
				w := g.edgeTo[e]
				if seen(w) || !g.essential(v, e) {
					continue
				}
				g.parentEdge[w] = e
				queue = append(queue, w)
			}
		}
	}
	return queue
}

// owner is the node edge e leaves from.
func (g *Graph) owner(e uint32) uint32 {
	// The last node whose first edge is <= e.
	return uint32(sort.Search(len(g.nodeType), func(i int) bool { return g.firstEdge[i+1] > e }))
}

// Reachable reports whether a path from the root holds node n.
func (g *Graph) Reachable(n uint32) bool { return n == 0 || g.parentEdge[n] != none }

// Path is a shortest chain of edges from the root to a node: the edges' indices, root side
// first.
type Path struct {
	Target uint32
	Edges  []uint32
}

// maxPathHops bounds a path's length, against a cycle in a broken parent chain.
const maxPathHops = 1 << 16

// PathTo is a shortest path from the root to node n; false when nothing reaches n.
func (g *Graph) PathTo(n uint32) (Path, bool) {
	p := Path{Target: n}
	for v := n; v != 0; {
		e := g.parentEdge[v]
		if e == none || len(p.Edges) > maxPathHops {
			return Path{}, false
		}
		p.Edges = append(p.Edges, e)
		v = g.owner(e)
	}
	for i, j := 0, len(p.Edges)-1; i < j; i, j = i+1, j-1 {
		p.Edges[i], p.Edges[j] = p.Edges[j], p.Edges[i]
	}
	return p, true
}

// Nodes lists the path's nodes, the root first and the target last.
func (g *Graph) pathNodes(p Path) []uint32 {
	out := make([]uint32, 0, len(p.Edges)+1)
	out = append(out, 0)
	for _, e := range p.Edges {
		out = append(out, g.edgeTo[e])
	}
	return out
}

// Label names node n for a JS developer: its constructor, "(closure f file:line:col)",
// "(context)", "(string)"...
func (g *Graph) Label(n uint32, scripts ScriptNamer) string {
	t := int(g.nodeType[n])
	name := g.Name(n)
	switch {
	case t == g.kinds.closure:
		if name == "" {
			name = "anonymous"
		}
		if s, line, col, ok := g.location(n); ok {
			return fmt.Sprintf("(closure %s %s:%d:%d)", name, scriptName(scripts, s), line+1, col+1)
		}
		return "(closure " + name + ")"
	case t == g.kinds.str || t == g.kinds.consString || t == g.kinds.slicedString:
		return "(string)"
	case t == g.kinds.code:
		return "(code)"
	case name == "system / Context":
		return "(context)"
	case strings.HasPrefix(name, "system / "): // V8's internal objects: "(PromiseReaction)"
		return "(" + strings.TrimPrefix(name, "system / ") + ")"
	case name == "":
		return "(" + g.Type(n) + ")"
	case strings.HasPrefix(name, "global /"), strings.HasPrefix(name, "global ("):
		// V8 names the global object "global / <url>"; node 26 "global (global*)"
		return "global"
	}
	return name
}

// ScriptNamer maps a V8 script id to a URL; nil or "" keeps the id.
type ScriptNamer func(scriptID int) string

func scriptName(f ScriptNamer, id uint32) string {
	if f != nil {
		if s := f(int(id)); s != "" {
			return s
		}
	}
	return "script#" + strconv.Itoa(int(id))
}

// Accessor names edge e as JS would reach through it: ".name", "[3]", or, with shape set,
// "[i]" for any index (so paths that differ only by index group together).
func (g *Graph) Accessor(e uint32, shape bool) string {
	t := g.edgeType(e)
	if !g.named(t) {
		if shape {
			return "[i]"
		}
		return "[" + strconv.Itoa(int(g.edgeName(e))) + "]"
	}
	name := g.strs.get(g.edgeName(e))
	if isIndex(name) { // internal slots named by number: entries of hash tables, contexts
		if shape {
			return "[i]"
		}
		return "[" + name + "]"
	}
	if isIdentifier(name) {
		return "." + name
	}
	return "[" + strconv.Quote(name) + "]"
}

func isIndex(s string) bool {
	if s == "" {
		return false
	}
	for _, c := range s {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

func isIdentifier(s string) bool {
	if s == "" {
		return false
	}
	for i, c := range s {
		switch {
		case c == '_' || c == '$' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c > 0x7f:
		case i > 0 && c >= '0' && c <= '9':
		default:
			return false
		}
	}
	return true
}

// plain reports containers a path reads through without naming them: plain objects and
// arrays, and V8's backing stores of properties and elements.
func (g *Graph) plain(n uint32) bool {
	switch g.Name(n) {
	case "Object", "Array", "(object properties)", "(object elements)", "system / Context":
		return true
	}
	return false
}

// collection reports a Map or Set whose "table" edge leads to its entries.
func (g *Graph) collection(n uint32) bool {
	if int(g.nodeType[n]) != g.kinds.object {
		return false
	}
	switch g.Name(n) {
	case "Map", "Set":
		return true
	}
	return false
}

// Render writes a path as a JS developer reads it: "global.store → Map[entry] → Leaky".
// Plain containers fold into the accessor chain; a Map's or Set's hash table reads as
// "[entry]"; the synthetic root is left out. With shape set, indices read "[i]", a run of
// equal hops reads once, and the hops from another object of the target's label are
// dropped, so that the members of a linked list share one shape.
func (g *Graph) Render(p Path, scripts ScriptNamer, shape bool) string {
	segs := g.segments(p, scripts, shape)
	if shape {
		target := g.Label(p.Target, scripts)
		for len(segs) > 0 && strings.HasPrefix(segs[len(segs)-1], target+".") {
			segs = segs[:len(segs)-1]
		}
	}
	return strings.Join(append(segs, g.Label(p.Target, scripts)), " → ")
}

// renderEdges is Render without the target's label.
func (g *Graph) renderEdges(p Path, scripts ScriptNamer, shape bool) string {
	return strings.Join(g.segments(p, scripts, shape), " → ")
}

// segments renders a path's hops, one segment per named owner: "EventEmitter._events.x[3]".
func (g *Graph) segments(p Path, scripts ScriptNamer, shape bool) []string {
	var segs []string
	var b strings.Builder
	flush := func() {
		if b.Len() == 0 {
			return
		}
		s := b.String()
		b.Reset()
		if n := len(segs); shape && n > 0 && segs[n-1] == s {
			return // a linked list: its members, at any depth, share a shape
		}
		segs = append(segs, s)
	}
	nodes := g.pathNodes(p)
	for i, e := range p.Edges {
		from := nodes[i]
		if i == 0 || from == g.gcRoots {
			continue // the root and "(GC roots)": the next label says where the path starts
		}
		if i == 1 && g.Name(from) == "system / NativeContext" && g.named(g.edgeType(e)) && g.strs.get(g.edgeName(e)) == "global_object" {
			continue // node 26's root holds the context, not its global: the path starts at "global"
		}
		if i > 1 && g.collection(nodes[i-1]) && g.strs.get(g.edgeName(p.Edges[i-1])) == "table" {
			b.WriteString("[entry]") // the hop into the table's slot
			continue
		}
		if b.Len() == 0 || !g.plain(from) {
			flush()
			b.WriteString(g.Label(from, scripts))
		}
		if g.collection(from) && g.strs.get(g.edgeName(e)) == "table" {
			continue
		}
		b.WriteString(g.Accessor(e, shape))
	}
	flush()
	return segs
}

// Retainer is an edge that holds a node: From's edge Edge.
type Retainer struct {
	From, Edge uint32
}

// Retainers lists up to limit edges that hold node n (weak and ignored edges left out). It
// scans every edge: it answers a question about one node, not a walk of many.
func (g *Graph) Retainers(n uint32, limit int) []Retainer {
	var out []Retainer
	from := uint32(0)
	for e, to := range g.edgeTo {
		if to != n {
			continue
		}
		for g.firstEdge[from+1] <= uint32(e) {
			from++
		}
		if g.essential(from, uint32(e)) {
			out = append(out, Retainer{From: from, Edge: uint32(e)})
			if len(out) == limit {
				break
			}
		}
	}
	return out
}

// RetainerText renders a retainer as "Owner.accessor".
func (g *Graph) RetainerText(r Retainer, scripts ScriptNamer) string {
	return g.Label(r.From, scripts) + g.Accessor(r.Edge, false)
}
