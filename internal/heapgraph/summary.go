package heapgraph

import (
	"cmp"
	"slices"
)

// Class is the nodes of one constructor (or one kind of non-object: "(string)", "(closure)",
// "(array)"...), named as internal/heapsnap names them.
type Class struct {
	Name     string `json:"name"`
	Count    int    `json:"count"`
	SelfSize uint64 `json:"selfSize"`
	// RetainedSize counts each node not dominated by another of its class, as DevTools does:
	// what freeing every instance would free.
	RetainedSize uint64 `json:"retainedSize"`
}

// Summary aggregates a snapshot by class, largest retained size first.
type Summary struct {
	Nodes     int     `json:"nodes"`
	Edges     int     `json:"edges"`
	TotalSize uint64  `json:"totalSize"` // self sizes summed, bytes
	Classes   []Class `json:"classes"`
}

// ClassName is node n's class: the name of objects, natives and synthetic roots, the type
// for the others.
func (g *Graph) ClassName(n uint32) string {
	t := int(g.nodeType[n])
	switch {
	case t == g.kinds.object || t == g.kinds.native || t == g.kinds.synthetic:
		return g.Name(n)
	case t == g.kinds.consString || t == g.kinds.slicedString || t == g.kinds.str:
		return "(string)"
	case t == g.kinds.code:
		return "(compiled code)"
	case t == g.kinds.hiddenNode:
		return "(system)"
	}
	return "(" + g.Type(n) + ")"
}

// Summary is the top classes by retained size (all when top <= 0).
func (g *Graph) Summary(top int) Summary {
	n := len(g.nodeType)
	ids := classIDs{g: g, byKey: map[uint64]uint32{}, byName: map[string]uint32{}}
	sum := Summary{Nodes: n, Edges: len(g.edgeTo)}
	for i := range n {
		c := ids.of(uint32(i))
		ids.classes[c].Count++
		ids.classes[c].SelfSize += uint64(g.selfSize[i])
		sum.TotalSize += uint64(g.selfSize[i])
	}
	classes := ids.classes
	// Walk the dominator tree keeping, per class, how many of its nodes are on the way down:
	// a node adds its retained size only when none is.
	first, kids := g.dominatorChildren()
	active := make([]int32, len(classes))
	type frame struct{ node, next, class uint32 }
	stack := []frame{{0, first[0], ids.of(0)}}
	active[stack[0].class]++
	for len(stack) > 0 {
		f := &stack[len(stack)-1]
		if f.next == first[f.node+1] {
			active[f.class]--
			stack = stack[:len(stack)-1]
			continue
		}
		c := kids[f.next]
		f.next++
		class := ids.of(c)
		if active[class] == 0 {
			classes[class].RetainedSize += g.retained[c]
		}
		active[class]++
		stack = append(stack, frame{c, first[c], class})
	}
	slices.SortFunc(classes, func(a, b Class) int {
		if a.RetainedSize != b.RetainedSize {
			return cmp.Compare(b.RetainedSize, a.RetainedSize)
		}
		return cmp.Compare(a.Name, b.Name)
	})
	if top > 0 && len(classes) > top {
		classes = classes[:top]
	}
	sum.Classes = classes
	return sum
}

// classIDs numbers the classes as nodes are met, without a column of its own: a node's
// class is keyed by its type and, for the named types, its name's string index.
type classIDs struct {
	g       *Graph
	byKey   map[uint64]uint32
	byName  map[string]uint32
	classes []Class
}

func (c *classIDs) of(n uint32) uint32 {
	g := c.g
	t := int(g.nodeType[n])
	key := uint64(t) << 32
	if t == g.kinds.object || t == g.kinds.native || t == g.kinds.synthetic {
		key |= uint64(g.nodeName[n])
	}
	if id, ok := c.byKey[key]; ok {
		return id
	}
	name := g.ClassName(n) // several keys can share a name: the string kinds, equal names
	id, ok := c.byName[name]
	if !ok {
		id = uint32(len(c.classes))
		c.byName[name] = id
		c.classes = append(c.classes, Class{Name: name})
	}
	c.byKey[key] = id
	return id
}

// dominatorChildren is the dominator tree in CSR form: node i's children are
// kids[first[i]:first[i+1]].
func (g *Graph) dominatorChildren() (first, kids []uint32) {
	n := len(g.nodeType)
	first = make([]uint32, n+1)
	for i, d := range g.idom {
		if d != none && i != 0 {
			first[d+1]++
		}
	}
	for i := range n {
		first[i+1] += first[i]
	}
	kids = make([]uint32, first[n])
	for i, d := range g.idom {
		if d != none && i != 0 {
			kids[first[d]] = uint32(i)
			first[d]++
		}
	}
	for i := n; i > 0; i-- {
		first[i] = first[i-1]
	}
	first[0] = 0
	return first, kids
}

// unheld is the path of an object that nothing strong reaches: the next GC frees it.
const unheld = "(not held: only weak references or the inspector's own handles reach it)"

// Holder is an object and the memory it alone holds.
type Holder struct {
	ID           uint32 `json:"id"`
	Label        string `json:"label"`
	SelfSize     uint32 `json:"selfSize"`
	RetainedSize uint64 `json:"retainedSize"`
	Path         string `json:"path"` // from the GC roots
	node         uint32
}

// Largest is the top objects by retained size: the ones dominating the most memory. Roots,
// the global objects (which hold everything), and V8's internals (code, maps, system
// objects, the backing arrays whose owner is listed instead) are left out.
func (g *Graph) Largest(top int, scripts ScriptNamer) []Holder {
	var out []Holder
	for i := range g.nodeType {
		n := uint32(i)
		if !g.userNode(n) || int(g.nodeType[n]) == g.kinds.array || g.idom[n] == 0 || g.idom[n] == none {
			continue
		}
		if len(out) == top && g.retained[n] <= out[top-1].RetainedSize {
			continue
		}
		h := Holder{node: n, RetainedSize: g.retained[n]}
		at, _ := slices.BinarySearchFunc(out, h, func(a, b Holder) int { return cmp.Compare(b.RetainedSize, a.RetainedSize) })
		out = slices.Insert(out, at, h)
		if len(out) > top {
			out = out[:top]
		}
	}
	for i := range out {
		g.describe(&out[i], scripts)
	}
	return out
}

func (g *Graph) describe(h *Holder, scripts ScriptNamer) {
	n := h.node
	h.ID, h.Label, h.SelfSize, h.RetainedSize = g.nodeID[n], g.Label(n, scripts), g.selfSize[n], g.retained[n]
	if p, ok := g.PathTo(n); ok {
		h.Path = g.Render(p, scripts, false)
	} else {
		h.Path = unheld
	}
}

// userNode reports nodes a JS developer made: not roots, code, maps or V8's system objects.
func (g *Graph) userNode(n uint32) bool {
	switch t := int(g.nodeType[n]); {
	case t == g.kinds.synthetic || t == g.kinds.code || t == g.kinds.hiddenNode:
		return false
	case g.types[t] == "object shape" || g.types[t] == "number":
		return false
	}
	return n != 0
}
