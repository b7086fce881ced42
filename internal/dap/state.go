package dap

import (
	"strconv"
	"strings"

	"traced/api"
)

// mainTarget is the ref of a session's main thread.
const mainTarget = "t0"

// state is what the adapter keeps between requests, under Server.mu.
type state struct {
	session     string // the traced session
	cwd         string // the session's cwd: relative paths in answers are relative to it
	launched    bool   // the adapter started the session (disconnect stops it)
	stopOnEntry bool
	configured  bool   // configurationDone arrived
	output      string // outputCapture: console or std
	ended       bool   // terminated was sent

	// frames and handles are the stackTrace frame ids and the variablesReference values handed
	// out, each of one thread: valid until that thread resumes (a pause or resume of another
	// thread leaves them be). Both take their ids from lastRef, so no id is ever handed out
	// twice: an old one is refused, never taken for another thread's frame or value.
	frames  map[int]frameRef
	handles map[int]handle
	lastRef int
	// steps are the targets told to step or pause, with the stopped reason their next pause takes.
	steps map[string]string

	// Breakpoints: the DAP ids of traced's refs, and per source the refs set there.
	bpIDs     map[string]int
	nextBP    int
	bySource  map[string][]string // source path -> bp/lp refs set through setBreakpoints
	funcBPs   []string
	excFilter string
	// excClasses narrow the exception filters (launch's pauseOnExceptionClasses): every mode
	// set sends them again, since a mode set without classes stops at every class.
	excClasses []string
	hitKeys    int // hit counters named so far (hitKey)
	// setting counts this client's breakpoint requests in flight; the breakpoint events that
	// arrive meanwhile wait in deferred, since a ref this client is making is not yet known.
	setting  int
	deferred []*api.BreakpointInfo
	// sourceURLs are the scripts without a local file handed out: index+1 is the sourceReference.
	sourceURLs []string
	// exceptions is the last exception event of each target, for exceptionInfo.
	exceptions map[string]*api.Event
}

func newState() state {
	return state{steps: map[string]string{}, bpIDs: map[string]int{}, bySource: map[string][]string{},
		exceptions: map[string]*api.Event{}, output: "console", frames: map[int]frameRef{}, handles: map[int]handle{}}
}

// handle is what one variablesReference expands: the variables of a scope read already, or a
// ref the props route expands.
type handle struct {
	target string
	frame  int            // the frame a scope is of
	vars   []api.Variable // a scope's variables
	ref    string         // a v or o ref
}

// frameRef is one frame handed out by stackTrace.
type frameRef struct {
	target string
	index  int // f<index>
}

// threadID is the DAP thread id of a target: t0 is 1, tN is N+1.
func threadID(target string) int {
	if target == "" {
		return 1
	}
	n, err := strconv.Atoi(strings.TrimPrefix(target, "t"))
	if err != nil {
		return 1
	}
	return n + 1
}

// targetOf is the target ref of a DAP thread id.
func targetOf(threadID int) string {
	if threadID <= 1 {
		return mainTarget
	}
	return "t" + strconv.Itoa(threadID-1)
}

// addHandle hands out a variablesReference; under mu.
func (st *state) addHandle(h handle) int {
	st.lastRef++
	st.handles[st.lastRef] = h
	return st.lastRef
}

// addFrame hands out a frame id; under mu.
func (st *state) addFrame(f frameRef) int {
	st.lastRef++
	st.frames[st.lastRef] = f
	return st.lastRef
}

// resumed forgets the frame ids and variablesReferences of one thread, which resumed (or
// paused anew, or ended): the refs behind them died with its pause. Under mu.
func (st *state) resumed(target string) {
	for id, f := range st.frames {
		if f.target == target {
			delete(st.frames, id)
		}
	}
	for id, h := range st.handles {
		if h.target == target {
			delete(st.handles, id)
		}
	}
}

// bpID is the DAP id of a breakpoint or logpoint ref, handing out one the first time; under mu.
func (st *state) bpID(ref string) int {
	if id, ok := st.bpIDs[ref]; ok {
		return id
	}
	st.nextBP++
	st.bpIDs[ref] = st.nextBP
	return st.nextBP
}
