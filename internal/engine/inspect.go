package engine

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"traced/internal/cdp/proto"
	"traced/internal/preview"
)

// Sections of a state, as a set of bits.
type Sections uint8

const (
	SectionVars Sections = 1 << iota
	SectionStack
	SectionBreakpoints
	SectionCode
	AllSections = SectionVars | SectionStack | SectionBreakpoints | SectionCode
)

// DefaultAsyncDepth is how many frames of async parents a stack shows. V8 records them only once
// POST async-depth asks: with async stacks on, node tracks async contexts in its async hooks, and
// a callback cut short by kill-execution then corrupts node's async stack and node aborts
// ("async hook stack has become corrupted"), so they are off by default.
const DefaultAsyncDepth = 16

// StateOptions chooses what a state shows.
type StateOptions struct {
	Frame      int      // the frame of the source and variables (0: the top)
	Lines      int      // lines of source on each side of the current one (0: defaultLines)
	Sections   Sections // 0: all
	Depth      int      // 0: values as their type only (Job, Array(3)); 1: V8's one-level previews
	AllScopes  bool     // closure, block and script scopes too, not only up to the function's own
	AsyncDepth int      // async parents shown (-1: DefaultAsyncDepth, 0: none)
}

// defaultLines is how many source lines a state shows above and below the current one.
const defaultLines = 3

// pauseNow returns the current pause and the client of a live debug session.
func (in Inspector) pauseNow() (*debuggerPaused, clientCaller, error) {
	c, err := in.t.liveClient()
	if err != nil {
		return nil, nil, err
	}
	in.t.mu.Lock()
	defer in.t.mu.Unlock()
	return in.t.paused, c, nil
}

// pausedNow is pauseNow for operations that need a paused program.
func (in Inspector) pausedNow(op string) (*debuggerPaused, clientCaller, error) {
	p, c, err := in.pauseNow()
	if err == nil && p == nil {
		err = fmt.Errorf("%w: %s needs a paused program", ErrRunning, op)
	}
	return p, c, err
}

// frameOf checks a frame number against a pause's stack.
func frameOf(p *debuggerPaused, frame int) (pausedFrame, error) {
	if frame < 0 || frame >= len(p.CallFrames) {
		return pausedFrame{}, fmt.Errorf("%w: frame f%d (the stack has %d frames)", ErrNoRef, frame, len(p.CallFrames))
	}
	return p.CallFrames[frame], nil
}

// StateOf describes the session now: when paused, why and where, with the sections asked for.
func (in Inspector) StateOf(ctx context.Context, o StateOptions) (State, error) {
	if err := in.t.s.debugOnly(); err != nil {
		return State{}, err
	}
	if o.Sections == 0 {
		o.Sections = AllSections
	}
	in.t.lock()
	st := State{Session: in.t.s.id, Status: in.t.s.statusNow()}
	// In a tree, say which target this is and who else stands paused; once the process has
	// ended, the answer is about it, not a target ("exited", never "exited in t2").
	if in.t.s.endedAt == nil && (len(in.t.s.targets.live) > 1 || !in.t.main()) {
		st.Target, st.AlsoPaused = in.t.ref, in.t.s.Tree().othersPaused(in.t)
		switch {
		case !in.t.main() && in.t.s.targets.live[in.t.ref] != in.t:
			st.Status = StatusExited // this thread or child has ended; the program runs on
		case st.Status == StatusPaused && in.t.paused == nil:
			st.Status = StatusRunning // this target runs; another is paused
		}
	}
	p := in.t.paused
	c := in.t.callerOf(in.t.caller())
	var hit []string
	if p != nil {
		for _, id := range p.HitBreakpoints {
			for _, bp := range in.t.s.breakpoints {
				if in.t.Breakpoints().hits(bp, id) {
					hit = append(hit, bp.ref())
				}
			}
		}
	}
	in.t.unlock()
	if o.Sections&SectionBreakpoints != 0 {
		st.Breakpoints, _ = in.t.s.Settings().Breakpoints()
		st.Logpoints, _ = in.t.s.Settings().Logpoints()
	}
	if p == nil || st.Status.Finished() || c == nil {
		return st, nil
	}
	f, err := frameOf(p, o.Frame)
	if err != nil {
		return State{}, err
	}
	st.Reason, st.Hit, st.Frame = p.Reason, hit, "f"+strconv.Itoa(o.Frame)
	top := in.pausedFrame(p.CallFrames[0])
	st.Location = &top
	if o.Sections&SectionStack != 0 {
		if o.AsyncDepth != 0 {
			in.awaitChain(ctx, c, p)
		}
		st.Stack = in.stackOf(p, o.AsyncDepth)
	}
	if o.Sections&SectionCode != 0 {
		lines := o.Lines
		if lines <= 0 {
			lines = defaultLines
		}
		src, cur, _, err := in.t.SourceMapping().frameSource(ctx, c, f)
		switch {
		case err == nil:
			st.Source = around(src, cur, lines)
		case errors.Is(err, ErrInspectorTimeout) || errors.Is(err, ErrInspectorLost):
			return State{}, err // the variables would wait as long again
		}
	}
	if o.Sections&SectionVars != 0 {
		if st.Locals, err = in.variables(ctx, c, p, o.Frame, o.AllScopes, o.Depth); err != nil {
			return State{}, err
		}
		in.t.lock()
		rv := p.CallFrames[0].ReturnValue // set-return replaces it
		in.t.unlock()
		if rv != nil && o.Frame == 0 {
			v := in.t.s.variable("", "return value", "return", *rv, o.Depth)
			st.ReturnValue = &v
		}
	}
	return st, nil
}

// around returns the lines of src within n of the 0-based line cur, cur marked.
func around(src []string, cur, n int) []SourceLine {
	var out []SourceLine
	for i := max(cur-n, 0); i <= min(cur+n, len(src)-1); i++ {
		out = append(out, SourceLine{Line: i + 1, Text: src[i], Current: i == cur})
	}
	return out
}

// stackOf lists a pause's frames, f0 the top, then up to asyncDepth frames of its async parents.
func (in Inspector) stackOf(p *debuggerPaused, asyncDepth int) []StackFrame {
	if asyncDepth < 0 {
		asyncDepth = DefaultAsyncDepth
	}
	out := make([]StackFrame, 0, len(p.CallFrames))
	for i, f := range p.CallFrames {
		out = append(out, StackFrame{Ref: "f" + strconv.Itoa(i), Frame: in.pausedFrame(f)})
	}
	shown := 0
	in.t.mu.Lock()
	chain := p.chain // V8 recorded no async parents: the await chain (asyncframes.go)
	in.t.mu.Unlock()
	for _, fr := range chain {
		if shown == asyncDepth || p.AsyncStack != nil {
			break
		}
		out = append(out, StackFrame{Ref: "f" + strconv.Itoa(len(out)), Frame: fr})
		shown++
	}
	for parent := p.AsyncStack; parent != nil && shown < asyncDepth; parent = parent.Parent {
		label := parent.Description
		if label == "" {
			label = "async"
		}
		for _, f := range parent.CallFrames {
			if shown == asyncDepth {
				break
			}
			fr := in.t.SourceMapping().place(f.FunctionName, f.ScriptID, f.URL, f.LineNumber, f.ColumnNumber)
			fr.Async = label
			out = append(out, StackFrame{Ref: "f" + strconv.Itoa(len(out)), Frame: fr})
			shown++
		}
	}
	return out
}

// Stack lists the paused stack with its async parents.
func (in Inspector) Stack(ctx context.Context, asyncDepth int) ([]StackFrame, error) {
	p, c, err := in.pausedNow("stack")
	if err != nil {
		return nil, err
	}
	if asyncDepth != 0 {
		in.awaitChain(ctx, c, p)
	}
	return in.stackOf(p, asyncDepth), nil
}

// variables reads the scopes of a frame: up to the function's own scope, or every scope but the
// global one with allScopes. Each value gets a v ref. The reads go out back to back (one round
// trip for a frame's block, catch and local scopes), or were sent when the pause came (prefetch).
func (in Inspector) variables(ctx context.Context, c clientCaller, p *debuggerPaused, frame int, allScopes bool, depth int) ([]Variable, error) {
	f, err := frameOf(p, frame)
	if err != nil {
		return nil, err
	}
	scopes := f.scopes()
	read := scopesToRead(scopes, allScopes)
	answers := make([]waiter, len(read))
	for k, i := range read {
		if answers[k] = in.prefetched(ctx, c, p, frame, scopes[i].Object.ObjectID, depth > 0); answers[k] != nil {
			continue
		}
		if answers[k], err = send(ctx, c, proto.RuntimeGetProperties{
			ObjectID: scopes[i].Object.ObjectID, OwnProperties: true, GeneratePreview: depth > 0,
		}); err != nil {
			return nil, in.scopeError(p, scopes[i], err)
		}
	}
	var out []Variable
	var deeper []deepening
	for k, i := range read {
		sc := scopes[i]
		var props propertiesResult
		if err := answers[k].Wait(ctx, &props); err != nil {
			return nil, in.scopeError(p, sc, err)
		}
		tdz := make([]bool, len(props.Result))
		for j, pd := range props.Result {
			tdz[j] = in.uninitialized(ctx, c, f, sc, pd)
		}
		in.t.mu.Lock()
		for j, pd := range props.Result {
			if pd.Value == nil && !tdz[j] {
				continue // an accessor: not a binding
			}
			in.t.refs.forPause(p)
			if tdz[j] { // keeps its ref, so refs are the same on every node line
				ref := in.t.refs.valueRef(p, refValue{obj: remoteObject{Type: "undefined"}, name: pd.Name, frame: frame, scope: i})
				out = append(out, Variable{Ref: ref, Name: pd.Name, Type: uninitializedType, Value: uninitializedValue, Scope: sc.Type})
				continue
			}
			val := *pd.Value
			if v, ok := in.t.refs.set[varKey(frame, i, pd.Name)]; ok {
				val = v
			}
			ref := in.t.refs.valueRef(p, refValue{obj: val, name: pd.Name, frame: frame, scope: i})
			if depth > 0 && hasNested(val) {
				deeper = append(deeper, deepening{i: len(out), obj: val})
			}
			out = append(out, in.t.s.variable(ref, pd.Name, sc.Type, val, depth))
		}
		in.t.mu.Unlock()
	}
	in.deepen(ctx, c, out, deeper)
	return out, nil
}

// scopesToRead lists the indexes of the scopes variables reads: up to the function's own (the
// local scope ends the locals; closures are for allScopes), never the global one (ask for globals
// by name), the script scope only with allScopes.
func scopesToRead(scopes []scope, allScopes bool) []int {
	var out []int
	for i, sc := range scopes {
		if sc.Type == "global" || (sc.Type == "script" && !allScopes) || sc.Object.ObjectID == "" {
			continue
		}
		out = append(out, i)
		if sc.Type == "local" && !allScopes {
			break
		}
	}
	return out
}

// scopeError says why a scope could not be read: the program resumed meanwhile (another
// request), and the pause's objects are gone, or the call's own failure.
func (in Inspector) scopeError(p *debuggerPaused, sc scope, err error) error {
	in.t.mu.Lock()
	moved := in.t.paused != p
	in.t.mu.Unlock()
	if moved {
		return fmt.Errorf("%w: the program resumed while its state was read", ErrRunning)
	}
	return fmt.Errorf("scope %s: %w", sc.Type, err)
}

// preview renders a value at a depth (0 names objects by their type only) as a debugger lists
// it, and whether part of it was left out.
func (s *Session) preview(o remoteObject, depth int) (string, bool) {
	if depth <= 0 && o.Type == "object" && o.Subtype != "null" && o.Description != "" {
		return CapText(o.Description, s.stringCap).Value, o.ObjectID != ""
	}
	text, cut := preview.Debug(o, s.dir())
	t := CapText(text, s.stringCap)
	return t.Value, cut || t.Truncated
}

// expandHint names the call that shows what a preview left out.
func expandHint(ref string, cut bool) string {
	if !cut || ref == "" {
		return ""
	}
	return "GET props?ref=" + ref
}

// variable builds a Variable with its preview and, when cut, the call that expands it.
func (s *Session) variable(ref, name, scope string, o remoteObject, depth int) Variable {
	text, cut := s.preview(o, depth)
	return Variable{Ref: ref, Name: name, Type: typeOf(o), Value: text, Scope: scope, Expand: expandHint(ref, cut && o.ObjectID != "")}
}

// Vars reads the variables of a frame, all of them or those named. An unknown name is an error
// that lists the names there are.
func (in Inspector) Vars(ctx context.Context, frame int, names []string, allScopes bool) ([]Variable, error) {
	p, c, err := in.pausedNow("vars")
	if err != nil {
		return nil, err
	}
	vars, err := in.variables(ctx, c, p, frame, allScopes || len(names) > 0, 1)
	if err != nil || len(names) == 0 {
		return vars, err
	}
	var out []Variable
	for _, n := range names {
		i := slices.IndexFunc(vars, func(v Variable) bool { return v.Name == n })
		if i < 0 {
			return nil, fmt.Errorf("%w: no variable %q in frame f%d; there are: %s", ErrNoRef, n, frame, variableNames(vars))
		}
		out = append(out, vars[i])
	}
	return out, nil
}

// variableNames lists names for a hint, the first 20.
func variableNames(vars []Variable) string {
	var names []string
	for _, v := range vars {
		if !slices.Contains(names, v.Name) {
			names = append(names, v.Name)
		}
	}
	if len(names) == 0 {
		return "(none)"
	}
	if len(names) > 20 {
		names = append(names[:20], "…")
	}
	return strings.Join(names, ", ")
}
