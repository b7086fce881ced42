// The other forms of breakpoints: by URL pattern, at a function, toggled one by one or all at
// once, and the lines a breakpoint can stop at.

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
	"traced/internal/preview"
	"traced/internal/sourcemap"
)

// NotBreakableError refuses a line breakpoint on a loaded script's line where V8 cannot stop (a
// blank line, a comment, the middle of a statement): V8 would move it to another line, or bind it
// nowhere. Nearest are the closest breakable lines before and after, 1-based.
type NotBreakableError struct {
	Location string // as asked
	File     string // its file part
	Nearest  []int
	// Unmapped: the line is in an original source whose map gives it no generated code.
	Unmapped bool
}

func (e *NotBreakableError) Error() string {
	if e.Unmapped {
		if len(e.Nearest) == 0 {
			return fmt.Sprintf("%s has no code in the source map, and no line of its file has", e.Location)
		}
		return fmt.Sprintf("%s has no code in the source map; the nearest mapped lines are %s", e.Location, joinInts(e.Nearest))
	}
	if len(e.Nearest) == 0 {
		return fmt.Sprintf("%s is not a breakable line, and no line near it is", e.Location)
	}
	return fmt.Sprintf("%s is not a breakable line; the nearest breakable lines are %s", e.Location, joinInts(e.Nearest))
}

func joinInts(ns []int) string {
	out := make([]string, len(ns))
	for i, n := range ns {
		out[i] = strconv.Itoa(n)
	}
	return strings.Join(out, ", ")
}

// Unwrap makes it a bad input.
func (e *NotBreakableError) Unwrap() error { return ErrBadInput }

// nearWindow is how many lines around a refused line are searched for breakable ones: enough
// to step over a comment block, small enough to answer from one getPossibleBreakpoints call.
const nearWindow = 20

// maxBreakableRange caps the lines one GET breakable covers: a screenful of choices, a bounded answer.
const maxBreakableRange = 1000

// breakpointGroup holds the function objects of function breakpoints, kept while the session
// lives so that a toggled-off function breakpoint can be bound again.
const breakpointGroup = "traced-breakpoints"

// BreakableLine is a line where the debugger can stop, with the columns it can stop at.
type BreakableLine struct {
	Line    int   // 1-based
	Columns []int // 1-based
}

// FunctionBreakpointSpec asks for a breakpoint at the start of the function an expression names.
type FunctionBreakpointSpec struct {
	Expression string
	Condition  string
	HitCount   int
}

// setURLRegexBreakpoint binds a breakpoint on a line of every script whose URL matches the regex.
func (bs Breakpoints) setURLRegexBreakpoint(ctx context.Context, c clientCaller, spec BreakpointSpec) (Breakpoint, error) {
	if err := checkPositions(spec.Line, spec.Column); err != nil {
		return Breakpoint{}, err
	}
	location := "/" + spec.URLRegex + "/:" + strconv.Itoa(spec.Line)
	if spec.Column > 0 {
		location += ":" + strconv.Itoa(spec.Column)
	}
	watch, err := regexp.Compile(spec.URLRegex)
	if err != nil {
		return Breakpoint{}, fmt.Errorf("%w: urlRegex %q: %w (it is matched as RE2: no backreferences or lookaround)", ErrBadInput, spec.URLRegex, err)
	}
	watched := bs.t.dispatcher().urlsMatching(watch)
	ref := bs.t.s.Settings().newRef("bp")
	call := proto.DebuggerSetBreakpointByURL{
		URLRegex:   exactURLs(watched),
		LineNumber: spec.Line - 1, // CDP lines are 0-based
		Condition:  bpspec.Condition(ref, spec.Condition, spec.HitCount),
	}
	if spec.Column > 0 {
		call.ColumnNumber = proto.Int(spec.Column - 1)
	}
	bp, err := bs.bindWith(ctx, c, "regex:"+location, location, call)
	if err != nil {
		return Breakpoint{}, err
	}
	bp.watch, bp.watched = watch, watched
	if err := bs.t.SourceMapping().ensureGate(ctx, c); err != nil { // scripts loaded later are matched at the gate
		bs.t.lock()
		id := bs.v8IDOf(bp)
		bs.t.unlock()
		_ = proto.Do(ctx, c, proto.DebuggerRemoveBreakpoint{BreakpointID: id}, nil)
		return Breakpoint{}, err
	}
	return bs.t.s.Settings().keep(bp, Breakpoint{Ref: ref, Location: location, URLRegex: spec.URLRegex, Condition: spec.Condition,
		HitCount: spec.HitCount}), nil
}

// bindWith makes one binding call and returns the breakpoint with what V8 resolved. at is the
// key of the one-point-per-location rule.
func (bs Breakpoints) bindWith(ctx context.Context, c clientCaller, at, location string, call proto.Command) (*breakpoint, error) {
	bs.t.lock()
	for _, other := range bs.t.s.breakpoints {
		if other.at == at {
			bs.t.unlock()
			return nil, fmt.Errorf("%w: %s is already at %s; remove it first", ErrLocationTaken, other.ref(), location)
		}
	}
	bs.t.unlock()
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

// refuseUnbreakable removes a just-set line breakpoint whose script is loaded but which V8 did
// not bind on the line asked, and answers a NotBreakableError naming the nearest lines. A
// breakpoint on a script not loaded yet stays: it binds when the script loads.
func (bs Breakpoints) refuseUnbreakable(ctx context.Context, c clientCaller, bp Breakpoint) error {
	path, line, _, err := bs.t.s.Settings().parseLocation(bp.Location)
	if err != nil {
		return err
	}
	scriptID, _ := bs.t.Inspector().scriptFor(path)
	if scriptID == "" {
		return nil
	}
	for _, r := range bp.Resolved {
		if r.Line == line && strings.HasSuffix(r.URL, path) {
			return nil
		}
	}
	if _, err := bs.Remove(ctx, bp.Ref); err != nil {
		return err
	}
	lines, err := bs.possible(ctx, c, scriptID, max(line-nearWindow, 1), line+nearWindow)
	if err != nil {
		return err
	}
	var before, after int
	for _, l := range lines {
		switch {
		case l.Line < line:
			before = l.Line // ascending: the last one is the nearest
		case l.Line > line && after == 0:
			after = l.Line
		}
	}
	nb := &NotBreakableError{Location: bp.Location, File: bpspec.File(bp.Location), Nearest: []int{}}
	for _, n := range []int{before, after} {
		if n > 0 {
			nb.Nearest = append(nb.Nearest, n)
		}
	}
	return nb
}

// possible lists the breakable lines from..to (1-based, inclusive) of a loaded script.
func (bs Breakpoints) possible(ctx context.Context, c clientCaller, scriptID string, from, to int) ([]BreakableLine, error) {
	var res struct {
		Locations []struct {
			LineNumber   int `json:"lineNumber"`
			ColumnNumber int `json:"columnNumber"`
		} `json:"locations"`
	}
	err := proto.Do(ctx, c, proto.DebuggerGetPossibleBreakpoints{
		Start: proto.Location{ScriptID: scriptID, LineNumber: from - 1, ColumnNumber: proto.Int(0)},
		End:   &proto.Location{ScriptID: scriptID, LineNumber: to, ColumnNumber: proto.Int(0)}, // exclusive: line to+1
	}, &res)
	if err != nil {
		return nil, fmt.Errorf("breakable lines: %w", err)
	}
	out := []BreakableLine{}
	for _, l := range res.Locations {
		f := frameAt("", "", l.LineNumber, l.ColumnNumber, "")
		if n := len(out); n > 0 && out[n-1].Line == f.Line {
			out[n-1].Columns = append(out[n-1].Columns, f.Column)
			continue
		}
		out = append(out, BreakableLine{Line: f.Line, Columns: []int{f.Column}})
	}
	slices.SortFunc(out, func(a, b BreakableLine) int { return a.Line - b.Line })
	return out, nil
}

var lineRangeRE = regexp.MustCompile(`^(.+?):([0-9]+)(?:-([0-9]+))?$`)

// Breakable lists the lines of file:start-end (or file:line) of a loaded script where a
// breakpoint can stop.
func (bs Breakpoints) Breakable(ctx context.Context, location string) ([]BreakableLine, error) {
	c, err := bs.t.liveClient()
	if err != nil {
		return nil, err
	}
	m := lineRangeRE.FindStringSubmatch(location)
	if m == nil {
		return nil, fmt.Errorf("%w: location %q is not file:start-end", ErrBadInput, location)
	}
	from, _ := strconv.Atoi(m[2])
	to := from
	if m[3] != "" {
		to, _ = strconv.Atoi(m[3])
	}
	switch {
	case from < 1:
		return nil, fmt.Errorf("%w: line %d: lines start at 1", ErrBadInput, from)
	case to < from:
		return nil, fmt.Errorf("%w: the range %d-%d ends before it starts", ErrBadInput, from, to)
	case to-from >= maxBreakableRange:
		return nil, fmt.Errorf("%w: the range %d-%d is over %d lines", ErrBadInput, from, to, maxBreakableRange)
	}
	path, _, _, err := bs.t.s.Settings().parseLocation(m[1] + ":1")
	if err != nil {
		return nil, err
	}
	scriptID, _ := bs.t.Inspector().scriptFor(path)
	if scriptID == "" {
		if id, source, ok := bs.t.SourceMapping().scriptWithSource(path); ok {
			return bs.possibleOriginal(ctx, c, id, source, from, to)
		}
		return nil, fmt.Errorf("%w: %s is not loaded", ErrNotLoaded, m[1])
	}
	return bs.possible(ctx, c, scriptID, from, to)
}

// possibleOriginal lists the breakable lines from..to of an original source: the generated
// code those lines became, asked of V8, and mapped back.
func (bs Breakpoints) possibleOriginal(ctx context.Context, c clientCaller, scriptID, source string, from, to int) ([]BreakableLine, error) {
	m := bs.t.maps.of(scriptID)
	if m == nil {
		return []BreakableLine{}, nil
	}
	lo, hi := 0, 0
	for l := from; l <= to; l++ {
		for _, g := range m.Reverse(source, l) {
			if lo == 0 || g.Line < lo {
				lo = g.Line
			}
			hi = max(hi, g.Line)
		}
	}
	if lo == 0 {
		return []BreakableLine{}, nil
	}
	gen, err := bs.possible(ctx, c, scriptID, lo, hi)
	if err != nil {
		return nil, err
	}
	cols := map[int][]int{}
	for _, gl := range gen {
		for _, col := range gl.Columns {
			o, ok := m.Forward(sourcemap.Pos{Line: gl.Line, Column: col})
			if ok && o.Source == source && o.Line >= from && o.Line <= to && !slices.Contains(cols[o.Line], o.Column) {
				cols[o.Line] = append(cols[o.Line], o.Column)
			}
		}
	}
	out := []BreakableLine{}
	for l := from; l <= to; l++ {
		if cs := cols[l]; len(cs) > 0 {
			slices.Sort(cs)
			out = append(out, BreakableLine{Line: l, Columns: cs})
		}
	}
	return out, nil
}

// Toggle enables or disables one breakpoint (enabled nil: flips it). A disabled
// breakpoint is removed from V8 but kept in the list; enabling binds it again as it was asked.
func (bs Breakpoints) Toggle(ctx context.Context, ref string, enabled *bool) (Breakpoint, error) {
	c, err := bs.t.liveClient()
	if err != nil {
		return Breakpoint{}, err
	}
	ref = bpspec.Ref(ref, "bp", "BP#")
	bs.t.lock()
	var bp *breakpoint
	for _, b := range bs.t.s.breakpoints {
		if b.log == nil && b.Ref == ref {
			bp = b
		}
	}
	if bp == nil {
		bs.t.unlock()
		return Breakpoint{}, fmt.Errorf("%w: breakpoint %q", ErrNoRef, ref)
	}
	want := !bp.Enabled
	if enabled != nil {
		want = *enabled
	}
	v8ID, call, pending := bs.v8IDOf(bp), bp.call, bp.Pending
	was := bp.Enabled
	bp.Enabled = want // before spreading: a target binds only what is enabled
	bs.t.unlock()

	switch {
	case pending && !want: // not bound here; gone from the targets that bound it
		bs.t.unspread(ctx, bp)
	case pending: // not in V8 yet: binding it will look at Enabled
	case want && v8ID == "":
		var res setBreakpointResult
		if err := proto.Do(ctx, c, call, &res); err != nil {
			bs.t.lock()
			bp.Enabled = was
			bs.t.unlock()
			return Breakpoint{}, fmt.Errorf("enable %s: %w", ref, err)
		}
		bs.t.lock()
		if _, byURL := call.(proto.DebuggerSetBreakpointByURL); byURL {
			bs.bound(bp, res.BreakpointID, res.Locations)
		} else {
			bs.bindingOf(bp).v8ID = res.BreakpointID
		}
		bs.t.unlock()
		bs.t.spread(ctx, ref)
	case !want && v8ID != "":
		if err := proto.Do(ctx, c, proto.DebuggerRemoveBreakpoint{BreakpointID: v8ID}, nil); err != nil {
			bs.t.lock()
			bp.Enabled = was
			bs.t.unlock()
			return Breakpoint{}, fmt.Errorf("disable %s: %w", ref, err)
		}
		bs.t.unspread(ctx, bp)
	}
	bs.t.lock()
	out := bp.Breakpoint
	out.Resolved = bs.t.s.Settings().resolvedOf(bp)
	bs.t.unlock()
	if was != want {
		change := "disabled"
		if want {
			change = "enabled"
		}
		bs.t.s.Settings().breakpointChanged(out, change)
	}
	return out, nil
}

// SetActive turns every breakpoint on or off at once (Debugger.setBreakpointsActive);
// each keeps its own enabled state.
func (bs Breakpoints) SetActive(ctx context.Context, active bool) error {
	c, err := bs.t.liveClient()
	if err != nil {
		return err
	}
	if err := proto.Do(ctx, c, proto.DebuggerSetBreakpointsActive{Active: active}, nil); err != nil {
		return err
	}
	bs.t.toEveryTarget(ctx, proto.DebuggerSetBreakpointsActive{Active: active})
	return nil
}

// SetOnFunction evaluates an expression to a function (in the paused top frame, or
// globally while running) and pauses at the start of each of its calls.
func (bs Breakpoints) SetOnFunction(ctx context.Context, spec FunctionBreakpointSpec) (Breakpoint, error) {
	c, err := bs.t.liveClient()
	if err != nil {
		return Breakpoint{}, err
	}
	if err := bs.checkSyntax(ctx, c, "condition", spec.Condition, spec.Condition); err != nil {
		return Breakpoint{}, err
	}
	fn, err := bs.evaluateObject(ctx, c, spec.Expression, breakpointGroup)
	if err != nil {
		return Breakpoint{}, err
	}
	if fn.Type != "function" || fn.ObjectID == "" {
		return Breakpoint{}, fmt.Errorf("%w: %s is %s, not a function", ErrBadInput, spec.Expression, preview.Value(fn))
	}
	where, at := bs.functionLocation(ctx, c, fn.ObjectID)
	ref := bs.t.s.Settings().newRef("bp")
	call := proto.DebuggerSetBreakpointOnFunctionCall{
		ObjectID:  fn.ObjectID,
		Condition: bpspec.Condition(ref, spec.Condition, spec.HitCount),
	}
	location := "function " + spec.Expression
	bp, err := bs.bindWith(ctx, c, at, location, call)
	if err != nil {
		return Breakpoint{}, err
	}
	if where != nil {
		bs.t.lock()
		bs.bindingOf(bp).resolved = []Frame{*where}
		bs.t.unlock()
	}
	return bs.t.s.Settings().keep(bp, Breakpoint{Ref: ref, Location: location, Function: spec.Expression, Condition: spec.Condition,
		HitCount: spec.HitCount}), nil
}

// evaluateObject evaluates an expression in the paused top frame, or globally while running,
// keeping its value in group. An expression that throws is a bad input.
func (bs Breakpoints) evaluateObject(ctx context.Context, c clientCaller, expression, group string) (remoteObject, error) {
	bs.t.mu.Lock()
	p := bs.t.paused
	bs.t.mu.Unlock()
	var res evaluateResult
	var err error
	if p != nil && len(p.CallFrames) > 0 {
		err = proto.Do(ctx, c, proto.DebuggerEvaluateOnCallFrame{CallFrameID: p.CallFrames[0].CallFrameID,
			Expression: expression, ObjectGroup: group}, &res)
	} else {
		err = proto.Do(ctx, c, proto.RuntimeEvaluate{Expression: expression, ObjectGroup: group}, &res)
	}
	if err != nil {
		return remoteObject{}, fmt.Errorf("evaluate %s: %w", expression, err)
	}
	if d := res.ExceptionDetails; d != nil {
		text := d.Text
		if d.Exception != nil {
			text = firstLine(preview.Value(*d.Exception))
		}
		return remoteObject{}, fmt.Errorf("%w: %s threw %s", ErrBadInput, expression, text)
	}
	return res.Result, nil
}

// functionLocation is where a function's body starts, from V8's internal [[FunctionLocation]],
// and the key of the one-point-per-location rule for its breakpoint.
func (bs Breakpoints) functionLocation(ctx context.Context, c clientCaller, objectID string) (*Frame, string) {
	var res struct {
		InternalProperties []struct {
			Name  string `json:"name"`
			Value struct {
				Value *struct {
					ScriptID     string `json:"scriptId"`
					LineNumber   int    `json:"lineNumber"`
					ColumnNumber int    `json:"columnNumber"`
				} `json:"value"`
			} `json:"value"`
		} `json:"internalProperties"`
	}
	err := proto.Do(ctx, c, proto.RuntimeGetProperties{ObjectID: objectID, OwnProperties: true}, &res)
	if err == nil {
		for _, p := range res.InternalProperties {
			if l := p.Value.Value; p.Name == "[[FunctionLocation]]" && l != nil {
				bs.t.mu.Lock()
				f := bs.t.SourceMapping().place("", l.ScriptID, bs.t.scripts[l.ScriptID].URL, l.LineNumber, l.ColumnNumber)
				bs.t.mu.Unlock()
				return &f, fmt.Sprintf("function %s:%d:%d", l.ScriptID, l.LineNumber, l.ColumnNumber)
			}
		}
	}
	return nil, "function " + objectID // a native function: one breakpoint per object
}

// SetBreakOnLoad pauses (or stops pausing) before each script runs its first statement, with
// pause reason "instrumentation" (Debugger.setInstrumentationBreakpoint beforeScriptExecution).
func (bs Breakpoints) SetBreakOnLoad(ctx context.Context, enabled bool) error {
	c, err := bs.t.liveClient()
	if err != nil {
		return err
	}
	bs.t.mu.Lock()
	id := bs.t.onLoadID
	bs.t.mu.Unlock()
	switch {
	case enabled && id == "":
		var res struct {
			BreakpointID string `json:"breakpointId"`
		}
		if err := proto.Do(ctx, c, proto.DebuggerSetInstrumentationBreakpoint{
			Instrumentation: "beforeScriptExecution",
		}, &res); err != nil {
			return fmt.Errorf("break on load: %w", err)
		}
		bs.t.mu.Lock()
		bs.t.onLoadID = res.BreakpointID
		bs.t.mu.Unlock()
	case !enabled && id != "":
		if err := proto.Do(ctx, c, proto.DebuggerRemoveBreakpoint{BreakpointID: id}, nil); err != nil {
			return fmt.Errorf("break on load: %w", err)
		}
		bs.t.mu.Lock()
		bs.t.onLoadID = ""
		bs.t.mu.Unlock()
	}
	return nil
}

// ErrNotLoaded: the operation needs a script that is loaded now (a breakpoint does not: it binds
// when the script loads).
var ErrNotLoaded = errors.New("script not loaded")
