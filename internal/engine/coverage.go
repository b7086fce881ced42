package engine

import (
	"context"
	"fmt"
	"sort"
	"strings"
)

// StartCoverage starts precise coverage (Profiler.startPreciseCoverage) with call counts;
// detailed asks for block-level ranges, not only functions.
func (s *Session) StartCoverage(ctx context.Context, detailed bool) error {
	_, c, err := s.pauseNow()
	if err != nil {
		return err
	}
	if err := c.Call(ctx, "Profiler.enable", nil, nil); err != nil {
		return fmt.Errorf("coverage start: %w", err)
	}
	if err := c.Call(ctx, "Profiler.startPreciseCoverage", map[string]any{"callCount": true, "detailed": detailed}, nil); err != nil {
		return fmt.Errorf("coverage start: %w", err)
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
	if spec.Stop {
		if err := c.Call(ctx, "Profiler.stopPreciseCoverage", nil, nil); err != nil {
			return nil, fmt.Errorf("coverage stop: %w", err)
		}
	}
	out := []ScriptCoverage{}
	for _, sc := range res.Result {
		file := fileOf(sc.URL, s.cwd)
		if InternalURL(sc.URL) || file == "" || (spec.File != "" && file != spec.File && sc.URL != spec.File) {
			continue
		}
		var src struct {
			ScriptSource string `json:"scriptSource"`
		}
		if err := c.Call(ctx, "Debugger.getScriptSource", map[string]any{"scriptId": sc.ScriptID}, &src); err != nil {
			continue // gone (a script of a destroyed context): nothing to map its offsets to
		}
		out = append(out, coverageOf(sc, file, src.ScriptSource, spec.Uncovered))
	}
	return out, nil
}

// coverageOf maps one script's ranges to lines. The seam for source maps: lines here are the
// generated script's.
func coverageOf(sc scriptCoverage, file, src string, uncoveredOnly bool) ScriptCoverage {
	starts := []int{0} // offset of each line
	for i := 0; i < len(src); i++ {
		if src[i] == '\n' {
			starts = append(starts, i+1)
		}
	}
	lineOf := func(off int) int { return sort.Search(len(starts), func(i int) bool { return starts[i] > off }) }
	out := ScriptCoverage{File: file, URL: sc.URL, Functions: []FunctionCoverage{}, Uncovered: []LineRange{}}
	var ranges []coverageRange
	for _, f := range sc.Functions {
		if len(f.Ranges) == 0 {
			continue
		}
		ranges = append(ranges, f.Ranges...)
		r := f.Ranges[0]
		if f.Name == "" && r.Start == 0 {
			continue // the script's own top level
		}
		if uncoveredOnly && r.Count > 0 {
			continue
		}
		name := f.Name
		if name == "" {
			name = "(anonymous)"
		}
		out.Functions = append(out.Functions, FunctionCoverage{Function: name, Line: lineOf(r.Start), Count: r.Count})
	}
	// A line is uncovered when the innermost range holding its first character never ran.
	open := -1 // the index of the uncovered range being extended
	for i, start := range starts {
		end := len(src)
		if i+1 < len(starts) {
			end = starts[i+1] - 1
		}
		text := src[start:end]
		trimmed := strings.TrimLeft(text, " \t")
		if strings.TrimSpace(trimmed) == "" {
			continue // a blank line neither ends nor starts a range
		}
		off := start + len(text) - len(trimmed)
		best, count := -1, 1
		for _, r := range ranges {
			if r.Start <= off && off < r.End && (best < 0 || r.End-r.Start < best) {
				best, count = r.End-r.Start, r.Count
			}
		}
		switch {
		case count == 0 && open >= 0:
			out.Uncovered[open].End = i + 1
		case count == 0:
			out.Uncovered = append(out.Uncovered, LineRange{Start: i + 1, End: i + 1})
			open = len(out.Uncovered) - 1
		default:
			open = -1
		}
	}
	return out
}
