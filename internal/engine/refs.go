package engine

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"traced/internal/cdp/proto"
	"traced/internal/preview"
)

// ErrStaleRef: a value ref of an earlier pause. The objects behind it are gone with the pause.
var ErrStaleRef = errors.New("stale ref")

// refsGroup holds the remote objects of o refs: they outlive pauses until the refs are cleared.
const refsGroup = "traced-refs"

// maxObjectRefs bounds the o refs of a session: each keeps a remote object alive in the program.
const maxObjectRefs = 10000

// refValue is what a v or o ref names: a remote object and, for a variable, where it lives.
type refValue struct {
	obj   remoteObject
	name  string // the variable's name; "" for other values
	frame int    // the variable's frame
	scope int    // the variable's index in the frame's scope chain
}

// refTable numbers the values a user sees. v refs belong to one pause and go stale when it
// ends; numbering goes on across pauses so that a stale ref is told apart from an unknown one.
// o refs name objects kept in refsGroup until the session ends or the refs are cleared.
type refTable struct {
	pause  *debuggerPaused // the pause the v refs are of
	firstV int             // the first v number of that pause
	nextV  int             // the last v number given
	vals   map[string]refValue
	byVar  map[string]string // "frame/scope/name" -> v ref, so that one pause's locals keep their refs
	// set holds the values set in this pause by "frame/scope/name": V8's scope objects are
	// copies taken at the pause and do not see them.
	set   map[string]remoteObject
	nextO int
	objs  map[string]refValue
}

// forPause starts a new generation of v refs when the pause changed. Under s.mu.
func (t *refTable) forPause(p *debuggerPaused) {
	if t.vals != nil && t.pause == p {
		return
	}
	t.pause, t.firstV = p, t.nextV+1
	t.vals, t.byVar, t.set = map[string]refValue{}, map[string]string{}, map[string]remoteObject{}
}

func varKey(frame, scope int, name string) string {
	return strconv.Itoa(frame) + "/" + strconv.Itoa(scope) + "/" + name
}

// valueRef gives v a v ref in the current pause (p, not nil). Under s.mu.
func (t *refTable) valueRef(p *debuggerPaused, v refValue) string {
	t.forPause(p)
	key := ""
	if v.name != "" {
		key = varKey(v.frame, v.scope, v.name)
		if ref, ok := t.byVar[key]; ok {
			t.vals[ref] = v // the same variable, maybe a new value (after a set)
			return ref
		}
	}
	t.nextV++
	ref := "v" + strconv.Itoa(t.nextV)
	t.vals[ref] = v
	if key != "" {
		t.byVar[key] = ref
	}
	return ref
}

// objectRef gives an object of refsGroup an o ref. Under s.mu.
func (t *refTable) objectRef(o remoteObject) (string, error) {
	if len(t.objs) >= maxObjectRefs {
		return "", fmt.Errorf("%w: %d object refs are held; DELETE the refs to release them", ErrBadInput, maxObjectRefs)
	}
	if t.objs == nil {
		t.objs = map[string]refValue{}
	}
	t.nextO++
	ref := "o" + strconv.Itoa(t.nextO)
	t.objs[ref] = refValue{obj: o}
	return ref, nil
}

var refRE = regexp.MustCompile(`^@?([vo])([0-9]+)$`)

// lookup finds a ref ("v3", "@v3", "o1") given the current pause p (nil: running). Under s.mu.
func (t *refTable) lookup(p *debuggerPaused, ref string) (refValue, error) {
	m := refRE.FindStringSubmatch(ref)
	if m == nil {
		return refValue{}, fmt.Errorf("%w: %q is not a value ref (v1, @v1) or an object ref (o1)", ErrNoRef, ref)
	}
	n, _ := strconv.Atoi(m[2])
	name := m[1] + m[2]
	if m[1] == "o" {
		if v, ok := t.objs[name]; ok {
			return v, nil
		}
		if n <= t.nextO {
			return refValue{}, fmt.Errorf("%w: %s was released when the refs were cleared", ErrStaleRef, name)
		}
		return refValue{}, fmt.Errorf("%w: %s was never given", ErrNoRef, name)
	}
	if v, ok := t.vals[name]; ok && t.pause == p && p != nil {
		return v, nil
	}
	if n <= t.nextV {
		if p == nil {
			return refValue{}, fmt.Errorf("%w: %s was a value of a pause that ended; the program is running", ErrStaleRef, name)
		}
		return refValue{}, fmt.Errorf("%w: %s was a value of an earlier pause", ErrStaleRef, name)
	}
	return refValue{}, fmt.Errorf("%w: %s was never given", ErrNoRef, name)
}

// lookupRef finds a value or object ref, given the pause now.
func (in Inspector) lookupRef(ref string) (refValue, *debuggerPaused, error) {
	in.t.mu.Lock()
	defer in.t.mu.Unlock()
	v, err := in.t.refs.lookup(in.t.paused, ref)
	return v, in.t.paused, err
}

// persist copies an object into refsGroup and names it with an o ref, so that it outlives the
// pause it was seen in.
func (in Inspector) persist(ctx context.Context, c clientCaller, o remoteObject) (string, remoteObject, error) {
	var res struct {
		Result remoteObject `json:"result"`
	}
	if err := proto.Do(ctx, c, proto.RuntimeCallFunctionOn{
		ObjectID: o.ObjectID, FunctionDeclaration: "function() { return this }", ObjectGroup: refsGroup,
		GeneratePreview: true,
	}, &res); err != nil {
		return "", remoteObject{}, fmt.Errorf("keep object: %w", err)
	}
	in.t.mu.Lock()
	defer in.t.mu.Unlock()
	ref, err := in.t.refs.objectRef(res.Result)
	return ref, res.Result, err
}

// ClearRefs releases every o ref's object; v refs go with their pause anyway. It returns how
// many refs were released.
func (in Inspector) ClearRefs(ctx context.Context) (int, error) {
	c, err := in.t.liveClient()
	if err != nil {
		return 0, err
	}
	in.t.mu.Lock()
	n := len(in.t.refs.objs)
	in.t.refs.objs = nil
	in.t.mu.Unlock()
	if err := proto.Do(ctx, c, proto.RuntimeReleaseObjectGroup{ObjectGroup: refsGroup}, nil); err != nil {
		return n, fmt.Errorf("release refs: %w", err)
	}
	return n, nil
}

// refsHolder is the program's property where an eval finds the objects its refs name: a
// non-enumerable object of globalThis, so that reading it is free of side effects.
const refsHolder = "globalThis.__tracedRefs"

// exprRefRE finds the refs an expression names: @v1 or a bare v1/o1 that is not a property.
var exprRefRE = regexp.MustCompile(`(^|[^\w$.@])(@?[vo][0-9]+)\b`)

// interpolate rewrites the refs of an expression into what they name: primitives as literals,
// objects as properties of refsHolder, put there by one call each. It returns the expression
// and the holder's keys to delete afterwards. Text inside string literals is left alone. A bare
// v1 that is no ref is left to the program (it may be a variable); @v1 must be a ref.
func (in Inspector) interpolate(ctx context.Context, c clientCaller, expr string) (string, []string, error) {
	if !strings.ContainsAny(expr, "vo") {
		return expr, nil, nil
	}
	var out strings.Builder
	var keys []string
	for _, seg := range splitStrings(expr) {
		if seg.literal {
			out.WriteString(seg.text)
			continue
		}
		var ferr error
		text := exprRefRE.ReplaceAllStringFunc(seg.text, func(m string) string {
			sub := exprRefRE.FindStringSubmatch(m)
			lead, ref := sub[1], sub[2]
			v, _, err := in.lookupRef(ref)
			if err != nil {
				if strings.HasPrefix(ref, "@") || errors.Is(err, ErrStaleRef) {
					if ferr == nil {
						ferr = err
					}
				}
				return m
			}
			if v.obj.ObjectID == "" {
				return lead + primitiveLiteral(v.obj)
			}
			key := strings.TrimPrefix(ref, "@")
			if err := proto.Do(ctx, c, proto.RuntimeCallFunctionOn{ObjectID: v.obj.ObjectID, FunctionDeclaration: `function(k) {
  const t = globalThis.__tracedRefs || Object.defineProperty(globalThis, "__tracedRefs", {value: Object.create(null), configurable: true}).__tracedRefs;
  t[k] = this;
}`, Arguments: []proto.CallArgument{{Value: key}}}, nil); err != nil {
				if ferr == nil {
					ferr = fmt.Errorf("ref %s: %w", ref, err)
				}
				return m
			}
			keys = append(keys, key)
			return lead + refsHolder + "." + key
		})
		if ferr != nil {
			return "", keys, ferr
		}
		out.WriteString(text)
	}
	return out.String(), keys, nil
}

// dropInterpolated deletes the holder's keys an interpolation put there.
func dropInterpolated(ctx context.Context, c clientCaller, keys []string) {
	if len(keys) == 0 {
		return
	}
	var b strings.Builder
	b.WriteString("(t => { if (t) {")
	for _, k := range keys {
		b.WriteString(" delete t." + k + ";")
	}
	b.WriteString(" } })(" + refsHolder + ")")
	_ = proto.Do(ctx, c, proto.RuntimeEvaluate{Expression: b.String(), Silent: true}, nil)
}

// primitiveLiteral writes a primitive remote object back as JavaScript.
func primitiveLiteral(o remoteObject) string {
	switch {
	case o.Type == "undefined":
		return "undefined"
	case o.UnserializableValue != "":
		return "(" + o.UnserializableValue + ")"
	case o.Type == "string":
		s, _ := o.Value.(string)
		return strconv.Quote(s)
	}
	return "(" + preview.JSON(o.Value) + ")"
}

// segment is a piece of an expression: a string literal or code between them.
type segment struct {
	text    string
	literal bool
}

// splitStrings cuts an expression at its string and template literals, so that refs are looked
// for in code only. Template substitutions stay inside the literal: a ref there is not seen.
func splitStrings(expr string) []segment {
	var segs []segment
	start := 0
	for i := 0; i < len(expr); i++ {
		q := expr[i]
		if q != '"' && q != '\'' && q != '`' {
			continue
		}
		if start < i {
			segs = append(segs, segment{text: expr[start:i]})
		}
		j := i + 1
		for j < len(expr) && expr[j] != q {
			if expr[j] == '\\' {
				j++
			}
			j++
		}
		end := min(j+1, len(expr))
		segs = append(segs, segment{text: expr[i:end], literal: true})
		start, i = end, end-1
	}
	if start < len(expr) {
		segs = append(segs, segment{text: expr[start:]})
	}
	return segs
}
