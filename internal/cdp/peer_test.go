package cdp_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"

	"traced/internal/cdp"
)

// The fake CDP peer these tests dial: a WebSocket server that reads requests and writes
// replies and events as each test says, for faults real node cannot produce on demand.

// testTimeout bounds every wait in these tests: generous for a loaded machine under -race, short
// enough that a hang fails the test instead of stalling the suite until the global timeout.
const testTimeout = 10 * time.Second

// request is a call as the peer receives it.
type request struct {
	ID     int64           `json:"id"`
	Method string          `json:"method"`
	Params json.RawMessage `json:"params"`
}

// peer is the scripted server end of one connection. Its methods fail the test, so call them
// from the test goroutine only.
type peer struct {
	t    *testing.T
	conn *websocket.Conn
}

// dialPeer starts a fake CDP peer, dials it and returns both ends. The dial context is cancelled
// on return, as the engine's start context is: the connection must outlive it. Cleanup drops the
// peer's socket, closes the client, waits for Done and stops the server.
func dialPeer(t *testing.T, opts cdp.Options) (*cdp.Client, *peer) {
	t.Helper()
	accepted := make(chan *websocket.Conn, 1)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		conn, err := websocket.Accept(w, r, nil)
		if err != nil {
			return
		}
		accepted <- conn
	}))
	t.Cleanup(srv.Close)

	ctx, cancel := context.WithTimeout(context.Background(), testTimeout)
	defer cancel()
	client, err := cdp.Dial(ctx, wsURL(srv), opts)
	if err != nil {
		t.Fatalf("dial: %v", err)
	}
	var conn *websocket.Conn
	select {
	case conn = <-accepted:
	case <-ctx.Done():
		client.Close()
		t.Fatal("peer never accepted the connection")
	}
	t.Cleanup(func() {
		conn.CloseNow()
		client.Close()
		waitDone(t, client)
	})
	return client, &peer{t: t, conn: conn}
}

func wsURL(srv *httptest.Server) string { return "ws" + strings.TrimPrefix(srv.URL, "http") }

// readRequest waits for the client's next call.
func (p *peer) readRequest() request {
	p.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), testTimeout)
	defer cancel()
	typ, data, err := p.conn.Read(ctx)
	if err != nil {
		p.t.Fatalf("peer read: %v", err)
	}
	if typ != websocket.MessageText {
		p.t.Fatalf("peer read %v message, want text", typ)
	}
	var req request
	if err := json.Unmarshal(data, &req); err != nil {
		p.t.Fatalf("peer got malformed request %q: %v", data, err)
	}
	return req
}

// send writes one raw message to the client.
func (p *peer) send(typ websocket.MessageType, raw string) {
	p.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), testTimeout)
	defer cancel()
	if err := p.conn.Write(ctx, typ, []byte(raw)); err != nil {
		p.t.Fatalf("peer write: %v", err)
	}
}

func (p *peer) sendJSON(v any) {
	p.t.Helper()
	raw, err := json.Marshal(v)
	if err != nil {
		p.t.Fatal(err)
	}
	p.send(websocket.MessageText, string(raw))
}

func (p *peer) reply(id int64, result any) {
	p.t.Helper()
	p.sendJSON(map[string]any{"id": id, "result": result})
}

func (p *peer) event(method string, params any) {
	p.t.Helper()
	p.sendJSON(map[string]any{"method": method, "params": params})
}

// serve answers every call with handle's result on its own goroutine until the connection ends;
// cleanup drops the connection and waits for that goroutine.
func (p *peer) serve(handle func(request) any) {
	stopped := make(chan struct{})
	go func() {
		defer close(stopped)
		for {
			_, data, err := p.conn.Read(context.Background())
			if err != nil {
				return
			}
			var req request
			if json.Unmarshal(data, &req) != nil {
				return
			}
			raw, _ := json.Marshal(map[string]any{"id": req.ID, "result": handle(req)})
			if p.conn.Write(context.Background(), websocket.MessageText, raw) != nil {
				return
			}
		}
	}()
	p.t.Cleanup(func() {
		p.conn.CloseNow()
		<-stopped
	})
}

// drain reads and discards on its own goroutine so close handshakes complete; cleanup waits for it.
func (p *peer) drain() {
	stopped := make(chan struct{})
	go func() {
		defer close(stopped)
		for {
			if _, _, err := p.conn.Read(context.Background()); err != nil {
				return
			}
		}
	}()
	p.t.Cleanup(func() {
		p.conn.CloseNow()
		<-stopped
	})
}

type callResult struct {
	result json.RawMessage
	err    error
}

// goCall starts a call and returns where its outcome will arrive.
func goCall(ctx context.Context, c *cdp.Client, method string, params any) <-chan callResult {
	ch := make(chan callResult, 1)
	go func() {
		var r json.RawMessage
		err := c.Call(ctx, method, params, &r)
		ch <- callResult{r, err}
	}()
	return ch
}

func await(t *testing.T, ch <-chan callResult) callResult {
	t.Helper()
	select {
	case r := <-ch:
		return r
	case <-time.After(testTimeout):
		t.Fatal("call did not return")
		return callResult{}
	}
}

func waitDone(t testing.TB, c *cdp.Client) {
	t.Helper()
	select {
	case <-c.Done():
	case <-time.After(testTimeout):
		t.Fatal("client Done was not closed")
	}
}
