package cpuprofile

import (
	"cmp"
	"slices"
	"sort"

	"traced/internal/sourcemap"
)

// FunctionRange is where one function's source lies in its script: from its start to its end,
// 1-based (convert CDP positions with sourcemap.FromCDP). Name is what to call it when no
// profile node names it.
type FunctionRange struct {
	Name       string
	Start, End sourcemap.Pos
}

// RangeSource gives the function ranges of a script, nil when unknown. The engine answers it
// from the script's source (Debugger.getScriptSource and a scanner).
type RangeSource func(scriptID, url string) []FunctionRange

// SourceMapper maps a generated position of a script to its original one, when a source map
// says. A hot line has no column: it is asked with Column 0, meaning the line as a whole.
// ScriptMaps adapts the scripts' loaded maps.
type SourceMapper interface {
	Original(scriptID, url string, pos sourcemap.Pos) (sourcemap.Original, bool)
}

// SourceMapFunc adapts a function to a SourceMapper.
type SourceMapFunc func(scriptID, url string, pos sourcemap.Pos) (sourcemap.Original, bool)

// Original calls f.
func (f SourceMapFunc) Original(scriptID, url string, pos sourcemap.Pos) (sourcemap.Original, bool) {
	return f(scriptID, url, pos)
}

// ScriptMaps is a SourceMapper over each script's source map (nil for a script without one).
type ScriptMaps func(scriptID, url string) *sourcemap.Map

// wholeLine is the column a whole line is looked up at: past any real column, Forward answers
// the line's last mapping; at column 1 it would fall back to an earlier line's when the line's
// first mapping starts after its indentation.
const wholeLine = 1 << 30

// Original maps pos through the script's map.
func (m ScriptMaps) Original(scriptID, url string, pos sourcemap.Pos) (sourcemap.Original, bool) {
	sm := m(scriptID, url)
	if sm == nil {
		return sourcemap.Original{}, false
	}
	if pos.Column == 0 {
		pos.Column = wholeLine
	}
	o, ok := sm.Forward(pos)
	return o, ok
}

// Options are what a caller knows beyond the profile itself; each is optional.
type Options struct {
	Ranges    RangeSource  // names inlined functions at their own lines
	SourceMap SourceMapper // original positions
}

// maxLinesPerFunction caps the hot lines kept per function: the evidence is in the top few.
const maxLinesPerFunction = 5

// Function is one function's share of a profile. Times are in ms; shares in % of the profile's
// wall time.
type Function struct {
	Name     string
	ScriptID string
	URL      string              // empty for native and synthetic nodes
	Start    sourcemap.Pos       // where the function starts, 1-based; zero without a URL
	Original *sourcemap.Original // Start through the source map
	SelfMs   float64
	TotalMs  float64
	SelfPct  float64
	TotalPct float64
	Lines    []Line // hottest first, at most maxLinesPerFunction
	// InlinedInto names the functions V8 compiled this one into, when its lines were found in
	// their code rather than in a node of its own.
	InlinedInto []string
	Deopt       string // the last deopt reason V8 gave, if any
	// Caller is, for native code (a RegExp, a builtin), the nearest script function that ran it:
	// "name file:line".
	Caller string
}

// Line is a source line's share of a function's self time.
type Line struct {
	Line     int // 1-based
	Ticks    int
	Ms       float64
	Original *sourcemap.Original
}

// Dependency reports whether the function is a package's code (under node_modules).
func (f Function) Dependency() bool { return isDependency(f.URL) }

// Summary is a profile's functions, busiest first, and where the rest of the time went.
type Summary struct {
	WallMs    float64
	Samples   int
	IdleMs    float64 // waiting for the event loop: (idle)
	ProgramMs float64 // native time V8 cannot attribute to script: (program)
	GCMs      float64 // (garbage collector)
	Functions []Function
}

// funcKey identifies a function across nodes: its script and start, or for native nodes its
// name alone.
type funcKey struct {
	script    string
	name      string
	line, col int
}

// summarizer accumulates functions over one walk of the tree.
type summarizer struct {
	t      *tree
	opt    Options
	funcs  map[funcKey]*Function
	lines  map[funcKey]map[int]*Line
	ranges map[string]*rangeIndex // by script id, asked once
	// found memoises range lookups: a bundle has thousands of functions, and the same lines
	// come back on many nodes.
	found map[rangeQuery]*FunctionRange
}

// rangeQuery is a range lookup: a position, or a whole line (col -1).
type rangeQuery struct {
	script    string
	line, col int
}

// Summarize aggregates a profile by function: self time from samples (the lines of inlined
// functions moved to them, when opt.Ranges says where functions are), total time from the
// subtree, a recursive function counted once per path.
func Summarize(p *Profile, opt Options) Summary {
	return summarize(newTree(p), opt)
}

func summarize(t *tree, opt Options) Summary {
	s := &summarizer{t: t, opt: opt, funcs: map[funcKey]*Function{}, lines: map[funcKey]map[int]*Line{}, ranges: map[string]*rangeIndex{}, found: map[rangeQuery]*FunctionRange{}}
	for i := range t.p.Nodes {
		if t.parent[i] < 0 {
			s.walk(i, map[funcKey]int{})
		}
	}
	out := Summary{WallMs: t.wallUs / 1000, Samples: len(t.p.Samples)}
	for k, f := range s.funcs {
		switch f.Name {
		case nameIdle:
			out.IdleMs = f.SelfMs
		case nameProgram:
			out.ProgramMs = f.SelfMs
		case nameGC:
			out.GCMs = f.SelfMs
		}
		if isSpecial(f.Name) {
			continue
		}
		for _, l := range s.lines[k] {
			f.Lines = append(f.Lines, *l)
		}
		slices.SortFunc(f.Lines, func(a, b Line) int { return cmp.Or(cmp.Compare(b.Ticks, a.Ticks), cmp.Compare(a.Line, b.Line)) })
		f.Lines = f.Lines[:min(len(f.Lines), maxLinesPerFunction)]
		if out.WallMs > 0 {
			f.SelfPct, f.TotalPct = 100*f.SelfMs/out.WallMs, 100*f.TotalMs/out.WallMs
		}
		out.Functions = append(out.Functions, *f)
	}
	slices.SortFunc(out.Functions, func(a, b Function) int {
		return cmp.Or(cmp.Compare(b.SelfMs, a.SelfMs), cmp.Compare(b.TotalMs, a.TotalMs), cmp.Compare(a.Name, b.Name), cmp.Compare(a.URL, b.URL), cmp.Compare(a.Start.Line, b.Start.Line), cmp.Compare(a.Start.Column, b.Start.Column))
	})
	return out
}

// walk adds node i and its subtree, onPath counting the functions of the current stack, and
// returns the subtree's time in µs.
func (s *summarizer) walk(i int, onPath map[funcKey]int) float64 {
	n := s.t.p.Nodes[i]
	k, own := s.nodeFunction(i)
	name := n.CallFrame.label()
	if own != nil && n.CallFrame.FunctionName == "" && own.Name != "" {
		name = own.Name // the scanner may name what V8 leaves anonymous
	}
	f := s.function(k, name, i, n.CallFrame.start())
	if n.DeoptReason != "" {
		f.Deopt = n.DeoptReason
	}
	onPath[k]++
	s.addSelf(i, k, f, own, onPath)
	total := s.t.self[i]
	for _, ch := range n.Children {
		if j, ok := s.t.index[ch]; ok {
			total += s.walk(j, onPath)
		}
	}
	if onPath[k]--; onPath[k] == 0 { // the outermost call of a recursion holds the total
		f.TotalMs += total / 1000
	}
	return total
}

// addSelf shares node i's self time among its lines: a line inside another function's range
// (code V8 inlined) goes to that function, as self and total time.
func (s *summarizer) addSelf(i int, k funcKey, f *Function, own *FunctionRange, onPath map[funcKey]int) {
	n := s.t.p.Nodes[i]
	selfUs := s.t.self[i]
	ticks := 0
	for _, pt := range n.PositionTicks {
		ticks += pt.Ticks
	}
	if ticks == 0 {
		f.SelfMs += selfUs / 1000
		return
	}
	for _, pt := range n.PositionTicks {
		ms := selfUs / 1000 * float64(pt.Ticks) / float64(ticks)
		lk, lf := k, f
		if r := s.innermost(n.CallFrame, pt.Line); own != nil && r != nil && *r != *own {
			lk = funcKey{script: n.CallFrame.ScriptID, line: r.Start.Line, col: r.Start.Column}
			lf = s.function(lk, cmp.Or(r.Name, "(anonymous)"), i, r.Start)
			if !slices.Contains(lf.InlinedInto, f.Name) {
				lf.InlinedInto = append(lf.InlinedInto, f.Name)
			}
			if onPath[lk] == 0 {
				lf.TotalMs += ms
			}
		}
		lf.SelfMs += ms
		s.addLine(lk, n.CallFrame, pt, ms)
	}
}

// addLine counts a position tick on the line of function k.
func (s *summarizer) addLine(k funcKey, f CallFrame, pt PositionTick, ms float64) {
	byLine := s.lines[k]
	if byLine == nil {
		byLine = map[int]*Line{}
		s.lines[k] = byLine
	}
	l := byLine[pt.Line]
	if l == nil {
		l = &Line{Line: pt.Line}
		if s.opt.SourceMap != nil {
			if o, ok := s.opt.SourceMap.Original(f.ScriptID, f.URL, sourcemap.Pos{Line: pt.Line}); ok {
				l.Original = &o
			}
		}
		byLine[pt.Line] = l
	}
	l.Ticks += pt.Ticks
	l.Ms += ms
}

// nodeFunction keys node i's function, and finds its range when the caller gave ranges.
func (s *summarizer) nodeFunction(i int) (funcKey, *FunctionRange) {
	f := s.t.frame(i)
	if f.URL == "" {
		return funcKey{name: f.FunctionName}, nil
	}
	if r := s.enclosing(f); r != nil {
		return funcKey{script: f.ScriptID, line: r.Start.Line, col: r.Start.Column}, r
	}
	return funcKey{script: f.ScriptID, name: f.FunctionName, line: f.LineNumber, col: f.ColumnNumber}, nil
}

// function is the entry for k, made from node i when new, starting at start when in a script.
func (s *summarizer) function(k funcKey, name string, i int, start sourcemap.Pos) *Function {
	if f := s.funcs[k]; f != nil {
		if f.Name == "(anonymous)" && name != "(anonymous)" {
			f.Name = name // a node's name beats a range's placeholder
		}
		return f
	}
	cf := s.t.frame(i)
	f := &Function{Name: name, ScriptID: cf.ScriptID, URL: cf.URL}
	if cf.URL != "" {
		f.Start = start
		if s.opt.SourceMap != nil {
			if o, ok := s.opt.SourceMap.Original(cf.ScriptID, cf.URL, f.Start); ok {
				f.Original = &o
			}
		}
	} else if j := s.t.scriptFrame(i); j >= 0 && !isSpecial(name) {
		f.Caller = frameLabel(s.t.frame(j))
	}
	s.funcs[k] = f
	return f
}

// rangeIndex is a script's function ranges sorted by start, each with the range it nests in,
// so that the innermost range holding a position is found by a binary search and a short
// climb rather than a scan: a bundle has thousands of functions.
type rangeIndex struct {
	rs     []FunctionRange
	parent []int // index of the innermost range holding rs[i]'s start, or -1
}

func newRangeIndex(rs []FunctionRange) *rangeIndex {
	ix := &rangeIndex{rs: slices.Clone(rs), parent: make([]int, len(rs))}
	slices.SortStableFunc(ix.rs, func(a, b FunctionRange) int {
		return cmp.Or(cmp.Compare(a.Start.Line, b.Start.Line), cmp.Compare(a.Start.Column, b.Start.Column))
	})
	var open []int // ranges holding the current start, outermost first
	for i, r := range ix.rs {
		for len(open) > 0 && before(ix.rs[open[len(open)-1]].End, r.Start) {
			open = open[:len(open)-1]
		}
		ix.parent[i] = -1
		if len(open) > 0 {
			ix.parent[i] = open[len(open)-1]
		}
		open = append(open, i)
	}
	return ix
}

// innermost is the latest-starting range that starts at or before at and holds it by holds.
func (ix *rangeIndex) innermost(at sourcemap.Pos, holds func(FunctionRange) bool) *FunctionRange {
	i := sort.Search(len(ix.rs), func(i int) bool { return before(at, ix.rs[i].Start) }) - 1
	for ; i >= 0; i = ix.parent[i] {
		if holds(ix.rs[i]) {
			return &ix.rs[i]
		}
	}
	return nil
}

// scriptRanges asks the caller once per script.
func (s *summarizer) scriptRanges(f CallFrame) *rangeIndex {
	if s.opt.Ranges == nil {
		return nil
	}
	ix, ok := s.ranges[f.ScriptID]
	if !ok {
		ix = newRangeIndex(s.opt.Ranges(f.ScriptID, f.URL))
		s.ranges[f.ScriptID] = ix
	}
	return ix
}

// enclosing is the innermost range that holds the call frame's start.
func (s *summarizer) enclosing(f CallFrame) *FunctionRange {
	at := f.start()
	return s.lookup(f, rangeQuery{f.ScriptID, at.Line, at.Column}, at, func(r FunctionRange) bool {
		return !before(at, r.Start) && !before(r.End, at)
	})
}

// innermost is the innermost range that holds a 1-based line, by lines alone (position ticks
// carry no column): of the ranges on the line, the last to start.
func (s *summarizer) innermost(f CallFrame, line int) *FunctionRange {
	return s.lookup(f, rangeQuery{f.ScriptID, line, -1}, sourcemap.Pos{Line: line, Column: wholeLine}, func(r FunctionRange) bool {
		return r.Start.Line <= line && line <= r.End.Line
	})
}

// lookup answers a query once: the innermost range of f's script, from at, that holds.
func (s *summarizer) lookup(f CallFrame, q rangeQuery, at sourcemap.Pos, holds func(FunctionRange) bool) *FunctionRange {
	if r, ok := s.found[q]; ok {
		return r
	}
	var r *FunctionRange
	if ix := s.scriptRanges(f); ix != nil {
		r = ix.innermost(at, holds)
	}
	s.found[q] = r
	return r
}

// before reports whether a comes before b.
func before(a, b sourcemap.Pos) bool {
	return a.Line < b.Line || a.Line == b.Line && a.Column < b.Column
}
