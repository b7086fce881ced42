package engine

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
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
}

// breakpoint is a V8 breakpoint and what the user made of it: a breakpoint or a logpoint.
type breakpoint struct {
	Breakpoint           // when log is nil
	log        *Logpoint // when it is a logpoint
	v8ID       string
	at         string // path:line:col as asked, one point per location
	resolved   []Frame
	method     string         // the CDP call that bound it, to bind it again (toggle)
	params     map[string]any // its parameters
	orig       *origin        // the original source position it was asked on (mapbind.go)
	// watch is a urlRegex breakpoint's regex, matched here (RE2, linear) rather than by V8,
	// whose backtracking can run for ever; V8 gets the exact URLs watched matched (urlwatch.go).
	watch   *regexp.Regexp
	watched []string
	// aliases are its V8 ids in targets that run its file transformed in place, and remapped
	// those targets (targetmaps.go).
	aliases  []string
	remapped []string
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
	Ref string
	Frame
	// Async names the async boundary (await, setTimeout...) a frame of an async parent is past;
	// such frames have no scopes to read or evaluate in.
	Async string
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
func (s *Session) liveClient() (clientCaller, error) {
	if err := s.debugOnly(); err != nil {
		return nil, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	c := s.conn()
	if s.endedAt == nil && !s.main() && s.live[s.ref] != s {
		return nil, fmt.Errorf("%w: target %s of %s has ended", ErrFinished, s.ref, s.id)
	}
	if s.endedAt != nil || c == nil {
		if s.restartedAs != "" {
			return nil, fmt.Errorf("%w: %s, restarted as %s", ErrFinished, s.id, s.restartedAs)
		}
		return nil, fmt.Errorf("%w: %s", ErrFinished, s.id)
	}
	if s.lost {
		return nil, s.lostError()
	}
	return boundedCaller{c: c, s: s}, nil
}

// clientCaller is the part of the CDP client the debugger uses.
type clientCaller interface {
	Call(ctx context.Context, method string, params, result any) error
}

var locationRE = regexp.MustCompile(`^(.+?):([0-9]+)(?::([0-9]+))?$`)

// SetBreakpoint binds a line breakpoint by URL, so it also binds in scripts loaded later.
func (s *Session) SetBreakpoint(ctx context.Context, spec BreakpointSpec) (Breakpoint, error) {
	c, err := s.liveClient()
	if err != nil {
		return Breakpoint{}, err
	}
	if spec.URLRegex != "" {
		return s.setURLRegexBreakpoint(ctx, c, spec)
	}
	bp, err := s.setBreakpoint(ctx, c, spec)
	if err != nil {
		return Breakpoint{}, err
	}
	if err := s.refuseUnbreakable(ctx, c, bp); err != nil {
		return Breakpoint{}, err
	}
	s.spread(ctx, bp.Ref)
	return s.listed(bp.Ref), nil
}

func (s *Session) setBreakpoint(ctx context.Context, c clientCaller, spec BreakpointSpec) (Breakpoint, error) {
	ref := s.newRef("bp")
	bp, err := s.bind(ctx, c, spec.Location, breakpointCondition(ref, spec))
	if err != nil {
		return Breakpoint{}, err
	}
	return s.keep(bp, Breakpoint{Ref: ref, Location: spec.Location, Condition: spec.Condition, HitCount: spec.HitCount}), nil
}

// keep lists a just-bound breakpoint, b saying what the user asked, and returns it as listed.
func (s *Session) keep(bp *breakpoint, b Breakpoint) Breakpoint {
	b.Resolved, b.Enabled, b.Pending = bp.resolved, true, bp.Pending
	bp.Breakpoint = b
	s.mu.Lock()
	s.breakpoints = append(s.breakpoints, bp)
	s.mu.Unlock()
	return b
}

// transformedInPlace reports whether a script has a source map back to its own file.
func (s *Session) transformedInPlace(scriptID, path string) bool {
	m := s.maps.of(scriptID)
	return m != nil && len(m.MatchSource(path)) > 0
}

// newRef numbers breakpoints and logpoints in one sequence: bp1, lp2, bp3...
func (s *Session) newRef(prefix string) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.nextBP++
	return prefix + strconv.Itoa(s.nextBP)
}

// bind sets a V8 breakpoint on file:line[:col] by URL, so that it also binds in scripts loaded
// later, and returns it with the locations V8 resolved so far.
func (s *Session) bind(ctx context.Context, c clientCaller, location, condition string) (*breakpoint, error) {
	path, line, col, err := s.parseLocation(location)
	if err != nil {
		return nil, err
	}
	params := map[string]any{
		"urlRegex":   "^(file://)?" + regexp.QuoteMeta(path) + "$",
		"lineNumber": line - 1, // CDP lines are 0-based
		"condition":  condition,
	}
	if col > 0 {
		params["columnNumber"] = col - 1
	}
	at := fmt.Sprintf("%s:%d:%d", path, line, col)
	s.mu.Lock()
	for _, other := range s.breakpoints {
		if other.at == at { // V8 keeps one breakpoint per location
			s.mu.Unlock()
			return nil, fmt.Errorf("%w: %s is already at %s; remove it first", ErrLocationTaken, other.ref(), location)
		}
	}
	s.mu.Unlock()
	// A file not loaded yet may be an original source, and a loaded one may have been transformed
	// in place (babel-jest, vite-node: its own path, an inline map back to it): both bind
	// through a map when one has the file.
	if id, loaded := s.scriptFor(path); !loaded || s.transformedInPlace(id, path) {
		if bp, ok, err := s.bindOriginal(ctx, c, location, at, path, line, col, condition); ok {
			return bp, err
		}
	}
	var res setBreakpointResult
	if err := c.Call(ctx, "Debugger.setBreakpointByUrl", params, &res); err != nil {
		return nil, fmt.Errorf("set breakpoint %s: %w", location, err)
	}
	bp := &breakpoint{v8ID: res.BreakpointID, at: at, resolved: []Frame{}, method: "Debugger.setBreakpointByUrl", params: params}
	s.mu.Lock()
	for _, l := range res.Locations {
		bp.resolved = append(bp.resolved, s.resolvedAt(l))
	}
	s.mu.Unlock()
	return bp, nil
}

// parseLocation reads file:line[:col] (1-based), the file relative to the session's cwd.
func (s *Session) parseLocation(location string) (path string, line, col int, err error) {
	path, line, col, err = splitLocation(location)
	if err != nil {
		return "", 0, 0, err
	}
	if !strings.HasPrefix(path, "/") {
		path = s.cwd + "/" + path
	}
	return path, line, col, nil
}

// splitLocation reads file:line[:col] (1-based, col 0 when absent), each bounded by MaxPosition.
func splitLocation(location string) (file string, line, col int, err error) {
	m := locationRE.FindStringSubmatch(location)
	if m == nil {
		return "", 0, 0, fmt.Errorf("%w: location %q is not file:line[:col]", ErrBadInput, location)
	}
	line, err = position("line", m[2])
	if err == nil && m[3] != "" {
		col, err = position("column", m[3])
	}
	if err != nil {
		return "", 0, 0, fmt.Errorf("location %q: %w", location, err)
	}
	if line < 1 {
		return "", 0, 0, fmt.Errorf("%w: line %d: lines start at 1", ErrBadInput, line)
	}
	return m[1], line, col, nil
}

// MaxPosition bounds the lines and columns a user gives (the contract states the same bound):
// CDP positions are int32, and no source has a billion lines.
const MaxPosition = 1_000_000_000

// position reads a 1-based line or column, refusing one past MaxPosition.
func position(name, digits string) (int, error) {
	n, err := strconv.Atoi(digits)
	if err != nil || n > MaxPosition {
		return 0, fmt.Errorf("%w: %s %s is past %d", ErrBadInput, name, digits, MaxPosition)
	}
	return n, nil
}

// breakpointCondition composes the user's condition with a hit counter kept in the program,
// so that V8 itself decides whether to pause: no round trip per hit.
func breakpointCondition(ref string, spec BreakpointSpec) string {
	cond := spec.Condition
	if spec.HitCount > 0 {
		count := fmt.Sprintf(`((globalThis.__tracedHits ??= {})[%q] = (globalThis.__tracedHits[%q] || 0) + 1) === %d`,
			ref, ref, spec.HitCount)
		if cond == "" {
			cond = count
		} else {
			cond = "(" + cond + ") && " + count
		}
	}
	return cond
}

// Breakpoints lists the session's breakpoints.
func (s *Session) Breakpoints() ([]Breakpoint, error) {
	if err := s.debugOnly(); err != nil {
		return nil, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]Breakpoint, 0, len(s.breakpoints))
	for _, bp := range s.breakpoints {
		if bp.log != nil {
			continue
		}
		b := bp.Breakpoint
		b.Resolved = append([]Frame{}, bp.resolved...)
		out = append(out, b)
	}
	return out, nil
}

// RemoveBreakpoint removes one breakpoint or logpoint by ref ("bp1", "BP#1", "lp2", "LP#2"), or
// every one with "all". It returns the refs removed.
func (s *Session) RemoveBreakpoint(ctx context.Context, ref string) ([]string, error) {
	c, err := s.liveClient()
	if err != nil {
		return nil, err
	}
	ref = normalizeRef(normalizeRef(ref, "bp", "BP#"), "lp", "LP#")
	s.mu.Lock()
	var gone []*breakpoint
	kept := s.breakpoints[:0]
	for _, bp := range s.breakpoints {
		if ref == "all" || bp.ref() == ref {
			gone = append(gone, bp)
		} else {
			kept = append(kept, bp)
		}
	}
	s.breakpoints = kept
	s.mu.Unlock()
	if len(gone) == 0 && ref != "all" {
		return nil, fmt.Errorf("%w: breakpoint %q", ErrNoRef, ref)
	}
	refs := []string{}
	for _, bp := range gone {
		if bp.v8ID == "" { // toggled off, or pending: not in this target's V8 (targets may have it)
			s.unspread(ctx, bp, "")
			refs = append(refs, bp.ref())
			continue
		}
		if err := c.Call(ctx, "Debugger.removeBreakpoint", map[string]any{"breakpointId": bp.v8ID}, nil); err != nil {
			return refs, fmt.Errorf("remove %s: %w", bp.ref(), err)
		}
		s.unspread(ctx, bp, bp.v8ID)
		refs = append(refs, bp.ref())
	}
	s.dropGate(ctx, c) // the last waiting one may be gone
	return refs, nil
}

// normalizeRef accepts the aliases "@v1" and "BP#1" for "v1" and "bp1".
func normalizeRef(ref, prefix, alias string) string {
	ref = strings.TrimPrefix(ref, "@")
	if n, ok := strings.CutPrefix(ref, alias); ok {
		return prefix + n
	}
	return ref
}

// State describes the session now; when paused, from frame (0: the top) with lines of source
// around the current line (0: defaultLines), every section shown.
func (s *Session) State(ctx context.Context, frame, lines int) (State, error) {
	return s.StateOf(ctx, StateOptions{Frame: frame, Lines: lines, Sections: AllSections, Depth: 1, AsyncDepth: -1})
}

func typeOf(o remoteObject) string {
	if o.Subtype != "" {
		return o.Subtype
	}
	return o.Type
}

// pausedFrame converts a paused call frame; node 20 leaves its url empty, so the script's url
// comes from scriptParsed.
func (s *Session) pausedFrame(f pausedFrame) Frame {
	url := f.URL
	if url == "" {
		s.mu.Lock()
		url = s.scripts[f.Location.ScriptID].URL
		s.mu.Unlock()
	}
	return s.place(f.FunctionName, f.Location.ScriptID, url, f.Location.LineNumber, f.Location.ColumnNumber)
}

// maxSourceBytes caps a script source kept for source views.
const maxSourceBytes = 4 << 20

// source returns a script's lines, fetched once per script.
func (s *Session) source(ctx context.Context, c clientCaller, scriptID string) ([]string, error) {
	s.mu.Lock()
	lines, ok := s.sources[scriptID]
	s.mu.Unlock()
	if ok {
		return lines, nil
	}
	var res struct {
		ScriptSource string `json:"scriptSource"`
	}
	if err := c.Call(ctx, "Debugger.getScriptSource", map[string]any{"scriptId": scriptID}, &res); err != nil {
		return nil, err
	}
	return s.keepLines(scriptID, s.ownText(scriptID, res.ScriptSource)), nil
}

// keepLines splits a source into capped lines (at most maxSourceBytes of it) and keeps them
// for later views under key.
func (s *Session) keepLines(key, src string) []string {
	lines := strings.Split(src[:min(len(src), maxSourceBytes)], "\n")
	for i, l := range lines {
		lines[i] = CapText(strings.TrimSuffix(l, "\r"), s.stringCap).Value
	}
	s.mu.Lock()
	s.sources[key] = lines
	s.mu.Unlock()
	return lines
}

// SetPauseOnExceptions sets when exceptions pause the program: none, uncaught, caught or all.
// V8 has no caught-only mode, so caught pauses on all.
func (s *Session) SetPauseOnExceptions(ctx context.Context, mode string, classes []string) error {
	c, err := s.liveClient()
	if err != nil {
		return err
	}
	if err := s.setPauseOnExceptions(ctx, c, mode); err != nil {
		return err
	}
	s.mu.Lock()
	s.exceptionMode = mode // a restart carries it over
	s.setClasses, s.classesSet = slices.Clone(classes), true
	s.mu.Unlock()
	s.toEveryTarget(ctx, "Debugger.setPauseOnExceptions", map[string]any{"state": s.v8ExceptionState(mode)})
	s.mu.Lock()
	for _, t := range append(s.others(), s) {
		t.narrowed = false // each has the new mode's full state now
	}
	s.mu.Unlock()
	return nil
}

// exceptionState is V8's pause-on-exceptions state for each mode.
var exceptionState = map[string]string{"": "none", "none": "none", "uncaught": "uncaught", "caught": "all", "all": "all"}

// setPauseOnExceptions checks the user's mode and gives V8 the state it needs (throws.go).
func (s *Session) setPauseOnExceptions(ctx context.Context, c clientCaller, mode string) error {
	state := exceptionState[mode]
	if state == "" {
		return fmt.Errorf("%w: pause-on-exceptions mode %q is not none, uncaught, caught or all", ErrBadInput, mode)
	}
	return c.Call(ctx, "Debugger.setPauseOnExceptions", map[string]any{"state": s.v8ExceptionState(mode)}, nil)
}
