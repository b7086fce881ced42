package engine

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
)

// DefaultSamplingInterval is the CPU profiler's sampling interval unless asked, in µs.
const DefaultSamplingInterval = 1000

// StartCPUProfile starts V8's sampling CPU profiler (Profiler.start).
func (t *Target) StartCPUProfile(ctx context.Context, intervalUs int) error {
	_, c, err := t.pauseNow()
	if err != nil {
		return err
	}
	if intervalUs <= 0 {
		intervalUs = DefaultSamplingInterval
	}
	for _, step := range []struct {
		method string
		params any
	}{
		{"Profiler.enable", nil},
		{"Profiler.setSamplingInterval", map[string]any{"interval": intervalUs}},
		{"Profiler.start", nil},
	} {
		if err := c.Call(ctx, step.method, step.params, nil); err != nil {
			return fmt.Errorf("cpu start: %w", err)
		}
	}
	_, err = t.setFlag(profilingFlag, true)
	return err
}

// FunctionTime is one function's share of a CPU profile.
type FunctionTime struct {
	Function string
	File     string
	Line     int // 1-based
	SelfMs   float64
	SelfPct  float64
	TotalMs  float64
	TotalPct float64
	Deopt    string // why V8 deoptimised it, when it says
}

// CPUProfile answers a stopped CPU profile: the top functions by self and by total time.
type CPUProfile struct {
	Ref        string
	Download   string
	DurationMs float64
	Samples    int
	Self       []FunctionTime
	Total      []FunctionTime
}

// cpuProfile is the part of a .cpuprofile the summary reads.
type cpuProfile struct {
	Nodes []struct {
		ID        int       `json:"id"`
		CallFrame callFrame `json:"callFrame"`
		HitCount  int       `json:"hitCount"`
		Children  []int     `json:"children"`
		Deopt     string    `json:"deoptReason"`
	} `json:"nodes"`
	StartTime float64 `json:"startTime"` // µs
	EndTime   float64 `json:"endTime"`
	Samples   []int   `json:"samples"`
}

// StopCPUProfile stops the profiler (Profiler.stop), keeps the whole profile as a .cpuprofile
// file of the session and answers the top functions.
func (t *Target) StopCPUProfile(ctx context.Context, top int) (CPUProfile, error) {
	_, c, err := t.pauseNow()
	if err != nil {
		return CPUProfile{}, err
	}
	if was, err := t.setFlag(profilingFlag, false); err != nil || !was {
		return CPUProfile{}, cmp.Or(err, fmt.Errorf("%w: the CPU profiler (POST cpu/start)", ErrNotStarted))
	}
	var res struct {
		Profile json.RawMessage `json:"profile"`
	}
	if err := c.Call(ctx, "Profiler.stop", nil, &res); err != nil {
		return CPUProfile{}, fmt.Errorf("cpu stop: %w", err)
	}
	var p cpuProfile
	if err := json.Unmarshal(res.Profile, &p); err != nil {
		return CPUProfile{}, fmt.Errorf("cpu profile: %w", err)
	}
	h, err := t.dataDir()
	if err != nil {
		return CPUProfile{}, err
	}
	h.mu.Lock()
	h.nextCPU++
	ref := "cpu" + strconv.Itoa(h.nextCPU)
	h.mu.Unlock()
	if err := os.WriteFile(filepath.Join(h.dir, ref+".cpuprofile"), res.Profile, 0o600); err != nil {
		return CPUProfile{}, fmt.Errorf("cpu profile: %w", err)
	}
	out := t.summarizeProfile(&p, top)
	out.Ref, out.Download = ref, "GET cpu/profiles/"+ref
	return out, nil
}

// summarizeProfile aggregates a profile's nodes by function: self time from its samples, total
// time from its subtree, a recursive function counted once per path.
func (t *Target) summarizeProfile(p *cpuProfile, top int) CPUProfile {
	out := CPUProfile{DurationMs: (p.EndTime - p.StartTime) / 1000, Samples: len(p.Samples), Self: []FunctionTime{}, Total: []FunctionTime{}}
	if len(p.Samples) == 0 {
		return out
	}
	msPerSample := out.DurationMs / float64(len(p.Samples))
	index := make(map[int]int, len(p.Nodes))
	hasParent := map[int]bool{}
	for i, n := range p.Nodes {
		index[n.ID] = i
		for _, ch := range n.Children {
			hasParent[ch] = true
		}
	}
	type key struct {
		fn, url string
		line    int
	}
	funcs := map[key]*FunctionTime{}
	keyOf := func(i int) key {
		f := p.Nodes[i].CallFrame
		return key{f.FunctionName, f.URL, f.LineNumber}
	}
	entry := func(k key, i int) *FunctionTime {
		ft := funcs[k]
		if ft == nil {
			name := k.fn
			if name == "" {
				name = "(anonymous)"
			}
			f := p.Nodes[i].CallFrame
			fr := t.place(name, f.ScriptID, f.URL, f.LineNumber, f.ColumnNumber)
			ft = &FunctionTime{Function: name, File: fr.File, Line: fr.Line}
			if f.URL == "" {
				ft.Line = 0
			}
			funcs[k] = ft
		}
		return ft
	}
	// Subtree hit counts, then totals, walking from each root with the functions on the path.
	var walk func(i int, onPath map[key]int) int
	walk = func(i int, onPath map[key]int) int {
		n := p.Nodes[i]
		k := keyOf(i)
		ft := entry(k, i)
		ft.SelfMs += float64(n.HitCount) * msPerSample
		if n.Deopt != "" {
			ft.Deopt = n.Deopt
		}
		onPath[k]++
		hits := n.HitCount
		for _, ch := range n.Children {
			if j, ok := index[ch]; ok {
				hits += walk(j, onPath)
			}
		}
		onPath[k]--
		if onPath[k] == 0 { // the outermost call of a recursion holds its total
			ft.TotalMs += float64(hits) * msPerSample
		}
		return hits
	}
	for i, n := range p.Nodes {
		if !hasParent[n.ID] {
			walk(i, map[key]int{})
		}
	}
	var all []FunctionTime
	for k, ft := range funcs {
		switch k.fn {
		case "(root)", "(idle)", "(program)":
			continue // not code of the program
		}
		ft.SelfPct = round1(100 * ft.SelfMs / out.DurationMs)
		ft.TotalPct = round1(100 * ft.TotalMs / out.DurationMs)
		ft.SelfMs, ft.TotalMs = round1(ft.SelfMs), round1(ft.TotalMs)
		all = append(all, *ft)
	}
	bySelf := slices.Clone(all)
	slices.SortFunc(bySelf, func(a, b FunctionTime) int {
		return cmp.Or(cmp.Compare(b.SelfMs, a.SelfMs), cmp.Compare(a.Function, b.Function))
	})
	// Callers share their callee's total: at equal totals the program's own functions come
	// before node's anonymous plumbing (an eval's wrapper, the module loader under a startup).
	noFile := func(f FunctionTime) int {
		if f.File == "" {
			return 1
		}
		return 0
	}
	slices.SortFunc(all, func(a, b FunctionTime) int {
		return cmp.Or(cmp.Compare(b.TotalMs, a.TotalMs), cmp.Compare(noFile(a), noFile(b)), cmp.Compare(a.Function, b.Function))
	})
	out.Self = bySelf[:min(top, len(bySelf))]
	out.Total = all[:min(top, len(all))]
	return out
}

// cpuRefRE is a CPU profile's ref: it names a file, so nothing else may pass.
var cpuRefRE = regexp.MustCompile(`^cpu[0-9]+$`)

func round1(f float64) float64 { return float64(int64(f*10+0.5)) / 10 }

// ProfileFile opens a CPU profile's file for download.
func (t *Target) ProfileFile(ref string) (*os.File, error) {
	if err := t.s.debugOnly(); err != nil {
		return nil, err
	}
	h := t.heapNow()
	if h == nil || !cpuRefRE.MatchString(ref) {
		return nil, fmt.Errorf("%w: cpu profile %q", ErrNoRef, ref)
	}
	f, err := os.Open(filepath.Join(h.dir, ref+".cpuprofile"))
	if err != nil {
		return nil, fmt.Errorf("%w: cpu profile %q", ErrNoRef, ref)
	}
	return f, nil
}
