package engine

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

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
func (s *Session) pauseNow() (*debuggerPaused, clientCaller, error) {
	c, err := s.liveClient()
	if err != nil {
		return nil, nil, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.paused, c, nil
}

// pausedNow is pauseNow for operations that need a paused program.
func (s *Session) pausedNow(op string) (*debuggerPaused, clientCaller, error) {
	p, c, err := s.pauseNow()
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
func (s *Session) StateOf(ctx context.Context, o StateOptions) (State, error) {
	if err := s.debugOnly(); err != nil {
		return State{}, err
	}
	if o.Sections == 0 {
		o.Sections = AllSections
	}
	s.mu.Lock()
	st := State{Session: s.id, Status: s.statusNow()}
	p := s.paused
	c := s.callerOf(s.client)
	var hit []string
	if p != nil {
		for _, id := range p.HitBreakpoints {
			for _, bp := range s.breakpoints {
				if bp.v8ID == id {
					hit = append(hit, bp.ref())
				}
			}
		}
	}
	s.mu.Unlock()
	if o.Sections&SectionBreakpoints != 0 {
		st.Breakpoints, _ = s.Breakpoints()
		st.Logpoints, _ = s.Logpoints()
	}
	if p == nil || st.Status.Finished() || c == nil {
		return st, nil
	}
	f, err := frameOf(p, o.Frame)
	if err != nil {
		return State{}, err
	}
	st.Reason, st.Hit, st.Frame = p.Reason, hit, "f"+strconv.Itoa(o.Frame)
	top := s.pausedFrame(p.CallFrames[0])
	st.Location = &top
	if o.Sections&SectionStack != 0 {
		st.Stack = s.stackOf(p, o.AsyncDepth)
	}
	if o.Sections&SectionCode != 0 {
		lines := o.Lines
		if lines <= 0 {
			lines = defaultLines
		}
		src, cur, _, err := s.frameSource(ctx, c, f)
		switch {
		case err == nil:
			st.Source = around(src, cur, lines)
		case errors.Is(err, ErrInspectorTimeout) || errors.Is(err, ErrInspectorLost):
			return State{}, err // the variables would wait as long again
		}
	}
	if o.Sections&SectionVars != 0 {
		if st.Locals, err = s.variables(ctx, c, p, o.Frame, o.AllScopes, o.Depth); err != nil {
			return State{}, err
		}
		s.mu.Lock()
		rv := p.CallFrames[0].ReturnValue // set-return replaces it
		s.mu.Unlock()
		if rv != nil && o.Frame == 0 {
			v := s.variable("", "return value", "return", *rv, o.Depth)
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
func (s *Session) stackOf(p *debuggerPaused, asyncDepth int) []StackFrame {
	if asyncDepth < 0 {
		asyncDepth = DefaultAsyncDepth
	}
	out := make([]StackFrame, 0, len(p.CallFrames))
	for i, f := range p.CallFrames {
		out = append(out, StackFrame{Ref: "f" + strconv.Itoa(i), Frame: s.pausedFrame(f)})
	}
	shown := 0
	for parent := p.AsyncStack; parent != nil && shown < asyncDepth; parent = parent.Parent {
		label := parent.Description
		if label == "" {
			label = "async"
		}
		for _, f := range parent.CallFrames {
			if shown == asyncDepth {
				break
			}
			out = append(out, StackFrame{Ref: "f" + strconv.Itoa(len(out)),
				Frame: s.place(f.FunctionName, f.ScriptID, f.URL, f.LineNumber, f.ColumnNumber), Async: label})
			shown++
		}
	}
	return out
}

// Stack lists the paused stack with its async parents.
func (s *Session) Stack(asyncDepth int) ([]StackFrame, error) {
	p, _, err := s.pausedNow("stack")
	if err != nil {
		return nil, err
	}
	return s.stackOf(p, asyncDepth), nil
}

// variables reads the scopes of a frame: up to the function's own scope, or every scope but the
// global one with allScopes. Each value gets a v ref.
func (s *Session) variables(ctx context.Context, c clientCaller, p *debuggerPaused, frame int, allScopes bool, depth int) ([]Variable, error) {
	f, err := frameOf(p, frame)
	if err != nil {
		return nil, err
	}
	var out []Variable
	for i, sc := range f.ScopeChain {
		if sc.Type == "global" || (sc.Type == "script" && !allScopes) || sc.Object.ObjectID == "" {
			continue // globals are not locals; ask for them by name
		}
		var props propertiesResult
		if err := c.Call(ctx, "Runtime.getProperties", map[string]any{
			"objectId": sc.Object.ObjectID, "ownProperties": true, "generatePreview": depth > 0,
		}, &props); err != nil {
			s.mu.Lock()
			moved := s.paused != p
			s.mu.Unlock()
			if moved { // resumed meanwhile (another request): the pause's objects are gone
				return nil, fmt.Errorf("%w: the program resumed while its state was read", ErrRunning)
			}
			return nil, fmt.Errorf("scope %s: %w", sc.Type, err)
		}
		tdz := make([]bool, len(props.Result))
		for j, pd := range props.Result {
			tdz[j] = s.uninitialized(ctx, c, f, sc, pd)
		}
		s.mu.Lock()
		for j, pd := range props.Result {
			if pd.Value == nil && !tdz[j] {
				continue // an accessor: not a binding
			}
			s.refs.forPause(p)
			if tdz[j] { // keeps its ref, so refs are the same on every node line
				ref := s.refs.valueRef(p, refValue{obj: remoteObject{Type: "undefined"}, name: pd.Name, frame: frame, scope: i})
				out = append(out, Variable{Ref: ref, Name: pd.Name, Type: uninitializedType, Value: uninitializedValue, Scope: sc.Type})
				continue
			}
			val := *pd.Value
			if v, ok := s.refs.set[varKey(frame, i, pd.Name)]; ok {
				val = v
			}
			ref := s.refs.valueRef(p, refValue{obj: val, name: pd.Name, frame: frame, scope: i})
			out = append(out, s.variable(ref, pd.Name, sc.Type, val, depth))
		}
		s.mu.Unlock()
		if sc.Type == "local" && !allScopes {
			break // the function's own scope ends the locals; closures are for allScopes
		}
	}
	return out, nil
}

// preview renders a value at a depth (0 names objects by their type only) as a debugger lists
// it, and whether part of it was left out.
func (s *Session) preview(o remoteObject, depth int) (string, bool) {
	if depth <= 0 && o.Type == "object" && o.Subtype != "null" && o.Description != "" {
		return capText(o.Description, s.stringCap).Value, o.ObjectID != ""
	}
	text, cut := preview.Debug(o, s.cwd)
	t := capText(text, s.stringCap)
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
func (s *Session) Vars(ctx context.Context, frame int, names []string, allScopes bool) ([]Variable, error) {
	p, c, err := s.pausedNow("vars")
	if err != nil {
		return nil, err
	}
	vars, err := s.variables(ctx, c, p, frame, allScopes || len(names) > 0, 1)
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

// EvalSpec asks for an evaluation.
type EvalSpec struct {
	Expression     string
	Frame          int           // of a paused program
	AwaitPromise   bool          // wait for a promise result to settle (while running)
	SideEffectFree bool          // refuse expressions with side effects (V8's throwOnSideEffect)
	Timeout        time.Duration // 0: DefaultEvalTimeout
}

// DefaultEvalTimeout bounds an evaluation: V8 terminates one that runs longer.
const DefaultEvalTimeout = 5 * time.Second

// evalGroup holds the remote objects evals create, released at the next resume.
const evalGroup = "traced-eval"

// Eval evaluates an expression in a frame of the paused program, or globally while it runs.
// Refs in the expression (v1, @v1, o2) stand for the values they name.
func (s *Session) Eval(ctx context.Context, spec EvalSpec) (EvalResult, error) {
	p, c, err := s.pauseNow()
	if err != nil {
		return EvalResult{}, err
	}
	timeout := spec.Timeout
	if timeout <= 0 {
		timeout = DefaultEvalTimeout
	}
	expr, keys, err := s.interpolate(ctx, c, spec.Expression)
	defer dropInterpolated(context.WithoutCancel(ctx), c, keys)
	if err != nil {
		return EvalResult{}, err
	}
	params := map[string]any{"expression": expr, "generatePreview": true, "objectGroup": evalGroup,
		"timeout": timeout.Milliseconds()}
	if spec.SideEffectFree {
		params["throwOnSideEffect"] = true
	}
	s.mu.Lock()
	s.evalValues = true
	s.mu.Unlock()
	var res evaluateResult
	if p != nil {
		f, err := frameOf(p, spec.Frame)
		if err != nil {
			return EvalResult{}, err
		}
		params["callFrameId"] = f.CallFrameID
		// V8 ends a long evaluation at timeout; a process that cannot even start it (frozen)
		// must not hold the request longer than that.
		callCtx, cancel := context.WithTimeout(ctx, timeout+time.Second)
		defer cancel()
		err = c.Call(callCtx, "Debugger.evaluateOnCallFrame", params, &res)
		if err != nil && strings.Contains(err.Error(), "Execution was terminated") {
			return EvalResult{Type: "undefined", Value: "undefined",
				Exception: fmt.Sprintf("terminated: still running after %s (timeoutMs)", timeout)}, nil
		}
		if err != nil {
			return EvalResult{}, fmt.Errorf("eval: %w", err)
		}
		if spec.AwaitPromise && res.ExceptionDetails == nil && res.Result.Subtype == "promise" {
			return s.settled(ctx, c, p, res.Result)
		}
	} else {
		if spec.AwaitPromise {
			params["awaitPromise"] = true
			params["replMode"] = true // top-level await
		}
		// The wait for a promise is V8's, not bounded by its timeout: bound the call too.
		callCtx, cancel := context.WithTimeout(ctx, timeout+time.Second)
		defer cancel()
		if err := c.Call(callCtx, "Runtime.evaluate", params, &res); err != nil {
			if strings.Contains(err.Error(), "Execution was terminated") {
				return EvalResult{Type: "undefined", Value: "undefined",
					Exception: fmt.Sprintf("terminated: still running after %s (timeoutMs)", timeout)}, nil
			}
			if spec.AwaitPromise && errors.Is(err, context.DeadlineExceeded) && ctx.Err() == nil && !s.frozen() {
				return EvalResult{Type: "undefined", Value: "undefined",
					Exception: fmt.Sprintf("timed out after %s waiting for the promise", timeout)}, nil
			}
			return EvalResult{}, fmt.Errorf("eval: %w", err)
		}
	}
	return s.evalResult(ctx, c, p, res)
}

// evalResult renders an evaluation's answer and names its value with a ref: v while paused,
// o for an object while running (there is no pause for a v ref to belong to).
func (s *Session) evalResult(ctx context.Context, c clientCaller, p *debuggerPaused, res evaluateResult) (EvalResult, error) {
	text, cut := s.preview(res.Result, 1)
	out := EvalResult{Type: typeOf(res.Result), Value: text}
	if d := res.ExceptionDetails; d != nil {
		out.Exception = d.Text
		if d.Exception != nil {
			out.Exception = firstLine(preview.Value(*d.Exception))
		}
		return out, nil
	}
	switch {
	case p != nil:
		s.mu.Lock()
		out.Ref = s.refs.valueRef(p, refValue{obj: res.Result})
		s.mu.Unlock()
	case res.Result.ObjectID != "":
		ref, _, err := s.persist(ctx, c, res.Result)
		if err != nil {
			return out, err
		}
		out.Ref = ref
	}
	out.Expand = expandHint(out.Ref, cut && res.Result.ObjectID != "")
	return out, nil
}

// settled reads a promise's state while the program is paused: awaiting it would wait for a
// program that cannot run, so a settled promise gives its value and a pending one says so.
func (s *Session) settled(ctx context.Context, c clientCaller, p *debuggerPaused, promise remoteObject) (EvalResult, error) {
	var props propertiesResult
	if err := c.Call(ctx, "Runtime.getProperties", map[string]any{
		"objectId": promise.ObjectID, "ownProperties": true, "generatePreview": true,
	}, &props); err != nil {
		return EvalResult{}, fmt.Errorf("eval: promise state: %w", err)
	}
	var state string
	var value *remoteObject
	for _, pd := range props.Internal {
		switch pd.Name {
		case "[[PromiseState]]":
			if pd.Value != nil {
				state, _ = pd.Value.Value.(string)
			}
		case "[[PromiseResult]]":
			value = pd.Value
		}
	}
	switch {
	case state == "fulfilled" && value != nil:
		return s.evalResult(ctx, c, p, evaluateResult{Result: *value})
	case state == "rejected" && value != nil:
		return EvalResult{Type: typeOf(*value), Value: capText(preview.Value(*value), s.stringCap).Value,
			Exception: "Uncaught (in promise) " + firstLine(preview.Value(*value))}, nil
	}
	out, err := s.evalResult(ctx, c, p, evaluateResult{Result: promise})
	out.Exception = "the promise is pending and cannot settle while the program is paused; continue, then evaluate again"
	return out, err
}

// Property is one property of an object, previewed, with an o ref when it is an object.
type Property struct {
	Name       string     `json:"name"`
	Kind       string     `json:"kind"` // own, inherited, internal, private, accessor
	Type       string     `json:"type"`
	Value      string     `json:"value"`
	Ref        string     `json:"ref,omitempty"`
	Expand     string     `json:"expand,omitempty"`     // the call that shows what the preview left out
	Properties []Property `json:"properties,omitempty"` // expanded, with depth > 1
}

// PropsSpec asks for the properties of a ref.
type PropsSpec struct {
	Ref      string
	Own      bool // own properties only, not the prototype chain's
	Internal bool // V8 internals such as [[PromiseState]]
	Private  bool // #private fields
	Depth    int  // levels expanded (1: the object's own properties)
}

// Props answers the object a ref names and its properties.
type Props struct {
	Ref        string     `json:"ref"` // the object's o ref
	Value      string     `json:"value"`
	Properties []Property `json:"properties"`
	Truncated  int        `json:"truncated,omitempty"` // properties left out past maxProps
}

// maxProps caps the properties listed of one object.
const maxProps = 100

// maxPropsDepth caps the expansion depth.
const maxPropsDepth = 3

// Props expands an object ref. A v ref is kept as an o ref first, so that its properties (all
// in the o refs' group) outlive the pause.
func (s *Session) Props(ctx context.Context, spec PropsSpec) (Props, error) {
	c, err := s.liveClient()
	if err != nil {
		return Props{}, err
	}
	v, _, err := s.lookupRef(spec.Ref)
	if err != nil {
		return Props{}, err
	}
	if v.obj.ObjectID == "" {
		return Props{}, fmt.Errorf("%w: %s is %s, a %s without properties", ErrBadInput, spec.Ref, preview.Value(v.obj), typeOf(v.obj))
	}
	ref, obj := strings.TrimPrefix(spec.Ref, "@"), v.obj
	if strings.HasPrefix(ref, "v") {
		if ref, obj, err = s.persist(ctx, c, v.obj); err != nil {
			return Props{}, err
		}
	}
	props, truncated, err := s.properties(ctx, c, obj.ObjectID, spec, min(max(spec.Depth, 1), maxPropsDepth))
	if err != nil {
		return Props{}, err
	}
	text, _ := s.preview(obj, 1)
	return Props{Ref: ref, Value: text, Properties: props, Truncated: truncated}, nil
}

func (s *Session) properties(ctx context.Context, c clientCaller, objectID string, spec PropsSpec, depth int) ([]Property, int, error) {
	var res propertiesResult
	if err := c.Call(ctx, "Runtime.getProperties", map[string]any{
		"objectId": objectID, "ownProperties": spec.Own, "generatePreview": true,
	}, &res); err != nil {
		return nil, 0, fmt.Errorf("properties: %w", err)
	}
	type entry struct {
		pd   propertyDescriptor
		kind string
	}
	var all []entry
	for _, pd := range res.Result {
		kind := "own"
		if !pd.IsOwn {
			kind = "inherited"
		}
		all = append(all, entry{pd, kind})
	}
	if spec.Private {
		for _, pd := range res.Private {
			all = append(all, entry{pd, "private"})
		}
	}
	if spec.Internal {
		for _, pd := range res.Internal {
			all = append(all, entry{pd, "internal"})
		}
	}
	truncated := max(len(all)-maxProps, 0)
	all = all[:min(len(all), maxProps)]
	out := make([]Property, 0, len(all))
	for _, e := range all {
		p := Property{Name: e.pd.Name, Kind: e.kind}
		switch {
		case e.pd.Value != nil:
			text, cut := s.preview(*e.pd.Value, 1)
			p.Type, p.Value = typeOf(*e.pd.Value), text
			if id := e.pd.Value.ObjectID; id != "" {
				s.mu.Lock()
				ref, err := s.refs.objectRef(*e.pd.Value)
				s.mu.Unlock()
				if err != nil {
					return out, truncated, err
				}
				p.Ref, p.Expand = ref, expandHint(ref, cut)
				if depth > 1 && e.pd.Value.Type == "object" {
					if p.Properties, _, err = s.properties(ctx, c, id, spec, depth-1); err != nil {
						return out, truncated, err
					}
				}
			}
		case e.pd.Get != nil || e.pd.Set != nil:
			p.Type, p.Value = "accessor", accessorText(e.pd)
		}
		out = append(out, p)
	}
	return out, truncated, nil
}

func accessorText(pd propertyDescriptor) string {
	get := pd.Get != nil && pd.Get.Type != "undefined"
	set := pd.Set != nil && pd.Set.Type != "undefined"
	switch {
	case get && set:
		return "[Getter/Setter]"
	case get:
		return "[Getter]"
	}
	return "[Setter]"
}

// Instances answers the live objects of a prototype.
type Instances struct {
	Prototype string     `json:"prototype"`
	Count     int        `json:"count"`
	Ref       string     `json:"ref"`       // o ref of the array of them all
	Instances []Property `json:"instances"` // the first ones, with o refs
}

// Instances finds the live objects whose prototype is the value of expression, or its
// prototype property when it is a constructor (Runtime.queryObjects).
func (s *Session) Instances(ctx context.Context, expression string, frame, limit int) (Instances, error) {
	res, err := s.evalObject(ctx, expression, frame)
	if err != nil {
		return Instances{}, err
	}
	c, err := s.liveClient()
	if err != nil {
		return Instances{}, err
	}
	proto := res
	if res.Type == "function" {
		var r struct {
			Result remoteObject `json:"result"`
		}
		if err := c.Call(ctx, "Runtime.callFunctionOn", map[string]any{
			"objectId": res.ObjectID, "functionDeclaration": "function() { return this.prototype }",
			"objectGroup": evalGroup, "generatePreview": true,
		}, &r); err != nil {
			return Instances{}, fmt.Errorf("instances: prototype: %w", err)
		}
		if r.Result.ObjectID == "" {
			return Instances{}, fmt.Errorf("%w: %s has no prototype object", ErrBadInput, expression)
		}
		proto = r.Result
	}
	var q struct {
		Objects remoteObject `json:"objects"`
	}
	if err := c.Call(ctx, "Runtime.queryObjects", map[string]any{"prototypeObjectId": proto.ObjectID, "objectGroup": refsGroup}, &q); err != nil {
		return Instances{}, fmt.Errorf("instances: %w", err)
	}
	s.mu.Lock()
	ref, err := s.refs.objectRef(q.Objects)
	s.mu.Unlock()
	if err != nil {
		return Instances{}, err
	}
	var n struct {
		Result remoteObject `json:"result"`
	}
	if err := c.Call(ctx, "Runtime.callFunctionOn", map[string]any{
		"objectId": q.Objects.ObjectID, "functionDeclaration": "function() { return this.length }", "returnByValue": true,
	}, &n); err != nil {
		return Instances{}, fmt.Errorf("instances: count: %w", err)
	}
	count, _ := n.Result.Value.(float64)
	var name struct {
		Result remoteObject `json:"result"`
	}
	_ = c.Call(ctx, "Runtime.callFunctionOn", map[string]any{"objectId": proto.ObjectID, "returnByValue": true,
		"functionDeclaration": `function() { const c = Object.getOwnPropertyDescriptor(this, "constructor"); return c && typeof c.value === "function" ? c.value.name : "" }`,
	}, &name)
	protoText := proto.Description
	if n, _ := name.Result.Value.(string); n != "" {
		protoText = n + ".prototype"
	}
	out := Instances{Prototype: capText(protoText, s.stringCap).Value, Count: int(count), Ref: ref, Instances: []Property{}}
	if limit > 0 && count > 0 {
		props, _, err := s.properties(ctx, c, q.Objects.ObjectID, PropsSpec{Own: true}, 1)
		if err != nil {
			return out, err
		}
		for _, p := range props {
			if preview.IsIndex(p.Name) && len(out.Instances) < limit {
				out.Instances = append(out.Instances, p)
			}
		}
	}
	return out, nil
}

// evalObject evaluates expression (in frame when paused) to an object.
func (s *Session) evalObject(ctx context.Context, expression string, frame int) (remoteObject, error) {
	p, c, err := s.pauseNow()
	if err != nil {
		return remoteObject{}, err
	}
	expr, keys, err := s.interpolate(ctx, c, expression)
	defer dropInterpolated(context.WithoutCancel(ctx), c, keys)
	if err != nil {
		return remoteObject{}, err
	}
	params := map[string]any{"expression": expr, "objectGroup": evalGroup, "generatePreview": true,
		"timeout": DefaultEvalTimeout.Milliseconds()}
	s.mu.Lock()
	s.evalValues = true
	s.mu.Unlock()
	var res evaluateResult
	if p != nil {
		f, err := frameOf(p, frame)
		if err != nil {
			return remoteObject{}, err
		}
		params["callFrameId"] = f.CallFrameID
		err = c.Call(ctx, "Debugger.evaluateOnCallFrame", params, &res)
	} else {
		err = c.Call(ctx, "Runtime.evaluate", params, &res)
	}
	if err != nil {
		return remoteObject{}, fmt.Errorf("eval %s: %w", expression, err)
	}
	if d := res.ExceptionDetails; d != nil {
		msg := d.Text
		if d.Exception != nil {
			msg = firstLine(preview.Value(*d.Exception))
		}
		return remoteObject{}, fmt.Errorf("%w: %s threw %s", ErrBadInput, expression, msg)
	}
	if res.Result.ObjectID == "" {
		return remoteObject{}, fmt.Errorf("%w: %s is %s, not an object or a constructor", ErrBadInput, expression, preview.Value(res.Result))
	}
	return res.Result, nil
}

// Globals lists the global let, const and class names of the main context.
func (s *Session) Globals(ctx context.Context) ([]string, error) {
	_, c, err := s.pauseNow()
	if err != nil {
		return nil, err
	}
	s.mu.Lock()
	id := s.mainContext
	s.mu.Unlock()
	var res struct {
		Names []string `json:"names"`
	}
	params := map[string]any{}
	if id != 0 {
		params["executionContextId"] = id
	}
	if err := c.Call(ctx, "Runtime.globalLexicalScopeNames", params, &res); err != nil {
		return nil, fmt.Errorf("globals: %w", err)
	}
	if res.Names == nil {
		res.Names = []string{}
	}
	return res.Names, nil
}

// Scripts lists the loaded scripts in load order whose file or URL contains filter; node's own
// only with internal.
func (s *Session) Scripts(filter string, internal bool) ([]ScriptInfo, error) {
	if err := s.debugOnly(); err != nil {
		return nil, err
	}
	s.mu.Lock()
	out := make([]ScriptInfo, 0, len(s.scripts))
	for _, sc := range s.scripts {
		if (sc.Internal && !internal) || (filter != "" && !strings.Contains(sc.URL, filter)) {
			continue
		}
		out = append(out, sc)
	}
	s.mu.Unlock()
	for i := range out {
		if m := s.maps.of(out[i].ScriptID); m != nil {
			for _, src := range m.Sources() {
				out[i].Sources = append(out[i].Sources, s.sourceName(src))
			}
		}
	}
	slices.SortFunc(out, func(a, b ScriptInfo) int { return scriptOrder(a.ScriptID) - scriptOrder(b.ScriptID) })
	return out, nil
}

func scriptOrder(id string) int { n, _ := strconv.Atoi(id); return n }

// scriptFor finds the script of a file: a path relative to the session's cwd, an absolute path
// or a URL.
func (s *Session) scriptFor(file string) (string, bool) {
	path := file
	if !strings.HasPrefix(path, "/") && !strings.Contains(path, "://") && !strings.HasPrefix(path, "node:") {
		path = s.cwd + "/" + path
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	best := ""
	for id, sc := range s.scripts {
		if u := sc.URL; u == file || u == path || u == "file://"+path {
			if best == "" || scriptOrder(id) > scriptOrder(best) { // the newest of a reloaded file
				best = id
			}
		}
	}
	return best, best != ""
}

// scriptURL is the URL node gave a script when it parsed it ("" for an unknown id).
func (s *Session) scriptURL(id string) string {
	if id == "" {
		return ""
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.scripts[id].URL
}

// SourceSpec asks for source: of the paused frame or of a file, around a line or whole.
type SourceSpec struct {
	File  string // "" : the script of the paused frame
	Frame int
	Line  int  // 1-based centre line; 0: the paused line, or the whole file when File is set
	Lines int  // lines on each side (0: 5)
	All   bool // the whole script
}

// SourceView is a piece of a script's source.
type SourceView struct {
	File      string       `json:"file"`
	Total     int          `json:"total"` // lines in the script
	Lines     []SourceLine `json:"lines"`
	Truncated bool         `json:"truncated,omitempty"` // cut at maxViewLines
}

// maxViewLines caps a whole-script view.
const maxViewLines = 5000

// Source shows source: around the pause by default.
func (s *Session) Source(ctx context.Context, spec SourceSpec) (SourceView, error) {
	p, c, err := s.pauseNow()
	if err != nil {
		return SourceView{}, err
	}
	var src []string
	var file string
	cur := -1 // 0-based marked line
	switch {
	case spec.File != "":
		id, ok := s.scriptFor(spec.File)
		if ok {
			if src, err = s.source(ctx, c, id); err != nil {
				return SourceView{}, fmt.Errorf("source: %w", err)
			}
			s.mu.Lock()
			file = fileOf(s.scripts[id].URL, s.cwd)
			s.mu.Unlock()
			if p != nil && p.CallFrames[0].Location.ScriptID == id && !s.mapped(p.CallFrames[0]) {
				cur = p.CallFrames[0].Location.LineNumber
			}
			break
		}
		id, source, ok := s.scriptWithSource(s.absPath(spec.File))
		if !ok {
			return SourceView{}, fmt.Errorf("%w: no loaded script is %s, and no source map has it", ErrNoRef, spec.File)
		}
		if src, err = s.originalSource(id, source); err != nil {
			return SourceView{}, fmt.Errorf("source: %w", err)
		}
		file = s.sourceName(source)
		if p != nil {
			if top := s.pausedFrame(p.CallFrames[0]); top.Generated != nil && top.URL == sourceURL(source) {
				cur = top.Line - 1
			}
		}
	case p == nil:
		return SourceView{}, fmt.Errorf("%w: source around the pause needs a paused program; or name a file", ErrRunning)
	default:
		f, err := frameOf(p, spec.Frame)
		if err != nil {
			return SourceView{}, err
		}
		if src, cur, file, err = s.frameSource(ctx, c, f); err != nil {
			return SourceView{}, fmt.Errorf("source: %w", err)
		}
	}
	view := SourceView{File: file, Total: len(src)}
	centre := cur
	if spec.Line > 0 {
		centre = spec.Line - 1
	}
	if spec.All || centre < 0 {
		for i, l := range src[:min(len(src), maxViewLines)] {
			view.Lines = append(view.Lines, SourceLine{Line: i + 1, Text: l, Current: i == cur})
		}
		view.Truncated = len(src) > maxViewLines
		return view, nil
	}
	n := spec.Lines
	if n <= 0 {
		n = 5
	}
	for _, l := range around(src, centre, n) {
		l.Current = l.Line-1 == cur
		view.Lines = append(view.Lines, l)
	}
	if view.Lines == nil {
		return view, fmt.Errorf("%w: line %d is past the end of %s (%d lines)", ErrBadInput, spec.Line, view.File, len(src))
	}
	return view, nil
}

// SearchSpec asks to search the loaded scripts' sources.
type SearchSpec struct {
	Query         string
	Regex         bool
	CaseSensitive bool
	Internal      bool // node's own scripts too
}

// Match is a line of a script that matched a search.
type Match struct {
	File string `json:"file"`
	Line int    `json:"line"`
	Text string `json:"text"`
}

// maxMatches caps a search's answer.
const maxMatches = 200

// Search finds a query in the loaded scripts (Debugger.searchInContent), in load order.
func (s *Session) Search(ctx context.Context, spec SearchSpec) ([]Match, bool, error) {
	c, err := s.liveClient()
	if err != nil {
		return nil, false, err
	}
	scripts, _ := s.Scripts("", spec.Internal)
	out := []Match{}
	for _, sc := range scripts {
		var res struct {
			Result []struct {
				LineNumber  int    `json:"lineNumber"`
				LineContent string `json:"lineContent"`
			} `json:"result"`
		}
		if err := c.Call(ctx, "Debugger.searchInContent", map[string]any{
			"scriptId": sc.ScriptID, "query": spec.Query, "caseSensitive": spec.CaseSensitive, "isRegex": spec.Regex,
		}, &res); err != nil {
			return out, false, fmt.Errorf("search %s: %w", sc.URL, err)
		}
		for _, m := range res.Result {
			if len(out) == maxMatches {
				return out, true, nil
			}
			file := sc.File
			if file == "" {
				file = sc.URL
			}
			out = append(out, Match{File: file, Line: m.LineNumber + 1,
				Text: capText(strings.TrimRight(m.LineContent, "\r\n"), s.stringCap).Value})
		}
	}
	return out, false, nil
}

// History returns the events of one kind after the cursor, console ones of the given levels
// only, at most limit (<= 0: all retained).
func (s *Session) History(kind Kind, after uint64, levels []string, limit int) (Page, error) {
	if err := s.debugOnly(); err != nil {
		return Page{}, err
	}
	if len(levels) == 0 {
		return s.Events(after, KindSet{kind: true}, limit), nil
	}
	for i, l := range levels {
		if l == "warn" { // console.warn's CDP type
			levels[i] = "warning"
		}
	}
	page := s.Events(after, KindSet{kind: true}, 0)
	kept := page.Events[:0]
	for _, ev := range page.Events {
		if ev.Console != nil && slices.Contains(levels, ev.Console.Level) {
			kept = append(kept, ev)
		}
	}
	if limit > 0 && len(kept) > limit {
		kept = kept[:limit]
		page.Next = kept[len(kept)-1].Seq
		page.More = true
	}
	page.Events = kept
	return page, nil
}

// ContextView is a live execution context.
type ContextView struct {
	ContextInfo
	Main bool `json:"main,omitempty"` // the program's own context
}

// Contexts lists the live execution contexts.
func (s *Session) Contexts() ([]ContextView, error) {
	if err := s.debugOnly(); err != nil {
		return nil, err
	}
	s.mu.Lock()
	out := make([]ContextView, 0, len(s.contexts))
	for _, c := range s.contexts {
		out = append(out, ContextView{ContextInfo: c, Main: c.ID == s.mainContext})
	}
	s.mu.Unlock()
	slices.SortFunc(out, func(a, b ContextView) int { return a.ID - b.ID })
	return out, nil
}
