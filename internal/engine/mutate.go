package engine

import (
	"context"
	"encoding/json"
	"fmt"
	"regexp"
	"strings"

	"traced/internal/cdp/proto"
)

// ErrNotSettable: V8 sets only function-level scopes' variables; the reason goes with it.
var ErrNotSettable = fmt.Errorf("%w: variable cannot be set", ErrBadInput)

// SetSpec asks to set a variable of a paused frame, named or by its v ref.
type SetSpec struct {
	Name  string
	Ref   string
	Value string // JSON, a JS primitive (undefined, NaN, Infinity, -0, 12n) or a ref
	Frame int
}

// settableScopes are the scopes Debugger.setVariableValue writes.
var settableScopes = map[string]bool{"local": true, "closure": true, "catch": true, "block": true}

// bigintRE is a BigInt literal.
var bigintRE = regexp.MustCompile(`^-?[0-9]+n$`)

// callArgument parses a value to set: JSON, a JS primitive JSON lacks, or a ref to an object.
func (in Inspector) callArgument(text string) (proto.CallArgument, error) {
	t := strings.TrimSpace(text)
	switch {
	case t == "undefined":
		return proto.CallArgument{}, nil // none of its fields: undefined
	case t == "NaN" || t == "Infinity" || t == "-Infinity" || t == "-0" || bigintRE.MatchString(t):
		return proto.CallArgument{UnserializableValue: t}, nil
	case refRE.MatchString(t):
		v, _, err := in.lookupRef(t)
		if err != nil {
			return proto.CallArgument{}, err
		}
		if v.obj.ObjectID != "" {
			return proto.CallArgument{ObjectID: v.obj.ObjectID}, nil
		}
		if v.obj.UnserializableValue != "" {
			return proto.CallArgument{UnserializableValue: v.obj.UnserializableValue}, nil
		}
		return proto.CallArgument{Value: jsonValue(v.obj.Value)}, nil
	}
	var v any
	if err := json.Unmarshal([]byte(t), &v); err != nil {
		return proto.CallArgument{}, fmt.Errorf("%w: value %q is not JSON, a JS primitive (undefined, NaN, Infinity, -0, 12n) or a ref; quote a string: \"\\\"text\\\"\"", ErrBadInput, text)
	}
	return proto.CallArgument{Value: jsonValue(v)}, nil
}

// jsonValue is a decoded JSON value as a call argument's: null stays a present null, as an
// absent value is undefined.
func jsonValue(v any) any {
	if v == nil {
		return json.RawMessage("null")
	}
	return v
}

// SetResult is a set variable as it now is and, when its frame is returning, the value it
// returns: computed already, so the set does not change it.
type SetResult struct {
	Variable    Variable
	ReturnValue *Variable
}

// SetVariable sets a local, closure, catch or block variable of a paused frame and answers it
// as it now is.
func (in Inspector) SetVariable(ctx context.Context, spec SetSpec) (SetResult, error) {
	p, c, err := in.pausedNow("set")
	if err != nil {
		return SetResult{}, err
	}
	frame, name := spec.Frame, spec.Name
	scopeIdx := -1
	if spec.Ref != "" {
		v, _, err := in.lookupRef(spec.Ref)
		if err != nil {
			return SetResult{}, err
		}
		if v.name == "" {
			return SetResult{}, fmt.Errorf("%w: %s is a value, not a variable; set names a variable or the ref of one from GET state or vars", ErrBadInput, spec.Ref)
		}
		frame, name, scopeIdx = v.frame, v.name, v.scope
	}
	arg, err := in.callArgument(spec.Value)
	if err != nil {
		return SetResult{}, err
	}
	f, err := scopedFrameOf(p, frame)
	if err != nil {
		return SetResult{}, err
	}
	if scopeIdx < 0 {
		if scopeIdx, err = in.findVariable(ctx, c, p, frame, name); err != nil {
			return SetResult{}, err
		}
	}
	scopes := f.scopes()
	if scopeIdx >= len(scopes) {
		return SetResult{}, fmt.Errorf("%w: frame f%d has %d scopes", ErrNoRef, frame, len(scopes))
	}
	sc := scopes[scopeIdx]
	if !settableScopes[sc.Type] {
		return SetResult{}, fmt.Errorf("%w: %s is in the %s scope; V8 sets only local, closure, catch and block variables (evaluate an assignment instead)",
			ErrNotSettable, name, sc.Type)
	}
	if err := proto.Do(ctx, c, proto.DebuggerSetVariableValue{
		ScopeNumber: scopeIdx, VariableName: name, NewValue: arg, CallFrameID: f.CallFrameID,
	}, nil); err != nil {
		return SetResult{}, fmt.Errorf("set %s: %w", name, err)
	}
	// The pause's scope objects do not see the change: read the variable back by name.
	var res evaluateResult
	if err := proto.Do(ctx, c, proto.DebuggerEvaluateOnCallFrame{
		CallFrameID: f.CallFrameID, Expression: name, GeneratePreview: true, ObjectGroup: evalGroup,
	}, &res); err != nil {
		return SetResult{}, fmt.Errorf("set %s: read back: %w", name, err)
	}
	in.t.mu.Lock()
	defer in.t.mu.Unlock()
	in.t.evalValues = true
	in.t.refs.forPause(p)
	in.t.refs.set[varKey(frame, scopeIdx, name)] = res.Result
	ref := in.t.refs.valueRef(p, refValue{obj: res.Result, name: name, frame: frame, scope: scopeIdx})
	out := SetResult{Variable: in.t.s.variable(ref, name, sc.Type, res.Result, 1)}
	if rv := p.CallFrames[0].ReturnValue; frame == 0 && rv != nil {
		v := in.t.s.variable("", "return value", "return", *rv, 1)
		out.ReturnValue = &v
	}
	return out, nil
}

// findVariable returns the index in a frame's scope chain of the innermost scope that has name.
func (in Inspector) findVariable(ctx context.Context, c clientCaller, p *debuggerPaused, frame int, name string) (int, error) {
	f := p.CallFrames[frame]
	var seen []Variable
	for i, sc := range f.scopes() {
		if sc.Object.ObjectID == "" {
			continue
		}
		var props propertiesResult
		if err := proto.Do(ctx, c, proto.RuntimeGetProperties{
			ObjectID: sc.Object.ObjectID, OwnProperties: true,
		}, &props); err != nil {
			return 0, fmt.Errorf("scope %s: %w", sc.Type, err)
		}
		for _, pd := range props.Result {
			if pd.Name == name {
				return i, nil
			}
			if sc.Type != "global" { // the hint lists the frame's own names, not the globals
				seen = append(seen, Variable{Name: pd.Name})
			}
		}
	}
	return 0, fmt.Errorf("%w: no variable %q in frame f%d; there are: %s", ErrNoRef, name, frame, variableNames(seen))
}

// ErrNotAtReturn: set-return needs a pause at a return point.
var ErrNotAtReturn = fmt.Errorf("%w: not paused at a return point", ErrRunning)

// SetReturn replaces the value the top frame is about to return.
func (in Inspector) SetReturn(ctx context.Context, value string) (Variable, error) {
	p, c, err := in.pausedNow("set-return")
	if err != nil {
		return Variable{}, err
	}
	if p.CallFrames[0].ReturnValue == nil {
		return Variable{}, fmt.Errorf("%w: f0 %s is not returning yet", ErrNotAtReturn, p.CallFrames[0].FunctionName)
	}
	arg, err := in.callArgument(value)
	if err != nil {
		return Variable{}, err
	}
	if err := proto.Do(ctx, c, proto.DebuggerSetReturnValue{NewValue: arg}, nil); err != nil {
		return Variable{}, fmt.Errorf("set-return: %w", err)
	}
	// V8 answers nothing: build the value the same way to show it, and keep it as the pause's.
	var obj remoteObject
	if arg.ObjectID != "" {
		v, _, _ := in.lookupRef(strings.TrimSpace(value))
		obj = v.obj
	} else {
		var res evaluateResult
		if err := proto.Do(ctx, c, proto.RuntimeEvaluate{
			Expression: "(" + valueExpression(arg) + ")", GeneratePreview: true, ObjectGroup: evalGroup,
		}, &res); err != nil {
			return Variable{}, fmt.Errorf("set-return: show value: %w", err)
		}
		obj = res.Result
		in.t.mu.Lock()
		in.t.evalValues = true
		in.t.mu.Unlock()
	}
	in.t.mu.Lock()
	p.CallFrames[0].ReturnValue = &obj
	ref := in.t.refs.valueRef(p, refValue{obj: obj})
	in.t.mu.Unlock()
	return in.t.s.variable(ref, "return value", "return", obj, 1), nil
}

// valueExpression writes a call argument back as an expression for showing it.
func valueExpression(arg proto.CallArgument) string {
	switch {
	case arg.UnserializableValue != "":
		return arg.UnserializableValue
	case arg.Value == nil:
		return "undefined"
	}
	b, _ := json.Marshal(arg.Value)
	return string(b)
}
