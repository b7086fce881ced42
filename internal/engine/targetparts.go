package engine

// A Target's methods are grouped by job into views: small values that hold the target and
// carry one part of its method set, as chromedp's domains do. They share the target's state
// and its lock (Session.mu); a view holds nothing of its own.

// Heap is a target's heap: snapshots, their diffs and files, tracking, sampling, usage and the
// objects behind snapshot ids (heap.go, sampling.go).
type Heap struct{ t *Target }

// Heap is the target's heap view.
func (t *Target) Heap() Heap { return Heap{t} }

// Profiler is a target's CPU profiles and coverage (profile.go, hotlines.go, coverage.go,
// coverlaunch.go).
type Profiler struct{ t *Target }

// Profiler is the target's profiler view.
func (t *Target) Profiler() Profiler { return Profiler{t} }

// SourceMapping is how a target's generated positions map to original ones and back: the maps
// of its scripts, breakpoints bound through them and the gate that waits for a map to load
// (sourcemaps.go, targetmaps.go, mapbind.go).
type SourceMapping struct{ t *Target }

// SourceMapping is the target's source map view.
func (t *Target) SourceMapping() SourceMapping { return SourceMapping{t} }

// Breakpoints is a target's side of the session's breakpoints: the forms they are set in, their
// bindings here, their checks and logpoints (breakpointforms.go, bindings.go, bpchecks.go,
// logpoint.go).
type Breakpoints struct{ t *Target }

// Breakpoints is the target's breakpoint view.
func (t *Target) Breakpoints() Breakpoints { return Breakpoints{t} }

// Inspector reads and changes a target's values: the state at a pause, stacks and async frames,
// scopes, props, refs, evaluation, scripts and sources (inspect.go, props.go, refs.go, eval.go,
// deepen.go, browse.go, mutate.go, asyncframes.go, prefetch.go, tdz.go).
type Inspector struct{ t *Target }

// Inspector is the target's inspector view.
func (t *Target) Inspector() Inspector { return Inspector{t} }

// dispatcher turns a target's CDP notifications into events: console, exceptions and throws,
// syntax errors, fatal stops and URL watches (notifications.go, throws.go, syntaxsite.go,
// fatal.go, urlwatch.go).
type dispatcher struct{ t *Target }

// dispatcher is the target's notification view.
func (t *Target) dispatcher() dispatcher { return dispatcher{t} }

// Control runs a target: continue, steps, pause, run-to, kill, restart of a frame, leaving a
// pause, and the blackbox patterns steps skip (execute.go, leaving.go, restart.go, blackbox.go).
type Control struct{ t *Target }

// Control is the target's execution control view.
func (t *Target) Control() Control { return Control{t} }
