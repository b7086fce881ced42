package heapgraph

import (
	"slices"
	"strings"
	"testing"
	"unicode/utf8"
)

// tinyHeader is the meta of hand-made snapshots: five node fields, three edge fields.
const tinyHeader = `{"snapshot":{"meta":{"node_fields":["type","name","id","self_size","edge_count"],` +
	`"node_types":[["hidden","object","synthetic"]],"edge_fields":["type","name_or_index","to_node"],` +
	`"edge_types":[["context","element","property","internal","hidden","shortcut","weak"]]},` +
	`"node_count":%d,"edge_count":%d},`

// A diamond under (GC roots), a shortcut back up (not a retainer), a weak edge and an
// inspector handle to P (neither retains it).
//
//	root → (GC roots) → A → B → D
//	                      ↘ C ↗   C ⇢ P (weak)   (Global handles) ⇢ P (DevTools console)
const diamond = `{"snapshot":{"meta":{"node_fields":["type","name","id","self_size","edge_count"],` +
	`"node_types":[["hidden","object","synthetic"]],"edge_fields":["type","name_or_index","to_node"],` +
	`"edge_types":[["context","element","property","internal","hidden","shortcut","weak"]]},` +
	`"node_count":8,"edge_count":10},` +
	`"nodes":[2,0,1,0,1, 2,1,3,0,2, 2,2,5,0,1, 1,3,7,10,2, 1,4,9,20,1, 1,5,11,30,2, 1,6,13,40,1, 1,7,15,50,0],` +
	// root: element 1 → (GC roots); (GC roots): element → (Global handles), element → A;
	// (Global handles): internal "7 / DevTools console" → P; A: b → B, c → C; B: d → D;
	// C: d → D, weak → P; D: shortcut "up" → A.
	`"edges":[1,1,5, 1,1,10, 1,2,15, 3,8,35, 2,9,20, 2,10,25, 2,11,30, 2,11,30, 6,1,35, 5,12,15],` +
	`"strings":["","(GC roots)","(Global handles)","A","B","C","D","P","7 / DevTools console","b","c","d","up"]}`

func TestDominatorsAndRetainedSizes(t *testing.T) {
	g, err := Read(strings.NewReader(diamond))
	if err != nil {
		t.Fatal(err)
	}
	const root, gcRoots, a, b, c, d, p = 0, 1, 3, 4, 5, 6, 7
	for n, want := range map[uint32]uint32{gcRoots: root, a: gcRoots, b: a, c: a, d: a} {
		if got, ok := g.Dominator(n); !ok || got != want {
			t.Errorf("idom(%s) = %d, %v; want %d", g.Name(n), got, ok, want)
		}
	}
	for n, want := range map[uint32]uint64{d: 40, b: 20, c: 30, a: 100, root: 100, p: 50} {
		if got := g.RetainedSize(n); got != want {
			t.Errorf("retained(%s) = %d, want %d", g.Name(n), got, want)
		}
	}
	if _, ok := g.Dominator(p); ok || g.Reachable(p) {
		t.Errorf("P is held: only a weak edge and an inspector handle reach it")
	}
	path, ok := g.PathTo(d)
	if !ok {
		t.Fatal("no path to D")
	}
	if got := g.Render(path, nil, false); got != "A.b → B.d → D" {
		t.Errorf("path to D: %q", got)
	}
}

// A chain of nodes where Lengauer-Tarjan's semi-dominators differ from the DFS parents: the
// classic example of the paper (R → A,B,C; ...), checked against its published dominators.
func TestDominatorsOfTheLengauerTarjanExample(t *testing.T) {
	names := []string{"R", "A", "B", "C", "D", "E", "F", "G", "H", "I", "J", "K", "L"}
	succ := map[string][]string{
		"R": {"A", "B", "C"}, "A": {"D"}, "B": {"A", "D", "E"}, "C": {"F", "G"}, "D": {"L"},
		"E": {"H"}, "F": {"I"}, "G": {"I", "J"}, "H": {"E", "K"}, "I": {"K"}, "J": {"I"},
		"K": {"I", "R"}, "L": {"H"},
	}
	want := map[string]string{
		"A": "R", "B": "R", "C": "R", "D": "R", "E": "R", "F": "C", "G": "C", "H": "R",
		"I": "R", "J": "G", "K": "R", "L": "D",
	}
	g, err := Read(strings.NewReader(buildSnapshot(names, succ)))
	if err != nil {
		t.Fatal(err)
	}
	for i, name := range names[1:] {
		d, ok := g.Dominator(uint32(i + 1))
		if !ok || names[d] != want[name] {
			t.Errorf("idom(%s) = %s, want %s", name, names[d], want[name])
		}
	}
}

// buildSnapshot writes a snapshot of objects named names (the first is the root) with
// property edges succ.
func buildSnapshot(names []string, succ map[string][]string) string {
	index := map[string]int{}
	for i, n := range names {
		index[n] = i
	}
	var nodes, edges []string
	count := 0
	for i, n := range names {
		nodes = append(nodes, itoa(1), itoa(i), itoa(2*i+1), "1", itoa(len(succ[n])))
		for _, s := range succ[n] {
			edges = append(edges, "2", itoa(len(names)), itoa(index[s]*5))
			count++
		}
	}
	quoted := make([]string, 0, len(names)+1)
	for _, n := range append(names, "p") {
		quoted = append(quoted, `"`+n+`"`)
	}
	return strings.Replace(strings.Replace(tinyHeader, "%d", itoa(len(names)), 1), "%d", itoa(count), 1) +
		`"nodes":[` + strings.Join(nodes, ",") + `],"edges":[` + strings.Join(edges, ",") + `],` +
		`"strings":[` + strings.Join(quoted, ",") + `]}`
}

func itoa(i int) string {
	const digits = "0123456789"
	if i < 10 {
		return digits[i : i+1]
	}
	return itoa(i/10) + digits[i%10:i%10+1]
}

func TestIgnoredEdgeNames(t *testing.T) {
	if id, ok := ephemeronTableID("3 / part of key (Object @41) -> value (Session @43) pair in WeakMap (table @39)"); !ok || id != 39 {
		t.Errorf("ephemeron table id = %d, %v", id, ok)
	}
	if _, ok := ephemeronTableID("table"); ok {
		t.Error("a plain name read as a WeakMap entry")
	}
	if !isHandleLabel("50 / DevTools console") || isHandleLabel("console") {
		t.Error("inspector handle labels")
	}
}

func TestTextIsBounded(t *testing.T) {
	parts := []string{strings.Repeat("a", 100) + "\n", strings.Repeat("b", 100) + "\n", "c\n"}
	if got := bounded("head\n", parts, 150); len(got) > 150 || !strings.HasSuffix(got, "(2 more: ask for a larger top)\n") {
		t.Errorf("bounded: %q", got)
	}
	long := strings.Repeat("é", 400)
	if got := cut(long); len(got) > maxPathText || !strings.Contains(got, " … ") || !utf8.ValidString(got) {
		t.Errorf("cut: %d bytes, valid %v", len(got), utf8.ValidString(got))
	}
	if count(1234567) != "1,234,567" || bytesText(3<<20) != "3.0 MB" {
		t.Error("number formats")
	}
}

// On a real snapshot, each sampled node's immediate dominator is checked by definition: it
// lies on the node's shortest path, the root reaches the node without any node of the path
// between them, but not without it.
func TestDominatorsOfARealSnapshot(t *testing.T) {
	_, g := leakWindow(t, "emitter")
	reaches := func(avoid, target uint32) bool {
		seen := make([]bool, g.NodeCount())
		seen[0] = true
		queue := []uint32{0}
		for len(queue) > 0 {
			v := queue[0]
			queue = queue[1:]
			if v == target {
				return true
			}
			for e := g.firstEdge[v]; e < g.firstEdge[v+1]; e++ {
				if w := g.edgeTo[e]; !seen[w] && w != avoid && g.essential(v, e) {
					seen[w] = true
					queue = append(queue, w)
				}
			}
		}
		return false
	}
	checked := 0
	for n := uint32(1); n < uint32(g.NodeCount()) && checked < 25; n += uint32(g.NodeCount()/25) | 1 {
		p, ok := g.PathTo(n)
		if !ok {
			continue
		}
		checked++
		d, _ := g.Dominator(n)
		nodes := g.pathNodes(p)
		at := slices.Index(nodes, d)
		if at < 0 {
			t.Errorf("idom(%d) = %d is not on its path %v", n, d, nodes)
			continue
		}
		if d != 0 && reaches(d, n) {
			t.Errorf("idom(%d) = %d does not dominate it", n, d)
		}
		for _, between := range nodes[at+1 : len(nodes)-1] {
			if !reaches(between, n) {
				t.Errorf("%d dominates %d below its idom %d", between, n, d)
			}
		}
	}
	if checked < 20 {
		t.Errorf("checked %d nodes", checked)
	}
}
