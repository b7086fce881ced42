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

// Error codes of the responses /api/stream gives before upgrading, the same the REST routes give.
const (
	CodeBadRequest      = "bad_request"      // 400: the query is malformed
	CodeNotFound        = "not_found"        // 404: no session has the id or name asked for
	CodeUpgradeRequired = "upgrade_required" // 426: a plain HTTP request, not a WebSocket handshake
	CodeShuttingDown    = "shutting_down"    // 503: the hub takes no new subscribers
)

// query is a parsed /api/stream request.
type query struct {
	session string // as asked: an id or a name; "" for every session
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

// ServeHTTP serves GET /api/stream?session=&kinds=&after=. It validates the query, resolves the
// session to its id, checks that the request is a WebSocket handshake, registers the subscriber,
// reads the replay window, upgrades, then writes until the client leaves, the subscriber
// overflows, or the hub shuts down.
func (h *Hub) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	q, rerr := parseQuery(r.URL.Query())
	if rerr != nil {
		writeError(w, rerr)
		return
	}
	// The query is checked first, so that a plain GET (curl) can debug it; a good one answers 426.
	id, rerr := h.resolve(q.session)
	if rerr != nil {
		writeError(w, rerr)
		return
	}
	if !isHandshake(r.Header) {
		// Our envelope, not the library's text/plain 426: Accept would answer before we could.
		w.Header().Set("Connection", "Upgrade")
		w.Header().Set("Upgrade", "websocket")
		writeError(w, &reqError{http.StatusUpgradeRequired, api.ErrorDetail{Code: CodeUpgradeRequired,
			Message: "GET /api/stream is a WebSocket endpoint: the request is not a WebSocket handshake",
			Hint:    "connect with a WebSocket client: " + wsURL(r)}})
		return
	}
	s := &subscriber{
		session:  id,
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
	st, rerr := h.window(id, q)
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

// resolve returns the id of the session asked for by id or name; "" stays "" (every session).
func (h *Hub) resolve(session string) (string, *reqError) {
	if session == "" {
		return "", nil
	}
	if h.src != nil {
		if id, ok := h.src.Resolve(session); ok {
			return id, nil
		}
	}
	return "", notFound(session)
}

func notFound(session string) *reqError {
	return &reqError{http.StatusNotFound, api.ErrorDetail{Code: CodeNotFound,
		Message: fmt.Sprintf("no session %q", session), Hint: "GET /api/trace/list shows the retained sessions"}}
}

// window reads what a subscriber of session id is owed before live messages; nothing for the
// others.
func (h *Hub) window(id string, q query) (start, *reqError) {
	if id == "" {
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
		evs, oldest, newest, ok = h.src.Retained(id, after)
	}
	if !ok { // resolved a moment ago, since evicted
		return start{}, notFound(q.session)
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
		return query{}, &reqError{http.StatusBadRequest, api.ErrorDetail{Code: CodeBadRequest, Message: msg, Hint: hint}}
	}
	kinds, err := api.ParseKinds(v.Get("kinds"))
	if err != nil {
		return bad(`query parameter "kinds": `+err.Error(), "pass a comma list of kinds without spaces, e.g. kinds=console,exception")
	}
	q := query{session: v.Get("session"), kinds: kinds}
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

// isHandshake reports whether h asks for a WebSocket upgrade, as RFC 6455 has it: Connection
// holds the token "upgrade" and Upgrade the token "websocket" (comma lists, any case; browsers
// send "Connection: keep-alive, Upgrade"). The rest of the handshake is Accept's to check.
func isHandshake(h http.Header) bool {
	return hasToken(h, "Connection", "upgrade") && hasToken(h, "Upgrade", "websocket")
}

func hasToken(h http.Header, key, token string) bool {
	for _, v := range h.Values(key) {
		for t := range strings.SplitSeq(v, ",") {
			if strings.EqualFold(strings.TrimSpace(t), token) {
				return true
			}
		}
	}
	return false
}

// wsURL is the WebSocket URL of the request r made over plain HTTP, with a ?token= (the browsers'
// way to authenticate) masked: a hint is no place to repeat a password.
func wsURL(r *http.Request) string {
	u := url.URL{Scheme: "ws", Host: r.Host, Path: r.URL.Path, RawQuery: r.URL.RawQuery}
	if r.TLS != nil {
		u.Scheme = "wss"
	}
	if v := r.URL.Query(); v.Has("token") {
		v.Set("token", "TOKEN")
		u.RawQuery = v.Encode()
	}
	return u.String()
}

func writeError(w http.ResponseWriter, e *reqError) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("X-Content-Type-Options", "nosniff")
	w.WriteHeader(e.status)
	json.NewEncoder(w).Encode(api.ErrorBody{Error: e.detail})
}
