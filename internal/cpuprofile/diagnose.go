package cpuprofile

import (
	"cmp"
	"slices"
)

// Category names what a slow program spends its time on.
type Category string

// The categories of a diagnosis, in the order they are tested.
const (
	CategoryIdle          Category = "idle"               // nothing to do: the event loop waits on nothing much
	CategoryGC            Category = "gc"                 // the garbage collector holds a large share of the busy time
	CategoryCPUUser       Category = "cpu-user"           // CPU-bound in the program's own code
	CategoryCPUDependency Category = "cpu-dependency"     // CPU-bound in a package (node_modules)
	CategoryBlocked       Category = "event-loop-blocked" // not saturated, but long synchronous runs stall the loop
	CategoryIOWait        Category = "io-wait"            // mostly waiting, woken often: I/O, child processes, timers
)

// Thresholds of the categories, as shares of the wall time (busy, stalls) or of the busy time
// (GC); measured on the fixtures in testdata/slow on node 20 to 26.
const (
	idleBelowBusy    = 0.10 // busy under 10 %: idle (start-up alone can take 5 % of a short window)
	idleBelowWakeups = 5    // and waking under 5 times a second: a timer or two
	gcShareOfBusy    = 0.15 // GC at least 15 % of the busy time (without churn: 1-8 %; the churn fixture: 22-87 %)
	gcMinBusy        = 0.50 // of a program busy at least half the time: GC of little work is no cause
	cpuBoundBusy     = 0.80 // busy 80 % of the time or more: CPU-bound
	cpuInPackagesPct = 50   // in a dependency when packages hold most of the script time
	blockedStallPct  = 0.20 // stalls over 20 % of the wall time
	blockedDelayMs   = 100  // or an event-loop delay p99 this high
	// StallMs is the shortest synchronous run reported as a stall: long enough that a server's
	// answers visibly wait, as clinic.js and the RAIL model count a delayed response.
	StallMs = 50
	// maxStalls caps the stalls kept as evidence: the longest ones.
	maxStalls = 5
	// maxTop caps the functions kept as evidence, and minTopPct leaves out the ones under 1 %
	// of the wall time: start-up noise.
	maxTop    = 5
	minTopPct = 1
	// maxStackFrames caps a stall's stack, innermost first.
	maxStackFrames = 6
)

// LoopStats are event-loop figures from perf_hooks over the same window (see
// LoopMonitorStartJS and LoopMonitorReadJS); the caller supplies them when it has them.
type LoopStats struct {
	DelayP50Ms  float64 `json:"p50Ms"`
	DelayP99Ms  float64 `json:"p99Ms"`
	DelayMaxMs  float64 `json:"maxMs"`
	Utilization float64 `json:"utilization"` // event-loop utilisation, 0..1
	WindowMs    float64 `json:"windowMs"`
}

// Stall is a run of consecutive samples in non-idle code longer than StallMs: the event loop
// could not turn meanwhile.
type Stall struct {
	StartMs    float64 // from the profile's start
	DurationMs float64
	Stack      []string // the run's most sampled stack, innermost frame first: "name url:line"
}

// TargetProfile is one target's profile, named as the session names the target (main, a
// worker, a child), with what the caller knows of it.
type TargetProfile struct {
	Name    string
	Profile *Profile
	Loop    *LoopStats // optional
	Options Options    // script ids are per target
}

// Diagnosis answers why one target is slow: a category and its evidence. Shares are in % of
// the wall time, except GCPct (of the busy time) and DependencyPct (of the script time).
type Diagnosis struct {
	Target        string
	Category      Category
	WallMs        float64
	BusyPct       float64 // not (idle)
	GCPct         float64 // of busy
	ProgramPct    float64
	DependencyPct float64 // of busy script time: code under node_modules, natives it ran included
	Loop          *LoopStats
	Top           []Function // busiest by self time, at most maxTop, none under minTopPct
	Stalls        []Stall    // the longest, at most maxStalls
	StallCount    int
	StallMs       float64 // all stalls together
	// StallSite is the innermost frame most stall time was spent in, over all stalls, with the
	// number of stalls it tops and their time: start-up may make the longest stall, not the
	// typical one.
	StallSite      string
	StallSiteCount int
	StallSiteMs    float64
	// WakeupsPerSec counts the runs of busy samples after the first idle one, per second: an
	// idle program wakes rarely, one waiting on I/O often.
	WakeupsPerSec float64
}

// DiagnoseAll diagnoses every target of a session, in the order given.
func DiagnoseAll(targets []TargetProfile) []Diagnosis {
	out := make([]Diagnosis, 0, len(targets))
	for _, tp := range targets {
		d := Diagnose(tp.Profile, tp.Loop, tp.Options)
		d.Target = tp.Name
		out = append(out, d)
	}
	return out
}

// Diagnose names what a profile's time went to. loop may be nil.
func Diagnose(p *Profile, loop *LoopStats, opt Options) Diagnosis {
	t := newTree(p)
	sum := summarize(t, opt)
	d := Diagnosis{WallMs: sum.WallMs, Loop: loop}
	sampledMs := 0.0
	for _, us := range t.self {
		sampledMs += us / 1000
	}
	total := max(sampledMs, sum.WallMs)
	busyMs := sampledMs - sum.IdleMs
	if total > 0 {
		d.BusyPct = 100 * busyMs / total
		d.ProgramPct = 100 * sum.ProgramMs / total
	}
	if busyMs > 0 {
		d.GCPct = 100 * sum.GCMs / busyMs
	}
	d.DependencyPct = dependencyShare(t)
	for _, f := range sum.Functions {
		if len(d.Top) == maxTop || f.SelfPct < minTopPct {
			break
		}
		d.Top = append(d.Top, f)
	}
	if sum.WallMs > 0 {
		d.WakeupsPerSec = float64(wakeups(t)) / (sum.WallMs / 1000)
	}
	stalls := findStalls(t)
	d.StallCount = len(stalls)
	for _, s := range stalls {
		d.StallMs += s.DurationMs
	}
	d.StallSite, d.StallSiteCount, d.StallSiteMs = stallSite(stalls)
	slices.SortStableFunc(stalls, func(a, b Stall) int { return cmp.Compare(b.DurationMs, a.DurationMs) })
	d.Stalls = stalls[:min(len(stalls), maxStalls)]
	d.Category = d.categorize()
	return d
}

// categorize tests the categories in order: the first that fits names the diagnosis.
func (d *Diagnosis) categorize() Category {
	busy := d.BusyPct / 100
	blocked := d.WallMs > 0 && d.StallMs >= blockedStallPct*d.WallMs ||
		d.Loop != nil && d.Loop.DelayP99Ms >= blockedDelayMs
	switch {
	case busy < idleBelowBusy && d.WakeupsPerSec < idleBelowWakeups && !blocked:
		return CategoryIdle
	case d.GCPct >= 100*gcShareOfBusy && busy >= gcMinBusy:
		return CategoryGC
	case busy >= cpuBoundBusy && d.DependencyPct > cpuInPackagesPct:
		return CategoryCPUDependency
	case busy >= cpuBoundBusy:
		return CategoryCPUUser
	case blocked:
		return CategoryBlocked
	}
	return CategoryIOWait
}

// dependencyShare is the % of script time (samples whose stack holds a script frame, GC and
// (program) aside) spent in packages: a native frame counts for the script that ran it.
func dependencyShare(t *tree) float64 {
	var dep, all float64
	for i, us := range t.self {
		j := t.scriptFrame(i)
		if j < 0 || us == 0 {
			continue
		}
		all += us
		if isDependency(t.frame(j).URL) {
			dep += us
		}
	}
	if all == 0 {
		return 0
	}
	return 100 * dep / all
}

// stallSite is the innermost frame that tops the most stall time, with its stalls' count and
// time.
func stallSite(stalls []Stall) (site string, count int, ms float64) {
	bySite := map[string]float64{}
	counts := map[string]int{}
	for _, s := range stalls {
		if len(s.Stack) > 0 {
			bySite[s.Stack[0]] += s.DurationMs
			counts[s.Stack[0]]++
		}
	}
	for k, v := range bySite {
		if v > ms || v == ms && k < site {
			site, ms = k, v
		}
	}
	return site, counts[site], ms
}

// wakeups counts the runs of busy samples that follow an idle one: the event loop's wake-ups
// that the sampling saw.
func wakeups(t *tree) int {
	n, idle := 0, false
	for _, id := range t.p.Samples {
		j, ok := t.index[id]
		isIdle := !ok || t.frame(j).FunctionName == nameIdle
		if idle && !isIdle {
			n++
		}
		idle = isIdle
	}
	return n
}

// findStalls finds the runs of consecutive non-idle samples longer than StallMs, each with its
// most sampled stack.
func findStalls(t *tree) []Stall {
	if t.sampleUs == nil {
		return nil
	}
	var out []Stall
	runStart, runUs, at := -1, 0.0, 0.0
	end := func(i int) {
		if runStart >= 0 && runUs > StallMs*1000 {
			out = append(out, Stall{StartMs: (at - runUs) / 1000, DurationMs: runUs / 1000, Stack: t.stack(t.busiestLeaf(runStart, i))})
		}
		runStart, runUs = -1, 0
	}
	for i, id := range t.p.Samples {
		j, ok := t.index[id]
		if !ok || t.frame(j).FunctionName == nameIdle {
			end(i)
		} else {
			if runStart < 0 {
				runStart = i
			}
			runUs += t.sampleUs[i]
		}
		at += t.sampleUs[i]
	}
	end(len(t.p.Samples))
	return out
}

// busiestLeaf is the node with the most time among samples [from, to), script code preferred
// to (program) and GC.
func (t *tree) busiestLeaf(from, to int) int {
	byNode := map[int]float64{}
	for i := from; i < to; i++ {
		if j, ok := t.index[t.p.Samples[i]]; ok {
			weight := t.sampleUs[i]
			if t.scriptFrame(j) < 0 {
				weight /= 1000 // synthetic: only when nothing else ran
			}
			byNode[j] += weight
		}
	}
	best, bestUs := -1, -1.0
	for j, us := range byNode {
		if us > bestUs || us == bestUs && j < best {
			best, bestUs = j, us
		}
	}
	return best
}

// stack is the call stack of node i, innermost first, without the root.
func (t *tree) stack(i int) []string {
	var out []string
	for ; i >= 0 && len(out) < maxStackFrames; i = t.parent[i] {
		f := t.frame(i)
		if f.FunctionName == nameRoot {
			break
		}
		out = append(out, frameLabel(f))
	}
	return out
}
