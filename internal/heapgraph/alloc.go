package heapgraph

import (
	"cmp"
	"slices"
	"strings"
)

// Where a cluster's objects were allocated. The sampling heap profiler (HeapProfiler's
// startSampling/stopSampling) answers a tree of call frames with the bytes sampled in each and
// samples of (size, tree node, ordinal): no object ids and no types, so a sample cannot be tied
// to a snapshot node directly. What ties them is the code: a class's constructor runs on the
// stack of every allocation inside it, and a closure is made by the function around it. A
// cluster is therefore matched to the samples through what its first member is and holds
// alone: the classes (the sites under their constructor, named at the caller that said new)
// and the closures (the sites in the function around them).

// Frame is one frame of a sampled allocation's stack: File is "" for V8's builtins and node's
// own code.
type Frame struct {
	Function string
	File     string
	Line     int // 1-based; for a sampled frame, where its function starts
}

// Sample is a sampled allocation site: its stack, innermost first, and the bytes sampled there.
type Sample struct {
	Stack []Frame
	Bytes int64
}

// Site is a function that allocated a cluster's objects, with the sampled bytes that say so.
type Site struct {
	Function string `json:"function"`
	File     string `json:"file"`
	Line     int    `json:"line"`
	Bytes    int64  `json:"bytes"`
}

// sitesShown is how many sites a cluster keeps: the ones with the most sampled bytes.
const sitesShown = 2

// madeBy is what ties a cluster to the samples: the classes and the closures of its first
// member and of what that member alone holds.
type madeBy struct {
	classes  []string
	closures []Frame // where each closure is: file and 1-based line
}

// madeByWalk bounds the nodes read under a member for its classes and closures.
const (
	madeByNodes = 64
	madeByDepth = 3
)

// builtinMakers names the builtins that make objects of a class without its constructor on
// the stack: a promise chained with then is made by then.
var builtinMakers = map[string][]string{
	"Promise": {"then", "catch", "finally"},
}

// madeByOf reads the classes and closures of member n and of the nodes it dominates near it.
func (g *Graph) madeByOf(n uint32, scripts ScriptNamer) madeBy {
	var m madeBy
	seen := map[uint32]bool{n: true}
	level := []uint32{n}
	for depth := 0; depth <= madeByDepth && len(level) > 0 && len(seen) <= madeByNodes; depth++ {
		var next []uint32
		for _, v := range level {
			g.noteMaker(&m, v, scripts)
			for e := g.firstEdge[v]; e < g.firstEdge[v+1] && len(seen) <= madeByNodes; e++ {
				w := g.edgeTo[e]
				if !seen[w] && g.essential(v, e) && g.dominates(n, w) {
					seen[w] = true
					next = append(next, w)
				}
			}
		}
		level = next
	}
	return m
}

// noteMaker adds node v's class or closure place to m.
func (g *Graph) noteMaker(m *madeBy, v uint32, scripts ScriptNamer) {
	switch t := int(g.nodeType[v]); {
	case t == g.kinds.closure:
		s, line, _, ok := g.location(v)
		if f := scriptName(scripts, s); ok && userFile(f) {
			m.closures = append(m.closures, Frame{File: f, Line: int(line) + 1})
		}
	case t == g.kinds.object:
		name := g.Name(v)
		if name == "" || name == "Object" || strings.ContainsAny(name, "/()") || slices.Contains(m.classes, name) {
			return
		}
		m.classes = append(m.classes, name)
		m.classes = append(m.classes, builtinMakers[name]...)
	}
}

// maxDominates bounds the walk up the dominator tree that tells whether one node dominates
// another: the nodes read under a member are near it.
const maxDominates = 8

// dominates reports whether d dominates w within a few steps up w's dominators.
func (g *Graph) dominates(d, w uint32) bool {
	for k := 0; w != none && w != 0 && k < maxDominates; k++ {
		if w == d {
			return true
		}
		w = g.idom[w]
	}
	return false
}

// userFile reports a program's own file: not V8's builtins ("") nor node's own code.
func userFile(f string) bool {
	return f != "" && !strings.HasPrefix(f, "node:") && !strings.HasPrefix(f, "script#")
}

// Attribute gives each cluster the functions that allocated its objects, from the samples of
// the window: a sample with a constructor of one of the cluster's classes on its stack counts
// for the nearest function of the program's own that called it (where new was said); a
// sample made in the program's function nearest above one of the cluster's closures in its
// file counts for that function (sampled frames carry where a function starts, not where it
// ends, so the nearest start before the closure is taken for the function around it).
func (l *Leaks) Attribute(samples []Sample) {
	for i := range l.Clusters {
		c := &l.Clusters[i]
		c.Allocated = attribute(c.made, samples)
	}
}

func attribute(m madeBy, samples []Sample) []Site {
	if len(m.classes) == 0 && len(m.closures) == 0 {
		return nil
	}
	// The function around each closure: the nearest start at or before it that allocated.
	around := make([]int, len(m.closures))
	for _, s := range samples {
		if len(s.Stack) == 0 || !userFile(s.Stack[0].File) {
			continue
		}
		f := s.Stack[0]
		for k, cl := range m.closures {
			if f.File == cl.File && f.Line <= cl.Line && f.Line > around[k] {
				around[k] = f.Line
			}
		}
	}
	bytes := map[Frame]int64{}
	for _, s := range samples {
		if f, ok := madeIn(m, around, s.Stack); ok {
			bytes[Frame{Function: f.Function, File: f.File, Line: f.Line}] += s.Bytes
		}
	}
	out := make([]Site, 0, len(bytes))
	for f, b := range bytes {
		out = append(out, Site{Function: f.Function, File: f.File, Line: f.Line, Bytes: b})
	}
	slices.SortFunc(out, func(a, b Site) int {
		if a.Bytes != b.Bytes {
			return cmp.Compare(b.Bytes, a.Bytes)
		}
		return cmp.Compare(a.File+a.Function, b.File+b.Function)
	})
	return out[:min(len(out), sitesShown)]
}

// madeIn is the program's function a sampled stack allocated one of m's objects in.
func madeIn(m madeBy, around []int, stack []Frame) (Frame, bool) {
	ctor := -1 // the outermost constructor of m's classes
	for i, f := range stack {
		if slices.Contains(m.classes, f.Function) {
			ctor = i
		}
	}
	if ctor >= 0 {
		for _, f := range stack[ctor+1:] {
			if userFile(f.File) {
				return f, true
			}
		}
		if f := stack[ctor]; userFile(f.File) { // its caller is past the stack's cap
			return f, true
		}
		return Frame{}, false
	}
	if len(stack) > 0 && userFile(stack[0].File) {
		for k, cl := range m.closures {
			if stack[0].File == cl.File && stack[0].Line == around[k] {
				return stack[0], true
			}
		}
	}
	return Frame{}, false
}
