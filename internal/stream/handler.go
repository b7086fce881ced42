package stream

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"github.com/coder/websocket"

	"traced/api"
)

// Error codes of the responses /api/stream gives before upgrading.
const (
	CodeInvalidQuery    = "invalid_query"
	CodeSessionNotFound = "session_not_found"
	CodeShuttingDown    = "shutting_down"
)

// query is a parsed /api/stream request.
type query struct {
	session string
	kinds   map[api.Kind]bool
	after   uint64
	resume  bool // after was given
}

// start is what a subscriber is sent before its live messages.
type start struct {
	gap    *api.Gap
	replay []api.Event
	newest uint64
	// cutoff is the highest seq the replay accounts for: queued live events at or below it are
	// duplicates of replayed ones (or fall inside the gap) and are dropped.
	cutoff uint64
}

// reqError is a failure answered with a plain HTTP response, before any upgrade.
type reqError struct {
	status int
	detail api.ErrorDetail
}

// ServeHTTP serves GET /api/stream?session=&kinds=&after=. It validates the query, registers the
// subscriber, reads the replay window, upgrades, then writes until the client leaves, the
// subscriber overflows, or the hub shuts down.
func (h *Hub) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	q, rerr := parseQuery(r.URL.Query())
	if rerr != nil {
		writeError(w, rerr)
		return
	}
	s := &subscriber{
		session:  q.session,
		kinds:    q.kinds,
		queue:    make(chan *message, h.queueSize),
		overflow: make(chan struct{}),
	}
	if !h.join(s) {
		writeError(w, &reqError{http.StatusServiceUnavailable, api.ErrorDetail{Code: CodeShuttingDown,
			Message: "the service is shutting down", Hint: "reconnect with your cursor once it is back"}})
		return
	}
	defer h.leave(s)
	// Joined before reading the window, so an event is either in the replay or in the queue.
	st, rerr := h.window(q)
	if rerr != nil {
		writeError(w, rerr)
		return
	}
	conn, err := websocket.Accept(w, r, h.accept)
	if err != nil { // Accept has answered the request
		h.log.Debug("stream upgrade refused", "err", err)
		return
	}
	defer conn.CloseNow()
	h.setConn(s, conn)
	conn.SetReadLimit(readLimit)
	ctx := conn.CloseRead(r.Context())

	code, reason, err := h.pump(ctx, conn, s, st)
	switch {
	case err == nil:
		if code == websocket.StatusPolicyViolation {
			h.log.Info("stream subscriber too slow", "session", s.session, "reason", reason)
		}
		conn.Close(code, reason)
	case errors.Is(err, context.DeadlineExceeded):
		h.log.Warn("stream write timed out: subscriber dropped", "session", s.session, "timeout", h.writeTimeout)
	case ctx.Err() != nil || errors.Is(err, net.ErrClosed) || websocket.CloseStatus(err) != -1:
		h.log.Debug("stream subscriber left", "session", s.session, "err", err)
	default:
		h.log.Warn("stream write failed", "session", s.session, "err", err)
	}
}

// window reads what a session subscriber is owed before live messages; nothing for the others.
func (h *Hub) window(q query) (start, *reqError) {
	if q.session == "" {
		return start{}, nil
	}
	after := uint64(math.MaxUint64) // live only: learn the window, replay nothing
	if q.resume {
		after = q.after
	}
	var (
		evs            []api.Event
		oldest, newest uint64
		ok             bool
	)
	if h.src != nil {
		evs, oldest, newest, ok = h.src.Retained(q.session, after)
	}
	if !ok {
		return start{}, &reqError{http.StatusNotFound, api.ErrorDetail{Code: CodeSessionNotFound,
			Message: fmt.Sprintf("no session %q", q.session), Hint: "list sessions with GET /api/trace/list"}}
	}
	st := start{replay: evs, newest: newest, cutoff: newest}
	if q.resume {
		st.cutoff = max(newest, q.after)
		first := oldest // the first seq still replayable
		if first == 0 {
			first = newest + 1
		}
		if q.after+1 < first {
			st.gap = &api.Gap{From: q.after + 1, To: first - 1}
		}
	}
	return st, nil
}

// pump writes the gap, the replay, the live marker, then queued messages. It returns the close
// status to send, or the write error that ended the connection.
func (h *Hub) pump(ctx context.Context, conn *websocket.Conn, s *subscriber, st start) (websocket.StatusCode, string, error) {
	goingAway := func() (websocket.StatusCode, string, error) {
		return websocket.StatusGoingAway, "server shutting down", nil
	}
	if st.gap != nil {
		if err := h.write(ctx, conn, api.StreamMessage{Type: api.MsgGap, Session: s.session, Gap: st.gap}); err != nil {
			return 0, "", err
		}
	}
	for i := range st.replay {
		if h.stopping() {
			return goingAway()
		}
		ev := &st.replay[i]
		if len(s.kinds) > 0 && !s.kinds[ev.Kind] {
			continue
		}
		if err := h.write(ctx, conn, api.StreamMessage{Type: api.MsgEvent, Session: s.session, Event: ev}); err != nil {
			return 0, "", err
		}
	}
	if err := h.write(ctx, conn, api.StreamMessage{Type: api.MsgLive, Session: s.session, Newest: st.newest}); err != nil {
		return 0, "", err
	}
	cursor := st.cutoff // the last seq this subscriber has accounted for
	for {
		select { // an overflowed queue has lost a message: sending what it still holds would hide that
		case <-s.overflow:
			return h.tooSlow(s, cursor)
		default:
		}
		select {
		case <-ctx.Done():
			return 0, "", ctx.Err()
		case <-h.done:
			return goingAway()
		case <-s.overflow:
			return h.tooSlow(s, cursor)
		case m := <-s.queue:
			if m.seq != 0 && m.seq <= st.cutoff {
				continue
			}
			data, err := m.encode()
			if err != nil {
				h.log.Error("stream message not encodable", "err", err)
				return websocket.StatusInternalError, "message not encodable", nil
			}
			if err := h.writeRaw(ctx, conn, data); err != nil {
				return 0, "", err
			}
			if m.seq != 0 {
				cursor = m.seq
			}
		}
	}
}

func (h *Hub) tooSlow(s *subscriber, cursor uint64) (websocket.StatusCode, string, error) {
	if s.session == "" {
		return websocket.StatusPolicyViolation, "subscriber too slow: reconnect (resume a session with session=<id>&after=<last seq>)", nil
	}
	return websocket.StatusPolicyViolation, fmt.Sprintf("subscriber too slow: reconnect with after=%d", cursor), nil
}

func (h *Hub) write(ctx context.Context, conn *websocket.Conn, m api.StreamMessage) error {
	data, err := json.Marshal(&m)
	if err != nil {
		return err
	}
	return h.writeRaw(ctx, conn, data)
}

func (h *Hub) writeRaw(ctx context.Context, conn *websocket.Conn, data []byte) error {
	ctx, cancel := context.WithTimeout(ctx, h.writeTimeout)
	defer cancel()
	return conn.Write(ctx, websocket.MessageText, data)
}

func parseQuery(v url.Values) (query, *reqError) {
	bad := func(msg, hint string) (query, *reqError) {
		return query{}, &reqError{http.StatusBadRequest, api.ErrorDetail{Code: CodeInvalidQuery, Message: msg, Hint: hint}}
	}
	q := query{session: v.Get("session")}
	if k := v.Get("kinds"); k != "" {
		q.kinds = make(map[api.Kind]bool)
		for name := range strings.SplitSeq(k, ",") {
			if name = strings.TrimSpace(name); name == "" {
				return bad("kinds has an empty element", "pass a comma list of kinds, e.g. kinds=console,exception")
			}
			if !api.ValidKind(api.Kind(name)) {
				return bad(fmt.Sprintf("kinds: unknown kind %q", name), "kinds is a comma list of: "+api.KindList())
			}
			q.kinds[api.Kind(name)] = true
		}
	}
	if a, ok := v["after"]; ok {
		n, err := strconv.ParseUint(a[0], 10, 64)
		if err != nil {
			return bad(fmt.Sprintf("after %q is not a seq", a[0]), "after is the last seq you received, a decimal integer")
		}
		if q.session == "" {
			return bad("after needs a session: seqs are per session", "add session=<id>, e.g. /api/stream?session=<id>&after=<seq>")
		}
		q.after, q.resume = n, true
	}
	return q, nil
}

func writeError(w http.ResponseWriter, e *reqError) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("X-Content-Type-Options", "nosniff")
	w.WriteHeader(e.status)
	json.NewEncoder(w).Encode(api.ErrorBody{Error: e.detail})
}
