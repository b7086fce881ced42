// Package coverage turns V8's precise coverage of a script (byte ranges of its source with
// counts) into what a reader wants: the functions and how often each ran, and the ranges of
// lines that never ran, of the script itself or of the original sources its source map names.
// It is arithmetic on offsets and lines, and knows nothing of the inspector connection.
package coverage

import (
	"cmp"
	"sort"
	"strings"

	"traced/internal/sourcemap"
)

// Function is one function and how often it ran.
type Function struct {
	Function string `json:"function"`
	Line     int    `json:"line"` // 1-based, where it starts
	Count    int    `json:"count"`
}

// LineRange is lines start..end, 1-based, inclusive.
type LineRange struct {
	Start int `json:"start"`
	End   int `json:"end"`
}

// Script is the coverage of one user script.
type Script struct {
	File      string      `json:"file"`
	URL       string      `json:"url"`
	Functions []Function  `json:"functions"`
	Uncovered []LineRange `json:"uncovered"` // lines whose innermost range never ran
	// Generated is the script node ran when File is an original source its map names.
	Generated string `json:"generated,omitempty"`
}

// Range is a block of a script's source as V8 counts it: byte offsets and how often it ran
// (Profiler.CoverageRange).
type Range struct {
	Start int `json:"startOffset"`
	End   int `json:"endOffset"`
	Count int `json:"count"`
}

// RawScript is V8's coverage of one script (Profiler.ScriptCoverage).
type RawScript struct {
	ScriptID  string        `json:"scriptId"`
	URL       string        `json:"url"`
	Functions []RawFunction `json:"functions"`
}

// RawFunction is V8's coverage of one function: its own range first, then its blocks
// (Profiler.FunctionCoverage).
type RawFunction struct {
	Name   string  `json:"functionName"`
	Ranges []Range `json:"ranges"`
}

// index answers where offsets of one script's source are and which range holds them.
type index struct {
	src    string
	starts []int // offset of each line
	ranges []Range
}

func newIndex(sc RawScript, src string) *index {
	ix := &index{src: src, starts: []int{0}}
	for i := 0; i < len(src); i++ {
		if src[i] == '\n' {
			ix.starts = append(ix.starts, i+1)
		}
	}
	for _, f := range sc.Functions {
		ix.ranges = append(ix.ranges, f.Ranges...)
	}
	return ix
}

// lineOf is the 1-based line of an offset.
func (ix *index) lineOf(off int) int {
	return sort.Search(len(ix.starts), func(i int) bool { return ix.starts[i] > off })
}

// posOf is the 1-based position of an offset.
func (ix *index) posOf(off int) sourcemap.Pos {
	l := ix.lineOf(off)
	return sourcemap.Pos{Line: l, Column: off - ix.starts[l-1] + 1}
}

// offsetOf is the offset of a 1-based position, -1 past the end.
func (ix *index) offsetOf(p sourcemap.Pos) int {
	if p.Line < 1 || p.Line > len(ix.starts) {
		return -1
	}
	return ix.starts[p.Line-1] + p.Column - 1
}

// countAt is the count of the innermost range holding off (1 outside every range: V8 leaves
// out what ran as part of its parent).
func (ix *index) countAt(off int) int {
	best, count := -1, 1
	for _, r := range ix.ranges {
		if r.Start <= off && off < r.End && (best < 0 || r.End-r.Start < best) {
			best, count = r.End-r.Start, r.Count
		}
	}
	return count
}

// functionsOf calls add for each function of a script but its top level, uncoveredOnly
// leaving out those that ran.
func functionsOf(sc RawScript, uncoveredOnly bool, add func(name string, start, count int)) {
	for _, f := range sc.Functions {
		if len(f.Ranges) == 0 {
			continue
		}
		r := f.Ranges[0]
		if f.Name == "" && r.Start == 0 {
			continue // the script's own top level
		}
		if uncoveredOnly && r.Count > 0 {
			continue
		}
		add(cmp.Or(f.Name, "(anonymous)"), r.Start, r.Count)
	}
}

// lineRanges folds lines (ascending) with whether each ran into ranges of lines that never
// ran; lines not listed (blank, or with no mapping) neither end nor start a range.
type lineRanges struct {
	out  []LineRange
	open bool
}

func (lr *lineRanges) add(line int, ran bool) {
	switch {
	case ran:
		lr.open = false
	case lr.open:
		lr.out[len(lr.out)-1].End = line
	default:
		lr.out = append(lr.out, LineRange{Start: line, End: line})
		lr.open = true
	}
}

// Of maps one script's ranges to lines of the script itself, named file; uncoveredOnly keeps
// only the functions that never ran.
func Of(sc RawScript, file, src string, uncoveredOnly bool) Script {
	ix := newIndex(sc, src)
	out := Script{File: file, URL: sc.URL, Functions: []Function{}}
	functionsOf(sc, uncoveredOnly, func(name string, start, count int) {
		out.Functions = append(out.Functions, Function{Function: name, Line: ix.lineOf(start), Count: count})
	})
	// A line is uncovered when the innermost range holding its first character never ran.
	var lr lineRanges
	for i, start := range ix.starts {
		end := len(src)
		if i+1 < len(ix.starts) {
			end = ix.starts[i+1] - 1
		}
		text := src[start:end]
		trimmed := strings.TrimLeft(text, " \t")
		if strings.TrimSpace(trimmed) == "" {
			continue
		}
		lr.add(i+1, ix.countAt(start+len(text)-len(trimmed)) > 0)
	}
	out.Uncovered = append([]LineRange{}, lr.out...)
	return out
}

// Mapped maps one script's ranges to the lines of the original sources its map names,
// one Script per source: an original line is uncovered when none of the generated code
// it became ran. name gives a source's file name and URL.
func Mapped(sc RawScript, genFile, src string, m *sourcemap.Map, uncoveredOnly bool, name func(source string) (file, url string)) []Script {
	ix := newIndex(sc, src)
	bySource := map[string]*Script{}
	var order []string
	for _, source := range m.Sources() {
		file, url := name(source)
		bySource[source] = &Script{File: file, URL: url, Generated: genFile,
			Functions: []Function{}, Uncovered: []LineRange{}}
		order = append(order, source)
	}
	functionsOf(sc, uncoveredOnly, func(name string, start, count int) {
		if o, ok := m.Forward(ix.posOf(start)); ok && bySource[o.Source] != nil {
			c := bySource[o.Source]
			c.Functions = append(c.Functions, Function{Function: name, Line: o.Line, Count: count})
		}
	})
	out := make([]Script, 0, len(order))
	for _, source := range order {
		var lr lineRanges
		for _, line := range m.MappedLines(source) {
			ran := false
			for _, g := range m.Reverse(source, line) {
				if off := ix.offsetOf(g); off >= 0 && ix.countAt(off) > 0 {
					ran = true
					break
				}
			}
			lr.add(line, ran)
		}
		c := bySource[source]
		c.Uncovered = append(c.Uncovered, lr.out...)
		out = append(out, *c)
	}
	return out
}

// FunctionsOnly keeps each function's own range: what a function-level take shows when the
// collection runs in block mode (V8 keeps block mode once a launch started it).
func FunctionsOnly(scripts []RawScript) {
	for i := range scripts {
		for j := range scripts[i].Functions {
			f := &scripts[i].Functions[j]
			f.Ranges = f.Ranges[:min(len(f.Ranges), 1)]
		}
	}
}
