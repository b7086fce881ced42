package engine

import (
	"cmp"
	"context"
	"slices"
	"strings"

	"traced/internal/cdp/proto"
	"traced/internal/cpuprofile"
	"traced/internal/jsscan"
	"traced/internal/sourcemap"
)

// FunctionTime is one function's share of a CPU profile.
type FunctionTime struct {
	Function string
	File     string
	Line     int // 1-based, through the source map when one maps it
	SelfMs   float64
	SelfPct  float64
	TotalMs  float64
	TotalPct float64
	Deopt    string    // why V8 deoptimised it, when it says
	Lines    []HotLine // its hottest lines, hottest first
	// InlinedInto names the functions V8 compiled this one into: its lines' ticks were found
	// in their code and moved to it.
	InlinedInto []string
	RunBy       string // native code (a RegExp, a builtin): the script function that ran it
}

// HotLine is one source line's share of a function's self time.
type HotLine struct {
	File  string // through the source map when one maps the line
	Line  int    // 1-based
	Ticks int
	Pct   float64 // of the function's self time
}

// CPUProfile answers a stopped CPU profile: the top functions by self and by total time, and
// the text of the summary (hot lines, inlining, deopt reasons) within cpuprofile.MaxTextBytes.
type CPUProfile struct {
	Ref        string
	Download   string
	DurationMs float64
	Samples    int
	IdleMs     float64
	GCMs       float64
	ProgramMs  float64
	Self       []FunctionTime
	Total      []FunctionTime
	Text       string
}

// summarizeProfile aggregates a profile by function (cpuprofile.Summarize, with the target's
// function ranges and source maps) and keeps the top ones by self and by total time.
func (pf Profiler) summarizeProfile(ctx context.Context, c clientCaller, p *cpuprofile.Profile, top int) CPUProfile {
	sum := cpuprofile.Summarize(p, pf.profileOptions(ctx, c))
	// The text lists the top functions by self time: the callers' totals are in Total.
	shown := sum
	shown.Functions = slices.DeleteFunc(slices.Clone(sum.Functions[:min(top, len(sum.Functions))]), func(f cpuprofile.Function) bool { return f.SelfMs <= 0 })
	out := CPUProfile{DurationMs: round1(sum.WallMs), Samples: sum.Samples, IdleMs: round1(sum.IdleMs), GCMs: round1(sum.GCMs), ProgramMs: round1(sum.ProgramMs),
		Self: []FunctionTime{}, Total: []FunctionTime{}, Text: cpuprofile.RenderSummary(shown, 0)}
	all := make([]FunctionTime, 0, len(sum.Functions))
	for _, f := range sum.Functions {
		all = append(all, pf.functionTime(f))
	}
	out.Self = all[:min(top, len(all))]
	// Callers share their callee's total: at equal totals the program's own functions come
	// before node's anonymous plumbing (an eval's wrapper, the module loader under a startup).
	noFile := func(f FunctionTime) int {
		if f.File == "" {
			return 1
		}
		return 0
	}
	byTotal := slices.Clone(all)
	slices.SortStableFunc(byTotal, func(a, b FunctionTime) int {
		return cmp.Or(cmp.Compare(b.TotalMs, a.TotalMs), cmp.Compare(noFile(a), noFile(b)), cmp.Compare(a.Function, b.Function))
	})
	out.Total = byTotal[:min(top, len(byTotal))]
	return out
}

// functionTime converts one function of a summary, its positions through the source maps.
func (pf Profiler) functionTime(f cpuprofile.Function) FunctionTime {
	ft := FunctionTime{Function: f.Name, SelfMs: round1(f.SelfMs), SelfPct: round1(f.SelfPct), TotalMs: round1(f.TotalMs), TotalPct: round1(f.TotalPct),
		Deopt: f.Deopt, InlinedInto: f.InlinedInto, RunBy: f.Caller}
	if f.URL == "" {
		return ft
	}
	fr := pf.t.SourceMapping().place(f.Name, f.ScriptID, f.URL, f.Start.Line-1, f.Start.Column-1)
	ft.File, ft.Line = fr.File, fr.Line
	generated := fileOf(f.URL, pf.t.s.dir())
	for _, l := range f.Lines {
		hl := HotLine{File: generated, Line: l.Line, Ticks: l.Ticks}
		if o := l.Original; o != nil {
			hl.File, hl.Line = fileOf(sourceURL(o.Source), pf.t.s.dir()), o.Line
		}
		if f.SelfMs > 0 {
			hl.Pct = round1(100 * l.Ms / f.SelfMs)
		}
		ft.Lines = append(ft.Lines, hl)
	}
	return ft
}

// profileOptions are what a profile's analysis needs of the target: each script's function
// ranges (scanned from its source, asked once per script the profile names) and source maps.
func (pf Profiler) profileOptions(ctx context.Context, c clientCaller) cpuprofile.Options {
	return cpuprofile.Options{
		Ranges:    func(scriptID, url string) []cpuprofile.FunctionRange { return pf.functionRanges(ctx, c, scriptID, url) },
		SourceMap: cpuprofile.ScriptMaps(func(scriptID, _ string) *sourcemap.Map { return pf.t.maps.of(scriptID) }),
	}
}

// functionRanges scans a script's source for its functions; nil for node's own scripts (no
// line of the program) or a source the inspector does not give.
func (pf Profiler) functionRanges(ctx context.Context, c clientCaller, scriptID, url string) []cpuprofile.FunctionRange {
	if InternalURL(url) || c == nil {
		return nil
	}
	var res struct {
		ScriptSource string `json:"scriptSource"`
	}
	if err := proto.Do(ctx, c, proto.DebuggerGetScriptSource{ScriptID: scriptID}, &res); err != nil {
		return nil // the lines stay with the functions V8 names
	}
	lines := strings.Split(res.ScriptSource, "\n")
	found := jsscan.FunctionRanges(lines)
	out := make([]cpuprofile.FunctionRange, len(found))
	for i, r := range found {
		out[i] = cpuprofile.FunctionRange{Name: r.Name, Start: sourcemap.FromCDP(r.Start.Line, r.Start.Column), End: sourcemap.FromCDP(r.End.Line, r.End.Column)}
	}
	return out
}
