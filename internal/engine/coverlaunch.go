package engine

import (
	"context"
	"fmt"

	"traced/internal/cdp/proto"
)

// Coverage of the main script needs V8's block coverage on before the script compiles: started
// at the first-line pause, as a user naturally does, the functions that never run are missing
// (V8 reports only what runs after the start). So a debug launch turns block coverage on before
// node runs its code, and off again at the first resume unless the user started coverage by
// then: only the scripts compiled while paused at the start carry its counters.

// coverFromLaunch turns block coverage on before the program runs.
func (pf Profiler) coverFromLaunch(ctx context.Context, c clientCaller) error {
	if err := proto.Do(ctx, c, proto.ProfilerEnable{}, nil); err != nil {
		return fmt.Errorf("coverage: %w", err)
	}
	if err := proto.Do(ctx, c, proto.ProfilerStartPreciseCoverage{CallCount: true, Detailed: true}, nil); err != nil {
		return fmt.Errorf("coverage: %w", err)
	}
	pf.t.mu.Lock()
	pf.t.launchCoverage = true
	pf.t.mu.Unlock()
	return nil
}

// adoptLaunchCoverage hands the coverage on since launch to a user's coverage start, and says
// whether there was one. V8 must stay in block mode: a switch to function counts drops the
// functions that never ran, so a function-level request is cut down at each take instead.
func (pf Profiler) adoptLaunchCoverage(detailed bool) bool {
	pf.t.mu.Lock()
	defer pf.t.mu.Unlock()
	adopted := pf.t.launchCoverage
	pf.t.launchCoverage = false
	pf.t.coverFunctionsOnly = adopted && !detailed
	return adopted
}

// endLaunchCoverage turns the launch's coverage off at the first resume, unless a user's
// coverage start took it over.
func (pf Profiler) endLaunchCoverage(ctx context.Context, c clientCaller) error {
	pf.t.mu.Lock()
	on := pf.t.launchCoverage
	pf.t.launchCoverage = false
	pf.t.mu.Unlock()
	if !on {
		return nil
	}
	if err := proto.Do(ctx, c, proto.ProfilerStopPreciseCoverage{}, nil); err != nil {
		return fmt.Errorf("coverage: %w", err)
	}
	return nil
}
