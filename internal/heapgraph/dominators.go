package heapgraph

// Dominators by Semi-NCA (Georgiadis' variant of Lengauer-Tarjan, the one LLVM uses): semi-
// dominators as in Lengauer-Tarjan, with a simple path-compressing eval, then each immediate
// dominator as the nearest common ancestor of the node's DFS parent and its semi-dominator.
// It needs no buckets, so the scratch is five uint32 columns in DFS-preorder space (node→pre,
// pre→node, parent, semi, label) and the final idom takes the node→pre column's place.
// Only essential edges count (see Graph.essential); nodes the root cannot reach through them
// have no dominator and retain only themselves.

// computeDominators fills g.idom (node space) and, on the way, g.retained.
func (g *Graph) computeDominators() {
	n := len(g.nodeType)
	pre := make([]uint32, n) // node → preorder number, none if unreached
	for i := range pre {
		pre[i] = none
	}
	order := make([]uint32, n)  // preorder number → node
	parent := make([]uint32, n) // DFS tree parent (pre space); then the eval forest's links
	semi := make([]uint32, n)
	label := make([]uint32, n)

	// Iterative DFS; until they are needed, label holds the stack's nodes and semi their next
	// edge.
	k := uint32(0)
	pre[0], order[0], parent[0] = 0, 0, 0
	k++
	label[0], semi[0] = 0, g.firstEdge[0]
	for depth := 1; depth > 0; {
		v := label[depth-1]
		e := semi[depth-1]
		if e >= g.firstEdge[v+1] {
			depth--
			continue
		}
		semi[depth-1]++
		w := g.edgeTo[e]
		if pre[w] != none || !g.essential(v, e) {
			continue
		}
		pre[w], order[k], parent[k] = k, w, pre[v]
		k++
		label[depth], semi[depth] = w, g.firstEdge[w]
		depth++
	}

	for p := uint32(0); p < k; p++ {
		semi[p], label[p] = p, p
	}
	idom := make([]uint32, k) // pre space; starts as the DFS parent
	copy(idom, parent[:k])

	// Semi-dominators, in decreasing preorder. A vertex is linked into the eval forest once
	// processed, so "linked" is pre > p and parent doubles as the forest's (compressed) links.
	var stack []uint32
	for p := k - 1; p > 0; p-- {
		w := order[p]
		for r := g.firstRet[w]; r < g.firstRet[w+1]; r++ {
			v := g.retFrom[r]
			pv := pre[v]
			if pv == none {
				continue
			}
			u := pv
			if pv > p { // linked: the minimum semi on its forest path
				stack = g.compress(pv, p, parent, semi, label, stack)
				u = label[pv]
			}
			if semi[u] < semi[p] {
				semi[p] = semi[u]
			}
		}
	}
	// Immediate dominators: climb from the DFS parent to at most the semi-dominator.
	for p := uint32(1); p < k; p++ {
		d := idom[p]
		for d > semi[p] {
			d = idom[d]
		}
		idom[p] = d
	}
	parent, semi, label, stack = nil, nil, nil, nil

	// Retained sizes in decreasing preorder: a dominator precedes all it dominates.
	g.retained = make([]uint64, n)
	for i := range g.retained {
		g.retained[i] = uint64(g.selfSize[i])
	}
	for p := k - 1; p > 0; p-- {
		w := order[p]
		g.retained[order[idom[p]]] += g.retained[w]
	}
	// idom to node space, in place over pre.
	for i, p := range pre {
		if p != none {
			pre[i] = order[idom[p]]
		}
	}
	g.idom = pre
}

// compress shortens v's path in the eval forest to its root (the first vertex not yet linked,
// pre <= p), keeping in label the vertex of least semi along the way.
func (g *Graph) compress(v, p uint32, link, semi, label, stack []uint32) []uint32 {
	stack = stack[:0]
	for x := v; link[x] > p; x = link[x] {
		stack = append(stack, x)
	}
	// Fix from the top down, as the recursive form does on its way back.
	for i := len(stack) - 1; i >= 0; i-- {
		x := stack[i]
		a := link[x]
		if semi[label[a]] < semi[label[x]] {
			label[x] = label[a]
		}
		link[x] = link[a]
	}
	return stack
}
