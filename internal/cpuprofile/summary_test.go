package cpuprofile

import (
	"strings"
	"testing"

	"traced/internal/sourcemap"
)

const appURL = "file:///app/main.js"

// fn makes a node: a script function when url is set, else a native or synthetic one.
func fn(id int, name, url string, line0 int, children ...int) Node {
	f := CallFrame{FunctionName: name, ScriptID: "0", URL: url, LineNumber: -1, ColumnNumber: -1}
	if url != "" {
		f.ScriptID, f.LineNumber, f.ColumnNumber = "7", line0, 9
	}
	return Node{ID: id, CallFrame: f, Children: children}
}

// profile makes a profile of nodes whose samples (leaf ids) last the given µs each.
func profile(nodes []Node, samples []int, us []float64) *Profile {
	p := &Profile{Nodes: nodes, Samples: samples, StartTime: 1000}
	at := p.StartTime
	for i := range samples {
		p.TimeDeltas = append(p.TimeDeltas, 0)
		if i > 0 {
			p.TimeDeltas[i] = us[i-1]
		}
		at += p.TimeDeltas[i]
	}
	if len(us) > 0 {
		at += us[len(us)-1]
	}
	p.EndTime = at
	return p
}

// byName finds a function of a summary.
func byName(t *testing.T, s Summary, name string) Function {
	t.Helper()
	for _, f := range s.Functions {
		if f.Name == name {
			return f
		}
	}
	t.Fatalf("no function %s in %+v", name, s.Functions)
	return Function{}
}

// TestSummarizeTimes: a sample lasts until the next one; a recursive function's total counts
// once; idle, (program) and GC are set apart.
func TestSummarizeTimes(t *testing.T) {
	nodes := []Node{
		fn(1, nameRoot, "", 0, 2, 6, 7, 8),
		fn(2, "main", appURL, 0, 3, 5),
		fn(3, "walk", appURL, 10, 4),
		fn(4, "walk", appURL, 10),
		fn(5, "leaf", appURL, 20),
		fn(6, nameIdle, "", 0),
		fn(7, nameProgram, "", 0),
		fn(8, nameGC, "", 0),
	}
	p := profile(nodes, []int{3, 4, 4, 5, 6, 7, 8}, []float64{1000, 2000, 3000, 4000, 10000, 500, 1500})
	s := Summarize(p, Options{})
	if s.WallMs != 22 || s.IdleMs != 10 || s.ProgramMs != 0.5 || s.GCMs != 1.5 {
		t.Errorf("wall %v idle %v program %v gc %v", s.WallMs, s.IdleMs, s.ProgramMs, s.GCMs)
	}
	walk := byName(t, s, "walk")
	if walk.SelfMs != 6 || walk.TotalMs != 6 || walk.Start.Line != 11 {
		t.Errorf("walk: %+v, want self 6 total 6 (counted once) at line 11", walk)
	}
	if main := byName(t, s, "main"); main.SelfMs != 0 || main.TotalMs != 10 {
		t.Errorf("main: %+v", main)
	}
	if s.Functions[0].Name != "walk" {
		t.Errorf("busiest first: %s", s.Functions[0].Name)
	}
	for _, f := range s.Functions {
		if isSpecial(f.Name) {
			t.Errorf("%s listed as a function", f.Name)
		}
	}
}

// TestSummarizeHitCounts: a profile without samples shares its duration by hit counts.
func TestSummarizeHitCounts(t *testing.T) {
	nodes := []Node{fn(1, nameRoot, "", 0, 2), fn(2, "main", appURL, 0, 3), fn(3, "hot", appURL, 5)}
	nodes[1].HitCount, nodes[2].HitCount = 1, 3
	s := Summarize(&Profile{Nodes: nodes, StartTime: 0, EndTime: 8000}, Options{})
	if hot := byName(t, s, "hot"); hot.SelfMs != 6 || hot.SelfPct != 75 {
		t.Errorf("hot: %+v", hot)
	}
}

// TestSummarizeInlined: the position ticks of a node fall on lines of a function V8 inlined
// into it; with ranges they are that function's, at their own lines; without, the node's.
func TestSummarizeInlined(t *testing.T) {
	nodes := []Node{fn(1, nameRoot, "", 0, 2), fn(2, "run", appURL, 6)} // run starts on line 7
	nodes[1].PositionTicks = []PositionTick{{Line: 4, Ticks: 30}, {Line: 9, Ticks: 10}}
	p := profile(nodes, []int{2, 2, 2, 2}, []float64{1000, 1000, 1000, 1000})
	ranges := func(scriptID, url string) []FunctionRange {
		if scriptID != "7" || url != appURL {
			t.Errorf("ranges asked for %s %s", scriptID, url)
		}
		return []FunctionRange{
			{Name: "mix", Start: sourcemap.Pos{Line: 2, Column: 1}, End: sourcemap.Pos{Line: 6, Column: 2}},
			{Name: "run", Start: sourcemap.Pos{Line: 7, Column: 1}, End: sourcemap.Pos{Line: 11, Column: 2}},
		}
	}
	s := Summarize(p, Options{Ranges: ranges})
	mix, run := byName(t, s, "mix"), byName(t, s, "run")
	if mix.SelfMs != 3 || mix.TotalMs != 3 || mix.Start.Line != 2 || len(mix.Lines) != 1 || mix.Lines[0].Line != 4 || mix.Lines[0].Ticks != 30 {
		t.Errorf("mix: %+v", mix)
	}
	if len(mix.InlinedInto) != 1 || mix.InlinedInto[0] != "run" {
		t.Errorf("mix inlined into %v, want run", mix.InlinedInto)
	}
	if run.SelfMs != 1 || run.TotalMs != 4 || len(run.Lines) != 1 || run.Lines[0].Line != 9 {
		t.Errorf("run: %+v", run)
	}
	if !strings.Contains(RenderSummary(s, 0), "mix app/main.js:2 self 75% total 75% inlined into run lines 4 (100%)") {
		t.Errorf("rendered:\n%s", RenderSummary(s, 0))
	}

	s = Summarize(p, Options{})
	if run := byName(t, s, "run"); run.SelfMs != 4 || len(run.Lines) != 2 || run.Lines[0].Line != 4 {
		t.Errorf("without ranges, run: %+v", run)
	}
}

// TestSummarizeSourceMapDeoptNative: original positions come from the mapper; a deopt reason
// is kept; a native function is named with the script function that ran it.
func TestSummarizeSourceMapDeoptNative(t *testing.T) {
	dep := "file:///app/node_modules/parse/index.js"
	nodes := []Node{fn(1, nameRoot, "", 0, 2), fn(2, "matches", dep, 4, 3), fn(3, "RegExp: ^(a+)+$", "", 0)}
	nodes[1].DeoptReason = "wrong map"
	nodes[1].PositionTicks = []PositionTick{{Line: 6, Ticks: 1}}
	p := profile(nodes, []int{3, 3, 3, 2}, []float64{1000, 1000, 1000, 1000})
	mapper := SourceMapFunc(func(scriptID, url string, pos sourcemap.Pos) (sourcemap.Original, bool) {
		return sourcemap.Original{Source: "/app/src/parse.ts", Pos: sourcemap.Pos{Line: pos.Line * 10, Column: 1}}, url == dep
	})
	s := Summarize(p, Options{SourceMap: mapper})
	re, m := byName(t, s, "RegExp: ^(a+)+$"), byName(t, s, "matches")
	if re.Caller != "matches node_modules/parse/index.js:5" || re.URL != "" {
		t.Errorf("regexp: %+v", re)
	}
	if m.Deopt != "wrong map" || m.Original == nil || m.Original.Line != 50 || m.Lines[0].Original == nil || m.Lines[0].Original.Line != 60 || !m.Dependency() {
		t.Errorf("matches: %+v", m)
	}
	text := RenderSummary(s, 0)
	if !strings.Contains(text, "matches src/parse.ts:50 self 25% total 100% deopt: wrong map lines src/parse.ts:60 (100%)") {
		t.Errorf("rendered:\n%s", text)
	}
	if d := Diagnose(p, nil, Options{}); d.DependencyPct != 100 || d.Category != CategoryCPUDependency {
		t.Errorf("diagnosis: %+v", d)
	}
}

// TestParse: a document that is no profile, or an empty one, is refused.
func TestParse(t *testing.T) {
	if _, err := Parse([]byte(`{"nodes":[]}`)); err != ErrEmpty {
		t.Errorf("empty: %v", err)
	}
	if _, err := Parse([]byte(`[`)); err == nil {
		t.Error("broken profile accepted")
	}
}

// TestScriptMaps: hot lines and function starts map through a script's source map; a line is
// looked up as a whole, so an indented line finds its own mapping, not the line before's.
func TestScriptMaps(t *testing.T) {
	// Generated lines 1 and 2 map to lines 1 and 5 of src/app.ts; line 2's code starts at
	// column 5.
	sm, err := sourcemap.Parse("file:///app/main.js.map", []byte(`{"version":3,"sources":["src/app.ts"],"names":[],"mappings":"AAAA;IAIA"}`))
	if err != nil {
		t.Fatal(err)
	}
	maps := ScriptMaps(func(scriptID, url string) *sourcemap.Map {
		if url == appURL {
			return sm
		}
		return nil
	})
	nodes := []Node{fn(1, nameRoot, "", 0, 2), fn(2, "main", appURL, 0)}
	nodes[1].PositionTicks = []PositionTick{{Line: 2, Ticks: 1}}
	s := Summarize(profile(nodes, []int{2}, []float64{1000}), Options{SourceMap: maps})
	m := byName(t, s, "main")
	if m.Original == nil || m.Original.Line != 1 || m.Lines[0].Original == nil || m.Lines[0].Original.Line != 5 || m.Lines[0].Original.Source != "/app/src/app.ts" {
		t.Errorf("main: %+v, line %+v", m, m.Lines[0].Original)
	}
	if _, ok := maps.Original("9", "file:///other.js", sourcemap.Pos{Line: 1}); ok {
		t.Error("a script without a map mapped")
	}
}

// TestRangeIndex: the innermost range holding a line or a position, whatever order the caller
// gives the ranges in.
func TestRangeIndex(t *testing.T) {
	pos := func(l, c int) sourcemap.Pos { return sourcemap.Pos{Line: l, Column: c} }
	ranges := []FunctionRange{
		{Name: "D", Start: pos(7, 10), End: pos(7, 20)},
		{Name: "A", Start: pos(1, 1), End: pos(10, 1)},
		{Name: "C", Start: pos(7, 1), End: pos(7, 30)},
		{Name: "B", Start: pos(3, 1), End: pos(5, 1)},
	}
	s := &summarizer{opt: Options{Ranges: func(string, string) []FunctionRange { return ranges }}, ranges: map[string]*rangeIndex{}, found: map[rangeQuery]*FunctionRange{}}
	f := CallFrame{ScriptID: "7", URL: appURL}
	name := func(r *FunctionRange) string {
		if r == nil {
			return ""
		}
		return r.Name
	}
	for line, want := range map[int]string{4: "B", 6: "A", 7: "D", 10: "A", 11: ""} {
		if got := name(s.innermost(f, line)); got != want {
			t.Errorf("line %d: %q, want %q", line, got, want)
		}
	}
	for _, c := range []struct {
		line0, col0 int
		want        string
	}{{6, 4, "C"}, {6, 14, "D"}, {6, 25, "C"}, {7, 0, "A"}, {0, 0, "A"}} {
		f.LineNumber, f.ColumnNumber = c.line0, c.col0
		if got := name(s.enclosing(f)); got != c.want {
			t.Errorf("%d:%d: %q, want %q", c.line0, c.col0, got, c.want)
		}
	}
}
