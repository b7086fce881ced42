package engine

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"traced/internal/cdp/proto"
	"traced/internal/cpuprofile"
)

// Bounds of a slow diagnosis's window, in ms: long enough for a few stalls of an interval,
// short enough that a request waiting on it does not outlive a client's patience.
const (
	DefaultSlowWindowMs = 2000
	MaxSlowWindowMs     = 60000
)

// slowIntervalUs is the profiler's sampling interval while diagnosing: 1 ms, fine enough for
// stalls over cpuprofile.StallMs at a cost the benchmark measures.
const slowIntervalUs = 1000

// SlowTarget is one target's diagnosis: its category and the figures behind it.
type SlowTarget struct {
	Target        string // t0, t1...
	Kind          string // main, worker or process
	Category      string // cpuprofile's category, or "" when the target could not be sampled
	Headline      string // the text's first line for the target
	BusyPct       float64
	GCPct         float64 // of the busy time
	ProgramPct    float64
	DependencyPct float64 // of the script time
	StallCount    int
	StallMs       float64
	LoopDelayP99  float64 // ms, from perf_hooks; 0 when not read
	Utilization   float64 // event-loop utilisation, 0..1
	Error         string  // why the target has no diagnosis
}

// SlowReport answers why a session's program is slow: every target sampled over one window.
type SlowReport struct {
	WindowMs float64
	Ended    bool // the session ended before the window closed: the targets that ended have no profile
	Targets  []SlowTarget
	Text     string // at most cpuprofile.MaxTextBytes, each target's first line naming its category
}

// sampling is one target being diagnosed.
type sampling struct {
	t       *Target
	info    TargetInfo
	c       clientCaller
	loop    bool  // the loop monitor started
	err     error // why it has no diagnosis
	profile *cpuprofile.Profile
	stats   *cpuprofile.LoopStats
}

// Slow samples every live target of the session with the CPU profiler at 1 ms and the event
// loop with perf_hooks for window, then diagnoses each (cpuprofile.DiagnoseAll). A target
// whose profiler the user runs answers ErrBusy; one that cannot be reached is reported with
// its error, the others still diagnosed.
//
// With untilExit, the answer comes once the main thread's program ends (or at window, its
// bound): node waits for the debugger to hang up then, so the profiles are read before traced
// lets it exit.
func (s *Session) Slow(ctx context.Context, window time.Duration, untilExit bool) (SlowReport, error) {
	if err := s.debugOnly(); err != nil {
		return SlowReport{}, err
	}
	var exited chan struct{} // the main thread's program ended, node waits for the hang-up
	if untilExit {
		exited = make(chan struct{}, 1)
		s.mu.Lock()
		s.exitHold = exited
		s.mu.Unlock()
		defer s.releaseExit(exited)
	}
	started := time.Now()
	var runs []*sampling
	defer func() { // nothing stays reserved, whatever failed
		for _, r := range runs {
			if r.c != nil {
				r.t.Heap().setFlag(profilingFlag, false)
			}
		}
	}()
	for _, info := range s.Targets() {
		t, err := s.On(info.Ref)
		if err != nil || info.Status == TargetExited || info.Status == TargetReleased {
			continue // a child let run uncaptured, or gone
		}
		r := &sampling{t: t, info: info}
		runs = append(runs, r)
		if err := r.start(ctx); err != nil {
			if errors.Is(err, ErrBusy) {
				return SlowReport{}, err
			}
			r.err = err
		}
	}
	if !slices.ContainsFunc(runs, func(r *sampling) bool { return r.c != nil }) {
		return SlowReport{}, fmt.Errorf("%w: no target of session %s can be sampled", ErrFinished, s.id)
	}
	ended := false
	timer := time.NewTimer(window)
	defer timer.Stop()
	select {
	case <-timer.C:
	case <-exited:
		ended = true
		signal(exited) // for releaseExit: the end came, hang up once the profiles are read
	case <-s.done:
		ended = true
	case <-ctx.Done():
		return SlowReport{}, ctx.Err()
	}
	took := time.Since(started)
	for _, r := range runs {
		if r.c != nil {
			r.stop(ctx)
		}
	}
	rep := s.slowReport(ctx, runs, took, ended)
	return rep, nil
}

// releaseExit stops holding the program's end for a diagnosis; an end that came meanwhile is
// let through now: traced hangs up, node exits.
func (s *Session) releaseExit(exited chan struct{}) {
	s.mu.Lock()
	if s.exitHold == exited {
		s.exitHold = nil
	}
	s.mu.Unlock()
	select {
	case <-exited:
		signal(s.detach)
	default:
	}
}

// start reserves the target's profiler and starts it and the loop monitor.
func (r *sampling) start(ctx context.Context) error {
	_, c, err := r.t.Inspector().pauseNow()
	if err != nil {
		return err
	}
	if was, err := r.t.Heap().setFlag(profilingFlag, true); err != nil {
		return err
	} else if was {
		return &BusyError{Op: "CPU profile of " + r.info.Ref + " (POST cpu/stop ends it)", Job: "cpu"}
	}
	r.c = c
	// The loop figures are evidence, not the diagnosis: a node without getBuiltinModule
	// (before 20.16) answers without them. Started before the profiler, so that loading
	// perf_hooks is not in the profile.
	if _, err := evalJSON(ctx, c, cpuprofile.LoopMonitorStartJS); err == nil {
		r.loop = true
	}
	for _, step := range []proto.Command{
		proto.ProfilerEnable{}, proto.ProfilerSetSamplingInterval{Interval: slowIntervalUs}, proto.ProfilerStart{},
	} {
		if err := proto.Do(ctx, c, step, nil); err != nil {
			return fmt.Errorf("slow: %s on %s: %w", step.Method(), r.info.Ref, err)
		}
	}
	r.t.Profiler().deoptimizeForProfile(ctx, c)
	return nil
}

// stop stops the profiler and reads the loop monitor.
func (r *sampling) stop(ctx context.Context) {
	var res struct {
		Profile json.RawMessage `json:"profile"`
	}
	if err := proto.Do(ctx, r.c, proto.ProfilerStop{}, &res); err != nil {
		r.err = fmt.Errorf("slow: Profiler.stop on %s: %w", r.info.Ref, err)
		return
	}
	p, err := cpuprofile.Parse(res.Profile)
	if err != nil {
		r.err = err
		return
	}
	r.profile = p
	if !r.loop {
		return
	}
	if v, err := evalJSON(ctx, r.c, cpuprofile.LoopMonitorReadJS); err == nil {
		if st, err := cpuprofile.ParseLoopStats([]byte(v)); err == nil {
			r.stats = &st
		}
	}
}

// slowReport diagnoses the targets sampled.
func (s *Session) slowReport(ctx context.Context, runs []*sampling, took time.Duration, ended bool) SlowReport {
	out := SlowReport{WindowMs: round1(float64(took) / float64(time.Millisecond)), Ended: ended}
	var tps []cpuprofile.TargetProfile
	var sampled []*sampling
	var failed []string
	for _, r := range runs {
		if r.profile == nil {
			if r.err == nil {
				r.err = fmt.Errorf("%w: %s ended before the window closed", ErrFinished, r.info.Ref)
			}
			continue
		}
		tps = append(tps, cpuprofile.TargetProfile{Name: targetName(r.info), Profile: r.profile, Loop: r.stats, Options: r.t.Profiler().profileOptions(ctx, r.c)})
		sampled = append(sampled, r)
	}
	ds := cpuprofile.DiagnoseAll(tps)
	for _, r := range runs {
		if r.profile == nil {
			failed = append(failed, r.info.Ref+": "+r.err.Error())
			out.Targets = append(out.Targets, SlowTarget{Target: r.info.Ref, Kind: r.info.Kind, Error: r.err.Error()})
		}
	}
	budget := cpuprofile.MaxTextBytes
	var notes string
	if len(failed) > 0 {
		notes = "not sampled: " + strings.Join(failed, "; ") + "\n"
		notes = notes[:min(len(notes), 400)]
		budget -= len(notes)
	}
	text := cpuprofile.RenderDiagnoses(ds, budget)
	for i, d := range ds {
		st := SlowTarget{Target: sampled[i].info.Ref, Kind: sampled[i].info.Kind, Category: string(d.Category),
			BusyPct: round1(d.BusyPct), GCPct: round1(d.GCPct), ProgramPct: round1(d.ProgramPct), DependencyPct: round1(d.DependencyPct),
			StallCount: d.StallCount, StallMs: round1(d.StallMs)}
		if l := d.Loop; l != nil {
			st.LoopDelayP99, st.Utilization = round1(l.DelayP99Ms), l.Utilization
		}
		st.Headline = headlineOf(text, d.Target)
		out.Targets = append(out.Targets, st)
	}
	slices.SortStableFunc(out.Targets, func(a, b SlowTarget) int { return cmp.Compare(targetNumber(a.Target), targetNumber(b.Target)) })
	out.Text = text + notes
	return out
}

// targetName names a target in a diagnosis's text: "t1 worker hot.js".
func targetName(info TargetInfo) string {
	name := info.Ref + " " + info.Kind
	if title := cmp.Or(info.URL, info.Title); title != "" {
		name += " " + shortTitle(title)
	}
	return name
}

// shortTitle is a script's file name alone: the text has 2 KB for every target.
func shortTitle(s string) string {
	s = strings.TrimPrefix(s, "file://")
	if i := strings.LastIndex(s, "/"); i >= 0 && i < len(s)-1 {
		return s[i+1:]
	}
	return s[:min(len(s), 40)]
}

// headlineOf finds the line of text that starts a target's diagnosis.
func headlineOf(text, name string) string {
	for _, l := range strings.Split(text, "\n") {
		if strings.HasPrefix(l, name+": ") {
			return l
		}
	}
	return ""
}

// evalJSON evaluates a snippet that answers a string (JSON, by the snippets' contract) and
// returns it; a thrown exception is an error.
func evalJSON(ctx context.Context, c clientCaller, expression string) (string, error) {
	var res evaluateResult
	if err := proto.Do(ctx, c, proto.RuntimeEvaluate{
		Expression: expression, ReturnByValue: true, Silent: true,
	}, &res); err != nil {
		return "", err
	}
	if d := res.ExceptionDetails; d != nil {
		msg := d.Text
		if d.Exception != nil {
			msg = cmp.Or(d.Exception.Description, msg)
		}
		return "", fmt.Errorf("evaluate: %s", msg)
	}
	switch v := res.Result.Value.(type) {
	case string:
		return v, nil
	case bool:
		return fmt.Sprint(v), nil
	}
	return "", fmt.Errorf("evaluate: answered %s, not a string", res.Result.Type)
}
