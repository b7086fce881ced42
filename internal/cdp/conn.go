package cdp

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"
	"sync/atomic"
)

// Conn is one inspector session, whatever carries it: a WebSocket of its own (Client) or a
// worker thread's session tunnelled through its parent's (Worker). Events go, in arrival order,
// to the OnEvent function the connection was made with, on a goroutine of the connection's own.
type Conn interface {
	// Call sends a command and decodes its reply's result into result (which may be nil).
	Call(ctx context.Context, method string, params, result any) error
	// Send sends a command and returns once it is on its way, without waiting for the reply:
	// commands sent one after another reach the peer in that order. Wait must follow.
	Send(ctx context.Context, method string, params any) (*Pending, error)
	// Close ends the connection; pending and later calls fail.
	Close() error
	// Done is closed when the connection has ended and every queued event has been dispatched.
	Done() <-chan struct{}
	// Err is why the connection ended, or nil while it is open.
	Err() error
}

var (
	_ Conn = (*Client)(nil)
	_ Conn = (*Worker)(nil)
)

type reply struct {
	result json.RawMessage
	err    error
}

// calls is a connection's table of commands sent and not answered yet. Replies are matched by
// id; the first failure ends the table for good and is the cause every later call is given.
type calls struct {
	nextID atomic.Int64

	mu      sync.Mutex // guards pending and err
	pending map[int64]chan reply
	err     error
}

func newCalls() calls { return calls{pending: make(map[int64]chan reply)} }

// add registers the waiter of command id before it is sent, so a fast reply finds it.
func (t *calls) add(id int64, method string) (*Pending, error) {
	p := &Pending{calls: t, id: id, method: method, ch: make(chan reply, 1)} // buffered: the reader never waits for us
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.err != nil {
		return nil, fmt.Errorf("%s: %w", method, t.err)
	}
	t.pending[id] = p.ch
	return p, nil
}

// answer hands a reply to its waiter; one nobody waits for any more is dropped.
func (t *calls) answer(m Message) {
	t.mu.Lock()
	ch := t.pending[m.ID]
	delete(t.pending, m.ID) // so fail never sends a second reply into a full channel
	t.mu.Unlock()
	if ch == nil {
		return // the caller gave up (context) or the id is unknown: nothing waits
	}
	if m.Error != nil {
		ch <- reply{err: m.Error}
	} else {
		ch <- reply{result: m.Result}
	}
}

// fail records the first cause and fails every pending call with it.
func (t *calls) fail(cause error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.err != nil {
		return
	}
	t.err = cause
	for id, ch := range t.pending {
		ch <- reply{err: cause}
		delete(t.pending, id)
	}
}

// cause is why the table ended, or nil while it is open.
func (t *calls) cause() error {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.err
}

// Pending is a call sent and not answered yet.
type Pending struct {
	calls  *calls
	id     int64
	method string
	ch     chan reply
}

// Wait waits for the call's reply and decodes its result into result (which may be nil).
func (p *Pending) Wait(ctx context.Context, result any) error {
	defer p.forget()
	select {
	case <-ctx.Done():
		return fmt.Errorf("%s: %w", p.method, ctx.Err())
	case r := <-p.ch:
		if r.err != nil {
			if ctx.Err() != nil {
				return fmt.Errorf("%s: %w", p.method, ctx.Err())
			}
			return fmt.Errorf("%s: %w", p.method, r.err)
		}
		if result != nil && len(r.result) > 0 {
			if err := Decode(r.result, result); err != nil {
				return fmt.Errorf("%s: decode result: %w", p.method, err)
			}
		}
		return nil
	}
}

// forget drops the call's waiter: a reply that comes later finds nobody.
func (p *Pending) forget() {
	p.calls.mu.Lock()
	delete(p.calls.pending, p.id)
	p.calls.mu.Unlock()
}

// command is a call's envelope on the wire.
type command struct {
	ID     int64  `json:"id"`
	Method string `json:"method"`
	Params any    `json:"params"`
}

// encode gives a command its id and encodes it.
func (t *calls) encode(method string, params any) (int64, []byte, error) {
	if params == nil {
		params = struct{}{}
	}
	id := t.nextID.Add(1)
	raw, err := json.Marshal(command{id, method, params})
	if err != nil {
		return 0, nil, fmt.Errorf("%s: encode params: %w", method, err)
	}
	return id, raw, nil
}

// dispatch hands queued events to onEvent until the queue is closed and drained.
func dispatch(q *eventQueue, onEvent func(Event)) {
	for {
		ev, ok := q.pop()
		if !ok {
			return
		}
		if ev.reached != nil {
			close(ev.reached)
			continue
		}
		if onEvent != nil {
			onEvent(ev)
		}
	}
}
