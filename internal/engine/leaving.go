package engine

import "context"

// V8 answers a resume or a step before it has left the pause; Debugger.resumed says it left. A
// Debugger.pause sent in between finds the program still paused and is dropped, and the
// program runs on as if never asked. So each call that leaves a pause opens a window that
// Debugger.resumed closes, and a pause waits the window out first.

// leavePause opens the window before a call that leaves the pause; under mu.
func (ct Control) leavePause() {
	if ct.t.leaving == nil {
		ct.t.leaving = make(chan struct{})
	}
}

// closeLeaving closes the window: V8 said it resumed, or the call failed; under mu.
func (ct Control) closeLeaving() {
	if ct.t.leaving != nil {
		close(ct.t.leaving)
		ct.t.leaving = nil
	}
}

// awaitLeaving waits until the program has left its last pause, so a pause sent next counts.
func (ct Control) awaitLeaving(ctx context.Context) error {
	ct.t.mu.Lock()
	ch := ct.t.leaving
	ct.t.mu.Unlock()
	if ch == nil {
		return nil
	}
	select {
	case <-ch:
	case <-ct.t.s.done:
	case <-ctx.Done():
		return ctx.Err()
	}
	return nil
}
