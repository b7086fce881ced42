package tests

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"testing"

	"github.com/coder/websocket"

	"traced/api"
	"traced/internal/engine"
	"traced/internal/service"
)

// dialStream subscribes with query (e.g. "session=s1&after=3") and waits for the live marker.
func (h *harness) dialStream(ctx context.Context, query string) (*websocket.Conn, []api.StreamMessage) {
	h.t.Helper()
	return h.dialStreamWith(ctx, query, nil)
}

// smallReceiveBuffer returns a dialer whose connections have a 4 KiB socket receive buffer, and
// a func that restores a large one (a tiny window makes draining slow).
func smallReceiveBuffer() (dial func(context.Context, string, string) (net.Conn, error), restore func() error) {
	var conn *net.TCPConn
	dial = func(ctx context.Context, network, addr string) (net.Conn, error) {
		c, err := (&net.Dialer{}).DialContext(ctx, network, addr)
		if err != nil {
			return nil, err
		}
		conn = c.(*net.TCPConn)
		return c, conn.SetReadBuffer(4096)
	}
	return dial, func() error { return conn.SetReadBuffer(4 << 20) }
}

// dialStreamWith is dialStream with a custom dialer (nil: the default).
func (h *harness) dialStreamWith(ctx context.Context, query string, dial func(context.Context, string, string) (net.Conn, error)) (*websocket.Conn, []api.StreamMessage) {
	h.t.Helper()
	opts := &websocket.DialOptions{HTTPHeader: http.Header{"Authorization": {"Bearer " + testToken}}}
	if dial != nil {
		tr := &http.Transport{DialContext: dial}
		h.t.Cleanup(tr.CloseIdleConnections)
		opts.HTTPClient = &http.Client{Transport: tr}
	}
	conn, _, err := websocket.Dial(ctx, "ws://"+h.addr+"/api/stream?"+query, opts)
	if err != nil {
		h.t.Fatalf("dial stream: %v", err)
	}
	conn.SetReadLimit(1 << 20)
	h.t.Cleanup(func() { conn.CloseNow() })
	var before []api.StreamMessage // replayed messages before the live marker
	for {
		m := readMessage(ctx, h.t, conn)
		if m.Type == api.MsgLive {
			return conn, before
		}
		before = append(before, m)
	}
}

func readMessage(ctx context.Context, t *testing.T, conn *websocket.Conn) api.StreamMessage {
	t.Helper()
	_, data, err := conn.Read(ctx)
	if err != nil {
		t.Fatalf("read stream: %v", err)
	}
	var m api.StreamMessage
	if err := json.Unmarshal(data, &m); err != nil {
		t.Fatalf("stream message %s: %v", data, err)
	}
	return m
}

// collectUntilExit reads event messages of one session until its exit event.
func collectUntilExit(ctx context.Context, t *testing.T, conn *websocket.Conn, session string) []api.Event {
	t.Helper()
	var evs []api.Event
	for {
		m := readMessage(ctx, t, conn)
		if m.Type == api.MsgGap {
			t.Fatalf("unexpected gap %+v", m.Gap)
		}
		if m.Type != api.MsgEvent || m.Session != session {
			continue
		}
		evs = append(evs, *m.Event)
		if m.Event.Kind == api.KindExit {
			return evs
		}
	}
}

func TestStreamMatchesTrace(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	ctx, cancel := context.WithTimeout(context.Background(), deadline)
	defer cancel()
	conn, _ := h.dialStream(ctx, "")
	s := h.start(api.StartRequest{Target: "throws.js"})
	got := collectUntilExit(ctx, t, conn, s.ID)
	want := h.trace(s.ID, "").Events
	if len(got) != len(want) {
		t.Fatalf("stream gave %d events, trace %d", len(got), len(want))
	}
	for i := range want {
		if got[i].Seq != want[i].Seq || got[i].Kind != want[i].Kind {
			t.Fatalf("event %d: stream %d/%s, trace %d/%s", i, got[i].Seq, got[i].Kind, want[i].Seq, want[i].Kind)
		}
	}
	conn.Close(websocket.StatusNormalClosure, "")
}

func TestStreamResumeReplaysExactlyTheMissing(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	ctx, cancel := context.WithTimeout(context.Background(), deadline)
	defer cancel()
	// A ring smaller than the run, so that the start of the session is evicted.
	const ring = 4
	s := h.start(api.StartRequest{Target: "throws.js", MaxEvents: ring})
	sum := h.waitExit(s.ID)
	all := h.trace(s.ID, "").Events
	if sum.Dropped == 0 || len(all) != ring {
		t.Fatalf("throws.js produced %d events, dropped %d: the ring of %d must lose some", sum.LastSeq, sum.Dropped, ring)
	}
	cursor := all[len(all)/2].Seq

	_, replay := h.dialStream(ctx, fmt.Sprintf("session=%s&after=%d", s.ID, cursor))
	var seqs []uint64
	for _, m := range replay {
		if m.Type == api.MsgEvent {
			seqs = append(seqs, m.Event.Seq)
		}
	}
	var want []uint64
	for _, ev := range all {
		if ev.Seq > cursor {
			want = append(want, ev.Seq)
		}
	}
	if fmt.Sprint(seqs) != fmt.Sprint(want) {
		t.Fatalf("replayed %v, want %v", seqs, want)
	}

	// A cursor older than the ring: an explicit gap up to the oldest retained, then what is
	// retained, filtered by kind.
	_, replay = h.dialStream(ctx, fmt.Sprintf("session=%s&kinds=exit&after=0", s.ID))
	if len(replay) != 2 {
		t.Fatalf("filtered replay %+v, want a gap and the exit event", replay)
	}
	if g := replay[0]; g.Type != api.MsgGap || g.Session != s.ID || g.Gap.From != 1 || g.Gap.To != all[0].Seq-1 {
		t.Fatalf("first replayed message %+v, want gap 1..%d", g, all[0].Seq-1)
	}
	if m := replay[1]; m.Type != api.MsgEvent || m.Event.Kind != api.KindExit || m.Event.Seq != sum.LastSeq {
		t.Fatalf("second replayed message %+v, want the exit event %d", m, sum.LastSeq)
	}
}

// TestStreamSubscribeByName: a session may be subscribed to by its name; its messages name it by id.
func TestStreamSubscribeByName(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	ctx, cancel := context.WithTimeout(context.Background(), deadline)
	defer cancel()
	s := h.start(api.StartRequest{Target: "forever.js", Name: "ticker"})
	conn, replay := h.dialStream(ctx, "session=ticker&kinds=console")
	if len(replay) != 0 {
		t.Fatalf("replay without a cursor: %+v", replay)
	}
	for {
		m := readMessage(ctx, t, conn)
		if m.Session != s.ID {
			t.Fatalf("message %+v names session %q, want the id %q", m, m.Session, s.ID)
		}
		if m.Type == api.MsgEvent {
			if m.Event.Kind != api.KindConsole {
				t.Fatalf("event %+v: kinds=console let another kind through", m.Event)
			}
			break
		}
	}
	conn.Close(websocket.StatusNormalClosure, "")
}

func TestStreamGapForEvictedCursor(t *testing.T) {
	t.Parallel()
	h := newHarness(t, func(o *service.Options) { o.Engine.MaxEvents = 100 })
	ctx, cancel := context.WithTimeout(context.Background(), deadline)
	defer cancel()
	s := h.start(api.StartRequest{Target: "lines.js", Args: []string{"500"}})
	sum := h.waitExit(s.ID)
	_, replay := h.dialStream(ctx, fmt.Sprintf("session=%s&after=5", s.ID))
	if len(replay) == 0 || replay[0].Type != api.MsgGap || replay[0].Gap.From != 6 || replay[0].Gap.To != sum.LastSeq-100 {
		t.Fatalf("first replayed message %+v, want gap 6..%d", replay[0], sum.LastSeq-100)
	}
	if n := len(replay) - 1; n != 100 {
		t.Fatalf("replayed %d events after the gap, want the 100 retained", n)
	}
}

func TestSlowSubscriberIsClosedAndOthersLoseNothing(t *testing.T) {
	// Not parallel: the healthy reader must keep up with 40,000 messages; load could make it the slow one.
	h := newHarness(t, func(o *service.Options) {
		o.StreamQueue = 16384 // ~2 s of slack for the healthy reader on a busy 2-core machine
		// The stalled client reads once the run is over; its blocked write must still be pending
		// then, so that the server's 1008 can reach it rather than a cut connection.
		o.StreamWriteTimeout = 2 * deadline
		o.Engine.MaxEvents = 100_000
	})
	// The heaviest test: 40,000 messages under -race, over 60 s on a loaded machine.
	ctx, cancel := context.WithTimeout(context.Background(), 2*deadline)
	defer cancel()
	// A 4 KiB receive buffer: the stalled client's socket fills after a few messages, so its
	// queue overflows soon, while the healthy client keeps the default buffer.
	dial, restore := smallReceiveBuffer()
	stalled, _ := h.dialStreamWith(ctx, "", dial)
	healthy, _ := h.dialStream(ctx, "")
	// 40,000 messages of ~1 KB: more than the stalled one's queue plus socket buffers hold.
	s := h.start(api.StartRequest{Target: "chatty.js", Args: []string{"20000", "900"}})

	// The healthy reader keeps raw frames and decodes after the run, so that it keeps up even
	// under the race detector.
	var frames [][]byte
	for {
		_, data, err := healthy.Read(ctx)
		if err != nil {
			t.Fatalf("healthy subscriber: %v (after %d messages)", err, len(frames))
		}
		frames = append(frames, data)
		if bytes.Contains(data, []byte(`"kind":"exit"`)) {
			break
		}
	}
	sum := h.waitExit(s.ID)
	var seqs []uint64
	for _, f := range frames {
		var m api.StreamMessage
		if err := json.Unmarshal(f, &m); err != nil {
			t.Fatal(err)
		}
		if m.Type == api.MsgEvent && m.Session == s.ID {
			seqs = append(seqs, m.Event.Seq)
		}
	}
	if uint64(len(seqs)) != sum.LastSeq {
		t.Fatalf("healthy subscriber got %d events, session produced %d", len(seqs), sum.LastSeq)
	}
	for i, seq := range seqs {
		if seq != uint64(i+1) {
			t.Fatalf("healthy subscriber: event %d has seq %d", i, seq)
		}
	}
	if sum.Counts[api.KindConsole] != 20000 {
		t.Fatalf("capture lost events: %v", sum.Counts)
	}
	// The stalled subscriber now reads: what was queued, then the policy close.
	if err := restore(); err != nil {
		t.Fatal(err)
	}
	var err error
	for err == nil {
		_, _, err = stalled.Read(ctx)
	}
	if st := websocket.CloseStatus(err); st != websocket.StatusPolicyViolation {
		t.Fatalf("stalled subscriber ended with %v, want 1008", err)
	}
	healthy.Close(websocket.StatusNormalClosure, "")
}

func TestShutdownClosesStreamsGoingAway(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	ctx, cancel := context.WithTimeout(context.Background(), deadline)
	defer cancel()
	conn, _ := h.dialStream(ctx, "")
	live := h.start(api.StartRequest{Target: "forever.js"})
	ended := make(chan error, 1)
	go func() { // a client reads, so the close handshake completes
		var err error
		for err == nil {
			_, _, err = conn.Read(ctx)
		}
		ended <- err
	}()
	if err := h.svc.Shutdown(ctx); err != nil {
		t.Fatal(err)
	}
	err := <-ended
	if st := websocket.CloseStatus(err); st != websocket.StatusGoingAway {
		t.Fatalf("stream ended with %v, want 1001", err)
	}
	s, err := h.svc.Engine.Get(live.ID)
	if err != nil {
		t.Fatal(err)
	}
	if sum := s.Summary(); sum.Status != engine.StatusStopped {
		t.Fatalf("live session after shutdown: %+v", sum)
	}
}
