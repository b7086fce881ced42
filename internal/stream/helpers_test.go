package stream

import (
	"context"
	"encoding/json"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/coder/websocket"
	"go.uber.org/goleak"

	"traced/api"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// waitFor bounds every wait of these tests; nothing sleeps to synchronise.
const waitFor = 10 * time.Second

// fakeSource is a Source with capped rings, publishing under its lock as the engine does.
type fakeSource struct {
	hub      *Hub
	mu       sync.Mutex
	sessions map[string]*fakeSession // by id
	names    map[string]string       // session name -> id
	// beforeRetained, when set, runs once at the start of Retained: a test publishes there, in the
	// window between a subscriber joining and its replay being read.
	beforeRetained func()
}

type fakeSession struct {
	events []api.Event // oldest first
	newest uint64
	max    int
}

func (f *fakeSource) add(id string, max int) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.sessions[id] = &fakeSession{max: max}
}

// addNamed adds a session that can also be asked for by name.
func (f *fakeSource) addNamed(id, name string, max int) {
	f.add(id, max)
	f.mu.Lock()
	defer f.mu.Unlock()
	f.names[name] = id
}

func (f *fakeSource) Resolve(session string) (string, bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if _, ok := f.sessions[session]; ok {
		return session, true
	}
	id, ok := f.names[session]
	return id, ok
}

// append stores and publishes the session's next event.
func (f *fakeSource) append(id string, kind api.Kind, text string) api.Event {
	f.mu.Lock()
	defer f.mu.Unlock()
	s := f.sessions[id]
	s.newest++
	ev := newEvent(s.newest, kind, text)
	s.events = append(s.events, ev)
	if len(s.events) > s.max {
		s.events = s.events[1:]
	}
	f.hub.PublishEvent(id, ev)
	return ev
}

func (f *fakeSource) newest(id string) uint64 {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.sessions[id].newest
}

func (f *fakeSource) Retained(id string, after uint64) ([]api.Event, uint64, uint64, bool) {
	f.mu.Lock()
	hook := f.beforeRetained
	f.beforeRetained = nil
	f.mu.Unlock()
	if hook != nil {
		hook()
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	s, ok := f.sessions[id]
	if !ok {
		return nil, 0, 0, false
	}
	var out []api.Event
	for _, ev := range s.events {
		if ev.Seq > after {
			out = append(out, ev)
		}
	}
	var oldest uint64
	if len(s.events) > 0 {
		oldest = s.events[0].Seq
	}
	return out, oldest, s.newest, true
}

func newEvent(seq uint64, kind api.Kind, text string) api.Event {
	ev := api.Event{Seq: seq, Time: time.Now().UTC(), Kind: kind}
	if kind == "console" {
		ev.Console = &api.ConsoleInfo{Level: "log", Text: api.Text{Value: text}}
	} else {
		ev.Output = &api.OutputInfo{Text: api.Text{Value: text}}
	}
	return ev
}

// env is a hub served by an httptest server, with a fake source; cleanup shuts both down.
type env struct {
	hub *Hub
	src *fakeSource
	srv *httptest.Server
}

func newEnv(t testing.TB, cfg Config) *env {
	t.Helper()
	src := &fakeSource{sessions: make(map[string]*fakeSession), names: make(map[string]string)}
	cfg.Source = src
	h := NewHub(cfg)
	src.hub = h
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), waitFor)
		defer cancel()
		h.Shutdown(ctx)
	})
	return &env{hub: h, src: src, srv: srv}
}

func (e *env) url(query string) string {
	return "ws" + strings.TrimPrefix(e.srv.URL, "http") + "/api/stream?" + query
}

// dial connects without waiting for anything; the connection is cut at cleanup.
func (e *env) dial(t testing.TB, query string, opts *websocket.DialOptions) (*websocket.Conn, *http.Response, error) {
	t.Helper()
	if opts == nil {
		opts = &websocket.DialOptions{}
	}
	if opts.HTTPClient == nil {
		opts.HTTPClient = e.srv.Client() // its idle connections close with the server
	}
	ctx, cancel := context.WithTimeout(context.Background(), waitFor)
	defer cancel()
	c, resp, err := websocket.Dial(ctx, e.url(query), opts)
	if c != nil {
		t.Cleanup(func() { c.CloseNow() })
	}
	return c, resp, err
}

// subscribe connects and waits for the live message that says the subscription is registered.
func (e *env) subscribe(t testing.TB, query string) (*websocket.Conn, api.StreamMessage) {
	t.Helper()
	return e.subscribeWith(t, query, nil)
}

func (e *env) subscribeWith(t testing.TB, query string, opts *websocket.DialOptions) (*websocket.Conn, api.StreamMessage) {
	t.Helper()
	c, _, err := e.dial(t, query, opts)
	if err != nil {
		t.Fatalf("dial %q: %v", query, err)
	}
	m := readMsg(t, c)
	if m.Type != api.MsgLive {
		t.Fatalf("first message of %q = %+v, want a live message", query, m)
	}
	return c, m
}

// smallWindowClient returns a client whose TCP receive buffer is tiny, so that a subscriber that
// stops reading stalls the server's writes after a few messages instead of after megabytes, and a
// func that widens the buffer again: draining megabytes through a tiny window takes minutes.
func smallWindowClient(t testing.TB) (client *http.Client, widen func()) {
	var (
		mu    sync.Mutex
		conns []*net.TCPConn
	)
	tr := &http.Transport{DialContext: func(ctx context.Context, network, addr string) (net.Conn, error) {
		c, err := (&net.Dialer{}).DialContext(ctx, network, addr)
		if err != nil {
			return nil, err
		}
		mu.Lock()
		conns = append(conns, c.(*net.TCPConn))
		mu.Unlock()
		return c, c.(*net.TCPConn).SetReadBuffer(4096)
	}}
	t.Cleanup(tr.CloseIdleConnections)
	return &http.Client{Transport: tr}, func() {
		mu.Lock()
		defer mu.Unlock()
		for _, c := range conns {
			if err := c.SetReadBuffer(4 << 20); err != nil {
				t.Errorf("widen the receive buffer: %v", err)
			}
		}
	}
}

func readMsg(t testing.TB, c *websocket.Conn) api.StreamMessage {
	t.Helper()
	m, err := tryRead(c)
	if err != nil {
		t.Fatalf("read: %v", err)
	}
	return m
}

func tryRead(c *websocket.Conn) (api.StreamMessage, error) {
	ctx, cancel := context.WithTimeout(context.Background(), waitFor)
	defer cancel()
	var m api.StreamMessage
	_, data, err := c.Read(ctx)
	if err != nil {
		return m, err
	}
	return m, json.Unmarshal(data, &m)
}

// pacer lets a test publisher run at most window events ahead of its readers, so bounded queues
// hold everything in flight without the test sleeping.
type pacer struct {
	window uint64
	wake   chan struct{}
	stop   chan struct{} // closed by halt
	halted sync.Once     // several readers may fail and halt
	mu     sync.Mutex
	seen   []uint64 // highest seq each reader has received
}

func newPacer(readers int, window uint64) *pacer {
	return &pacer{window: window, wake: make(chan struct{}, 1), stop: make(chan struct{}), seen: make([]uint64, readers)}
}

// saw records that reader i received seq.
func (p *pacer) saw(i int, seq uint64) {
	p.mu.Lock()
	p.seen[i] = seq
	p.mu.Unlock()
	select {
	case p.wake <- struct{}{}:
	default:
	}
}

// halt stops the publisher; any number of goroutines may call it.
func (p *pacer) halt() { p.halted.Do(func() { close(p.stop) }) }

// wait blocks until seq may be published; false once halted.
func (p *pacer) wait(seq uint64) bool {
	for {
		p.mu.Lock()
		low := p.seen[0]
		for _, s := range p.seen[1:] {
			low = min(low, s)
		}
		p.mu.Unlock()
		if seq <= low+p.window {
			return true
		}
		select {
		case <-p.wake:
		case <-p.stop:
			return false
		}
	}
}
