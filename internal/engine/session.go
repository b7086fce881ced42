package engine

import (
	"context"
	"log/slog"
	"regexp"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"traced/internal/cdp"
	"traced/internal/cdp/proto"
	"traced/internal/engine/launch"
)

// Publisher receives what sessions capture, for live fan-out. Both methods MUST NOT block: they
// run on the capture path (PublishEvent under the store's lock, so calls arrive in seq order).
type Publisher interface {
	PublishEvent(session string, ev Event)
	PublishStatus(s Summary)
}

// callTimeout bounds one CDP call the engine makes on its own behalf.
const callTimeout = 5 * time.Second

// Session is one program the user runs or attached to, and what every target of it shares: the
// life cycle, the process tree and its launcher, the event store, the settings the user asked
// for (breakpoints and logpoints, exception mode, blackbox, async depth, hooks, throw options)
// and the targets. The Manager hands out *Session.
//
// Goroutines per session: the spawner (owns the child's OS thread and Wait; with a shim, the
// shim's, and a follower of its status pipe), two output readers, a supervisor that records the
// exit (finish) and a watcher of whether the program can answer (unresponsive.go); all end when
// the child has exited, but the shim's waiter, which ends with the shim.
type Session struct {
	id, name  string
	program   string // the script the user runs
	args      []string
	cwd       atomic.Pointer[string] // the program's directory; an attached one's is learnt after connecting (dir)
	stringCap int
	log       *slog.Logger
	pub       Publisher

	store     *store
	redaction redaction // secrets hidden in events and answers (redaction.go)
	main      *Target   // t0, the main thread; set once at the start

	mu        sync.Mutex    // guards the fields below, and every target's
	targets   registry      // the workers and child processes, the ones debugged (registry.go)
	pauses    int           // pauses so far, in every target
	anyPause  chan struct{} // closed at the next pause of any target, then replaced
	status    Status
	stopped   bool   // a stop was asked: the exit keeps status stopped
	stoppedBy string // the signal that ended a stopped program: SIGTERM, or SIGKILL after the grace
	// stillRunning is what kept the program running when its timeoutMs stopped it (StillRunning).
	stillRunning string
	reason       string
	// unresponsive says why the program cannot answer while it runs (unresponsive.go): "stopped"
	// (SIGSTOP, a tracer) or "not_answering" (its inspector does not answer); "" when it can.
	unresponsive string
	exit         *ExitInfo
	startedAt    time.Time
	endedAt      *time.Time
	child        *launch.Child
	ws           Workspace // where source files and map files may be read from

	// Debugger state (debug sessions), under mu.
	mode         string
	pauseOnStart bool
	asyncDepth   int           // async parents V8 records (POST async-depth); 0: off
	heapLimits   heapLimits    // where heap files go and how many bytes they may take
	jobs         *jobTable     // long operations, made on first use (jobs.go)
	breakpoints  []*breakpoint // in creation order
	nextBP       int           // the last bp ref number given
	blackbox     []string      // URL patterns stepping skips, as last sent to V8
	hooks        []*Hook       // bindings the program calls to emit hook events

	// Worker threads (workers.go) and child processes (children.go): whether they are
	// followed, the inspectors already taken (the main one too), the FIFO children announce
	// themselves on.
	followWorkers bool
	preloadURL    string                 // traced's preload script (preload.go), shown as node's own
	bootDir       atomic.Pointer[string] // the preload's directory: its scripts' frames are node's own (read without mu)
	inspectorURLs map[string]bool
	// mainURLRead is closed once the launcher has read the main inspector's URL from stderr,
	// or stderr ended: under node 20's --test that URL is the test file's own (the runner opens
	// none, its child's preload does), and the child's announcement must not attach it again.
	mainURLRead    chan struct{}
	announce       announcements
	followChildren bool
	followMatch    *regexp.Regexp // nil: every worker and child is followed

	discardEvery int           // console events between two discards
	detach       chan struct{} // the program finished: close the inspector so node can exit
	lost         bool          // the inspector connection ended without a detach: the session fails
	// callBound bounds an inspector call made for a request with no bound of its own (deadline.go).
	callBound time.Duration
	done      chan struct{} // closed once the exit is recorded and every goroutine is ending

	// exitHold, under mu, is set while a slow diagnosis waits for the program's end: the main
	// thread's end is sent on it instead of detaching, and the diagnosis detaches once it has
	// read the profiles (slow.go).
	exitHold chan struct{}
	// attached is set, under mu, for a session on a process traced did not spawn (attach.go):
	// it has no child, and a stop detaches instead of killing.
	attached *attachment

	throws throwState // throw events: their options and rate (throws.go)

	// Restarts (relaunch.go): the request it was started with, the exception mode set since,
	// and the sessions it replaced and was replaced by; under mu.
	req           StartRequest
	exceptionMode string
	restartOf     string
	restartedAs   string
	// setClasses are the exception classes the mode stops at, set since start (classesSet: to
	// none perhaps); until then the start's.
	setClasses []string
	classesSet bool
}

// dir is the program's working directory.
func (s *Session) dir() string { return *s.cwd.Load() }

// ID is the session's id.
func (s *Session) ID() string { return s.id }

// Done is closed when the session has finished.
func (s *Session) Done() <-chan struct{} { return s.done }

// Summary reports the session's state now.
func (s *Session) Summary() Summary {
	counts, retained, dropped, last := s.store.stats()
	s.mu.Lock()
	defer s.mu.Unlock()
	sum := Summary{
		ID: s.id, Name: s.name, Mode: s.mode, Status: s.statusNow(), Target: s.program, Args: s.args, NodeArgs: s.req.NodeArgs, Cwd: s.dir(),
		Error: s.reason, InspectorLost: s.lost && s.endedAt == nil, Counts: counts, Events: retained, Dropped: dropped, LastSeq: last,
		MaxEvents: s.store.max, StartedAt: s.startedAt, EndedAt: s.endedAt,
		RestartOf: s.restartOf, RestartedAs: s.restartedAs, ThrowsSkipped: s.throws.skippedTotal, Redacted: s.Redacted(),
		StoppedBy: s.stoppedBy, StillRunning: s.stillRunning,
	}
	if s.endedAt == nil {
		sum.Unresponsive = s.unresponsive
	}
	if s.child != nil {
		sum.PID = s.child.PID()
	} else if s.attached != nil {
		sum.PID = s.attached.pid
	}
	if s.exit != nil {
		sum.ExitCode, sum.Signal = s.exit.Code, s.exit.Signal
	}
	return sum
}

// Events returns up to limit events after the cursor (limit <= 0: all retained).
func (tl Timeline) Events(after uint64, f Filter, limit int) Page {
	return tl.s.store.page(after, f, limit)
}

// Settle waits (until ctx ends) for the events still being made when it is called, such as a
// throw whose locals are being read: a reader that saw what the program did after it sees it too.
func (tl Timeline) Settle(ctx context.Context) { tl.s.store.settle(ctx) }

// Snapshot returns every retained event, oldest first, after waiting (until ctx ends) for the
// events still being made when it is called, such as a throw whose locals are being read.
func (tl Timeline) Snapshot(ctx context.Context) []Event { return tl.s.store.snapshot(ctx) }

// Wait returns the first event after the cursor matching kinds, waiting until one is captured,
// the session finishes (then the page is empty) or ctx ends (then ctx's error is returned).
func (tl Timeline) Wait(ctx context.Context, after uint64, f Filter) (Page, error) {
	var gap *Gap // what was evicted after the caller's cursor, reported whatever the outcome
	for {
		p, changed := tl.s.store.next(after, f)
		if gap == nil {
			gap = p.Gap
		}
		p.Gap = gap
		if len(p.Events) > 0 {
			return p, nil
		}
		after = p.Next // skip what did not match
		select {
		case <-changed:
		case <-tl.s.done:
			return tl.last(after, f, gap), nil
		case <-ctx.Done():
			if tl.s.exitRecorded() { // a finished session answers "finished" even to an expired wait
				return tl.last(after, f, gap), nil
			}
			return p, ctx.Err()
		}
	}
}

// exitRecorded says whether the exit event is stored: the session has finished, though done
// closes a moment later.
func (s *Session) exitRecorded() bool {
	select {
	case <-s.done:
		return true
	default:
	}
	return s.store.count(KindExit) > 0
}

// last is the final page of a finished session after the cursor, with the caller's gap.
func (tl Timeline) last(after uint64, f Filter, gap *Gap) Page {
	p, _ := tl.s.store.next(after, f)
	p.Gap = gap
	return p
}

// statusNow is the status every answer and stream message gives, under mu. The life cycle
// (s.status) says running; whether a running program stands paused is s.paused, so one change
// under the lock moves both, and no reader sees a pause with a running status or the reverse.
func (s *Session) statusNow() Status {
	if s.status == StatusRunning && s.Tree().anyPaused() {
		return StatusPaused
	}
	return s.status
}

func (s *Session) setStatus(st Status) {
	s.mu.Lock()
	if s.status.Finished() || s.status == st {
		s.mu.Unlock()
		return
	}
	s.status = st
	s.mu.Unlock()
	s.pub.PublishStatus(s.Summary())
}

// record stores an event of the session or of its main thread.
func (s *Session) record(ev Event) { s.store.append(ev) }

// record stores an event, marked with the target it comes from unless that is the main thread.
func (t *Target) record(ev Event) {
	t.s.store.append(t.targeted(ev))
}

// fill records ev in the place reserve kept for it.
func (t *Target) fill(h *heldEvent, ev Event) {
	t.s.store.fill(h, t.targeted(ev))
}

// targeted names the target an event comes from, but the main thread's.
func (t *Target) targeted(ev Event) Event {
	if ev.Target == "" && !t.main() {
		ev.Target = t.ref
	}
	return ev
}

func (s *Session) output(kind Kind, line string) {
	// Node's test runner passes a child's stderr on as TAP comments on stdout ("# Debugger
	// listening on ws://..."): the inspector's lines are dropped from both streams, a URL
	// anywhere else is masked (it runs code), and a child's inspector waiting for a debugger is
	// followed (under --test: node 24+ hands each test file the runner's own inspector flags,
	// before any preload runs) or let run.
	if bare := tapComment(line); inspectorChatter(bare) {
		if u := ParseInspectorURL(bare); u != "" {
			switch {
			case runsTests(s.req.NodeArgs):
				s.main.adopt(announcement{URL: u, brk: true}, true)
			case !s.Tree().announced():
				s.main.releaseInspector(u)
			default: // announced on the FIFO, or one that opened its own (NODE_OPTIONS replaced)
				s.main.releaseUnannounced(u)
			}
		}
		return
	}
	line = maskInspectorURLs(stripANSI(line))
	s.record(Event{Kind: kind, Output: &OutputInfo{Text: CapText(line, s.stringCap)}})
	if kind == KindStderr {
		if info := s.main.dispatcher().syntaxOutput(line); info != nil {
			s.record(Event{Kind: KindException, Exception: info})
		}
	}
}

// signal asks the chores loop for work without blocking; a request already queued is enough.
func signal(c chan struct{}) {
	select {
	case c <- struct{}{}:
	default:
	}
}

// discardEntries asks V8 to drop the console messages it keeps for a late client: traced has
// recorded them, and V8 would otherwise hold every logged object alive.
func (s *Session) discardEntries(client *cdp.Client) {
	ctx, cancel := context.WithTimeout(context.Background(), callTimeout)
	defer cancel()
	if err := proto.Do(ctx, client, proto.RuntimeDiscardConsoleEntries{}, nil); err != nil {
		s.log.Debug("discard console entries", "session", s.id, "err", err)
	}
}

// choresLoop makes CDP calls on behalf of the dispatcher until the session is done, and notices
// an inspector connection that ends on its own.
func (t *Target) choresLoop(client *cdp.Client) {
	detached := false
	lost := client.Done()
	for {
		select {
		case <-t.s.done:
			return
		case <-t.discard:
			t.s.discardEntries(client)
		case <-t.s.detach:
			detached = true
			client.Close()
		case <-t.gate:
			ctx, cancel := context.WithTimeout(context.Background(), callTimeout)
			t.SourceMapping().passGate(ctx, client)
			cancel()
		case <-t.unbind:
			ctx, cancel := context.WithTimeout(context.Background(), callTimeout)
			t.Breakpoints().unbindPending(ctx, client)
			cancel()
		case <-lost:
			lost = nil // closed: stop selecting on it
			if detached || t.s.childExits(drainWait) {
				continue // the usual end: the socket closes with the process
			}
			t.lock()
			announce := t.s.endedAt == nil && !t.s.stopped
			if announce {
				// Not our doing and the child still runs: capture is blind from here on.
				t.s.lost = true
				if t.s.reason == "" {
					t.s.reason = "inspector connection lost: " + errText(client.Err())
				}
			}
			t.unlock()
			if announce {
				t.s.pub.PublishStatus(t.s.Summary())
			}
		}
	}
}

// childExits reports whether the child exits within d.
func (s *Session) childExits(d time.Duration) bool {
	s.mu.Lock()
	c := s.child
	s.mu.Unlock()
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-c.Exited():
		return true
	case <-t.C:
		return false
	}
}

func errText(err error) string {
	if err == nil {
		return "closed"
	}
	return err.Error()
}

// finish records the exit once the child has exited and the inspector has delivered what it had.
func (s *Session) finish(c *launch.Child) {
	exit := exitInfo(c.Wait(drainWait)) // readers end at EOF, or are cut off after drainWait

	s.mu.Lock()
	client := s.main.conn
	s.mu.Unlock()
	if client != nil {
		client.Close()
		select { // the socket is gone with the process; this only lets queued events land first
		case <-client.Done():
		case <-time.After(drainWait):
		}
	}
	if info := s.main.dispatcher().releaseSyntax(); info != nil {
		s.record(Event{Kind: KindException, Exception: info})
	}
	s.Tree().endWorkers()
	// Before the exit event, so that it stays the last: no child is taken on after the end,
	// and every child's connection hangs up (none outlives the session; one still running runs
	// on untraced).
	s.Tree().closeAnnouncements()
	s.Tree().endChildren()
	// The final state is set before the exit event is stored, so whoever sees that event (a
	// wait, a subscriber) reads a finished summary.
	now := time.Now().UTC()
	s.mu.Lock()
	s.exit = &exit
	s.endedAt = &now
	switch {
	case s.stopped:
		s.status = StatusStopped
	case s.lost:
		s.status = StatusFailed
	case s.status != StatusFailed:
		s.status = StatusExited
	}
	s.mu.Unlock()
	s.record(Event{Kind: KindExit, Exit: &exit})
	close(s.done)
	s.pub.PublishStatus(s.Summary())
}

// kill ends the child's process group; reason is kept for a failed session.
func (s *Session) kill(status Status, reason string) {
	s.mu.Lock()
	if s.endedAt != nil {
		s.mu.Unlock()
		return
	}
	if status == StatusStopped {
		s.stopped = true
	} else {
		s.status = status
	}
	if reason != "" && s.reason == "" {
		s.reason = reason
	}
	c := s.child
	attached := s.attached != nil
	s.mu.Unlock()
	if c != nil {
		c.Kill()
	}
	if attached {
		signal(s.detach) // the process is not ours to kill: attachLoop hangs up instead
	}
}

// errorMessage finds "Class: message" (or node's "Class [CODE]: message") in an Error's
// description (its stack). Usually the first line; a SyntaxError from the loader puts
// "file:line" and a source excerpt before it. The message runs on to the stack's first frame:
// an assertion's says what differed on the lines after the first.
func errorMessage(class, desc string) (value, message string) {
	lines := strings.Split(desc, "\n")
	for i, l := range lines {
		if strings.HasPrefix(l, "    at ") {
			break
		}
		rest, ok := strings.CutPrefix(l, class)
		if class == "" || !ok {
			continue
		}
		if code, after, found := strings.Cut(rest, "]: "); found && strings.HasPrefix(code, " [") && !strings.ContainsAny(code[2:], " :") {
			rest = ": " + after
		}
		msg, ok := strings.CutPrefix(rest, ": ")
		if !ok {
			continue
		}
		j := i + 1
		for j < len(lines) && !strings.HasPrefix(lines[j], "    at ") {
			j++
		}
		more := strings.TrimRight(strings.Join(lines[i+1:j], "\n"), "\n ")
		if more != "" {
			msg += "\n" + more
		}
		return l, msg
	}
	return lines[0], lines[0]
}
