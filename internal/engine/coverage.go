package engine

import (
	"cmp"
	"context"
	"fmt"
	"sort"
	"strings"

	"traced/internal/sourcemap"
)

// StartCoverage starts precise coverage (Profiler.startPreciseCoverage) with call counts;
// detailed asks for block-level ranges, not only functions.
func (s *Session) StartCoverage(ctx context.Context, detailed bool) error {
	_, c, err := s.pauseNow()
	if err != nil {
		return err
	}
	if !s.adoptLaunchCoverage(detailed) {
		if err := c.Call(ctx, "Profiler.enable", nil, nil); err != nil {
			return fmt.Errorf("coverage start: %w", err)
		}
		if err := c.Call(ctx, "Profiler.startPreciseCoverage", map[string]any{"callCount": true, "detailed": detailed}, nil); err != nil {
			return fmt.Errorf("coverage start: %w", err)
		}
	}
	_, err = s.setFlag(coveringFlag, true)
	return err
}

// CoverageSpec asks for coverage: of one file or all user scripts, everything or only what
// never ran; stop ends the collection after this take.
type CoverageSpec struct {
	File      string
	Uncovered bool
	Stop      bool
}

// FunctionCoverage is one function and how often it ran.
type FunctionCoverage struct {
	Function string `json:"function"`
	Line     int    `json:"line"` // 1-based, where it starts
	Count    int    `json:"count"`
}

// LineRange is lines start..end, 1-based, inclusive.
type LineRange struct {
	Start int `json:"start"`
	End   int `json:"end"`
}

// ScriptCoverage is the coverage of one user script.
type ScriptCoverage struct {
	File      string             `json:"file"`
	URL       string             `json:"url"`
	Functions []FunctionCoverage `json:"functions"`
	Uncovered []LineRange        `json:"uncovered"` // lines whose innermost range never ran
	// Generated is the script node ran when File is an original source its map names.
	Generated string `json:"generated,omitempty"`
}

type coverageRange struct {
	Start int `json:"startOffset"`
	End   int `json:"endOffset"`
	Count int `json:"count"`
}

type scriptCoverage struct {
	ScriptID  string `json:"scriptId"`
	URL       string `json:"url"`
	Functions []struct {
		Name   string          `json:"functionName"`
		Ranges []coverageRange `json:"ranges"`
	} `json:"functions"`
}

// TakeCoverage reads precise coverage (Profiler.takePreciseCoverage) of the user's scripts,
// node's own left out, with offsets turned into 1-based lines of each script's source.
func (s *Session) TakeCoverage(ctx context.Context, spec CoverageSpec) ([]ScriptCoverage, error) {
	_, c, err := s.pauseNow()
	if err != nil {
		return nil, err
	}
	on, err := s.setFlag(coveringFlag, !spec.Stop)
	if err == nil && !on {
		s.setFlag(coveringFlag, false)
		err = fmt.Errorf("%w: precise coverage (POST coverage/start)", ErrNotStarted)
	}
	if err != nil {
		return nil, err
	}
	var res struct {
		Result []scriptCoverage `json:"result"`
	}
	if err := c.Call(ctx, "Profiler.takePreciseCoverage", nil, &res); err != nil {
		return nil, fmt.Errorf("coverage: %w", err)
	}
	s.mu.Lock()
	cut := s.coverFunctionsOnly
	if spec.Stop {
		s.coverFunctionsOnly = false
	}
	s.mu.Unlock()
	if cut {
		functionsOnly(res.Result)
	}
	if spec.Stop {
		if err := c.Call(ctx, "Profiler.stopPreciseCoverage", nil, nil); err != nil {
			return nil, fmt.Errorf("coverage stop: %w", err)
		}
	}
	out := []ScriptCoverage{}
	for _, sc := range res.Result {
		file := fileOf(sc.URL, s.cwd)
		if InternalURL(sc.URL) || file == "" {
			continue
		}
		var src struct {
			ScriptSource string `json:"scriptSource"`
		}
		if err := c.Call(ctx, "Debugger.getScriptSource", map[string]any{"scriptId": sc.ScriptID}, &src); err != nil {
			continue // gone (a script of a destroyed context): nothing to map its offsets to
		}
		if m := s.maps.of(sc.ScriptID); m != nil {
			for _, mc := range s.mappedCoverage(sc, file, src.ScriptSource, m, spec.Uncovered) {
				if spec.File == "" || mc.File == spec.File || mc.Generated == spec.File || mc.URL == spec.File {
					out = append(out, mc)
				}
			}
			continue
		}
		if spec.File != "" && file != spec.File && sc.URL != spec.File {
			continue
		}
		out = append(out, coverageOf(sc, file, src.ScriptSource, spec.Uncovered))
	}
	return out, nil
}

// coverageIndex answers where offsets of one script's source are and which range holds them.
type coverageIndex struct {
	src    string
	starts []int // offset of each line
	ranges []coverageRange
}

func newCoverageIndex(sc scriptCoverage, src string) *coverageIndex {
	ix := &coverageIndex{src: src, starts: []int{0}}
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
func (ix *coverageIndex) lineOf(off int) int {
	return sort.Search(len(ix.starts), func(i int) bool { return ix.starts[i] > off })
}

// posOf is the 1-based position of an offset.
func (ix *coverageIndex) posOf(off int) sourcemap.Pos {
	l := ix.lineOf(off)
	return sourcemap.Pos{Line: l, Column: off - ix.starts[l-1] + 1}
}

// offsetOf is the offset of a 1-based position, -1 past the end.
func (ix *coverageIndex) offsetOf(p sourcemap.Pos) int {
	if p.Line < 1 || p.Line > len(ix.starts) {
		return -1
	}
	return ix.starts[p.Line-1] + p.Column - 1
}

// countAt is the count of the innermost range holding off (1 outside every range: V8 leaves
// out what ran as part of its parent).
func (ix *coverageIndex) countAt(off int) int {
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
func functionsOf(sc scriptCoverage, uncoveredOnly bool, add func(name string, start, count int)) {
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

// coverageOf maps one script's ranges to lines of the script itself.
func coverageOf(sc scriptCoverage, file, src string, uncoveredOnly bool) ScriptCoverage {
	ix := newCoverageIndex(sc, src)
	out := ScriptCoverage{File: file, URL: sc.URL, Functions: []FunctionCoverage{}}
	functionsOf(sc, uncoveredOnly, func(name string, start, count int) {
		out.Functions = append(out.Functions, FunctionCoverage{Function: name, Line: ix.lineOf(start), Count: count})
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

// mappedCoverage maps one script's ranges to the lines of the original sources its map names,
// one ScriptCoverage per source: an original line is uncovered when none of the generated code
// it became ran.
func (s *Session) mappedCoverage(sc scriptCoverage, genFile, src string, m *sourcemap.Map, uncoveredOnly bool) []ScriptCoverage {
	ix := newCoverageIndex(sc, src)
	bySource := map[string]*ScriptCoverage{}
	var order []string
	for _, source := range m.Sources() {
		bySource[source] = &ScriptCoverage{File: s.sourceName(source), URL: sourceURL(source), Generated: genFile,
			Functions: []FunctionCoverage{}, Uncovered: []LineRange{}}
		order = append(order, source)
	}
	functionsOf(sc, uncoveredOnly, func(name string, start, count int) {
		if o, ok := m.Forward(ix.posOf(start)); ok && bySource[o.Source] != nil {
			c := bySource[o.Source]
			c.Functions = append(c.Functions, FunctionCoverage{Function: name, Line: o.Line, Count: count})
		}
	})
	out := make([]ScriptCoverage, 0, len(order))
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
