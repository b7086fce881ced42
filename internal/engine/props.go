package engine

import (
	"context"
	"fmt"
	"strings"

	"traced/internal/cdp/proto"
	"traced/internal/preview"
)

// Property is one property of an object, previewed, with an o ref when it is an object.
type Property struct {
	Name       string
	Kind       string // own, inherited, internal, private, accessor, context (a closure variable)
	Type       string
	Value      string
	Ref        string
	Expand     string     // the call that shows what the preview left out
	Properties []Property // expanded, with depth > 1
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
	Ref        string // the object's o ref
	Value      string
	Properties []Property
	Truncated  int // properties left out past maxProps
	// Session and Target name what the answer is about (Target as in EvalResult).
	Session string
	Target  string
}

// maxProps caps the properties listed of one object.
const maxProps = 100

// maxPropsDepth caps the expansion depth.
const maxPropsDepth = 3

// Props expands an object ref. A v ref is kept as an o ref first, so that its properties (all
// in the o refs' group) outlive the pause.
func (in Inspector) Props(ctx context.Context, spec PropsSpec) (Props, error) {
	c, err := in.t.liveClient()
	if err != nil {
		return Props{}, err
	}
	v, _, err := in.lookupRef(spec.Ref)
	if err != nil {
		return Props{}, err
	}
	if v.obj.ObjectID == "" {
		return Props{}, fmt.Errorf("%w: %s is %s, a %s without properties", ErrBadInput, spec.Ref, preview.Value(v.obj), typeOf(v.obj))
	}
	ref, obj := strings.TrimPrefix(spec.Ref, "@"), v.obj
	if strings.HasPrefix(ref, "v") {
		if ref, obj, err = in.persist(ctx, c, v.obj); err != nil {
			return Props{}, err
		}
	}
	props, truncated, err := in.properties(ctx, c, obj.ObjectID, spec, min(max(spec.Depth, 1), maxPropsDepth))
	if err != nil {
		return Props{}, err
	}
	text, _ := in.t.s.preview(obj, 1)
	session, target := in.t.Named()
	return Props{Ref: ref, Value: text, Properties: props, Truncated: truncated, Session: session, Target: target}, nil
}

func (in Inspector) properties(ctx context.Context, c clientCaller, objectID string, spec PropsSpec, depth int) ([]Property, int, error) {
	var res propertiesResult
	if err := proto.Do(ctx, c, proto.RuntimeGetProperties{
		ObjectID: objectID, OwnProperties: spec.Own, GeneratePreview: true,
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
			if pd.Name == "[[Scopes]]" && pd.Value != nil && pd.Value.ObjectID != "" {
				vars, err := in.contextVars(ctx, c, pd.Value.ObjectID)
				if err != nil {
					return nil, 0, err
				}
				for _, v := range vars {
					all = append(all, entry{v, "context"})
				}
			}
		}
	}
	truncated := max(len(all)-maxProps, 0)
	all = all[:min(len(all), maxProps)]
	out := make([]Property, 0, len(all))
	for _, e := range all {
		p := Property{Name: e.pd.Name, Kind: e.kind}
		switch {
		case e.pd.Value != nil:
			text, cut := in.t.s.preview(*e.pd.Value, 1)
			p.Type, p.Value = typeOf(*e.pd.Value), text
			if id := e.pd.Value.ObjectID; id != "" {
				in.t.mu.Lock()
				ref, err := in.t.refs.objectRef(*e.pd.Value)
				in.t.mu.Unlock()
				if err != nil {
					return out, truncated, err
				}
				p.Ref, p.Expand = ref, expandHint(ref, cut)
				if depth > 1 && e.pd.Value.Type == "object" && !unexpanded(*e.pd.Value) {
					if p.Properties, _, err = in.properties(ctx, c, id, spec, depth-1); err != nil {
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

// unexpanded reports whether a value is left unexpanded at any depth: the global object and
// the Global scope (thousands of properties, none the user's), and a function's scope list,
// whose variables --internal lists as context entries.
func unexpanded(o remoteObject) bool {
	return o.Subtype == "internal#scopeList" || o.Description == "Global" || o.ClassName == "global"
}

// contextVars lists the variables a function's closure scopes hold (Runtime's [[Scopes]]),
// the global scope left out. V8 does not list an arrow function's captured this there.
func (in Inspector) contextVars(ctx context.Context, c clientCaller, scopesID string) ([]propertyDescriptor, error) {
	var scopes propertiesResult
	if err := proto.Do(ctx, c, proto.RuntimeGetProperties{ObjectID: scopesID, OwnProperties: true}, &scopes); err != nil {
		return nil, fmt.Errorf("scopes: %w", err)
	}
	var out []propertyDescriptor
	for _, sc := range scopes.Result {
		if sc.Value == nil || sc.Value.ObjectID == "" || sc.Value.Subtype != "internal#scope" || sc.Value.Description == "Global" {
			continue
		}
		var vars propertiesResult
		if err := proto.Do(ctx, c, proto.RuntimeGetProperties{
			ObjectID: sc.Value.ObjectID, OwnProperties: true, GeneratePreview: true,
		}, &vars); err != nil {
			return nil, fmt.Errorf("scope %s: %w", sc.Value.Description, err)
		}
		out = append(out, vars.Result...)
		if len(out) >= maxProps {
			break
		}
	}
	return out, nil
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
	Prototype string
	Count     int
	Ref       string     // o ref of the array of them all
	Instances []Property // the first ones, with o refs
}

// Instances finds the live objects whose prototype is the value of expression, or its
// prototype property when it is a constructor (Runtime.queryObjects).
func (in Inspector) Instances(ctx context.Context, expression string, frame, limit int) (Instances, error) {
	res, err := in.evalObject(ctx, expression, frame)
	if err != nil {
		return Instances{}, err
	}
	c, err := in.t.liveClient()
	if err != nil {
		return Instances{}, err
	}
	prototype := res
	if res.Type == "function" {
		var r struct {
			Result remoteObject `json:"result"`
		}
		if err := proto.Do(ctx, c, proto.RuntimeCallFunctionOn{
			ObjectID: res.ObjectID, FunctionDeclaration: "function() { return this.prototype }",
			ObjectGroup: evalGroup, GeneratePreview: true,
		}, &r); err != nil {
			return Instances{}, fmt.Errorf("instances: prototype: %w", err)
		}
		if r.Result.ObjectID == "" {
			return Instances{}, fmt.Errorf("%w: %s has no prototype object", ErrBadInput, expression)
		}
		prototype = r.Result
	}
	var q struct {
		Objects remoteObject `json:"objects"`
	}
	if err := proto.Do(ctx, c, proto.RuntimeQueryObjects{
		PrototypeObjectID: prototype.ObjectID, ObjectGroup: refsGroup,
	}, &q); err != nil {
		return Instances{}, fmt.Errorf("instances: %w", err)
	}
	in.t.mu.Lock()
	ref, err := in.t.refs.objectRef(q.Objects)
	in.t.mu.Unlock()
	if err != nil {
		return Instances{}, err
	}
	var n struct {
		Result remoteObject `json:"result"`
	}
	if err := proto.Do(ctx, c, proto.RuntimeCallFunctionOn{
		ObjectID: q.Objects.ObjectID, FunctionDeclaration: "function() { return this.length }",
		ReturnByValue: true,
	}, &n); err != nil {
		return Instances{}, fmt.Errorf("instances: count: %w", err)
	}
	count, _ := n.Result.Value.(float64)
	var name struct {
		Result remoteObject `json:"result"`
	}
	_ = proto.Do(ctx, c, proto.RuntimeCallFunctionOn{ObjectID: prototype.ObjectID, ReturnByValue: true,
		FunctionDeclaration: `function() { const c = Object.getOwnPropertyDescriptor(this, "constructor"); return c && typeof c.value === "function" ? c.value.name : "" }`,
	}, &name)
	protoText := prototype.Description
	if n, _ := name.Result.Value.(string); n != "" {
		protoText = n + ".prototype"
	}
	out := Instances{Prototype: CapText(protoText, in.t.s.stringCap).Value, Count: int(count), Ref: ref, Instances: []Property{}}
	if limit > 0 && count > 0 {
		props, _, err := in.properties(ctx, c, q.Objects.ObjectID, PropsSpec{Own: true}, 1)
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
func (in Inspector) evalObject(ctx context.Context, expression string, frame int) (remoteObject, error) {
	p, c, err := in.pauseNow()
	if err != nil {
		return remoteObject{}, err
	}
	expr, keys, err := in.interpolate(ctx, c, expression)
	defer dropInterpolated(context.WithoutCancel(ctx), c, keys)
	if err != nil {
		return remoteObject{}, err
	}
	timeout := DefaultEvalTimeout.Milliseconds()
	in.t.mu.Lock()
	in.t.evalValues = true
	in.t.mu.Unlock()
	var res evaluateResult
	if p != nil {
		f, err := scopedFrameOf(p, frame)
		if err != nil {
			return remoteObject{}, err
		}
		err = proto.Do(ctx, c, proto.DebuggerEvaluateOnCallFrame{CallFrameID: f.CallFrameID, Expression: expr,
			ObjectGroup: evalGroup, GeneratePreview: true, Timeout: timeout}, &res)
	} else {
		err = proto.Do(ctx, c, proto.RuntimeEvaluate{Expression: expr, ObjectGroup: evalGroup, GeneratePreview: true,
			Timeout: timeout}, &res)
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
func (in Inspector) Globals(ctx context.Context) ([]string, error) {
	_, c, err := in.pauseNow()
	if err != nil {
		return nil, err
	}
	in.t.mu.Lock()
	id := in.t.mainContext
	in.t.mu.Unlock()
	var res struct {
		Names []string `json:"names"`
	}
	// No context id (0) is V8's default context.
	if err := proto.Do(ctx, c, proto.RuntimeGlobalLexicalScopeNames{ExecutionContextID: id}, &res); err != nil {
		return nil, fmt.Errorf("globals: %w", err)
	}
	if res.Names == nil {
		res.Names = []string{}
	}
	return res.Names, nil
}
