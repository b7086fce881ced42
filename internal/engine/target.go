package engine

import (
	"sync"

	"traced/internal/cdp"
)

// Target is one inspector connection of a session: the main thread (t0), a worker thread or a
// child process. It holds what is per connection (the scripts, the contexts, the sources, the
// maps in use, the pause, the refs, the heap, the V8 ids of breakpoints bound in it); its Session
// what the whole session shares. The debugger routes reach a target through Session.On.
//
// Goroutines per target: the CDP reader and dispatcher (package cdp), and a chores loop that
// makes CDP calls the dispatcher must not wait for. All end when the connection has ended.
//
// Locks: a target's fields are guarded by its own mutex (Target.mu). The order is Session.mu,
// then one Target.mu (never Session.mu while holding a target's, never two targets' at once
// but a new worker's, which no one else reaches yet, inside its parent's: attachWorker),
// then the store's, the source maps', the heap's and the jobs' own. A path that needs only its
// target's fields takes Target.mu alone (the dispatcher's scripts, contexts and sources); one
// that needs the session's too takes both (lock). The fields session-wide readers look at in
// every target under Session.mu alone (paused, pausedAt, bindings, conn: the status, the target
// that paused last, the resolved locations, the main connection at the end) are written with
// both locks held.
type Target struct {
	s   *Session // the session it belongs to; never embedded, so method sets stay apart
	ref string   // t0 the main thread, t1, t2... a worker or a child process
	mu  sync.Mutex
	// pausedAt orders the targets' pauses (Session.pauses at this one's), so that a call naming
	// no target acts on the one that paused last. Written under both locks.
	pausedAt int

	// Under mu. conn is set once, with both locks held (Session.finish reads the main one's
	// under Session.mu).
	conn        cdp.Conn // its inspector connection; nil until attached
	mainContext int
	scripts     map[string]ScriptInfo // scriptId -> what scriptParsed said of it
	syntax      syntaxState           // a syntax error's file and line (syntaxsite.go)
	maps        *sessionMaps          // source maps by script, loaded on first use (own lock)

	startPause chan struct{}            // closed at node's first-line break (debug sessions)
	startSeen  bool                     // that break was seen
	paused     *debuggerPaused          // the current pause; nil while running (written under both locks)
	nextPause  chan struct{}            // closed at the next pause (or the end), then replaced
	evalValues bool                     // evals made values (evalGroup) not released yet
	refs       refTable                 // v and o refs
	bindings   map[*breakpoint]*binding // the session's breakpoints as bound here (bindings.go; written under both locks)
	contexts   map[int]ContextInfo      // live execution contexts
	heap       *heapState               // heap snapshots, made on first use (heap.go)
	unbindIDs  []string                 // V8 breakpoints the chores loop is to remove
	sources    map[string][]string      // scriptId -> lines, fetched on first view
	onLoadID   string                   // the V8 id of the break-on-script-load instrumentation breakpoint
	gateID     string                   // the source map gate breakpoint (mapbind.go); "" when unset
	gatePause  *debuggerPaused          // a pause at the gate the chores loop is to pass
	stepping   bool                     // a step of the user's is under way: a gate pause is theirs
	pausing    bool                     // a user's Debugger.pause is under way: its pause says so
	runningTo  bool                     // a run-to (Debugger.continueToLocation) is under way
	narrowed   bool                     // V8 has the user's exception state, not "all" (throws.go)
	prefetch   *prefetch                // the current pause's scopes, read as it came (prefetch.go)
	// Block coverage on since launch, until the first resume or a user's coverage start
	// (coverlaunch.go); a function-level start that took it over cuts takes down to functions.
	launchCoverage     bool
	coverFunctionsOnly bool
	leaving            chan struct{} // closed once V8 has left the pause a call left (leaving.go)

	gating  bool          // a worker's or child's gate is served (targetmaps.go)
	passing bool          // a pause traced lets go by itself is being passed (throws.go)
	passed  chan struct{} // closed when that pause has resumed: requests' calls wait for it
	// stoppedUncaught: the user saw an uncaught exception stop in this target (fatal.go).
	stoppedUncaught bool
	// lastThrow is the last throw recorded in this target: its rethrow by a caller is not
	// another one (throws.go).
	lastThrow   recordedThrow
	ended       chan struct{} // closed when a worker or child is no longer debugged
	consoleSeen int           // dispatcher only
	// Requests to the chores loop, one channel each (buffer 1, sends never block) so that a
	// pending discard can never crowd out the detach a finished program waits for.
	discard chan struct{} // Runtime.discardConsoleEntries
	unbind  chan struct{} // remove the V8 breakpoints in unbindIDs (logpoints past their max)
	gate    chan struct{} // pass the pause at the source map gate (gatePause)
}

// newTarget makes a session's value for one of its targets, with the per-connection state
// empty; the caller sets its connection and registers it (debugged).
func newTarget(tr *Session, ref string, maps *sessionMaps) *Target {
	return &Target{
		s:          tr,
		ref:        ref,
		maps:       maps,
		scripts:    make(map[string]ScriptInfo),
		sources:    make(map[string][]string),
		contexts:   make(map[int]ContextInfo),
		bindings:   make(map[*breakpoint]*binding),
		startPause: make(chan struct{}),
		nextPause:  make(chan struct{}),
		discard:    make(chan struct{}, 1),
		unbind:     make(chan struct{}, 1),
		gate:       make(chan struct{}, 1),
		ended:      make(chan struct{}),
	}
}

// newTargetOf makes the value of a worker or child process of the session, its source maps
// read as the main thread's are.
func (t *Target) newTargetOf(ref string) *Target {
	return newTarget(t.s, ref, &sessionMaps{byScript: make(map[string]*scriptMap), off: !t.maps.enabled(), load: t.maps.load})
}

// lock takes the session's lock, then the target's: what a path needs that reads or writes
// both, or writes a field session-wide readers read (paused, pausedAt, bindings).
func (t *Target) lock() { t.s.mu.Lock(); t.mu.Lock() }

// unlock lets go of both locks lock took.
func (t *Target) unlock() { t.mu.Unlock(); t.s.mu.Unlock() }

// main reports whether the value is the main thread's (t0).
func (t *Target) main() bool { return t.ref == "t0" || t.ref == "" }

// caller is the target's inspector connection as clientCaller, under mu; nil before it is
// attached (a nil cdp.Conn must not become a non-nil interface value).
func (t *Target) caller() clientCaller {
	if t.conn == nil {
		return nil
	}
	return t.conn
}

// Session is the session the target belongs to.
func (t *Target) Session() *Session { return t.s }

// Ref is the target's ref: t0 the main thread, t1, t2... a worker or a child process.
func (t *Target) Ref() string {
	if t.ref == "" {
		return "t0"
	}
	return t.ref
}

// Main is the session's main thread (t0).
func (s *Session) Main() *Target { return s.main }
