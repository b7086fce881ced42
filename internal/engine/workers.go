package engine

import (
	"context"
	"encoding/json"
	"fmt"
	"regexp"
	"time"

	"traced/internal/cdp"
	"traced/internal/cdp/proto"
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
func (t *Target) workerDomain(method string, params json.RawMessage) {
	switch method {
	case proto.EventAttachedToWorker:
		var p attachedToWorker
		if json.Unmarshal(params, &p) == nil {
			t.attachWorker(p)
		}
	case proto.EventReceivedMessageFromWorker:
		var p workerMessage
		if json.Unmarshal(params, &p) == nil {
			if e := t.s.Tree().workerOf(p.SessionID); e != nil {
				e.worker.Receive([]byte(p.Message))
			}
		}
	case proto.EventDetachedFromWorker:
		var p struct {
			SessionID string `json:"sessionId"`
		}
		if json.Unmarshal(params, &p) == nil {
			if e := t.s.Tree().workerOf(p.SessionID); e != nil {
				t.s.Tree().endWorker(e)
			}
		}
	}
}

// workerOf finds a worker by its NodeWorker session id.
func (tr Tree) workerOf(sessionID string) *targetEntry {
	tr.s.mu.Lock()
	defer tr.s.mu.Unlock()
	return tr.s.targets.workers[sessionID]
}

// attachWorker takes a worker NodeWorker attached: it gets a target ref and a connection of
// its own, tunnelled through this one, and its set-up runs apart from the dispatcher.
func (t *Target) attachWorker(p attachedToWorker) {
	t.lock()
	e := t.s.targets.add(TargetInfo{Kind: "worker", Title: p.WorkerInfo.Title, URL: p.WorkerInfo.URL, Status: TargetAttached})
	e.sessionID, e.parent = p.SessionID, t.conn
	e.t = t.newTargetOf(e.info.Ref)
	e.worker = cdp.NewWorker(e.parent, p.SessionID, e.t.dispatcher().onEvent)
	e.t.mu.Lock() // its dispatcher may run already; the new target is no one else's yet
	e.t.conn = e.worker
	e.t.mu.Unlock()
	t.s.targets.workers[p.SessionID] = e
	t.unlock()
	follow, why := t.s.followWorkers, "workers are not followed (start option workers: false)"
	if follow && !t.s.Tree().follows(p.WorkerInfo.URL) {
		follow, why = false, "its script does not match followMatch"
	}
	go t.s.Tree().setUpWorker(e, follow, why)
}

// setUpWorker enables capture in the worker and lets it run; a worker not followed, or one that
// does not answer, is let run uncaptured and detached. Its target event is recorded before it
// runs: its first events belong to it (its span in the OTLP export).
func (tr Tree) setUpWorker(e *targetEntry, follow bool, reason string) {
	if follow {
		ctx, cancel := context.WithTimeout(context.Background(), workerSetupTimeout)
		err := e.t.setUpTarget(ctx, e.worker, true)
		cancel()
		if err == nil {
			tr.s.record(Event{Kind: KindTarget, Target: e.t.ref, TargetInfo: tr.snapshot(e)})
			if err := letRun(e.worker); err != nil { // written, it runs; else it has ended
				tr.s.log.Debug("let worker run", "session", tr.s.id, "target", e.t.ref, "err", err)
			}
			return
		}
		reason = "set-up failed: " + err.Error()
		e.t.undebugged()
	}
	// Released: it must not wait for a debugger that will not come. Each call has a deadline
	// of its own (letRun's), not what the set-up left.
	tr.s.mu.Lock()
	e.info.Status, e.info.Reason = TargetReleased, reason
	tr.s.mu.Unlock()
	tr.s.record(Event{Kind: KindTarget, Target: e.t.ref, TargetInfo: tr.snapshot(e)})
	if err := letRun(e.worker); err != nil {
		tr.s.log.Debug("let worker run", "session", tr.s.id, "target", e.t.ref, "err", err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), releaseTimeout)
	defer cancel()
	_ = proto.Do(ctx, e.parent, proto.NodeWorkerDetach{SessionID: e.sessionID}, nil)
}

// endWorker marks a worker exited (NodeWorker reports each nested worker's end itself). Its
// connection ends, and the events it had delivered are handled before the exit is recorded.
func (tr Tree) endWorker(e *targetEntry) {
	tr.s.mu.Lock()
	if e.gone {
		tr.s.mu.Unlock()
		return
	}
	e.gone = true
	released := e.info.Status == TargetReleased // detached by traced, and running on
	if !released {
		e.info.Status = TargetExited
	}
	tr.s.mu.Unlock()
	e.worker.End(fmt.Errorf("%w: worker %s has ended", ErrInspectorLost, e.t.ref))
	t := time.NewTimer(drainWait)
	select { // its dispatcher fails its calls now; a handler stuck elsewhere is not waited for
	case <-e.worker.Done():
	case <-t.C:
	}
	t.Stop()
	e.t.undebugged()
	if !released {
		tr.s.record(Event{Kind: KindTarget, Target: e.t.ref, TargetInfo: tr.snapshot(e)})
	}
}

// endWorkers marks every worker still running exited: they end with their process, which may
// not say so first.
func (tr Tree) endWorkers() {
	tr.s.mu.Lock()
	var ws []*targetEntry
	for _, e := range tr.s.targets.entries {
		if e.worker != nil {
			ws = append(ws, e)
		}
	}
	tr.s.mu.Unlock()
	for _, e := range ws {
		tr.endWorker(e)
	}
}

// followRegexp compiles a start's followMatch (checked already); "" follows everything.
func followRegexp(expr string) *regexp.Regexp {
	if expr == "" {
		return nil
	}
	return regexp.MustCompile(expr)
}

// follows says whether a worker's URL or a child's command line is to be followed.
func (tr Tree) follows(what string) bool {
	return tr.s.followMatch == nil || tr.s.followMatch.MatchString(what)
}
