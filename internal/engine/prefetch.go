package engine

import (
	"context"
	"time"

	"traced/internal/cdp/proto"
)

// prefetch is the reading of a pause's top frame's scopes, sent when the pause comes: whoever
// asks for the state next (the step or continue that waited for the pause, a GET state after a
// breakpoint's event) finds the answers on their way or arrived, not one round trip away.
type prefetch struct {
	p     *debuggerPaused
	ready chan struct{}     // closed once the reads are sent (or not: reads stays empty)
	reads map[string]waiter // by scope object id; each taken once, under mu
	chain waiter            // the top frame's await chain (stackProbe), when the pause needs it; taken once
}

// beginPrefetch marks, under mu, a user's pause whose scopes the dispatcher reads next.
func (in Inspector) beginPrefetch(p *debuggerPaused) *prefetch {
	if in.t.conn == nil || in.t.s.mode != ModeDebug || len(p.CallFrames) == 0 {
		in.t.prefetch = nil
		return nil
	}
	in.t.prefetch = &prefetch{p: p, ready: make(chan struct{})}
	return in.t.prefetch
}

// sendPrefetch sends the reads of the scopes a state shows by default (frame 0, previews on),
// outside mu, on the dispatcher.
func (in Inspector) sendPrefetch(pf *prefetch) {
	if pf == nil {
		return
	}
	defer close(pf.ready)
	in.t.mu.Lock()
	c := in.t.conn
	in.t.mu.Unlock()
	ctx, cancel := context.WithTimeout(context.Background(), callTimeout)
	defer cancel()
	scopes := pf.p.CallFrames[0].scopes()
	reads := map[string]waiter{}
	for _, i := range scopesToRead(scopes, false) {
		id := scopes[i].Object.ObjectID
		w, err := send(ctx, c, proto.RuntimeGetProperties{ObjectID: id, OwnProperties: true, GeneratePreview: true})
		if err != nil {
			break // the reader asks again, and gets the error itself
		}
		reads[id] = w
	}
	var chain waiter
	if needsChainProbe(pf.p) { // with the scopes: the state's stack costs no round trip of its own
		chain, _ = send(ctx, c, chainProbe(pf.p))
	}
	in.t.mu.Lock()
	pf.reads, pf.chain = reads, chain
	in.t.mu.Unlock()
}

// prefetchedChain takes the await chain probe sent with the prefetch of p, or nil.
func (in Inspector) prefetchedChain(ctx context.Context, c clientCaller, p *debuggerPaused) waiter {
	in.t.mu.Lock()
	pf := in.t.prefetch
	in.t.mu.Unlock()
	if pf == nil || pf.p != p || !in.prefetchSent(ctx, pf) {
		return nil
	}
	in.t.mu.Lock()
	w := pf.chain
	pf.chain = nil
	in.t.mu.Unlock()
	if w == nil {
		return nil
	}
	return bounded(c, w, proto.DebuggerEvaluateOnCallFrame{}.Method())
}

// prefetchSent waits (at most prefetchWait) until the dispatcher has sent pf's reads.
func (in Inspector) prefetchSent(ctx context.Context, pf *prefetch) bool {
	t := time.NewTimer(prefetchWait)
	defer t.Stop()
	select {
	case <-pf.ready:
		return true
	case <-t.C:
	case <-ctx.Done():
	}
	return false
}

// prefetchWait bounds how long a reader waits for the dispatcher to send a prefetch: it sends
// right after the pause is known, so this only matters to a dispatcher stuck on a dead socket.
const prefetchWait = time.Second

// prefetched takes the answer on its way for a scope of the current pause, or nil (another
// pause, another frame, no previews, read once already): the caller then reads it itself.
func (in Inspector) prefetched(ctx context.Context, c clientCaller, p *debuggerPaused, frame int, objectID string, previews bool) waiter {
	in.t.mu.Lock()
	pf := in.t.prefetch
	in.t.mu.Unlock()
	if pf == nil || pf.p != p || frame != 0 || !previews || !in.prefetchSent(ctx, pf) {
		return nil
	}
	in.t.mu.Lock()
	w := pf.reads[objectID]
	delete(pf.reads, objectID)
	in.t.mu.Unlock()
	if w == nil {
		return nil
	}
	return bounded(c, w, proto.RuntimeGetProperties{}.Method())
}
