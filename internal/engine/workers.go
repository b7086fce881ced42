package engine

import (
	"context"
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"traced/internal/cdp"
)

// Worker threads are targets of the session. NodeWorker, enabled with waitForDebuggerOnStart on
// the main target, attaches each worker as it starts, before its first line; traced enables
// capture in it and lets it run, so a worker never waits for a debugger that does not come (node
// started under --inspect-brk makes every worker wait). Messages to and from a worker travel
// inside NodeWorker.sendMessageToWorker and receivedMessageFromWorker on the main connection,
// which reports every worker of the process, nested ones too.
//
// A followed worker is a target of the session like a child process (targetsetup.go): captured,
// and in a debug session debugged, its pauses its own. Nested workers are attached on the main
// connection too: NodeWorker reports every worker of the process there.

// TargetInfo describes a target of a session: the main thread (t0), a worker thread or a child
// process.
type TargetInfo struct {
	Ref   string // t0 the main thread, then t1, t2... in attach order
	Kind  string // main, worker or process
	Title string // what node calls it, e.g. "[worker 1] app.js"
	URL   string // the worker's script
	PID   int    // a child process's
	// Status is attached (captured), released (let run uncaptured) or exited.
	Status string
	Reason string // why a target was released
}

// Target statuses.
const (
	TargetAttached = "attached"
	TargetReleased = "released"
	TargetExited   = "exited"
)

// workerSetupTimeout bounds the set-up of one worker; a worker that does not answer is released.
const workerSetupTimeout = 5 * time.Second

// workerTarget is one worker thread's inspector session, reached through the main connection.
type workerTarget struct {
	s         *Session // the main thread's
	t         *Session // the worker's own
	info      TargetInfo
	sessionID string       // NodeWorker's id of it, on the main connection
	parent    clientCaller // the main connection

	mu      sync.Mutex
	nextID  int64
	pending map[int64]chan workerReply
	gone    bool
}

type workerReply struct {
	result json.RawMessage
	err    error
}

// Call sends a CDP command to the worker and waits for its reply.
func (w *workerTarget) Call(ctx context.Context, method string, params, result any) error {
	p, err := w.Send(ctx, method, params)
	if err != nil {
		return err
	}
	return p.Wait(ctx, result)
}

// workerCall is a command sent to a worker, not answered yet.
type workerCall struct {
	w      *workerTarget
	id     int64
	method string
	ch     chan workerReply
}

// Send sends a CDP command to the worker and returns once the main thread has taken it: commands
// sent one after another reach the worker in that order.
func (w *workerTarget) Send(ctx context.Context, method string, params any) (waiter, error) {
	w.mu.Lock()
	if w.gone {
		w.mu.Unlock()
		return nil, fmt.Errorf("%w: worker %s has ended", ErrInspectorLost, w.info.Ref)
	}
	w.nextID++
	p := &workerCall{w: w, id: w.nextID, method: method, ch: make(chan workerReply, 1)}
	w.pending[p.id] = p.ch
	w.mu.Unlock()
	msg, err := json.Marshal(map[string]any{"id": p.id, "method": method, "params": params})
	if err == nil {
		err = w.parent.Call(ctx, "NodeWorker.sendMessageToWorker", map[string]any{"sessionId": w.sessionID, "message": string(msg)}, nil)
	}
	if err != nil {
		p.forget()
		return nil, fmt.Errorf("%s in worker %s: %w", method, w.info.Ref, err)
	}
	return p, nil
}

// Wait waits for the worker's reply and decodes its result into result (which may be nil).
func (p *workerCall) Wait(ctx context.Context, result any) error {
	defer p.forget()
	select {
	case r := <-p.ch:
		if r.err != nil {
			return fmt.Errorf("%s in worker %s: %w", p.method, p.w.info.Ref, r.err)
		}
		if result != nil && len(r.result) > 0 {
			return cdp.Decode(r.result, result)
		}
		return nil
	case <-ctx.Done():
		return fmt.Errorf("%s in worker %s: %w", p.method, p.w.info.Ref, ctx.Err())
	}
}

func (p *workerCall) forget() {
	p.w.mu.Lock()
	delete(p.w.pending, p.id)
	p.w.mu.Unlock()
}

type attachedToWorker struct {
	SessionID  string `json:"sessionId"`
	WorkerInfo struct {
		WorkerID string `json:"workerId"`
		Type     string `json:"type"`
		Title    string `json:"title"`
		URL      string `json:"url"`
	} `json:"workerInfo"`
	WaitingForDebugger bool `json:"waitingForDebugger"`
}

type workerMessage struct {
	SessionID string `json:"sessionId"`
	Message   string `json:"message"`
}

// workerDomain handles the NodeWorker events of the main connection.
func (s *Session) workerDomain(method string, params json.RawMessage) {
	switch method {
	case "NodeWorker.attachedToWorker":
		var p attachedToWorker
		if json.Unmarshal(params, &p) == nil {
			s.attachWorker(p)
		}
	case "NodeWorker.receivedMessageFromWorker":
		var p workerMessage
		if json.Unmarshal(params, &p) == nil {
			if w := s.workerOf(p.SessionID); w != nil {
				w.receive([]byte(p.Message))
			}
		}
	case "NodeWorker.detachedFromWorker":
		var p struct {
			SessionID string `json:"sessionId"`
		}
		if json.Unmarshal(params, &p) == nil {
			if w := s.workerOf(p.SessionID); w != nil {
				w.end()
			}
		}
	}
}

// workerOf finds a worker by its NodeWorker session id.
func (s *Session) workerOf(sessionID string) *workerTarget {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.workers[sessionID]
}

// attachWorker takes a worker NodeWorker attached: it gets a target ref, and its set-up runs
// apart from the dispatcher (its replies come through the dispatcher).
func (s *Session) attachWorker(p attachedToWorker) {
	w := &workerTarget{s: s, sessionID: p.SessionID, pending: map[int64]chan workerReply{}}
	w.info = TargetInfo{Kind: "worker", Title: p.WorkerInfo.Title, URL: p.WorkerInfo.URL, Status: TargetAttached}
	s.mu.Lock()
	s.nextTarget++
	w.info.Ref = "t" + strconv.Itoa(s.nextTarget)
	w.parent = s.callerOf(s.client)
	w.t = s.newTargetOf(w.info.Ref)
	w.t.worker = w
	s.workers[p.SessionID] = w
	s.targets = append(s.targets, w)
	s.mu.Unlock()
	follow, why := s.followWorkers, "workers are not followed (start option workers: false)"
	if follow && !s.follows(p.WorkerInfo.URL) {
		follow, why = false, "its script does not match followMatch"
	}
	go w.setUp(follow, why)
}

// setUp enables capture in the worker and lets it run; a worker not followed, or one that does
// not answer, is let run uncaptured and detached.
func (w *workerTarget) setUp(follow bool, reason string) {
	ctx, cancel := context.WithTimeout(context.Background(), workerSetupTimeout)
	defer cancel()
	if follow {
		err := w.t.setUpTarget(ctx, w, true)
		if err == nil {
			w.s.record(Event{Kind: KindTarget, Target: w.info.Ref, TargetInfo: w.snapshot()})
			return
		}
		reason = "set-up failed: " + err.Error()
		w.t.undebugged()
	}
	// Released: it must not wait for a debugger that will not come.
	w.mu.Lock()
	w.info.Status, w.info.Reason = TargetReleased, reason
	w.mu.Unlock()
	w.s.record(Event{Kind: KindTarget, Target: w.info.Ref, TargetInfo: w.snapshot()})
	_ = w.Call(ctx, "Runtime.runIfWaitingForDebugger", nil, nil)
	_ = w.parent.Call(ctx, "NodeWorker.detach", map[string]any{"sessionId": w.sessionID}, nil)
}

func (w *workerTarget) snapshot() *TargetInfo {
	w.mu.Lock()
	defer w.mu.Unlock()
	info := w.info
	return &info
}

// receive handles one message from the worker: a reply to a Call, or an event.
func (w *workerTarget) receive(raw []byte) {
	m, err := cdp.ParseMessage(raw)
	if err != nil {
		return
	}
	if m.Method == "" {
		w.mu.Lock()
		ch := w.pending[m.ID]
		delete(w.pending, m.ID) // answered: a caller that stopped waiting leaves nothing behind
		w.mu.Unlock()
		if ch != nil {
			r := workerReply{result: m.Result}
			if m.Error != nil {
				r.err = m.Error
			}
			select { // the dispatcher never waits: an ended worker may have filled it
			case ch <- r:
			default:
			}
		}
		return
	}
	w.t.onEvent(cdp.Event{Method: m.Method, Params: m.Params})
}

// end marks the worker exited (NodeWorker reports each nested worker's end itself).
func (w *workerTarget) end() {
	w.mu.Lock()
	if w.gone {
		w.mu.Unlock()
		return
	}
	w.gone = true
	released := w.info.Status == TargetReleased // detached by traced, and running on
	if !released {
		w.info.Status = TargetExited
	}
	for id, ch := range w.pending {
		select { // a late reply may fill it already; its caller is leaving
		case ch <- workerReply{err: fmt.Errorf("%w: the worker ended", ErrInspectorLost)}:
		default:
		}
		delete(w.pending, id)
	}
	w.mu.Unlock()
	w.t.undebugged()
	if !released {
		w.s.record(Event{Kind: KindTarget, Target: w.info.Ref, TargetInfo: w.snapshot()})
	}
}

// Targets lists the session's targets: the main thread, then its workers in attach order.
func (s *Session) Targets() []TargetInfo {
	s.mu.Lock()
	ws := append([]*workerTarget(nil), s.targets...)
	status := TargetAttached
	if s.endedAt != nil {
		status = TargetExited
	}
	s.mu.Unlock()
	out := []TargetInfo{{Ref: "t0", Kind: "main", Title: s.target, Status: status}}
	for _, w := range ws {
		out = append(out, *w.snapshot())
	}
	s.mu.Lock()
	for _, p := range s.processes {
		out = append(out, *p)
	}
	s.mu.Unlock()
	slices.SortFunc(out[1:], func(a, b TargetInfo) int { return targetNumber(a.Ref) - targetNumber(b.Ref) })
	return out
}

// endWorkers marks every worker still running exited: they end with their process, which may
// not say so first.
func (s *Session) endWorkers() {
	s.mu.Lock()
	ws := append([]*workerTarget(nil), s.targets...)
	s.mu.Unlock()
	for _, w := range ws {
		w.end()
	}
}

func targetNumber(ref string) int { n, _ := strconv.Atoi(strings.TrimPrefix(ref, "t")); return n }

// followRegexp compiles a start's followMatch (checked already); "" follows everything.
func followRegexp(expr string) *regexp.Regexp {
	if expr == "" {
		return nil
	}
	return regexp.MustCompile(expr)
}

// follows says whether a worker's URL or a child's command line is to be followed.
func (s *Session) follows(what string) bool {
	return s.followMatch == nil || s.followMatch.MatchString(what)
}
