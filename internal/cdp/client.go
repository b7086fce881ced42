package cdp

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"sync"
	"time"

	"github.com/coder/websocket"
	"github.com/go-json-experiment/json/jsontext"

	"traced/internal/quickack"
)

// DefaultReadLimit caps one inbound CDP message. The inspector sends a console call or a script
// source as one message and a single console.log of a 10 MiB string is one 10 MiB message, so the
// library's 32 KiB default would kill real sessions. 64 MiB leaves room while still bounding a
// hostile peer. Values are capped after decoding, by the caller.
const DefaultReadLimit = 64 << 20

// ErrClosed is the cause of a call made after the connection ended without a more specific reason.
var ErrClosed = errors.New("cdp: connection closed")

// Error is a protocol-level error answered by the peer for one call.
type Error struct {
	Code    int    `json:"code"`
	Message string `json:"message"`
	Data    string `json:"data,omitempty"`
}

func (e *Error) Error() string {
	if e.Data != "" {
		return fmt.Sprintf("cdp error %d: %s (%s)", e.Code, e.Message, e.Data)
	}
	return fmt.Sprintf("cdp error %d: %s", e.Code, e.Message)
}

// Event is one notification from the peer. Params is the raw JSON for the receiver to decode.
type Event struct {
	Method string
	Params json.RawMessage

	reached chan struct{} // a Drained marker: closed by the dispatcher instead of dispatched
}

// Options configure a client.
type Options struct {
	// ReadLimit caps one inbound message in bytes; 0 means DefaultReadLimit.
	ReadLimit int64
	// OnEvent receives every event in arrival order on the client's dispatch goroutine. It may call
	// back into the client (Call included); the reader keeps reading meanwhile, queueing events.
	OnEvent func(Event)
}

// Client is a connected CDP peer.
//
// Goroutines: one reader (conn reads block, so it owns the socket's read side) and one
// dispatcher that calls Options.OnEvent. The reader never blocks on a consumer: replies go to
// buffered channels and events to an unbounded queue, because dropping a protocol event would
// lose a console line or a pause. The queue is bounded in practice by how fast node produces.
// Calls write on the caller's goroutine (the websocket library serialises writes), each under
// its own deadline and never under the caller's context; see writeTimeout.
type Client struct {
	conn    *websocket.Conn
	onEvent func(Event)
	calls   calls // the cause is set once when the reader stops, and given to every later call

	queue *eventQueue
	done  chan struct{} // closed when reader and dispatcher have both returned
}

// Dial connects to an inspector WebSocket URL such as ws://127.0.0.1:9229/<uuid>. ctx bounds the
// handshake only; the connection outlives it.
func Dial(ctx context.Context, url string, opts Options) (*Client, error) {
	return dial(ctx, url, opts, quickack.Wrap)
}

// dial is Dial with the TCP connection's wrapper as a parameter, so a benchmark can measure the
// connection without the TCP_QUICKACK re-arm.
func dial(ctx context.Context, url string, opts Options, wrap func(net.Conn) net.Conn) (*Client, error) {
	dialTCP := func(ctx context.Context, network, addr string) (net.Conn, error) {
		d := net.Dialer{Timeout: dialTimeout}
		conn, err := d.DialContext(ctx, network, addr)
		if err != nil {
			return nil, err
		}
		return wrap(conn), nil
	}
	conn, _, err := websocket.Dial(ctx, url, &websocket.DialOptions{
		HTTPClient: &http.Client{Transport: &http.Transport{
			DialContext:       dialTCP,
			DisableKeepAlives: true,
		}},
	})
	if err != nil {
		return nil, fmt.Errorf("attach %s: %w", url, err)
	}
	limit := opts.ReadLimit
	if limit <= 0 {
		limit = DefaultReadLimit
	}
	conn.SetReadLimit(limit)
	c := &Client{
		conn:    conn,
		onEvent: opts.OnEvent,
		calls:   newCalls(),
		queue:   newEventQueue(),
		done:    make(chan struct{}),
	}
	readerDone := make(chan struct{})
	go func() { defer close(readerDone); c.read() }()
	go func() {
		c.dispatch()
		<-readerDone
		close(c.done)
	}()
	return c, nil
}

// Call sends method with params and decodes the reply's result into result (which may be nil).
// The caller's cancellation wins over every other failure: a call whose context is already done
// is not sent, and one cancelled while waiting returns at once and leaves the connection open.
// Only the send itself is not cut short by ctx; it is bounded by writeTimeout instead.
func (c *Client) Call(ctx context.Context, method string, params, result any) error {
	p, err := c.Send(ctx, method, params)
	if err != nil {
		return err
	}
	return p.Wait(ctx, result)
}

// Send sends method with params and returns once it is written, without waiting for the reply:
// calls sent one after another reach the peer in that order, and V8 answers them in that order,
// so a caller can send what depends on no answer (a resume after reading a pause's scopes) at
// once. Wait must follow, or the call stays pending until its reply comes.
func (c *Client) Send(ctx context.Context, method string, params any) (*Pending, error) {
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("%s: %w", method, err)
	}
	id, raw, err := c.calls.encode(method, params)
	if err != nil {
		return nil, err
	}
	p, err := c.calls.add(id, method)
	if err != nil {
		return nil, err
	}
	if err := c.send(raw); err != nil {
		p.forget()
		if ctx.Err() != nil {
			return nil, fmt.Errorf("%s: %w", method, ctx.Err())
		}
		return nil, fmt.Errorf("%s: %w", method, err)
	}
	return p, nil
}

// writeTimeout bounds sending one call. The caller's context cannot be used for this: the
// websocket library closes the whole connection when a write's context ends, even one that ended
// before the write began, so one caller giving up would end every caller's session. Calls are
// small and the peer is on loopback; a peer that takes this long to take one is stuck.
const writeTimeout = 10 * time.Second

// send writes one message. A failed write may have left part of a frame on the wire, so it ends
// the connection; the error returned is the connection's cause.
func (c *Client) send(raw []byte) error {
	ctx, cancel := context.WithTimeout(context.Background(), writeTimeout)
	defer cancel()
	err := c.conn.Write(ctx, websocket.MessageText, raw)
	if err == nil {
		return nil
	}
	c.fail(fmt.Errorf("%w: send: %w", ErrClosed, err))
	c.conn.CloseNow()
	return c.Err()
}

// Close ends the connection. Pending and later calls fail with ErrClosed. It does not wait for
// the dispatcher (OnEvent may be the caller); wait on Done for that. It waits for the peer's
// answer to the close frame (the websocket library bounds that at 5 s). Closing a connection that
// has already ended, by Close or by the peer, is not an error.
func (c *Client) Close() error {
	c.fail(ErrClosed)
	err := c.conn.Close(websocket.StatusNormalClosure, "")
	if errors.Is(err, net.ErrClosed) {
		return nil
	}
	return err
}

// Done is closed when the connection has ended and every queued event has been dispatched.
func (c *Client) Done() <-chan struct{} { return c.done }

// Err is why the connection ended, or nil while it is open.
func (c *Client) Err() error { return c.calls.cause() }

func (c *Client) read() {
	defer c.queue.close()
	ctx := context.Background()
	for {
		typ, data, err := c.conn.Read(ctx)
		if err != nil {
			c.fail(fmt.Errorf("%w: %w", ErrClosed, err))
			c.conn.CloseNow()
			return
		}
		if typ != websocket.MessageText {
			continue
		}
		if err := c.handle(data); err != nil {
			// A peer that speaks something else is broken; there is no way to resynchronise.
			c.fail(fmt.Errorf("%w: malformed message: %w", ErrClosed, err))
			c.conn.Close(websocket.StatusUnsupportedData, "malformed CDP message")
			return
		}
	}
}

// handle routes one inbound message: an event to the queue, a reply to its waiter. An error means
// the message is not CDP.
func (c *Client) handle(data []byte) error {
	m, err := ParseMessage(data)
	if err != nil {
		return err
	}
	switch {
	case m.Method != "":
		c.queue.push(Event{Method: m.Method, Params: m.Params})
	case m.ID != 0:
		c.calls.answer(m)
	}
	return nil
}

// V8 writes every notification as {"method":"<name>","params":{...}}, in that order.
var (
	eventPrefix = []byte(`{"method":"`)
	paramsKey   = []byte(`","params":`)
)

// splitEvent recognises a notification in V8's own layout without decoding it: events are most
// of the traffic (a console line each), and the receiver decodes their params anyway, so a full
// decode here would parse every event twice. Anything else takes the general path.
func splitEvent(data []byte) (Message, bool) {
	rest, ok := bytes.CutPrefix(data, eventPrefix)
	if !ok {
		return Message{}, false
	}
	end := bytes.IndexByte(rest, '"')
	if end <= 0 || bytes.IndexByte(rest[:end], '\\') >= 0 {
		return Message{}, false
	}
	params, ok := bytes.CutPrefix(rest[end:], paramsKey)
	if !ok || len(params) < 3 || params[0] != '{' || params[len(params)-1] != '}' {
		return Message{}, false
	}
	params = params[:len(params)-1] // the envelope's closing brace
	// One JSON object and nothing after it (a key after params would fail here, not later).
	// jsontext's check is the fast one: encoding/json's was a fifth of capture's CPU.
	if !jsontext.Value(params).IsValid(jsontext.AllowInvalidUTF8(true), jsontext.AllowDuplicateNames(true)) {
		return Message{}, false
	}
	return Message{Method: string(rest[:end]), Params: params}, true
}

// Drained returns once every event received so far has been dispatched. A reply overtakes the
// events the peer sent before it (replies skip the queue); a caller that needs those events
// handled, e.g. one node sends in answer to an enable, calls Drained after the call. It must
// not be called from OnEvent.
func (c *Client) Drained(ctx context.Context) error {
	reached := make(chan struct{})
	c.queue.push(Event{reached: reached})
	select {
	case <-reached:
		return nil
	case <-c.done: // ended: the marker was dispatched before the end, or never will be
		select {
		case <-reached:
			return nil
		default:
		}
		if err := c.Err(); err != nil {
			return err
		}
		return ErrClosed
	case <-ctx.Done():
		return ctx.Err()
	}
}

// fail records the first cause and fails every pending call with it.
func (c *Client) fail(cause error) { c.calls.fail(cause) }

func (c *Client) dispatch() { dispatch(c.queue, c.onEvent) }

// eventQueue is an unbounded FIFO between the reader and the dispatcher.
type eventQueue struct {
	mu     sync.Mutex
	cond   *sync.Cond
	items  []Event
	head   int
	closed bool
}

func newEventQueue() *eventQueue {
	q := &eventQueue{}
	q.cond = sync.NewCond(&q.mu)
	return q
}

func (q *eventQueue) push(e Event) {
	q.mu.Lock()
	q.items = append(q.items, e)
	q.mu.Unlock()
	q.cond.Signal()
}

func (q *eventQueue) close() {
	q.mu.Lock()
	q.closed = true
	q.mu.Unlock()
	q.cond.Broadcast()
}

// pop blocks for the next event; ok is false once the queue is closed and drained.
func (q *eventQueue) pop() (Event, bool) {
	q.mu.Lock()
	defer q.mu.Unlock()
	for q.head == len(q.items) && !q.closed {
		q.cond.Wait()
	}
	if q.head == len(q.items) {
		return Event{}, false
	}
	e := q.items[q.head]
	q.items[q.head] = Event{}
	q.head++
	if q.head == len(q.items) { // drained: reuse the backing array
		q.items, q.head = q.items[:0], 0
	}
	return e, true
}

// dialTimeout bounds the TCP connect to the inspector, which is always on loopback.
const dialTimeout = 5 * time.Second
