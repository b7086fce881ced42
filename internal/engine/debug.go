package engine

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"traced/internal/cdp/proto"
	"traced/internal/engine/bpspec"
)

// Session modes.
const (
	ModeTrace = "trace" // observe only: nothing evaluates user text or stops the program
	ModeDebug = "debug" // breakpoints, stepping, eval
)

// Errors of debugger operations; the HTTP layer maps them to statuses.
var (
	ErrTraceMode = errors.New("trace sessions observe only")
	ErrRunning   = errors.New("process is running")
	ErrNoRef     = errors.New("no such ref")
	// ErrAsyncStacks: an operation node cannot survive while async stacks are recorded.
	ErrAsyncStacks = errors.New("async stacks are on")
	// ErrLocationTaken: V8 keeps one breakpoint per location, so one point per file:line:col.
	ErrLocationTaken = errors.New("a breakpoint or logpoint is already at this location")
)

// startReason is node's pause reason for --inspect-brk's first-line break.
const startReason = "Break on start"

// BreakpointSpec asks for a line breakpoint.
type BreakpointSpec struct {
	Location  string // file:line[:col], file relative to the session's cwd
	URLRegex  string // instead of Location: a regex over script URLs, with Line and Column
	Line      int    // 1-based, with URLRegex
	Column    int    // 1-based, with URLRegex; 0: the line's first breakable position
	Condition string // JS expression; pause only when truthy
	HitCount  int    // pause only on the Nth hit (counted while the condition holds)
}

// Breakpoint is a breakpoint as the user sees it.
type Breakpoint struct {
	Ref       string // bp1, bp2...
	Location  string
	Condition string
	HitCount  int
	Hits      int     // times it paused the program
	Resolved  []Frame // where V8 bound it; empty until a matching script loads
	URLRegex  string  // a URL-regex breakpoint's regex
	Function  string  // a function breakpoint's expression
	Enabled   bool    // false: toggled off, kept but not bound in V8
	// Pending: on an original source no loaded script maps yet; it binds when one loads.
	Pending bool
	// Warning, in the answer to setting it only, says why it may not stop where asked: top-level
	// code that has run already, a session that has ended.
	Warning string
}

// breakpoint is a V8 breakpoint and what the user made of it: a breakpoint or a logpoint.
type breakpoint struct {
	Breakpoint           // when log is nil
	log        *Logpoint // when it is a logpoint
	at         string    // path:line:col as asked, one point per location
	// call is the CDP call that binds it, to bind it again (a toggle, a new target): a
	// DebuggerSetBreakpointByURL or DebuggerSetBreakpointOnFunctionCall. A pending one's
	// (mapbind.go) holds only its condition until it binds.
	call proto.Command
	orig *origin // the original source position it was asked on (mapbind.go)
	// watch is a urlRegex breakpoint's regex, matched here (RE2, linear) rather than by V8,
	// whose backtracking can run for ever; V8 gets the exact URLs watched matched (urlwatch.go).
	watch   *regexp.Regexp
	watched []string
}

// byURL is its call when it binds by URL.
func (bp *breakpoint) byURL() (proto.DebuggerSetBreakpointByURL, bool) {
	b, ok := bp.call.(proto.DebuggerSetBreakpointByURL)
	return b, ok
}

// condition is the condition V8 evaluates for it (its hit count and logpoint included).
func (bp *breakpoint) condition() string {
	switch c := bp.call.(type) {
	case proto.DebuggerSetBreakpointByURL:
		return c.Condition
	case proto.DebuggerSetBreakpointOnFunctionCall:
		return c.Condition
	}
	return ""
}

// ref is the user's name for it.
func (bp *breakpoint) ref() string {
	if bp.log != nil {
		return bp.log.Ref
	}
	return bp.Ref
}

// SourceLine is one line of source around a pause.
type SourceLine struct {
	Line    int
	Text    string
	Current bool
}

// Variable is one named value of a scope, previewed.
type Variable struct {
	Ref   string // v1...: valid until the program moves on
	Name  string
	Type  string
	Value string
	Scope string // local, block, catch, closure...
	// Expand names the call that shows what the preview left out: GET props?ref=v1.
	Expand string
}

// StackFrame is a frame of the paused stack, with its ref (f0 is the top).
type StackFrame struct {
	Ref   string
	Frame // its Async names the boundary of a frame of an async parent
}

// State is where a debug session is: its status and, when paused, why, where, the source around,
// the variables of the chosen frame and the stack.
type State struct {
	Session string
	// Target is the target the state is of, and AlsoPaused the others that stand paused, when
	// the session has more than the main thread to debug.
	Target     string
	AlsoPaused []string
	Status     Status
	Reason     string
	Hit        []string // breakpoint refs that caused the pause
	Location   *Frame
	Frame      string // the frame the source and variables are of
	Source     []SourceLine
	Locals     []Variable
	Stack      []StackFrame
	// Breakpoints and Logpoints are the session's, shown with the breakpoints section.
	Breakpoints []Breakpoint
	Logpoints   []Logpoint
	// ReturnValue is the value the top frame returns, when paused at its return point.
	ReturnValue *Variable
	// Output is what the program printed and threw while the execution command that answers
	// this state ran (execoutput.go).
	Output *ExecOutput
}

// EvalResult is the value of an expression, or the exception it threw.
type EvalResult struct {
	Ref       string // v1 while paused, o1 for an object while running
	Type      string
	Value     string
	Exception string
	Expand    string // the call that shows what the preview left out
	// Hint says what to do next: a promise still pending, a name out of scope.
	Hint string
	// Session and Target name what the answer is about: the target only in a session with
	// more than one target to debug.
	Session string
	Target  string
}

// Mode is the session's mode.
func (s *Session) Mode() string { return s.mode }

func (s *Session) debugOnly() error {
	if s.mode != ModeDebug {
		return fmt.Errorf("%w: session %s is a trace session", ErrTraceMode, s.id)
	}
	return nil
}

// liveClient returns the inspector connection of a live debug session: every debugger
// operation goes through it, so it refuses trace sessions too.
func (t *Target) liveClient() (clientCaller, error) {
	if err := t.s.debugOnly(); err != nil {
		return nil, err
	}
	t.lock()
	defer t.unlock()
	c := t.caller()
	if t.s.endedAt == nil && !t.main() && t.s.targets.live[t.ref] != t {
		return nil, fmt.Errorf("%w: target %s of %s has ended", ErrFinished, t.ref, t.s.id)
	}
	if t.s.endedAt != nil || c == nil {
		if t.s.restartedAs != "" {
			return nil, fmt.Errorf("%w: %s, restarted as %s", ErrFinished, t.s.id, t.s.restartedAs)
		}
		return nil, fmt.Errorf("%w: %s", ErrFinished, t.s.id)
	}
	if t.s.lost {
		return nil, t.s.lostError()
	}
	return boundedCaller{c: c, s: t}, nil
}

// clientCaller is the part of the CDP client the debugger uses (proto.Do calls through it).
type clientCaller interface {
	Call(ctx context.Context, method string, params, result any) error
}

// Set binds a line breakpoint by URL, so it also binds in scripts loaded later.
func (bs Breakpoints) Set(ctx context.Context, spec BreakpointSpec) (Breakpoint, error) {
	c, err := bs.t.liveClient()
	if err != nil {
		if bs.offline() {
			return bs.setOffline(spec)
		}
		return Breakpoint{}, err
	}
	if err := bs.checkPoint(ctx, c, spec.Location, spec.Condition, ""); err != nil {
		return Breakpoint{}, err
	}
	if spec.URLRegex != "" {
		return bs.setURLRegexBreakpoint(ctx, c, spec)
	}
	bp, err := bs.setBreakpoint(ctx, c, spec)
	if err != nil {
		return Breakpoint{}, err
	}
	if err := bs.refuseUnbreakable(ctx, c, bp); err != nil {
		return Breakpoint{}, err
	}
	bs.t.spread(ctx, bp.Ref)
	listed := bs.t.s.Settings().listed(bp.Ref)
	bs.t.s.Settings().breakpointChanged(listed, "set")
	if ran := bs.ranAlready(ctx, bp.Ref); len(ran) > 0 {
		listed.Warning = fmt.Sprintf("%s is top-level code that already ran in %s; restart to stop there",
			spec.Location, strings.Join(ran, ", "))
	}
	return listed, nil
}

func (bs Breakpoints) setBreakpoint(ctx context.Context, c clientCaller, spec BreakpointSpec) (Breakpoint, error) {
	ref := bs.t.s.Settings().newRef("bp")
	bp, err := bs.bind(ctx, c, spec.Location, bpspec.Condition(ref, spec.Condition, spec.HitCount))
	if err != nil {
		return Breakpoint{}, err
	}
	return bs.t.s.Settings().keep(bp, Breakpoint{Ref: ref, Location: spec.Location, Condition: spec.Condition, HitCount: spec.HitCount}), nil
}

// keep lists a just-bound breakpoint, b saying what the user asked, and returns it as listed.
func (us Settings) keep(bp *breakpoint, b Breakpoint) Breakpoint {
	us.s.mu.Lock()
	defer us.s.mu.Unlock()
	b.Resolved, b.Enabled, b.Pending = us.resolvedOf(bp), true, bp.Pending
	bp.Breakpoint = b
	us.s.breakpoints = append(us.s.breakpoints, bp)
	return b
}

// transformedInPlace reports whether a script has a source map back to its own file.
func (bs Breakpoints) transformedInPlace(scriptID, path string) bool {
	m := bs.t.maps.of(scriptID)
	return m != nil && len(m.MatchSource(path)) > 0
}

// newRef numbers breakpoints and logpoints in one sequence: bp1, lp2, bp3...
func (us Settings) newRef(prefix string) string {
	us.s.mu.Lock()
	defer us.s.mu.Unlock()
	us.s.nextBP++
	return prefix + strconv.Itoa(us.s.nextBP)
}

// bind sets a V8 breakpoint on file:line[:col] by URL, so that it also binds in scripts loaded
// later, and returns it with the locations V8 resolved so far.
func (bs Breakpoints) bind(ctx context.Context, c clientCaller, location, condition string) (*breakpoint, error) {
	path, line, col, err := bs.t.s.Settings().parseLocation(location)
	if err != nil {
		return nil, err
	}
	call := proto.DebuggerSetBreakpointByURL{
		URLRegex:   "^(file://)?" + regexp.QuoteMeta(path) + "$",
		LineNumber: line - 1, // CDP lines are 0-based
		Condition:  condition,
	}
	if col > 0 {
		call.ColumnNumber = proto.Int(col - 1)
	}
	at := fmt.Sprintf("%s:%d:%d", path, line, col)
	bs.t.lock()
	for _, other := range bs.t.s.breakpoints {
		if other.at == at { // V8 keeps one breakpoint per location
			bs.t.unlock()
			return nil, fmt.Errorf("%w: %s is already at %s; remove it first", ErrLocationTaken, other.ref(), location)
		}
	}
	bs.t.unlock()
	// A file not loaded yet may be an original source, and a loaded one may have been transformed
	// in place (babel-jest, vite-node: its own path, an inline map back to it): both bind
	// through a map when one has the file.
	if id, loaded := bs.t.Inspector().scriptFor(path); !loaded || bs.transformedInPlace(id, path) {
		if bp, ok, err := bs.t.SourceMapping().bindOriginal(ctx, c, location, at, path, line, col, condition); ok {
			return bp, err
		}
	}
	var res setBreakpointResult
	if err := proto.Do(ctx, c, call, &res); err != nil {
		return nil, fmt.Errorf("set breakpoint %s: %w", location, err)
	}
	bp := &breakpoint{at: at, call: call}
	bs.t.lock()
	bs.bound(bp, res.BreakpointID, res.Locations)
	bs.t.unlock()
	return bp, nil
}

// parseLocation reads file:line[:col] (1-based), the file relative to the session's cwd.
func (us Settings) parseLocation(location string) (path string, line, col int, err error) {
	path, line, col, err = splitLocation(location)
	if err != nil {
		return "", 0, 0, err
	}
	if !strings.HasPrefix(path, "/") {
		path = us.s.dir() + "/" + path
	}
	return path, line, col, nil
}

// MaxPosition bounds the lines and columns a user gives (bpspec's bound).
const MaxPosition = bpspec.MaxPosition

// splitLocation is bpspec.Location, its error the engine's bad input.
func splitLocation(location string) (file string, line, col int, err error) {
	file, line, col, err = bpspec.Location(location)
	return file, line, col, badSpec(err)
}

// badSpec is a spec error of bpspec as bad input, its text unchanged; nil stays nil.
func badSpec(err error) error {
	if err == nil {
		return nil
	}
	return specError{err}
}

type specError struct{ err error }

func (e specError) Error() string   { return e.err.Error() }
func (e specError) Unwrap() []error { return []error{e.err, ErrBadInput} }

// Breakpoints lists the session's breakpoints.
func (us Settings) Breakpoints() ([]Breakpoint, error) {
	if err := us.s.debugOnly(); err != nil {
		return nil, err
	}
	us.s.mu.Lock()
	defer us.s.mu.Unlock()
	out := make([]Breakpoint, 0, len(us.s.breakpoints))
	for _, bp := range us.s.breakpoints {
		if bp.log != nil {
			continue
		}
		b := bp.Breakpoint
		b.Resolved = us.resolvedOf(bp)
		out = append(out, b)
	}
	return out, nil
}

// Remove removes one breakpoint or logpoint by ref ("bp1", "BP#1", "lp2", "LP#2"), or
// every one with "all". It returns the refs removed.
func (bs Breakpoints) Remove(ctx context.Context, ref string) ([]string, error) {
	ref = bpspec.Ref(bpspec.Ref(ref, "bp", "BP#"), "lp", "LP#")
	c, err := bs.t.liveClient()
	if err != nil {
		if bs.offline() {
			return bs.t.s.Settings().removeOffline(ref)
		}
		return nil, err
	}
	bs.t.lock()
	var gone []*breakpoint
	kept := bs.t.s.breakpoints[:0]
	for _, bp := range bs.t.s.breakpoints {
		if ref == "all" || bp.ref() == ref {
			gone = append(gone, bp)
		} else {
			kept = append(kept, bp)
		}
	}
	bs.t.s.breakpoints = kept
	bs.t.unlock()
	if len(gone) == 0 && ref != "all" {
		return nil, fmt.Errorf("%w: breakpoint %q", ErrNoRef, ref)
	}
	refs := []string{}
	for _, bp := range gone {
		bs.t.lock()
		id := bs.v8IDOf(bp) // "": toggled off, or pending, here (other targets may have it)
		bs.t.unlock()
		if id != "" {
			if err := proto.Do(ctx, c, proto.DebuggerRemoveBreakpoint{BreakpointID: id}, nil); err != nil {
				return refs, fmt.Errorf("remove %s: %w", bp.ref(), err)
			}
		}
		bs.t.unspread(ctx, bp)
		bs.t.lock()
		delete(bs.t.bindings, bp)
		bs.t.unlock()
		if bp.log == nil {
			bs.t.s.Settings().breakpointChanged(bp.Breakpoint, "removed")
		}
		refs = append(refs, bp.ref())
	}
	bs.t.SourceMapping().dropGate(ctx, c) // the last waiting one may be gone
	return refs, nil
}

// State describes the session now; when paused, from frame (0: the top) with lines of source
// around the current line (0: defaultLines), every section shown.
func (in Inspector) State(ctx context.Context, frame, lines int) (State, error) {
	return in.StateOf(ctx, StateOptions{Frame: frame, Lines: lines, Sections: AllSections, Depth: 1, AsyncDepth: -1})
}

func typeOf(o remoteObject) string {
	if o.Subtype != "" {
		return o.Subtype
	}
	return o.Type
}

// pausedFrame converts a paused call frame; node 20 leaves its url empty, so the script's url
// comes from scriptParsed.
func (in Inspector) pausedFrame(f pausedFrame) Frame {
	url := f.URL
	if url == "" {
		in.t.mu.Lock()
		url = in.t.scripts[f.Location.ScriptID].URL
		in.t.mu.Unlock()
	}
	fr := in.t.SourceMapping().place(f.FunctionName, f.Location.ScriptID, url, f.Location.LineNumber, f.Location.ColumnNumber)
	fr.Async = f.async
	return fr
}

// maxSourceBytes caps a script source kept for source views.
const maxSourceBytes = 4 << 20

// source returns a script's lines, fetched once per script.
func (in Inspector) source(ctx context.Context, c clientCaller, scriptID string) ([]string, error) {
	in.t.mu.Lock()
	lines, ok := in.t.sources[scriptID]
	in.t.mu.Unlock()
	if ok {
		return lines, nil
	}
	var res struct {
		ScriptSource string `json:"scriptSource"`
	}
	if err := proto.Do(ctx, c, proto.DebuggerGetScriptSource{ScriptID: scriptID}, &res); err != nil {
		return nil, err
	}
	return in.keepLines(scriptID, in.t.SourceMapping().ownText(scriptID, res.ScriptSource)), nil
}

// keepLines splits a source into capped lines (at most maxSourceBytes of it) and keeps them
// for later views under key.
func (in Inspector) keepLines(key, src string) []string {
	lines := strings.Split(src[:min(len(src), maxSourceBytes)], "\n")
	for i, l := range lines {
		lines[i] = CapText(strings.TrimSuffix(l, "\r"), in.t.s.stringCap).Value
	}
	in.t.mu.Lock()
	in.t.sources[key] = lines
	in.t.mu.Unlock()
	return lines
}

// SetPauseOnExceptions sets when exceptions pause the program: none, uncaught, caught or all.
// V8 has no caught-only mode, so caught pauses on all.
func (tg *Target) SetPauseOnExceptions(ctx context.Context, mode string, classes []string) error {
	c, err := tg.liveClient()
	if err != nil {
		return err
	}
	if err := tg.s.Settings().setPauseOnExceptions(ctx, c, mode); err != nil {
		return err
	}
	tg.lock()
	tg.s.exceptionMode = mode // a restart carries it over
	tg.s.setClasses, tg.s.classesSet = slices.Clone(classes), true
	tg.unlock()
	tg.toEveryTarget(ctx, proto.DebuggerSetPauseOnExceptions{State: tg.s.Settings().v8ExceptionState(mode)})
	tg.lock()
	for _, t := range append(tg.s.Tree().debuggedBut(tg), tg) {
		t.narrowed = false // each has the new mode's full state now
	}
	tg.unlock()
	return nil
}

// exceptionState is V8's pause-on-exceptions state for each mode.
var exceptionState = map[string]string{"": "none", "none": "none", "uncaught": "uncaught", "caught": "all", "all": "all"}

// setPauseOnExceptions checks the user's mode and gives V8 the state it needs (throws.go).
func (us Settings) setPauseOnExceptions(ctx context.Context, c clientCaller, mode string) error {
	state := exceptionState[mode]
	if state == "" {
		return fmt.Errorf("%w: pause-on-exceptions mode %q is not none, uncaught, caught or all", ErrBadInput, mode)
	}
	return proto.Do(ctx, c, proto.DebuggerSetPauseOnExceptions{State: us.v8ExceptionState(mode)}, nil)
}

// breakpointChanged records what a client did to a breakpoint as a breakpoint event, so that the other
// clients of the session (an editor over DAP, the dashboard) see it: at each place it is bound,
// or, unbound, where it was asked for.
func (us Settings) breakpointChanged(bp Breakpoint, change string) {
	if len(bp.Resolved) == 0 || change == "removed" {
		at := Frame{}
		if len(bp.Resolved) > 0 {
			at = bp.Resolved[0]
		} else if file, line, ok := bpspec.Line(bp.Location); ok {
			at = Frame{File: file, Line: line}
		}
		us.s.record(Event{Kind: KindBreakpoint, Breakpoint: &BreakpointInfo{Ref: bp.Ref, Location: at, Change: change}})
		return
	}
	for _, at := range bp.Resolved {
		us.s.record(Event{Kind: KindBreakpoint, Target: at.Target, Breakpoint: &BreakpointInfo{Ref: bp.Ref, Location: at, Change: change}})
	}
}

// Debuggable refuses a trace session (ErrTraceMode): the debugger's operations need a debug one.
func (s *Session) Debuggable() error { return s.debugOnly() }
