// Package stream fans captured events and session changes out to the WebSocket subscribers of
// /api/stream, without ever letting a subscriber slow capture down.
package stream

import (
	"context"
	"encoding/json"
	"log/slog"
	"sync"
	"time"

	"github.com/coder/websocket"

	"traced/api"
)

// Defaults for Config fields left zero.
const (
	// DefaultQueueSize is a subscriber's queue, in messages: enough to ride out a GC pause or a
	// slow network moment of a healthy dashboard while a chatty program logs, small enough that a
	// stuck one holds little (the queue holds pointers to messages shared by all subscribers).
	DefaultQueueSize = 1024
	// DefaultWriteTimeout bounds the write of one message: a peer that cannot take one message in
	// this long is gone, and its connection is dropped.
	DefaultWriteTimeout = 5 * time.Second
	// readLimit is the largest data message accepted from a client, in bytes. Clients have nothing
	// to say on this write-only stream; control frames (ping, close) are not subject to it.
	readLimit = 512
)

// Source tells the hub which sessions exist and replays their retained events when a subscriber
// resumes with a cursor.
type Source interface {
	// Resolve returns the id of the session named by session, an id or a name; ok=false when no
	// session has it. Publishers name sessions by id, so subscribers are matched by id.
	Resolve(session string) (id string, ok bool)
	// Retained returns the session's retained events with seq > after (oldest first), the oldest
	// retained seq (0 if none) and newest produced seq; ok=false when the session is unknown.
	// after may exceed newest: the hub passes math.MaxUint64 to learn only the window and
	// expects no events then. The window must be read under the lock PublishEvent is called with.
	Retained(id string, after uint64) (events []api.Event, oldest, newest uint64, ok bool)
}

// Config configures a Hub.
type Config struct {
	Source       Source        // sessions' retained events; nil knows no session
	QueueSize    int           // per-subscriber bounded queue (messages); default DefaultQueueSize
	WriteTimeout time.Duration // per message write deadline; default DefaultWriteTimeout
	Logger       *slog.Logger  // default: discard
	// OriginPatterns are the origins allowed besides same-origin, as websocket.AcceptOptions
	// takes them. Origin checks are never skipped.
	OriginPatterns []string
}

// Hub fans stream messages out to subscribers.
//
// Goroutines: each subscriber is served by the ServeHTTP call that accepted it, which alone writes
// to and closes its connection, plus the reader coder/websocket starts for CloseRead (it answers
// pings and notices the client's close). Publishers (engine goroutines holding a session's store
// lock) never wait for a subscriber: they make a non-blocking send into each matching subscriber's
// queue and, when it is full, mark the subscriber overflowed; its own goroutine then closes it
// with 1008, because a close performs a handshake.
//
// Locks: mu guards subs, closed and each subscriber's conn. Publishers hold it for reading while
// they walk subs; a subscriber takes it for writing only to join, to record its conn and to leave,
// so a publisher can wait at most for a field or map write, never for I/O. No lock is held while
// writing to or closing a connection. wg counts subscribers that joined and have not left; Add
// happens under mu while closed is false, so Shutdown's Wait never races an Add.
type Hub struct {
	src          Source
	queueSize    int
	writeTimeout time.Duration
	log          *slog.Logger
	accept       *websocket.AcceptOptions
	done         chan struct{} // closed by Shutdown: subscribers close with 1001
	wg           sync.WaitGroup

	mu     sync.RWMutex
	subs   map[*subscriber]struct{}
	closed bool
}

// subscriber is one /api/stream connection and what it asked for.
type subscriber struct {
	session  string            // only this session's messages (its id, never a name); "" for every session
	kinds    map[api.Kind]bool // event kinds wanted; empty for every kind
	queue    chan *message     // bounded: a full queue overflows the subscriber
	overflow chan struct{}     // closed once, by the publisher that found queue full
	once     sync.Once
	conn     *websocket.Conn // set once accepted, under Hub.mu; Shutdown cuts it when out of time
}

// message is one stream message, shared by every subscriber it was queued to and encoded once,
// by the first writer that needs it, outside the publisher's lock.
type message struct {
	seq  uint64    // the event's seq; 0 for a status message
	ev   api.Event // storage for msg.Event, so publishing allocates once
	msg  api.StreamMessage
	once sync.Once
	data []byte
	err  error
}

func (m *message) encode() ([]byte, error) {
	m.once.Do(func() { m.data, m.err = json.Marshal(&m.msg) })
	return m.data, m.err
}

// NewHub returns a hub ready to serve /api/stream.
func NewHub(cfg Config) *Hub {
	h := &Hub{
		src:          cfg.Source,
		queueSize:    cfg.QueueSize,
		writeTimeout: cfg.WriteTimeout,
		log:          cfg.Logger,
		accept:       &websocket.AcceptOptions{OriginPatterns: cfg.OriginPatterns},
		done:         make(chan struct{}),
		subs:         make(map[*subscriber]struct{}),
	}
	if h.queueSize <= 0 {
		h.queueSize = DefaultQueueSize
	}
	if h.writeTimeout <= 0 {
		h.writeTimeout = DefaultWriteTimeout
	}
	if h.log == nil {
		h.log = slog.New(slog.DiscardHandler)
	}
	return h
}

// PublishEvent queues ev for every subscriber that wants it. It never blocks on a subscriber:
// callers hold a session's store lock and call it in seq order. ev's payloads must not be
// modified afterwards; they are encoded later, by subscriber goroutines.
func (h *Hub) PublishEvent(session string, ev api.Event) {
	h.mu.RLock()
	defer h.mu.RUnlock()
	var m *message
	for s := range h.subs {
		if !s.wants(session) || (len(s.kinds) > 0 && !s.kinds[ev.Kind]) {
			continue
		}
		if m == nil {
			m = &message{seq: ev.Seq, ev: ev}
			m.msg = api.StreamMessage{Type: api.MsgEvent, Session: session, Event: &m.ev}
		}
		s.offer(m)
	}
}

// Wants reports whether a subscriber now wants an event of kind from session, so that a publisher
// converting captured events to their wire form does that only for events someone reads. A
// subscriber that joins after a false answer replays the event from the session's retained ones,
// which a publisher holding the store lock has stored before it publishes.
func (h *Hub) Wants(session string, kind api.Kind) bool {
	h.mu.RLock()
	defer h.mu.RUnlock()
	for s := range h.subs {
		if s.wants(session) && (len(s.kinds) == 0 || s.kinds[kind]) {
			return true
		}
	}
	return false
}

// PublishStatus queues a session lifecycle message for every subscriber of that session. It never
// blocks on a subscriber. The summary is encoded at once, so the caller may reuse its map and slices.
func (h *Hub) PublishStatus(s api.Summary) {
	h.mu.RLock()
	defer h.mu.RUnlock()
	var m *message
	for sub := range h.subs {
		if !sub.wants(s.ID) {
			continue
		}
		if m == nil {
			m = &message{msg: api.StreamMessage{Type: api.MsgSession, Session: s.ID, Summary: &s}}
			m.encode()
		}
		sub.offer(m)
	}
}

// Subscribers returns the number of subscribers joined now, including those still upgrading.
func (h *Hub) Subscribers() int {
	h.mu.RLock()
	defer h.mu.RUnlock()
	return len(h.subs)
}

// Shutdown closes every subscriber with 1001 (going away), refuses new ones with 503, and waits
// for their goroutines until ctx ends; then it cuts the connections still open without a handshake.
func (h *Hub) Shutdown(ctx context.Context) {
	h.mu.Lock()
	if !h.closed {
		h.closed = true
		close(h.done)
	}
	h.mu.Unlock()
	left := make(chan struct{})
	go func() { h.wg.Wait(); close(left) }()
	select {
	case <-left:
	case <-ctx.Done():
		// Cut outside the lock: a cut can take a while, and meanwhile leave would wait for the
		// write lock and publishers, holding a session's store lock, would queue behind it.
		h.mu.RLock()
		conns := make([]*websocket.Conn, 0, len(h.subs))
		for s := range h.subs {
			if s.conn != nil {
				conns = append(conns, s.conn)
			}
		}
		h.mu.RUnlock()
		for _, c := range conns {
			c.CloseNow()
		}
	}
}

// join registers s so publishers start queueing to it; false when shutting down.
func (h *Hub) join(s *subscriber) bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.closed {
		return false
	}
	h.subs[s] = struct{}{}
	h.wg.Add(1)
	return true
}

func (h *Hub) leave(s *subscriber) {
	h.mu.Lock()
	delete(h.subs, s)
	h.mu.Unlock()
	h.wg.Done()
}

func (h *Hub) setConn(s *subscriber, c *websocket.Conn) {
	h.mu.Lock()
	s.conn = c
	h.mu.Unlock()
}

func (h *Hub) stopping() bool {
	select {
	case <-h.done:
		return true
	default:
		return false
	}
}

func (s *subscriber) wants(session string) bool { return s.session == "" || s.session == session }

// offer queues m without blocking; a full queue overflows s, and s is sent nothing more.
func (s *subscriber) offer(m *message) {
	select {
	case <-s.overflow:
		return
	default:
	}
	select {
	case s.queue <- m:
	default:
		s.once.Do(func() { close(s.overflow) })
	}
}
