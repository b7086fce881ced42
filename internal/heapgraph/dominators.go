package heapgraph

// Dominators by Cooper, Harvey and Kennedy's iterative algorithm ("A Simple, Fast Dominance
// Algorithm"), the one Chrome DevTools used for years: number the nodes in DFS postorder, then
// sweep them in reverse postorder setting each one's dominator to the intersection of its
// processed retainers' dominator chains, until nothing changes (two or three sweeps on heap
// graphs). It is chosen over Lengauer-Tarjan for memory: its scratch is three uint32 columns
// (node→postorder, postorder→node, dominators in postorder space) where Lengauer-Tarjan
// needs six, and memory is the budget that binds (see bench_test.go for the times).
// Only essential edges count (see Graph.essential).

// computeDominators fills g.idom (node space). It needs the retainers; it keeps none of its
// scratch but the node→postorder column, which becomes g.idom.
func (g *Graph) computeDominators() {
	n := len(g.nodeType)
	po := make([]uint32, n) // node → postorder number, none if unreached
	for i := range po {
		po[i] = none
	}
	order := make([]uint32, n) // postorder number → node
	idom := make([]uint32, n)  // postorder space
	k := g.postorder(po, order, idom)

	// Sweep in reverse postorder; the root is last and dominates itself.
	root := k - 1
	for i := range idom[:k] {
		idom[i] = none
	}
	idom[root] = root
	for changed := true; changed; {
		changed = false
		for p := int(root) - 1; p >= 0; p-- {
			w := order[p]
			d := none
			for r := g.firstRet[w]; r < g.firstRet[w+1]; r++ {
				v := po[g.retFrom[r]]
				if v == none || idom[v] == none {
					continue // unreached, or not yet given a dominator this sweep
				}
				if d == none {
					d = v
					continue
				}
				for v != d { // the two chains meet at the nearest common dominator
					for v < d {
						v = idom[v]
					}
					for d < v {
						d = idom[d]
					}
				}
			}
			if idom[p] != d {
				idom[p] = d
				changed = true
			}
		}
	}
	// To node space, in place over po.
	for i, p := range po {
		if p != none {
			po[i] = order[idom[p]]
		}
	}
	g.idom = po
}

// postorder numbers the nodes the root reaches through essential edges, depth first, and
// answers how many. Until then, the ends of order and idom hold the DFS stack (its nodes and
// their next edges): finished nodes fill order from the front, the stack grows from the
// back, and together they never exceed the nodes seen.
func (g *Graph) postorder(po, order, cursor []uint32) uint32 {
	const onStack = none - 1
	n := uint32(len(po))
	k := uint32(0)
	top := n // the stack is [top, n)
	push := func(v uint32) {
		top--
		order[top], cursor[top] = v, g.firstEdge[v]
		po[v] = onStack
	}
	push(0)
	for top < n {
		v := order[top]
		e := cursor[top]
		if e == g.firstEdge[v+1] {
			top++
			po[v] = k
			order[k] = v
			k++
			continue
		}
		cursor[top]++
		if w := g.edgeTo[e]; po[w] == none && g.essential(v, e) {
			push(w)
		}
	}
	return k
}

// computeRetained fills g.retained from g.idom, visiting nodes in an order where a node's
// dominator comes first: the breadth-first order of the shortest paths (a dominator lies on
// every path to what it dominates, so it is nearer the root).
func (g *Graph) computeRetained(bfsOrder []uint32) {
	g.retained = make([]uint64, len(g.nodeType))
	for i, s := range g.selfSize {
		g.retained[i] = uint64(s)
	}
	for i := len(bfsOrder) - 1; i >= 0; i-- {
		w := bfsOrder[i]
		if d := g.idom[w]; d != none && w != 0 {
			g.retained[d] += g.retained[w]
		}
	}
}
