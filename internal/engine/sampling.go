package engine

import (
	"cmp"
	"context"
	"fmt"
	"slices"

	"traced/internal/cdp/proto"
)

// DefaultSamplingBytes is the heap sampler's mean interval between samples unless asked.
const DefaultSamplingBytes = 32768

// SamplingSpec asks for heap sampling: the interval, and whether objects a GC collected count.
type SamplingSpec struct {
	IntervalBytes  int
	IncludeMajorGC bool
	IncludeMinorGC bool
}

// StartSampling starts the sampling heap profiler (HeapProfiler.startSampling).
func (hp Heap) StartSampling(ctx context.Context, spec SamplingSpec) error {
	_, c, err := hp.t.Inspector().pauseNow()
	if err != nil {
		return err
	}
	if spec.IntervalBytes <= 0 {
		spec.IntervalBytes = DefaultSamplingBytes
	}
	if err := proto.Do(ctx, c, proto.HeapProfilerEnable{}, nil); err != nil {
		return fmt.Errorf("heap sampling: %w", err)
	}
	if err := proto.Do(ctx, c, proto.HeapProfilerStartSampling{
		SamplingInterval: spec.IntervalBytes, IncludeObjectsCollectedByMajorGC: spec.IncludeMajorGC,
		IncludeObjectsCollectedByMinorGC: spec.IncludeMinorGC,
	}, nil); err != nil {
		return fmt.Errorf("heap sampling: %w", err)
	}
	_, err = hp.setFlag(samplingFlag, true)
	return err
}

// AllocationSite is where sampled allocations were made, with the stack that led there.
type AllocationSite struct {
	Function string
	File     string
	Line     int   // 1-based
	Bytes    int64 // sampled self size
	Pct      float64
	Stack    []string // innermost first: "function file:line", at most 8
}

// HeapSampling answers a stopped heap sampling: the top allocation sites.
type HeapSampling struct {
	TotalBytes int64
	Sites      []AllocationSite
}

type samplingNode struct {
	CallFrame callFrame      `json:"callFrame"`
	SelfSize  int64          `json:"selfSize"`
	Children  []samplingNode `json:"children"`
}

// StopSampling stops the sampler (HeapProfiler.stopSampling) and answers the top sites.
func (hp Heap) StopSampling(ctx context.Context, top int) (HeapSampling, error) {
	_, c, err := hp.t.Inspector().pauseNow()
	if err != nil {
		return HeapSampling{}, err
	}
	if was, err := hp.setFlag(samplingFlag, false); err != nil || !was {
		return HeapSampling{}, cmp.Or(err, fmt.Errorf("%w: heap sampling (POST heap/sampling/start)", ErrNotStarted))
	}
	var res struct {
		Profile struct {
			Head samplingNode `json:"head"`
		} `json:"profile"`
	}
	if err := proto.Do(ctx, c, proto.HeapProfilerStopSampling{}, &res); err != nil {
		return HeapSampling{}, fmt.Errorf("heap sampling: %w", err)
	}
	out := HeapSampling{Sites: []AllocationSite{}}
	var walk func(n *samplingNode, path []string)
	walk = func(n *samplingNode, path []string) {
		f := n.CallFrame
		name := cmp.Or(f.FunctionName, "(anonymous)")
		fr := hp.t.SourceMapping().place(name, f.ScriptID, f.URL, f.LineNumber, f.ColumnNumber)
		here := name
		if fr.File != "" {
			here += " " + fr.Where()
		}
		path = append(path, here)
		if n.SelfSize > 0 && f.FunctionName != "(root)" {
			site := AllocationSite{Function: name, Bytes: n.SelfSize}
			if f.URL != "" {
				site.File, site.Line = fr.File, fr.Line
			}
			for i := len(path) - 1; i >= 1 && len(site.Stack) < 8; i-- { // path[0] is (root)
				site.Stack = append(site.Stack, path[i])
			}
			out.Sites = append(out.Sites, site)
		}
		out.TotalBytes += n.SelfSize
		for i := range n.Children {
			walk(&n.Children[i], path)
		}
	}
	walk(&res.Profile.Head, nil)
	slices.SortFunc(out.Sites, func(a, b AllocationSite) int { return cmp.Compare(b.Bytes, a.Bytes) })
	out.Sites = out.Sites[:min(top, len(out.Sites))]
	for i := range out.Sites {
		if out.TotalBytes > 0 {
			out.Sites[i].Pct = round1(100 * float64(out.Sites[i].Bytes) / float64(out.TotalBytes))
		}
	}
	return out, nil
}
