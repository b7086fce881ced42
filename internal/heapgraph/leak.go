package heapgraph

import (
	"cmp"
	"slices"
	"strings"
)

// maxPathsWalked bounds the paths walked for one answer: a cluster's count and bytes stay
// exact past it, its pinch point is found from the first ones.
const maxPathsWalked = 200_000

// Cluster is objects of one label retained the same way.
type Cluster struct {
	Label        string `json:"label"` // constructor, or "(closure f file:line:col)"...
	Count        int    `json:"count"`
	RetainedSize uint64 `json:"retainedSize"` // bytes, members nested in another not counted twice
	Path         string `json:"path"`         // the shape: indices read [i]
	// Pinch is the path to where the members' paths part: the collection or property that
	// accumulates them, with the accessor into it ("global.store → Map[entry]").
	Pinch   string   `json:"pinch"`
	PinchID uint32   `json:"pinchId"` // heap object id of the accumulating object
	IDs     []uint32 `json:"ids"`     // the first few members' heap object ids
	// Shapes counts the path shapes merged here: members of one label that accumulate in
	// one object (both ends of a doubly linked list) are one cluster; Path is the most common.
	Shapes int `json:"shapes"`
	// Allocated is the program's functions that allocated the members, as the sampling heap
	// profiler saw them (Leaks.Attribute), the most sampled bytes first.
	Allocated []Site   `json:"allocated,omitempty"`
	first     []uint32 // the first member's path nodes, then their common prefix
	edges     []uint32
	member    uint32 // the first member
	made      madeBy // what ties the members to the samples that allocated them
}

// maxDominatorWalk bounds the walk up the dominator tree that tells an instance nested in
// another: past it, a deep chain of instances may count twice.
const maxDominatorWalk = 4096

// clusterIDs is how many member ids a cluster keeps.
const clusterIDs = 3

// clusterer groups nodes by label and path shape.
type clusterer struct {
	g       *Graph
	scripts ScriptNamer
	byKey   map[string]*Cluster
	walked  int
}

func (c *clusterer) add(n uint32, retained uint64, p Path) {
	g := c.g
	label := g.Label(n, c.scripts)
	shape := g.Render(p, c.scripts, true)
	key := label + "\x00" + shape
	cl := c.byKey[key]
	if cl == nil {
		cl = &Cluster{Label: label, Path: shape, first: g.pathNodes(p), edges: p.Edges, member: n}
		c.byKey[key] = cl
	} else if c.walked < maxPathsWalked {
		nodes := g.pathNodes(p)
		k := 0
		for k < len(cl.first) && k < len(nodes) && cl.first[k] == nodes[k] {
			k++
		}
		cl.first = cl.first[:k]
	}
	c.walked++
	cl.Count++
	cl.RetainedSize += retained
	if len(cl.IDs) < clusterIDs {
		cl.IDs = append(cl.IDs, g.nodeID[n])
	}
}

// clusters finishes the pinch points and ranks by retained size.
func (c *clusterer) clusters(top int) []Cluster {
	g := c.g
	out := make([]Cluster, 0, len(c.byKey))
	for _, cl := range c.byKey {
		k := len(cl.first) // nodes shared by every member's path
		if k > len(cl.edges) {
			k = len(cl.edges) // one member: the pinch is its last hop
		}
		for k > 1 && g.Label(cl.first[k-1], c.scripts) == cl.Label {
			k-- // members linked to each other: the pinch is where the chain hangs
		}
		if k > 0 {
			pinch := g.renderEdges(Path{Target: g.edgeTo[cl.edges[k-1]], Edges: cl.edges[:k]}, c.scripts, true)
			cl.Pinch, cl.PinchID = pinch, g.nodeID[g.accumulator(cl.edges[:k])]
		}
		cl.first, cl.edges = nil, nil
		cl.Shapes = 1
		out = append(out, *cl)
	}
	out = mergeByAccumulator(out)
	slices.SortFunc(out, func(a, b Cluster) int {
		if a.RetainedSize != b.RetainedSize {
			return cmp.Compare(b.RetainedSize, a.RetainedSize)
		}
		if a.Count != b.Count {
			return cmp.Compare(b.Count, a.Count)
		}
		return strings.Compare(a.Label+a.Path, b.Label+b.Path)
	})
	if top > 0 && len(out) > top {
		out = out[:top]
	}
	for i := range out {
		out[i].made = g.madeByOf(out[i].member, c.scripts)
	}
	return out
}

// mergeByAccumulator folds clusters of one label that accumulate in the same object.
func mergeByAccumulator(cs []Cluster) []Cluster {
	slices.SortFunc(cs, func(a, b Cluster) int { // the most common shape leads its group
		if a.Count != b.Count {
			return cmp.Compare(b.Count, a.Count)
		}
		return strings.Compare(a.Label+a.Path, b.Label+b.Path)
	})
	type key struct {
		label string
		id    uint32
	}
	at := map[key]int{}
	out := cs[:0]
	for _, c := range cs {
		k := key{c.Label, c.PinchID}
		if i, ok := at[k]; ok && c.Count > 1 && c.Pinch != "" {
			m := &out[i]
			m.Count += c.Count
			m.RetainedSize += c.RetainedSize
			m.Shapes++
			continue
		}
		if c.Count > 1 && c.Pinch != "" {
			at[k] = len(out)
		}
		out = append(out, c)
	}
	return out
}

// Leaks is what a leak window left behind.
type Leaks struct {
	Watermark    uint32    `json:"watermark"`
	Objects      int       `json:"objects"`      // born after the watermark and still held
	RetainedSize uint64    `json:"retainedSize"` // what they hold, bytes
	Clusters     []Cluster `json:"clusters"`     // the largest first
}

// transient reports paths that do not make a leak: held by the running code (its stack and
// handle scopes, such as the snapshot's own call), or through V8's compiled code and feedback
// (allocation sites, boilerplates).
func (g *Graph) transient(p Path) bool {
	for i, e := range p.Edges {
		n := g.edgeTo[e]
		if i == 1 && g.owner(e) == g.gcRoots {
			if name := g.Name(n); name == "(Stack roots)" || name == "(Handle scope)" {
				return true
			}
		}
		if int(g.nodeType[n]) == g.kinds.code {
			return true
		}
	}
	return false
}

// collectionMembers is how many new members of one class (objects or closures, not strings) a
// new object must own to count as a collection, as an array or a Map does: the head of a
// linked list (node's TimersList of a new interval duration owns every Timeout in it) gathers
// a leak as much as an array.
const collectionMembers = 16

// Leaks answers the objects born after the watermark (V8 heap object ids only grow, so ids
// above the last one seen before a window were allocated in it) that a path from the roots
// still holds, grouped by label and path shape. Only the heads of new structures count: an
// object whose owner (its nearest dominator a program allocated) is new too is part of that
// one's retained size; but when the owner is a new container (an array, a plain object, a Map
// or Set, or an object that owns collectionMembers or more new objects of another class) the
// members are the leak, not the container a growing collection was reallocated into.
func (g *Graph) Leaks(watermark uint32, top int, scripts ScriptNamer) Leaks {
	rep := Leaks{Watermark: watermark}
	c := &clusterer{g: g, scripts: scripts, byKey: map[string]*Cluster{}}
	isNew := func(n uint32) bool {
		id := g.nodeID[n]
		return id > watermark && heapObjectID(id) && g.leakCandidate(n)
	}
	var holds bitset // new containers that hold new members
	type kind struct{ owner, name uint32 }
	gathered := map[kind]int{} // new members of one kind that a new object of another class owns
	for i := range g.nodeID {
		n := uint32(i)
		if !isNew(n) {
			continue
		}
		d := g.ownerOf(n)
		switch {
		case d == none || !isNew(d):
		case g.container(d):
			holds.set(d)
		case g.nodeName[d] != g.nodeName[n] && (int(g.nodeType[n]) == g.kinds.object || int(g.nodeType[n]) == g.kinds.closure):
			k := kind{d, g.nodeName[n]}
			if gathered[k]++; gathered[k] == collectionMembers {
				holds.set(d)
			}
		}
	}
	for i := range g.nodeID {
		n := uint32(i)
		if !isNew(n) || holds.has(i) {
			continue
		}
		if d := g.ownerOf(n); d == none || (isNew(d) && !holds.has(int(d))) {
			continue // held through a new object: part of that one's retained size
		}
		p, ok := g.PathTo(n)
		if !ok || g.transient(p) {
			continue
		}
		rep.Objects++
		rep.RetainedSize += g.retained[n]
		c.add(n, g.retained[n], p)
	}
	rep.Clusters = c.clusters(top)
	return rep
}

// container reports the objects a program collects others in: arrays, plain objects, Maps and
// Sets (not a closure's context, which holds one closure's variables).
func (g *Graph) container(n uint32) bool {
	switch g.Name(n) {
	case "Object", "Array", "(object properties)", "(object elements)":
		return int(g.nodeType[n]) != g.kinds.closure
	}
	return g.collection(n)
}

// maxOwnerWalk bounds the walk past V8's internal nodes to an object's owner.
const maxOwnerWalk = 8

// ownerOf is n's nearest dominator that is a node a program allocates (not V8's internal
// arrays and system objects between them), none when there is none near.
func (g *Graph) ownerOf(n uint32) uint32 {
	d := g.idom[n]
	for k := 0; d != none && d != 0 && k < maxOwnerWalk && (!g.userNode(d) || int(g.nodeType[d]) == g.kinds.array); k++ {
		d = g.idom[d]
	}
	return d
}

// leakCandidate reports nodes a program allocates: objects, closures, strings, native
// backing stores; not the code, maps and system objects V8 makes as it runs, nor V8's
// internal arrays (the backing stores of a growing collection are new, but the entries
// in them are the leak).
func (g *Graph) leakCandidate(n uint32) bool {
	if !g.userNode(n) || int(g.nodeType[n]) == g.kinds.array || !g.Reachable(n) {
		return false
	}
	// Node's own C++ objects (its embedder graph) come and go with its internals.
	return int(g.nodeType[n]) != g.kinds.native || !strings.HasPrefix(g.Name(n), "Node / ")
}

// Instances is the objects of one class with their retainers.
type Instances struct {
	Class        string    `json:"class"`
	Count        int       `json:"count"`
	SelfSize     uint64    `json:"selfSize"`
	RetainedSize uint64    `json:"retainedSize"` // instances nested in another counted once
	Shapes       []Cluster `json:"shapes"`       // how they are held, the most first
	Grouped      int       `json:"grouped"`      // the instances the shapes count: all held ones, up to a bound
	Objects      []Holder  `json:"objects"`      // the largest few
}

// Instances finds the objects whose class (see ClassName) or label is name, groups their
// retainer paths by shape and lists the largest.
func (g *Graph) Instances(name string, top int, scripts ScriptNamer) Instances {
	out := Instances{Class: name}
	c := &clusterer{g: g, scripts: scripts, byKey: map[string]*Cluster{}}
	var members []uint32
	for i := range g.nodeType {
		n := uint32(i)
		if g.ClassName(n) != name {
			continue
		}
		members = append(members, n)
	}
	isMember := func(n uint32) bool { _, ok := slices.BinarySearch(members, n); return ok }
	for _, n := range members {
		out.Count++
		out.SelfSize += uint64(g.selfSize[n])
		nested := false
		for d, hops := g.idom[n], 0; d != none && d != 0 && hops < maxDominatorWalk; d, hops = g.idom[d], hops+1 {
			if isMember(d) {
				nested = true
				break
			}
		}
		r := g.retained[n]
		if nested || !g.Reachable(n) {
			r = 0 // counted in its dominator's, or freed by the next GC
		}
		out.RetainedSize += r
		if out.Grouped == maxPathsWalked {
			continue // shapes from a sample: rendering millions of paths takes seconds
		}
		if p, ok := g.PathTo(n); ok {
			c.add(n, r, p)
			out.Grouped++
		}
	}
	out.Shapes = c.clusters(top)
	slices.SortFunc(members, func(a, b uint32) int { return cmp.Compare(g.retained[b], g.retained[a]) })
	for _, n := range members[:min(top, len(members))] {
		h := Holder{node: n}
		g.describe(&h, scripts)
		out.Objects = append(out.Objects, h)
	}
	return out
}

// accumulator is the object that edges' last hop leaves: a Map or Set rather than its
// hash table.
func (g *Graph) accumulator(edges []uint32) uint32 {
	k := len(edges)
	n := g.owner(edges[k-1])
	if k > 1 && g.strs.get(g.edgeName(edges[k-2])) == "table" {
		if m := g.owner(edges[k-2]); g.collection(m) {
			return m
		}
	}
	return n
}

// MaxID is the highest V8 heap object id in the snapshot: the watermark of a leak window
// that starts at it.
func (g *Graph) MaxID() uint32 {
	var m uint32
	for _, id := range g.nodeID {
		if heapObjectID(id) {
			m = max(m, id)
		}
	}
	return m
}

// heapObjectID reports the ids V8 gives heap objects: odd, counting up by two as they are
// first seen. The embedder's (Node's C++) nodes have even ids made of addresses, with no order.
func heapObjectID(id uint32) bool { return id%2 == 1 }
