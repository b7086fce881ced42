package engine

import "slices"

// A breakpoint of the session (what the user asked for) is bound in each target apart, as
// delve's physical breakpoints point at their logical one: each target keeps its own binding,
// with the V8 id it got there, so that nothing relies on V8 giving the same id in every target.
// Binding a breakpoint everywhere is the session looping over its targets (targetsetup.go).

// binding is one of the session's breakpoints as bound in one target.
type binding struct {
	v8ID     string  // the binding by URL or function; "" when none (toggled off, pending)
	resolved []Frame // where V8 bound it in this target
	// aliases are its V8 ids in scripts this target runs transformed in place, and remapped
	// says they replace the binding by URL here (targetmaps.go).
	aliases  []string
	remapped bool
}

// bindingOf is bp's binding in t, made on first use, with both locks held (Target.lock).
func (bs Breakpoints) bindingOf(bp *breakpoint) *binding {
	b := bs.t.bindings[bp]
	if b == nil {
		b = &binding{}
		bs.t.bindings[bp] = b
	}
	return b
}

// v8IDOf is bp's V8 id in t, under mu; "" when it is not bound there.
func (bs Breakpoints) v8IDOf(bp *breakpoint) string {
	if b := bs.t.bindings[bp]; b != nil {
		return b.v8ID
	}
	return ""
}

// bound records, with both locks held (Target.lock), that V8 bound bp in t as id at locs, in
// place of what it had there.
func (bs Breakpoints) bound(bp *breakpoint, id string, locs []location) {
	b := bs.bindingOf(bp)
	b.v8ID, b.resolved = id, make([]Frame, 0, len(locs))
	for _, l := range locs {
		b.resolved = append(b.resolved, bs.resolvedAt(l))
	}
}

// hits reports, under mu, whether V8 breakpoint id is bp's in t.
func (bs Breakpoints) hits(bp *breakpoint, id string) bool {
	b := bs.t.bindings[bp]
	return b != nil && (b.v8ID == id || slices.Contains(b.aliases, id))
}

// remapped reports, under mu, whether bp is bound in t through a map already.
func (bs Breakpoints) remapped(bp *breakpoint) bool {
	b := bs.t.bindings[bp]
	return b != nil && b.remapped
}

// resolvedOf is where bp is bound in every target, the main thread first, under mu: the
// breakpoint's Resolved as the user sees it (never nil: the list shows [] until one binds).
func (us Settings) resolvedOf(bp *breakpoint) []Frame {
	out := []Frame{}
	add := func(t *Target) {
		if b := t.bindings[bp]; b != nil {
			out = append(out, b.resolved...)
		}
	}
	add(us.s.main)
	for _, e := range us.s.targets.entries {
		if e.t != nil {
			add(e.t)
		}
	}
	return out
}
