package engine

import (
	"context"
	"slices"

	"traced/internal/cdp/proto"
)

// V8 previews one level: a local holding small objects reads `tiers  Array(4)` or
// `cfg  { tiers: Array(4) }`, and the reader asks again. A local's nested objects are read
// too (one getProperties for each such local, sent back to back) and shown in its preview as
// long as it stays within deepBudget: `tiers  [ { min: 1, pct: 0 }, { min: 50, pct: 5 }, … ]`.

// deepBudget caps, in bytes, a local's preview with nested values shown: a line taken in at a
// glance. Nested values past it stay named by their type ({…}, Array(4)).
const deepBudget = 160

// maxDeepened caps the locals of one answer whose nested values are read: each costs V8 a
// getProperties, and they go out together, one round trip.
const maxDeepened = 8

// hasNested reports whether a value's preview names nested objects it does not show. Node's
// CommonJS `module` is never deepened: its nested values are the loader's state, and reading them
// cost every pause in a module's top level a round trip.
func hasNested(o remoteObject) bool {
	if o.Type != "object" || o.Preview == nil || o.ObjectID == "" || o.ClassName == "Module" {
		return false
	}
	return slices.ContainsFunc(o.Preview.Properties, func(pr propertyPreview) bool {
		return pr.Type == "object" && pr.Subtype != "null" && pr.ValuePreview == nil
	})
}

// deeper previews each of objs with its nested objects' own previews, one level, within
// deepBudget: "" for one it could not show deeper. The first maxDeepened are read, back to
// back; a read that fails leaves the shallow preview: it is a nicety.
func (in Inspector) deeper(ctx context.Context, c clientCaller, objs []remoteObject) []string {
	out := make([]string, len(objs))
	objs = objs[:min(len(objs), maxDeepened)]
	answers := make([]waiter, 0, len(objs))
	for _, o := range objs {
		w, err := send(ctx, c, proto.RuntimeGetProperties{ObjectID: o.ObjectID, OwnProperties: true, GeneratePreview: true})
		if err != nil {
			break
		}
		answers = append(answers, w)
	}
	for k, w := range answers {
		var props propertiesResult
		if err := w.Wait(ctx, &props); err != nil {
			continue
		}
		out[k] = in.withNested(objs[k], props.Result)
	}
	return out
}

// withNested renders o with the previews of its properties' values in place of their names,
// as many as fit in deepBudget; "" when none fits.
func (in Inspector) withNested(o remoteObject, props []propertyDescriptor) string {
	nested := map[string]*objectPreview{}
	for _, pd := range props {
		if pd.Value != nil && pd.Value.Preview != nil {
			nested[pd.Name] = pd.Value.Preview
		}
	}
	// A copy: the value a ref keeps is left as V8 gave it.
	p := *o.Preview
	p.Properties = slices.Clone(p.Properties)
	o.Preview = &p
	best := ""
	for j := range p.Properties {
		pr := &p.Properties[j]
		np := nested[pr.Name]
		if np == nil || pr.Type != "object" || pr.ValuePreview != nil {
			continue
		}
		pr.ValuePreview = np
		text, _ := in.t.s.preview(o, 1)
		if len(text) > deepBudget {
			break
		}
		best = text
	}
	return best
}

// deepen shows the variables at todo's indexes one level deeper (deeper).
func (in Inspector) deepen(ctx context.Context, c clientCaller, vars []Variable, todo []deepening) {
	objs := make([]remoteObject, len(todo))
	for k, d := range todo {
		objs[k] = d.obj
	}
	for k, text := range in.deeper(ctx, c, objs) {
		if text != "" {
			vars[todo[k].i].Value = text
		}
	}
}

// deepening is a local to show one level deeper: its index in the answer and its value.
type deepening struct {
	i   int
	obj remoteObject
}
