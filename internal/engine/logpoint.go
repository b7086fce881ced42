package engine

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"traced/internal/cdp/proto"
	"traced/internal/engine/bpspec"
)

// DefaultLogpointMax is how many times a logpoint emits before the flood guard removes it.
const DefaultLogpointMax = 100

// logBinding is the function V8 calls, inside the program, to hand a logpoint's text to us
// (Runtime.addBinding): the logpoint never pauses and never prints to the program's console.
const logBinding = "__tracedLogpoint"

// LogpointSpec asks for a logpoint: template is a JS template literal body (`${expr}` parts are
// evaluated in the paused frame's scope).
type LogpointSpec struct {
	Location  string
	Template  string
	Condition string
	Max       int // emissions before it disables itself; 0: DefaultLogpointMax
}

// Logpoint is a logpoint as the user sees it.
type Logpoint struct {
	Ref       string // lp1...
	Location  string
	Template  string
	Condition string
	Max       int
	Emitted   int
	Disabled  bool // the flood guard removed it after Max emissions
	Resolved  []Frame
	// Warning, in the answer to setting it only, says why it may not emit where asked: top-level
	// code that already ran.
	Warning string
}

// SetLogpoint binds a logpoint: a breakpoint whose condition hands the interpolated template to
// the logBinding and answers false, so V8 never pauses for it.
func (bs Breakpoints) SetLogpoint(ctx context.Context, spec LogpointSpec) (Logpoint, error) {
	c, err := bs.t.liveClient()
	if err != nil {
		if bs.offline() {
			return bs.setLogpointOffline(spec)
		}
		return Logpoint{}, err
	}
	if err := bs.checkPoint(ctx, c, spec.Location, spec.Condition, spec.Template); err != nil {
		return Logpoint{}, err
	}
	lp, err := bs.setLogpoint(ctx, c, spec)
	if err != nil {
		return Logpoint{}, err
	}
	bs.t.spread(ctx, lp.Ref)
	bs.t.lock()
	for _, bp := range bs.t.s.breakpoints {
		if bp.log != nil && bp.log.Ref == lp.Ref {
			lp.Resolved = bs.t.s.Settings().resolvedOf(bp)
		}
	}
	bs.t.unlock()
	if ran := bs.ranAlready(ctx, lp.Ref); len(ran) > 0 {
		lp.Warning = fmt.Sprintf("%s is top-level code that already ran in %s; it emits only if that code runs again (restart runs it)",
			spec.Location, strings.Join(ran, ", "))
	}
	return lp, nil
}

// setLogpoint binds a logpoint through c (also before the program runs: start logpoints).
func (bs Breakpoints) setLogpoint(ctx context.Context, c clientCaller, spec LogpointSpec) (Logpoint, error) {
	if spec.Max <= 0 {
		spec.Max = DefaultLogpointMax
	}
	ref := bs.t.s.Settings().newRef("lp")
	bp, err := bs.bind(ctx, c, spec.Location, bpspec.LogCondition(ref, logBinding, spec.Template, spec.Condition))
	if err != nil {
		return Logpoint{}, err
	}
	bs.t.lock()
	bp.log = &Logpoint{Ref: ref, Location: spec.Location, Template: spec.Template, Condition: spec.Condition,
		Max: spec.Max, Resolved: bs.t.s.Settings().resolvedOf(bp)}
	bs.t.s.breakpoints = append(bs.t.s.breakpoints, bp)
	out := *bp.log
	bs.t.unlock()
	return out, nil
}

// Logpoints lists the session's logpoints.
func (us Settings) Logpoints() ([]Logpoint, error) {
	if err := us.s.debugOnly(); err != nil {
		return nil, err
	}
	us.s.mu.Lock()
	defer us.s.mu.Unlock()
	out := []Logpoint{}
	for _, bp := range us.s.breakpoints {
		if bp.log != nil {
			l := *bp.log
			l.Resolved = us.resolvedOf(bp)
			out = append(out, l)
		}
	}
	return out, nil
}

// onLogpoint records one emission (Runtime.bindingCalled); the Max-th disables the logpoint.
// It runs on the dispatcher: the V8 breakpoint is removed by the chores loop.
func (bs Breakpoints) onLogpoint(payload string) {
	var msg []string
	if json.Unmarshal([]byte(payload), &msg) != nil || len(msg) != 2 {
		return
	}
	bs.t.lock()
	var lp *breakpoint
	for _, bp := range bs.t.s.breakpoints {
		if bp.log != nil && bp.log.Ref == msg[0] {
			lp = bp
		}
	}
	if lp == nil || lp.log.Disabled { // removed, or emissions in flight past the guard
		bs.t.unlock()
		return
	}
	lp.log.Emitted++
	last := lp.log.Emitted >= lp.log.Max
	if last {
		lp.log.Disabled = true
		if id := bs.v8IDOf(lp); id != "" { // this target's binding; other targets' emissions are dropped
			bs.t.unbindIDs = append(bs.t.unbindIDs, id)
		}
	}
	bs.t.unlock()
	if last {
		signal(bs.t.unbind)
	}
	bs.t.record(Event{Kind: KindLogpoint, Logpoint: &LogpointInfo{Ref: msg[0], Text: CapText(msg[1], bs.t.s.stringCap), Disabled: last}})
}

// unbindPending removes the V8 breakpoints of logpoints the flood guard disabled.
func (bs Breakpoints) unbindPending(ctx context.Context, c clientCaller) {
	bs.t.mu.Lock()
	ids := bs.t.unbindIDs
	bs.t.unbindIDs = nil
	bs.t.mu.Unlock()
	for _, id := range ids {
		if err := proto.Do(ctx, c, proto.DebuggerRemoveBreakpoint{BreakpointID: id}, nil); err != nil {
			bs.t.s.log.Debug("remove disabled logpoint", "session", bs.t.s.id, "err", err)
		}
	}
}
