package engine

import (
	"context"
	"fmt"

	"traced/internal/cdp/proto"
	"traced/internal/coverage"
)

// StartCoverage starts precise coverage (Profiler.startPreciseCoverage) with call counts;
// detailed asks for block-level ranges, not only functions.
func (pf Profiler) StartCoverage(ctx context.Context, detailed bool) error {
	_, c, err := pf.t.Inspector().pauseNow()
	if err != nil {
		return err
	}
	if !pf.adoptLaunchCoverage(detailed) {
		if err := proto.Do(ctx, c, proto.ProfilerEnable{}, nil); err != nil {
			return fmt.Errorf("coverage start: %w", err)
		}
		if err := proto.Do(ctx, c, proto.ProfilerStartPreciseCoverage{CallCount: true, Detailed: detailed}, nil); err != nil {
			return fmt.Errorf("coverage start: %w", err)
		}
	}
	_, err = pf.t.Heap().setFlag(coveringFlag, true)
	return err
}

// CoverageSpec asks for coverage: of one file or all user scripts, everything or only what
// never ran; stop ends the collection after this take.
type CoverageSpec struct {
	File      string
	Uncovered bool
	Stop      bool
}

// TakeCoverage reads precise coverage (Profiler.takePreciseCoverage) of the user's scripts,
// node's own left out, with offsets turned into 1-based lines of each script's source.
func (pf Profiler) TakeCoverage(ctx context.Context, spec CoverageSpec) ([]coverage.Script, error) {
	_, c, err := pf.t.Inspector().pauseNow()
	if err != nil {
		return nil, err
	}
	on, err := pf.t.Heap().setFlag(coveringFlag, !spec.Stop)
	if err == nil && !on {
		pf.t.Heap().setFlag(coveringFlag, false)
		err = fmt.Errorf("%w: precise coverage (POST coverage/start)", ErrNotStarted)
	}
	if err != nil {
		return nil, err
	}
	var res struct {
		Result []coverage.RawScript `json:"result"`
	}
	if err := proto.Do(ctx, c, proto.ProfilerTakePreciseCoverage{}, &res); err != nil {
		return nil, fmt.Errorf("coverage: %w", err)
	}
	pf.t.mu.Lock()
	cut := pf.t.coverFunctionsOnly
	if spec.Stop {
		pf.t.coverFunctionsOnly = false
	}
	pf.t.mu.Unlock()
	if cut {
		coverage.FunctionsOnly(res.Result)
	}
	if spec.Stop {
		if err := proto.Do(ctx, c, proto.ProfilerStopPreciseCoverage{}, nil); err != nil {
			return nil, fmt.Errorf("coverage stop: %w", err)
		}
	}
	out := []coverage.Script{}
	for _, sc := range res.Result {
		file := fileOf(sc.URL, pf.t.s.dir())
		if InternalURL(sc.URL) || file == "" {
			continue
		}
		var src struct {
			ScriptSource string `json:"scriptSource"`
		}
		if err := proto.Do(ctx, c, proto.DebuggerGetScriptSource{ScriptID: sc.ScriptID}, &src); err != nil {
			continue // gone (a script of a destroyed context): nothing to map its offsets to
		}
		if m := pf.t.maps.of(sc.ScriptID); m != nil {
			name := func(source string) (string, string) { return pf.t.s.sourceName(source), sourceURL(source) }
			for _, mc := range coverage.Mapped(sc, file, src.ScriptSource, m, spec.Uncovered, name) {
				if spec.File == "" || mc.File == spec.File || mc.Generated == spec.File || mc.URL == spec.File {
					out = append(out, mc)
				}
			}
			continue
		}
		if spec.File != "" && file != spec.File && sc.URL != spec.File {
			continue
		}
		out = append(out, coverage.Of(sc, file, src.ScriptSource, spec.Uncovered))
	}
	return out, nil
}
