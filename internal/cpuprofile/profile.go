package cpuprofile

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"traced/internal/sourcemap"
)

// Profile is a V8 CPU profile as Profiler.stop answers it and `node --cpu-prof` writes it (a
// .cpuprofile file). Times are in microseconds.
type Profile struct {
	Nodes      []Node    `json:"nodes"`
	StartTime  float64   `json:"startTime"`
	EndTime    float64   `json:"endTime"`
	Samples    []int     `json:"samples"`    // the leaf node id of each sample
	TimeDeltas []float64 `json:"timeDeltas"` // µs from the previous sample (the first: from StartTime)
}

// Node is one call-tree node: a function at one place in the call tree.
type Node struct {
	ID            int            `json:"id"`
	CallFrame     CallFrame      `json:"callFrame"`
	HitCount      int            `json:"hitCount"`
	Children      []int          `json:"children"`
	DeoptReason   string         `json:"deoptReason"` // optional; node 20-26 leave it out
	PositionTicks []PositionTick `json:"positionTicks"`
}

// CallFrame names a node's function. Positions are 0-based, as everywhere in the CDP; a native
// or synthetic node ((program), (garbage collector), a RegExp) has script id "0", no URL and -1.
type CallFrame struct {
	FunctionName string `json:"functionName"`
	ScriptID     string `json:"scriptId"`
	URL          string `json:"url"`
	LineNumber   int    `json:"lineNumber"`
	ColumnNumber int    `json:"columnNumber"`
}

// PositionTick counts the samples taken on one source line of a node's compiled code. Unlike
// the call frame's, this line is 1-based. Code V8 inlined into the node's function keeps its own
// lines, so a line can lie in another function than the node's.
type PositionTick struct {
	Line  int `json:"line"`
	Ticks int `json:"ticks"`
}

// Names V8 gives to nodes that are not code of the program.
const (
	nameRoot    = "(root)"
	nameProgram = "(program)"
	nameIdle    = "(idle)"
	nameGC      = "(garbage collector)"
)

// ErrEmpty is returned for a profile with no nodes.
var ErrEmpty = errors.New("cpu profile has no nodes")

// Parse reads a .cpuprofile document.
func Parse(data []byte) (*Profile, error) {
	var p Profile
	if err := json.Unmarshal(data, &p); err != nil {
		return nil, fmt.Errorf("cpu profile: %w", err)
	}
	if len(p.Nodes) == 0 {
		return nil, ErrEmpty
	}
	return &p, nil
}

// tree indexes a profile: parents, and the time each sample stands for.
type tree struct {
	p      *Profile
	index  map[int]int // node id -> position in p.Nodes
	parent []int       // position of the parent, -1 for a root
	self   []float64   // µs of samples whose leaf is the node
	// sampleUs is the time each sample stands for: until the next sample (the last: until the
	// end), as DevTools counts it. Without samples, node hit counts share the duration.
	sampleUs []float64
	wallUs   float64
}

func newTree(p *Profile) *tree {
	t := &tree{p: p, index: make(map[int]int, len(p.Nodes)), parent: make([]int, len(p.Nodes)), self: make([]float64, len(p.Nodes))}
	t.wallUs = max(p.EndTime-p.StartTime, 0)
	for i, n := range p.Nodes {
		t.index[n.ID] = i
		t.parent[i] = -1
	}
	for i, n := range p.Nodes {
		for _, ch := range n.Children {
			if j, ok := t.index[ch]; ok {
				t.parent[j] = i
			}
		}
	}
	if len(p.Samples) > 0 && len(p.TimeDeltas) == len(p.Samples) {
		t.sampleUs = make([]float64, len(p.Samples))
		at := p.StartTime
		for i := range p.Samples {
			at += p.TimeDeltas[i]
			next := p.EndTime
			if i+1 < len(p.Samples) {
				next = at + p.TimeDeltas[i+1]
			}
			t.sampleUs[i] = max(next-at, 0)
			if j, ok := t.index[p.Samples[i]]; ok {
				t.self[j] += t.sampleUs[i]
			}
		}
		return t
	}
	hits := 0
	for _, n := range p.Nodes {
		hits += n.HitCount
	}
	if hits > 0 {
		for i, n := range p.Nodes {
			t.self[i] = t.wallUs * float64(n.HitCount) / float64(hits)
		}
	}
	return t
}

// frame is the node's call frame.
func (t *tree) frame(i int) CallFrame { return t.p.Nodes[i].CallFrame }

// scriptFrame is the nearest node from i up that runs a script's code (has a URL), or -1: the
// code a native node (a RegExp, a builtin) ran for.
func (t *tree) scriptFrame(i int) int {
	for ; i >= 0; i = t.parent[i] {
		if t.frame(i).URL != "" {
			return i
		}
	}
	return -1
}

// isDependency reports whether a script URL is a package's code (under node_modules).
func isDependency(url string) bool { return strings.Contains(url, "/node_modules/") }

// isSpecial reports whether a name is one of V8's synthetic nodes rather than code.
func isSpecial(name string) bool {
	switch name {
	case nameRoot, nameProgram, nameIdle, nameGC:
		return true
	}
	return false
}

// start is the 1-based position of the function a call frame names.
func (f CallFrame) start() sourcemap.Pos { return sourcemap.FromCDP(f.LineNumber, f.ColumnNumber) }

// label is the function's name as shown: anonymous functions get a placeholder.
func (f CallFrame) label() string {
	if f.FunctionName == "" {
		return "(anonymous)"
	}
	return f.FunctionName
}
