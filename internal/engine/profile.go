package engine

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"

	"traced/internal/cdp/proto"
	"traced/internal/cpuprofile"
)

// DefaultSamplingInterval is the CPU profiler's sampling interval unless asked, in µs.
const DefaultSamplingInterval = 1000

// StartCPU starts V8's sampling CPU profiler (Profiler.start).
func (pf Profiler) StartCPU(ctx context.Context, intervalUs int) error {
	_, c, err := pf.t.Inspector().pauseNow()
	if err != nil {
		return err
	}
	if intervalUs <= 0 {
		intervalUs = DefaultSamplingInterval
	}
	for _, step := range []proto.Command{
		proto.ProfilerEnable{}, proto.ProfilerSetSamplingInterval{Interval: intervalUs}, proto.ProfilerStart{},
	} {
		if err := proto.Do(ctx, c, step, nil); err != nil {
			return fmt.Errorf("cpu start: %w", err)
		}
	}
	pf.deoptimizeForProfile(ctx, c)
	_, err = pf.t.Heap().setFlag(profilingFlag, true)
	return err
}

// deoptimizeForProfile makes V8 compile the program's hot code again while the profiler runs.
// From node 22, code optimised before Profiler.start is missing from the profiler's code map:
// its samples land on the caller that is known (node's processImmediate, say) and the hot
// function vanishes from the profile. Switching precise coverage on deoptimises every function
// (V8's Coverage::SelectMode), and off again at once: the code optimised anew is logged. The
// cost is a re-warm-up of a few ms at the profile's start. Coverage the user runs is left
// alone (switching it would reset its counts).
func (pf Profiler) deoptimizeForProfile(ctx context.Context, c clientCaller) {
	h, err := pf.t.Heap().dataDir()
	if err != nil {
		return
	}
	h.mu.Lock()
	covering := h.covering
	h.mu.Unlock()
	if covering {
		return
	}
	// Best effort: a profile without it is still right on node 20, and about cold code.
	if proto.Do(ctx, c, proto.ProfilerStartPreciseCoverage{CallCount: false, Detailed: false}, nil) == nil {
		_ = proto.Do(ctx, c, proto.ProfilerStopPreciseCoverage{}, nil)
	}
}

// StopCPU stops the profiler (Profiler.stop), keeps the whole profile as a .cpuprofile
// file of the session and answers the top functions.
func (pf Profiler) StopCPU(ctx context.Context, top int) (CPUProfile, error) {
	_, c, err := pf.t.Inspector().pauseNow()
	if err != nil {
		return CPUProfile{}, err
	}
	if was, err := pf.t.Heap().setFlag(profilingFlag, false); err != nil || !was {
		return CPUProfile{}, cmp.Or(err, fmt.Errorf("%w: the CPU profiler (POST cpu/start)", ErrNotStarted))
	}
	var res struct {
		Profile json.RawMessage `json:"profile"`
	}
	if err := proto.Do(ctx, c, proto.ProfilerStop{}, &res); err != nil {
		return CPUProfile{}, fmt.Errorf("cpu stop: %w", err)
	}
	p, err := cpuprofile.Parse(res.Profile)
	if err != nil {
		return CPUProfile{}, err
	}
	h, err := pf.t.Heap().dataDir()
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
	out := pf.summarizeProfile(ctx, c, p, top)
	out.Ref, out.Download = ref, "GET cpu/profiles/"+ref
	return out, nil
}

// cpuRefRE is a CPU profile's ref: it names a file, so nothing else may pass.
var cpuRefRE = regexp.MustCompile(`^cpu[0-9]+$`)

func round1(f float64) float64 { return float64(int64(f*10+0.5)) / 10 }

// ProfileFile opens a CPU profile's file for download.
func (pf Profiler) ProfileFile(ref string) (*os.File, error) {
	if err := pf.t.s.debugOnly(); err != nil {
		return nil, err
	}
	h := pf.t.Heap().heapNow()
	if h == nil || !cpuRefRE.MatchString(ref) {
		return nil, fmt.Errorf("%w: cpu profile %q", ErrNoRef, ref)
	}
	f, err := os.Open(filepath.Join(h.dir, ref+".cpuprofile"))
	if err != nil {
		return nil, fmt.Errorf("%w: cpu profile %q", ErrNoRef, ref)
	}
	return f, nil
}
