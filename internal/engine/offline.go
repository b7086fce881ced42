package engine

import (
	"fmt"
	"slices"

	"traced/internal/cdp/proto"
)

// A debug session whose program has ended keeps its breakpoints and logpoints as the list its
// restart sets again: they can still be set and removed there, with no V8 to bind them in, so
// that `restart` runs with the set the user wants.

// offlineNote is the warning a breakpoint set on an ended session answers with.
const offlineNote = "the program has ended: restart runs it again with this one set"

// offline reports whether t is the main thread of a debug session traced started whose
// program has ended and which no restart has replaced: its list is the next run's.
func (bs Breakpoints) offline() bool {
	if !bs.t.s.Restartable() {
		return false
	}
	bs.t.s.mu.Lock()
	defer bs.t.s.mu.Unlock()
	return bs.t.main() && bs.t.s.endedAt != nil && bs.t.s.restartedAs == ""
}

// setOffline lists a breakpoint on an ended session, unbound, for its restart.
func (bs Breakpoints) setOffline(spec BreakpointSpec) (Breakpoint, error) {
	bp, call := &breakpoint{}, proto.DebuggerSetBreakpointByURL{}
	b := Breakpoint{Location: spec.Location, Condition: spec.Condition, HitCount: spec.HitCount, Enabled: true,
		Resolved: []Frame{}}
	if spec.URLRegex != "" {
		b.URLRegex, b.Location = spec.URLRegex, fmt.Sprintf("/%s/:%d", spec.URLRegex, spec.Line)
		call.LineNumber = spec.Line - 1
		if spec.Column > 0 {
			call.ColumnNumber = proto.Int(spec.Column - 1)
		}
		bp.at = fmt.Sprintf("/%s/:%d:%d", spec.URLRegex, spec.Line, spec.Column)
	} else {
		at, err := bs.offlineAt(spec.Location)
		if err != nil {
			return Breakpoint{}, err
		}
		bp.at = at
	}
	bp.call = call
	if err := bs.t.s.Settings().taken(bp.at, spec.Location); err != nil {
		return Breakpoint{}, err
	}
	b.Ref = bs.t.s.Settings().newRef("bp")
	bs.t.lock()
	bp.Breakpoint = b
	bs.t.s.breakpoints = append(bs.t.s.breakpoints, bp)
	bs.t.unlock()
	b.Warning = offlineNote
	return b, nil
}

// setLogpointOffline lists a logpoint on an ended session, unbound, for its restart.
func (bs Breakpoints) setLogpointOffline(spec LogpointSpec) (Logpoint, error) {
	if spec.Max <= 0 {
		spec.Max = DefaultLogpointMax
	}
	at, err := bs.offlineAt(spec.Location)
	if err != nil {
		return Logpoint{}, err
	}
	if err := bs.t.s.Settings().taken(at, spec.Location); err != nil {
		return Logpoint{}, err
	}
	lp := Logpoint{Ref: bs.t.s.Settings().newRef("lp"), Location: spec.Location, Template: spec.Template, Condition: spec.Condition,
		Max: spec.Max, Resolved: []Frame{}}
	bs.t.lock()
	bs.t.s.breakpoints = append(bs.t.s.breakpoints, &breakpoint{log: &lp, at: at, call: proto.DebuggerSetBreakpointByURL{}})
	bs.t.unlock()
	return lp, nil
}

// offlineAt checks a location as a live set would (its file exists) and gives its key.
func (bs Breakpoints) offlineAt(location string) (string, error) {
	path, line, col, err := bs.t.s.Settings().parseLocation(location)
	if err != nil {
		return "", err
	}
	if err := bs.checkFile(location, path, line); err != nil {
		return "", err
	}
	return fmt.Sprintf("%s:%d:%d", path, line, col), nil
}

// taken refuses a second point at the same location, as V8 would.
func (us Settings) taken(at, location string) error {
	us.s.mu.Lock()
	defer us.s.mu.Unlock()
	for _, other := range us.s.breakpoints {
		if other.at == at {
			return fmt.Errorf("%w: %s is already at %s; remove it first", ErrLocationTaken, other.ref(), location)
		}
	}
	return nil
}

// removeOffline takes breakpoints and logpoints out of an ended session's list ("all": every one).
func (us Settings) removeOffline(ref string) ([]string, error) {
	us.s.mu.Lock()
	defer us.s.mu.Unlock()
	refs := []string{}
	us.s.breakpoints = slices.DeleteFunc(us.s.breakpoints, func(bp *breakpoint) bool {
		if ref == "all" || bp.ref() == ref {
			refs = append(refs, bp.ref())
			return true
		}
		return false
	})
	if len(refs) == 0 && ref != "all" {
		return nil, fmt.Errorf("%w: breakpoint %q", ErrNoRef, ref)
	}
	return refs, nil
}
