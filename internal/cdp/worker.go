package cdp

import (
	"context"
	"fmt"
	"sync"

	"traced/internal/cdp/proto"
)

// Worker is a worker thread's inspector session, tunnelled through its parent's connection: a
// command goes out inside NodeWorker.sendMessageToWorker, and the worker's replies and events
// come back inside the parent's NodeWorker.receivedMessageFromWorker events, which the parent's
// event handler hands to Receive. NodeWorker.detachedFromWorker (or the parent's end) is End.
//
// Goroutines: one dispatcher that calls the OnEvent function, so a worker's event handler may
// call the worker and wait: the reply comes through the parent's dispatcher, which never waits
// for the worker's. It returns once End has been called and the queued events are dispatched.
type Worker struct {
	parent    Conn
	sessionID string
	calls     calls
	queue     *eventQueue
	done      chan struct{}
	end       sync.Once
}

// NewWorker makes the session of the worker NodeWorker.attachedToWorker named sessionID on
// parent; onEvent receives the worker's events in arrival order.
func NewWorker(parent Conn, sessionID string, onEvent func(Event)) *Worker {
	w := &Worker{parent: parent, sessionID: sessionID, calls: newCalls(), queue: newEventQueue(), done: make(chan struct{})}
	go func() {
		defer close(w.done)
		dispatch(w.queue, onEvent)
	}()
	return w
}

// Call sends a command to the worker and waits for its reply.
func (w *Worker) Call(ctx context.Context, method string, params, result any) error {
	p, err := w.Send(ctx, method, params)
	if err != nil {
		return err
	}
	return p.Wait(ctx, result)
}

// Send sends a command to the worker and returns once the parent has taken it: commands sent
// one after another reach the worker in that order.
func (w *Worker) Send(ctx context.Context, method string, params any) (*Pending, error) {
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("%s: %w", method, err)
	}
	id, raw, err := w.calls.encode(method, params)
	if err != nil {
		return nil, err
	}
	p, err := w.calls.add(id, method)
	if err != nil {
		return nil, err
	}
	tunnel := proto.NodeWorkerSendMessageToWorker{SessionID: w.sessionID, Message: string(raw)}
	if err := proto.Do(ctx, w.parent, tunnel, nil); err != nil {
		p.forget()
		return nil, fmt.Errorf("%s: %w", method, err)
	}
	return p, nil
}

// Receive takes one message of the worker's (receivedMessageFromWorker): a reply to a call, or
// an event for the dispatcher. It never blocks; a message that is not CDP is dropped.
func (w *Worker) Receive(message []byte) {
	m, err := ParseMessage(message)
	if err != nil || w.calls.cause() != nil {
		return
	}
	switch {
	case m.Method != "":
		w.queue.push(Event{Method: m.Method, Params: m.Params})
	case m.ID != 0:
		w.calls.answer(m)
	}
}

// End ends the session with cause (the worker exited, or was detached): pending and later
// calls fail with it, and the dispatcher returns once the events received so far are handled.
func (w *Worker) End(cause error) {
	w.end.Do(func() {
		w.calls.fail(cause)
		w.queue.close()
	})
}

// Close ends the session from this side; the worker runs on.
func (w *Worker) Close() error {
	w.End(ErrClosed)
	return nil
}

// Done is closed when the session has ended and every queued event has been dispatched.
func (w *Worker) Done() <-chan struct{} { return w.done }

// Err is why the session ended, or nil while it is open.
func (w *Worker) Err() error { return w.calls.cause() }
