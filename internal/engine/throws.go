package engine

import (
	"context"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"time"

	"traced/internal/cdp/proto"
)

// Throw events. Most failures never reach Runtime.exceptionThrown: a test runner catches the
// failing assertion, a server turns a handler's throw into a 500. So V8 pauses on every exception
// (pause-on-exceptions "all"), in trace sessions too, and traced looks at each pause: a throw
// from user code, or from a library or node:assert called by user code, becomes a throw event
// with the user frame's place, stack and locals (shallow previews); then the program goes on at
// once, unless the user's own pause-on-exceptions mode asks to stop there. Node's internals
// throw and catch their own exceptions (module resolution, URL parsing): those pauses are let go
// without a look. A rate cap keeps an exception-heavy program from crawling: past it, throws are
// counted, not recorded.

// ThrowOptions configures throw events at start.
type ThrowOptions struct {
	Off       bool     // no throw events: V8 pauses only as the user's exception mode says
	PerSecond int      // throws recorded per second; past it counted (0: DefaultThrowsPerSecond)
	Classes   []string // record only these exception classes (constructor names); empty: all
	// UserCode is an RE2 over a frame's file path or URL naming user code; empty: everything
	// but node's own code and node_modules.
	UserCode string
}

// DefaultThrowsPerSecond is the rate cap of throw events when a start names none.
const DefaultThrowsPerSecond = 100

// Caps of one throw event.
const (
	maxThrowStack  = 10
	maxThrowLocals = 20
)

// ThrowInfo is an exception thrown in user code, caught or not.
type ThrowInfo struct {
	Class   string
	Message Text
	Value   string // the thrown value's preview when it is not an Error
	// Caught is V8's prediction at the throw: a handler will catch it (a test runner, a server,
	// the program's own try). An uncaught one later comes as an exception event too.
	Caught   bool
	Location *Frame     // the user frame it came from (the throw, or the call that threw)
	Thrower  *Frame     // where it was thrown, when that is a library's or node:assert
	Stack    []Frame    // innermost first, at most maxThrowStack frames
	Locals   []Variable // the user frame's, shallow; refs are not kept
	// Skipped counts the throws past the rate cap since the previous throw event.
	Skipped int
}

// recordedThrow is a throw recorded, with the index of its user frame in its stack.
type recordedThrow struct {
	info *ThrowInfo
	user int
}

// throwState is the session's throw options and rate, under mu.
type throwState struct {
	on        bool
	perSecond int
	classes   []string
	userCode  *regexp.Regexp
	window    time.Time // the second being counted
	inWindow  int
	skipped   int // since the last throw event
	// skippedTotal is every throw past the cap, in the session's summary.
	skippedTotal int
}

// newThrowState reads a start's options (checked already); none: on, with the defaults.
func newThrowState(o *ThrowOptions) throwState {
	if o == nil {
		o = &ThrowOptions{}
	}
	st := throwState{on: !o.Off, perSecond: o.PerSecond, classes: o.Classes}
	if st.perSecond <= 0 {
		st.perSecond = DefaultThrowsPerSecond
	}
	if o.UserCode != "" {
		st.userCode = regexp.MustCompile(o.UserCode)
	}
	return st
}

// checkThrowOptions refuses options that cannot work, naming the field.
func checkThrowOptions(o *ThrowOptions) error {
	if o == nil {
		return nil
	}
	if _, err := regexp.Compile(o.UserCode); err != nil {
		return fmt.Errorf("throws.userCode: %w: %v", ErrBadInput, err)
	}
	if o.PerSecond < 0 {
		return fmt.Errorf("throws.perSecond: %w: %d is negative", ErrBadInput, o.PerSecond)
	}
	return nil
}

// v8ExceptionState is the pause-on-exceptions state V8 gets for the user's mode: every
// exception while throw events are on.
func (us Settings) v8ExceptionState(mode string) string {
	us.s.mu.Lock()
	on := us.s.throws.on
	us.s.mu.Unlock()
	if on {
		return "all"
	}
	return exceptionState[mode]
}

// exceptionModeNow is the user's pause-on-exceptions mode, under mu: as last set, else the
// start's.
func (us Settings) exceptionModeNow() string {
	if us.s.exceptionMode != "" {
		return us.s.exceptionMode
	}
	return us.s.req.PauseOnExceptions
}

// userStopsAt reports, under mu, whether the user's exception mode stops at this exception.
func (us Settings) userStopsAt(p *debuggerPaused) bool {
	mode := us.exceptionModeNow()
	if classes := us.exceptionClasses(); len(classes) > 0 && (p.Data == nil || !slices.Contains(classes, p.Data.ClassName)) {
		return false
	}
	switch mode {
	case "all", "caught":
		return true
	case "uncaught":
		return p.Data != nil && p.Data.Uncaught
	}
	return false
}

// exceptionClasses are the classes the user's exception mode stops at (empty: every one), under mu.
func (us Settings) exceptionClasses() []string {
	if us.s.classesSet {
		return us.s.setClasses
	}
	return us.s.req.ExceptionClasses
}

// ownPause takes, on the dispatcher, the pauses traced makes for itself: every pause of a trace
// session, and an exception pause the user's mode does not ask for. It reports whether it took
// the pause (then it is passed off the dispatcher and never shown as a pause).
func (dp dispatcher) ownPause(p *debuggerPaused) bool {
	isThrow := p.Reason == "exception" || p.Reason == "promiseRejection"
	if dp.t.s.mode == ModeDebug && !isThrow {
		return false
	}
	var info *ThrowInfo
	user := -1
	if isThrow {
		user = dp.throwSite(p)
		info = dp.throwInfo(p, user)
	}
	uncaught := p.Data != nil && p.Data.Uncaught
	dp.t.lock()
	// A caught exception node's own code throws (and catches) is never the user's stop.
	userWants := dp.t.s.mode == ModeDebug && dp.t.s.Settings().userStopsAt(p) && (uncaught || user >= 0)
	if !userWants {
		dp.beginPass()
	}
	dp.t.unlock()
	var slot *heldEvent
	if info != nil {
		slot = dp.t.s.store.reserve() // here, on the dispatcher: the events after it wait behind it
	}
	finish := dp.passThrow(p, info, slot, !userWants) // sent here: the program goes on sooner
	go finish()
	return !userWants
}

// passThrow sends the reads of a throw's locals (info nil: none) and the resume that lets the
// pause go (resume false: none), back to back: V8 answers the reads before it runs on, and a
// recorded throw then costs the program one round trip less. It returns what waits for the
// answers and records the throw in its reserved place.
func (dp dispatcher) passThrow(p *debuggerPaused, info *ThrowInfo, slot *heldEvent, resume bool) func() {
	ctx, cancel := passContext()
	dp.t.mu.Lock()
	c := dp.t.callerOf(dp.t.caller()) // a trace session's targets are not registered: not debugged
	dp.t.mu.Unlock()
	locals := func() []Variable { return nil }
	if info != nil && c != nil {
		if i := slices.IndexFunc(p.CallFrames, func(f pausedFrame) bool { return dp.t.s.isUserURL(dp.frameURL(f)) }); i >= 0 {
			locals = dp.t.s.throwLocals(ctx, c, p.CallFrames[i])
		}
	}
	var resumed waiter
	if resume && c != nil {
		var err error
		if resumed, err = send(ctx, c, proto.DebuggerResume{}); err != nil {
			dp.t.s.log.Debug("resume past a throw", "session", dp.t.s.id, "target", dp.t.ref, "err", err)
		}
	}
	return func() {
		defer cancel()
		if info != nil { // filled even without its locals: the events behind it wait for it
			info.Locals = locals()
			dp.t.fill(slot, Event{Kind: KindThrow, Throw: info})
		}
		if resumed != nil {
			if err := resumed.Wait(ctx, nil); err != nil {
				dp.t.s.log.Debug("resume past a throw", "session", dp.t.s.id, "target", dp.t.ref, "err", err)
			}
		}
	}
}

// beginPass marks, under mu, a pause traced lets go by itself (or decides about) as passing:
// its resume is not shown, and requests' calls wait for it (afterPassing).
func (dp dispatcher) beginPass() {
	dp.t.passing, dp.t.passed = true, make(chan struct{})
}

// endPass ends passing, under mu: the pause resumed, or it turned out to be the user's.
func (dp dispatcher) endPass() {
	dp.t.passing = false
	close(dp.t.passed)
}

// passingKey marks the calls of a pause traced passes by itself: they are what ends the pause
// others wait for.
type passingKey struct{}

// passContext bounds the calls traced makes in a pause it passes by itself, marked so that they
// do not wait for that pause to end (afterPassing).
func passContext() (context.Context, context.CancelFunc) {
	return context.WithTimeout(context.WithValue(context.Background(), passingKey{}, true), callTimeout)
}

// afterPassing waits, for a request's call, until a pause traced is passing by itself has
// resumed: a call made inside it (an eval, a profile start) would run nested in a pause the
// user never saw, and the program would stand still around it.
func (dp dispatcher) afterPassing(ctx context.Context) error {
	if ctx.Value(passingKey{}) != nil {
		return nil
	}
	dp.t.mu.Lock()
	ch := dp.t.passed
	passing := dp.t.passing
	dp.t.mu.Unlock()
	if !passing {
		return nil
	}
	select {
	case <-ch:
		return nil
	case <-dp.t.s.done:
		return nil // the call itself says the program has ended
	case <-ctx.Done():
		return ctx.Err()
	}
}

// throwInfo describes an exception pause as a throw event, or nil when it is not one to record:
// not thrown by user code (or by a library or node:assert user code called), not of a class
// asked for, or past the rate cap (counted).
func (dp dispatcher) throwInfo(p *debuggerPaused, user int) *ThrowInfo {
	dp.t.lock()
	on := dp.t.s.throws.on
	dp.t.unlock()
	if !on || p.Data == nil || user < 0 {
		return nil
	}
	o := p.Data.remoteObject
	dp.t.lock()
	t := &dp.t.s.throws
	if len(t.classes) > 0 && !slices.Contains(t.classes, o.ClassName) {
		dp.t.unlock()
		return nil
	}
	now := time.Now()
	if now.Sub(t.window) >= time.Second {
		t.window, t.inWindow = now, 0
	}
	if t.inWindow >= t.perSecond {
		t.skipped++
		t.skippedTotal++
		dp.t.unlock()
		return nil
	}
	t.inWindow++
	skipped := t.skipped
	t.skipped = 0
	dp.t.unlock()

	info := &ThrowInfo{Class: o.ClassName, Caught: !p.Data.Uncaught, Skipped: skipped}
	if o.Subtype == "error" {
		_, msg := errorMessage(o.ClassName, o.Description)
		info.Message = CapText(msg, dp.t.s.stringCap)
	} else {
		text, _ := dp.t.s.preview(o, 1)
		info.Value, info.Message = text, CapText(text, dp.t.s.stringCap)
	}
	for i, f := range p.CallFrames {
		if i == maxThrowStack {
			break
		}
		info.Stack = append(info.Stack, dp.t.Inspector().pausedFrame(f))
	}
	if o.Subtype == "error" && p.AsyncStack == nil {
		info.Stack = append(info.Stack, dp.t.Inspector().asyncFramesOf(o.Description)...) // the await chain (asyncframes.go)
	}
	if user < len(info.Stack) {
		info.Location = &info.Stack[user]
	} else {
		fr := dp.t.Inspector().pausedFrame(p.CallFrames[user])
		info.Location = &fr
	}
	if user > 0 {
		info.Thrower = &info.Stack[0]
	}
	this := recordedThrow{info, user}
	dp.t.lock()
	again := rethrown(dp.t.lastThrow, this)
	if !again {
		dp.t.lastThrow = this
	}
	dp.t.unlock()
	if again {
		return nil
	}
	return info
}

// rethrown reports whether a throw is the previous one thrown again by the library it came
// from, on its way out to the same user call: jest's expect catches its matcher's error and
// throws it again (from handleError), and the one failed assertion would be two throws. The
// library frames above the user's differ; a loop throwing the same error again has them equal.
func rethrown(last, this recordedThrow) bool {
	prev, t := last.info, this.info
	if prev == nil || prev.Class != t.Class || prev.Message != t.Message || prev.Value != t.Value ||
		last.user <= 0 || this.user <= 0 || last.user >= len(prev.Stack) || this.user >= len(t.Stack) {
		return false
	}
	same := func(a, b Frame) bool { return a.URL == b.URL && a.Line == b.Line && a.Column == b.Column }
	below, was := t.Stack[this.user:], prev.Stack[last.user:]
	n := min(len(below), len(was))
	return slices.EqualFunc(below[:n], was[:n], same) && !slices.EqualFunc(t.Stack[:this.user], prev.Stack[:last.user], same)
}

// throwSite is the index of the user frame an exception pause came from: the throw's own frame
// when it is user code, or the first user frame below a library's or node:assert's; -1 when
// node's own machinery threw (it catches its own) or no user code is on the stack.
func (dp dispatcher) throwSite(p *debuggerPaused) int {
	for i, f := range p.CallFrames {
		url := dp.frameURL(f)
		if dp.t.s.isUserURL(url) {
			return i
		}
		if !libraryURL(url) {
			return -1
		}
	}
	return -1
}

// frameURL is a paused frame's script URL (node 20 leaves it empty: from scriptParsed).
func (dp dispatcher) frameURL(f pausedFrame) string {
	if f.URL != "" {
		return f.URL
	}
	dp.t.mu.Lock()
	defer dp.t.mu.Unlock()
	return dp.t.scripts[f.Location.ScriptID].URL
}

// isUserURL says whether a frame's script is user code.
func (s *Session) isUserURL(url string) bool {
	if url == "" || InternalURL(url) || s.isPreload(url) {
		return false
	}
	s.mu.Lock()
	re := s.throws.userCode
	s.mu.Unlock()
	if re != nil {
		return re.MatchString(url) || re.MatchString(fileOf(url, ""))
	}
	return !strings.Contains(url, "/node_modules/")
}

// libraryURL says whether a frame is a library's that user code calls and that throws on the
// user's behalf: a package (an assertion library, a framework) or node's assert.
func libraryURL(url string) bool {
	return strings.Contains(url, "/node_modules/") || url == "node:assert" || url == "node:assert/strict" ||
		strings.HasPrefix(url, "node:internal/assert")
}

// throwLocals sends the reads of the user frame's own scopes and returns what waits for their
// answers: its locals, shallow, without refs (the program goes on right after, so refs would be
// stale at once).
func (s *Session) throwLocals(ctx context.Context, c clientCaller, f pausedFrame) func() []Variable {
	type read struct {
		scope string
		w     waiter
	}
	var reads []read
	for _, sc := range f.scopes() {
		if sc.Type == "global" || sc.Type == "script" || sc.Type == "closure" || sc.Object.ObjectID == "" {
			continue
		}
		w, err := send(ctx, c, proto.RuntimeGetProperties{
			ObjectID: sc.Object.ObjectID, OwnProperties: true, GeneratePreview: true,
		})
		if err != nil {
			break
		}
		reads = append(reads, read{sc.Type, w})
		if sc.Type == "local" {
			break
		}
	}
	return func() []Variable {
		var out []Variable
		failed := false
		for _, r := range reads {
			var props propertiesResult
			if err := r.w.Wait(ctx, &props); err != nil || failed { // every one waited for: none stays pending
				failed = true
				continue
			}
			for _, pd := range props.Result {
				if len(out) == maxThrowLocals {
					break
				}
				if pd.Value == nil {
					continue // an accessor, or a binding not initialised yet (node 22+)
				}
				out = append(out, s.variable("", pd.Name, r.scope, *pd.Value, 1)) // no ref: no expand hint
			}
		}
		if o := f.this(); o.Type == "object" && o.Subtype != "null" && len(out) < maxThrowLocals {
			out = append(out, s.variable("", "this", "local", o, 1))
		}
		return out
	}
}

// traceSteps set up a trace session's target: its pauses are skipped, or, with throw events on,
// every exception pauses (and onPaused lets every pause go).
func (us Settings) traceSteps() []step {
	us.s.mu.Lock()
	on := us.s.throws.on
	us.s.mu.Unlock()
	if !on {
		return []step{skipPauses}
	}
	return []step{
		proto.DebuggerSetBlackboxPatterns{Patterns: []string{nodeOwnThrows}},
		proto.DebuggerSetPauseOnExceptions{State: "all"},
	}
}

// nodeOwnThrows blackboxes node's own code but its assert, while throw events are on: V8 then
// does not pause at the exceptions node throws and catches itself (module loading, URL parsing,
// setting up stdout: dozens at a start), which throw events never record (throwSite) and whose
// pauses would cost a round trip each and let a request run inside node's own code. An exception
// that goes uncaught still pauses: V8 skips it only when every frame is blackboxed.
const nodeOwnThrows = "^node:(?!(internal/)?assert)"

// unboxNode lifts nodeOwnThrows for a pause request, and returns what sets it again once the
// pause has come: V8 drops a pause asked while node's own (blackboxed) code runs.
func (dp dispatcher) unboxNode(ctx context.Context, c clientCaller) (func(), error) {
	dp.t.s.mu.Lock()
	on, user := dp.t.s.throws.on, slices.Clone(dp.t.s.blackbox)
	dp.t.s.mu.Unlock()
	if !on {
		return func() {}, nil
	}
	if user == nil {
		user = []string{}
	}
	if err := proto.Do(ctx, c, proto.DebuggerSetBlackboxPatterns{Patterns: user}, nil); err != nil {
		return nil, err
	}
	return func() {
		if err := proto.Do(context.WithoutCancel(ctx), c, proto.DebuggerSetBlackboxPatterns{
			Patterns: dp.t.s.Settings().v8Blackbox(user),
		}, nil); err != nil {
			dp.t.s.log.Debug("node's code blackboxed again after a pause", "session", dp.t.s.id, "target", dp.t.ref, "err", err)
		}
	}, nil
}

// v8Blackbox is the pattern list V8 gets for the user's: theirs, and node's own code while
// throw events are on (GET blackbox lists only theirs).
func (us Settings) v8Blackbox(user []string) []string {
	us.s.mu.Lock()
	on := us.s.throws.on
	us.s.mu.Unlock()
	if !on {
		return user
	}
	return append(slices.Clone(user), nodeOwnThrows)
}

// exceptionsFor gives V8 the exception state an execution command needs while throw events are
// on: the user's own for a step or a run-to (a throw pause traced passed by itself would resume
// the program and end the step), "all" for the rest. The user's state stays while the program
// stands paused after a step, so stepping on costs no call; widen puts "all" back once it runs.
func (dp dispatcher) exceptionsFor(ctx context.Context, c clientCaller, call proto.Command) error {
	narrow := false
	switch call.(type) {
	case proto.DebuggerStepOver, proto.DebuggerStepInto, proto.DebuggerStepOut, proto.DebuggerContinueToLocation:
		narrow = true
	}
	dp.t.lock()
	mode, on, narrowed := dp.t.s.Settings().exceptionModeNow(), dp.t.s.throws.on, dp.t.narrowed
	dp.t.unlock()
	user := exceptionState[mode]
	if !on || user == "all" || narrow == narrowed {
		return nil
	}
	state := "all"
	if narrow {
		state = user
	}
	if err := proto.Do(ctx, c, proto.DebuggerSetPauseOnExceptions{State: state}, nil); err != nil {
		return err
	}
	dp.t.lock()
	dp.t.narrowed = narrow
	dp.t.unlock()
	return nil
}

// widen gives V8 "all" back when an execution command ended with this target running (no pause
// within the wait, or the pause came in another target): its throws are recorded again.
func (dp dispatcher) widen(ctx context.Context, c clientCaller) {
	dp.t.mu.Lock()
	running := dp.t.paused == nil
	dp.t.mu.Unlock()
	if !running {
		return
	}
	if err := dp.exceptionsFor(context.WithoutCancel(ctx), c, proto.DebuggerResume{}); err != nil {
		dp.t.s.log.Debug("throw events back after a step", "session", dp.t.s.id, "target", dp.t.ref, "err", err)
	}
}
