package cdp_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/coder/websocket"

	"traced/internal/cdp"
	"traced/internal/leakcheck"
)

// TestMain fails the package when a goroutine or a node child outlives its tests.
func TestMain(m *testing.M) { os.Exit(leakcheck.Run(m)) }

func TestCallRepliesOutOfOrder(t *testing.T) {
	client, p := dialPeer(t, cdp.Options{})
	ctx := context.Background()

	first := goCall(ctx, client, "Test.first", nil)
	req1 := p.readRequest()
	second := goCall(ctx, client, "Test.second", map[string]int{"n": 2})
	req2 := p.readRequest()
	if req1.Method != "Test.first" || req2.Method != "Test.second" {
		t.Fatalf("peer got %q then %q", req1.Method, req2.Method)
	}
	if req1.ID == req2.ID {
		t.Fatalf("both calls got id %d", req1.ID)
	}
	if string(req2.Params) != `{"n":2}` {
		t.Errorf("params = %s, want {\"n\":2}", req2.Params)
	}
	if string(req1.Params) != `{}` {
		t.Errorf("nil params sent as %s, want {}", req1.Params)
	}

	p.reply(req2.ID, map[string]string{"who": "second"})
	p.reply(req1.ID, map[string]string{"who": "first"})

	for _, tc := range []struct {
		ch   <-chan callResult
		want string
	}{{first, `{"who":"first"}`}, {second, `{"who":"second"}`}} {
		r := await(t, tc.ch)
		if r.err != nil {
			t.Fatalf("call: %v", r.err)
		}
		if string(r.result) != tc.want {
			t.Errorf("result = %s, want %s", r.result, tc.want)
		}
	}
}

func TestCallConcurrent(t *testing.T) {
	client, p := dialPeer(t, cdp.Options{})
	p.serve(func(req request) any { return req.Params })

	const callers, calls = 16, 50
	errs := make(chan error, callers)
	for g := range callers {
		go func() {
			ctx, cancel := context.WithTimeout(context.Background(), testTimeout)
			defer cancel()
			for i := range calls {
				var got struct{ G, I int }
				if err := client.Call(ctx, "Test.echo", map[string]int{"G": g, "I": i}, &got); err != nil {
					errs <- err
					return
				}
				if got.G != g || got.I != i {
					errs <- fmt.Errorf("caller %d call %d got reply for %d/%d", g, i, got.G, got.I)
					return
				}
			}
			errs <- nil
		}()
	}
	for range callers {
		if err := <-errs; err != nil {
			t.Error(err)
		}
	}
}

func TestCallProtocolError(t *testing.T) {
	tests := []struct {
		name    string
		errJSON string
		want    cdp.Error
		wantMsg string
	}{
		{
			name:    "code and message",
			errJSON: `{"code":-32601,"message":"'Nope.nope' wasn't found"}`,
			want:    cdp.Error{Code: -32601, Message: "'Nope.nope' wasn't found"},
			wantMsg: "Nope.nope: cdp error -32601: 'Nope.nope' wasn't found",
		},
		{
			name:    "with data",
			errJSON: `{"code":-32602,"message":"Invalid parameters","data":"Failed to deserialize params.expression"}`,
			want:    cdp.Error{Code: -32602, Message: "Invalid parameters", Data: "Failed to deserialize params.expression"},
			wantMsg: "Nope.nope: cdp error -32602: Invalid parameters (Failed to deserialize params.expression)",
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			client, p := dialPeer(t, cdp.Options{})
			res := goCall(context.Background(), client, "Nope.nope", nil)
			req := p.readRequest()
			p.send(websocket.MessageText, fmt.Sprintf(`{"id":%d,"error":%s}`, req.ID, tc.errJSON))

			err := await(t, res).err
			var cerr *cdp.Error
			if !errors.As(err, &cerr) {
				t.Fatalf("err = %v (%T), want a *cdp.Error", err, err)
			}
			if *cerr != tc.want {
				t.Errorf("error = %+v, want %+v", *cerr, tc.want)
			}
			if err.Error() != tc.wantMsg {
				t.Errorf("message = %q, want %q", err.Error(), tc.wantMsg)
			}
			if errors.Is(err, cdp.ErrClosed) {
				t.Error("a protocol error must not read as a closed connection")
			}

			// The connection is unaffected.
			next := goCall(context.Background(), client, "Test.after", nil)
			p.reply(p.readRequest().ID, true)
			if err := await(t, next).err; err != nil {
				t.Fatalf("call after protocol error: %v", err)
			}
		})
	}
}

func TestCallResultDecodeError(t *testing.T) {
	client, p := dialPeer(t, cdp.Options{})
	res := make(chan error, 1)
	go func() {
		var n int
		res <- client.Call(context.Background(), "Test.number", nil, &n)
	}()
	p.reply(p.readRequest().ID, "not a number")
	select {
	case err := <-res:
		if err == nil || !strings.Contains(err.Error(), "decode result") {
			t.Fatalf("err = %v, want a decode error", err)
		}
	case <-time.After(testTimeout):
		t.Fatal("call did not return")
	}
	if err := client.Err(); err != nil {
		t.Fatalf("a result the caller cannot decode ended the connection: %v", err)
	}
}

func TestCallContextWins(t *testing.T) {
	t.Run("deadline while peer never answers", func(t *testing.T) {
		client, p := dialPeer(t, cdp.Options{})
		ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
		defer cancel()
		res := goCall(ctx, client, "Test.silent", nil)
		abandoned := p.readRequest()
		if err := await(t, res).err; !errors.Is(err, context.DeadlineExceeded) {
			t.Fatalf("err = %v, want context.DeadlineExceeded", err)
		}

		// A late reply for the abandoned call is ignored and the connection still works.
		p.reply(abandoned.ID, "late")
		next := goCall(context.Background(), client, "Test.next", nil)
		req := p.readRequest()
		p.reply(req.ID, "fresh")
		r := await(t, next)
		if r.err != nil || string(r.result) != `"fresh"` {
			t.Fatalf("next call = %s, %v; want \"fresh\"", r.result, r.err)
		}
	})

	t.Run("cancel while waiting", func(t *testing.T) {
		client, p := dialPeer(t, cdp.Options{})
		ctx, cancel := context.WithCancel(context.Background())
		res := goCall(ctx, client, "Test.silent", nil)
		p.readRequest()
		cancel()
		if err := await(t, res).err; !errors.Is(err, context.Canceled) {
			t.Fatalf("err = %v, want context.Canceled", err)
		}
		if err := client.Err(); err != nil {
			t.Fatalf("one caller's cancellation ended the connection: %v", err)
		}
	})

	// The websocket library closes the whole connection when a write's context is done, so a
	// caller's context must never reach it.
	t.Run("already cancelled does not end the connection", func(t *testing.T) {
		client, p := dialPeer(t, cdp.Options{})
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		for range 200 {
			if err := client.Call(ctx, "Test.never", nil, nil); !errors.Is(err, context.Canceled) {
				t.Fatalf("err = %v, want context.Canceled", err)
			}
		}
		res := goCall(context.Background(), client, "Test.after", nil)
		req := p.readRequest()
		if req.Method != "Test.after" {
			t.Fatalf("peer got %s: a cancelled call was sent", req.Method)
		}
		p.reply(req.ID, true)
		if err := await(t, res).err; err != nil {
			t.Fatalf("call after cancelled calls: %v", err)
		}
	})

	t.Run("over a closed connection", func(t *testing.T) {
		client, p := dialPeer(t, cdp.Options{})
		p.drain()
		client.Close()
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		if err := client.Call(ctx, "Test.never", nil, nil); !errors.Is(err, context.Canceled) {
			t.Fatalf("err = %v, want context.Canceled", err)
		}
	})
}

func TestPeerDropsConnectionMidCall(t *testing.T) {
	client, p := dialPeer(t, cdp.Options{})
	res := goCall(context.Background(), client, "Test.pending", nil)
	p.readRequest()
	p.conn.CloseNow()

	if err := await(t, res).err; !errors.Is(err, cdp.ErrClosed) {
		t.Fatalf("pending call err = %v, want one wrapping ErrClosed", err)
	}
	waitDone(t, client)
	if err := client.Err(); !errors.Is(err, cdp.ErrClosed) {
		t.Errorf("Err() = %v, want one wrapping ErrClosed", err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), testTimeout)
	defer cancel()
	if err := client.Call(ctx, "Test.later", nil, nil); !errors.Is(err, cdp.ErrClosed) {
		t.Errorf("later call err = %v, want one wrapping ErrClosed", err)
	}
	if err := client.Close(); err != nil {
		t.Errorf("Close after the peer left = %v, want nil", err)
	}
}

func TestMalformedMessageEndsConnection(t *testing.T) {
	for _, raw := range []string{
		`not json at all`,
		`{"id":1,"result":`,
		`[1,2,3]`,
		`{"id":"1","result":{}}`,
		`{"method":5}`,
		`{"id":1,"error":"a string, not an object"}`,
	} {
		t.Run(raw, func(t *testing.T) {
			client, p := dialPeer(t, cdp.Options{})
			res := goCall(context.Background(), client, "Test.pending", nil)
			p.readRequest() // the call is pending
			p.drain()       // answers the client's close frame
			p.send(websocket.MessageText, raw)
			if err := await(t, res).err; !errors.Is(err, cdp.ErrClosed) {
				t.Fatalf("pending call err = %v, want one wrapping ErrClosed", err)
			}
			waitDone(t, client)
			if err := client.Err(); err == nil || !strings.Contains(err.Error(), "malformed") {
				t.Errorf("Err() = %v, want a malformed-message cause", err)
			}
		})
	}
}

func TestMessagesIgnored(t *testing.T) {
	client, p := dialPeer(t, cdp.Options{})
	res := goCall(context.Background(), client, "Test.real", nil)
	req := p.readRequest()
	for _, raw := range []string{
		fmt.Sprintf(`{"id":%d,"result":"unknown id"}`, req.ID+1000),
		`{"id":-7,"error":{"code":1,"message":"unknown id"}}`,
		`{"id":0,"result":"id zero is never ours"}`,
		`null`,
		`{}`,
		`{"unexpected":"field"}`,
	} {
		p.send(websocket.MessageText, raw)
	}
	p.reply(req.ID, "mine")
	r := await(t, res)
	if r.err != nil || string(r.result) != `"mine"` {
		t.Fatalf("call = %s, %v; want \"mine\"", r.result, r.err)
	}
}

func TestReadLimit(t *testing.T) {
	const limit = 4 << 10
	t.Run("under the limit", func(t *testing.T) {
		client, p := dialPeer(t, cdp.Options{ReadLimit: limit})
		res := goCall(context.Background(), client, "Test.big", nil)
		p.reply(p.readRequest().ID, strings.Repeat("x", limit-100))
		if r := await(t, res); r.err != nil || len(r.result) != limit-100+2 {
			t.Fatalf("call = %d bytes, %v", len(r.result), r.err)
		}
	})
	t.Run("over the limit", func(t *testing.T) {
		client, p := dialPeer(t, cdp.Options{ReadLimit: limit})
		res := goCall(context.Background(), client, "Test.pending", nil)
		p.readRequest()
		p.drain()
		p.event("Test.huge", strings.Repeat("x", 4*limit))
		err := await(t, res).err
		if !errors.Is(err, cdp.ErrClosed) || !errors.Is(err, websocket.ErrMessageTooBig) {
			t.Fatalf("pending call err = %v, want ErrClosed and ErrMessageTooBig", err)
		}
		waitDone(t, client)
	})
}

func TestClose(t *testing.T) {
	client, p := dialPeer(t, cdp.Options{})
	p.drain()
	if err := client.Close(); err != nil {
		t.Fatalf("Close = %v", err)
	}
	waitDone(t, client)
	if err := client.Err(); !errors.Is(err, cdp.ErrClosed) {
		t.Errorf("Err() = %v, want ErrClosed", err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), testTimeout)
	defer cancel()
	if err := client.Call(ctx, "Test.later", nil, nil); !errors.Is(err, cdp.ErrClosed) {
		t.Errorf("call after Close = %v, want one wrapping ErrClosed", err)
	}
	if err := client.Close(); err != nil {
		t.Errorf("second Close = %v, want nil", err)
	}
}

func TestClosePendingCall(t *testing.T) {
	client, p := dialPeer(t, cdp.Options{})
	res := goCall(context.Background(), client, "Test.pending", nil)
	p.readRequest()
	p.drain()
	closed := make(chan error, 1)
	go func() { closed <- client.Close() }()
	if err := await(t, res).err; !errors.Is(err, cdp.ErrClosed) {
		t.Fatalf("pending call err = %v, want one wrapping ErrClosed", err)
	}
	select {
	case err := <-closed:
		if err != nil {
			t.Errorf("Close = %v", err)
		}
	case <-time.After(testTimeout):
		t.Fatal("Close did not return")
	}
	waitDone(t, client)
}

// Done waits for every event queued before the connection ended to be dispatched.
func TestDoneAfterQueuedEvents(t *testing.T) {
	const n = 200
	var got []int
	client, p := dialPeer(t, cdp.Options{OnEvent: func(ev cdp.Event) {
		var params struct{ I int }
		json.Unmarshal(ev.Params, &params)
		got = append(got, params.I)
	}})
	for i := range n {
		p.event("Test.seq", map[string]int{"I": i})
	}
	p.conn.Close(websocket.StatusNormalClosure, "bye")
	waitDone(t, client) // orders the dispatcher's writes to got before our reads
	if len(got) != n {
		t.Fatalf("dispatched %d events before Done, want %d", len(got), n)
	}
	for i, v := range got {
		if v != i {
			t.Fatalf("event %d carried %d", i, v)
		}
	}
}

// OnEvent may close the client it belongs to.
func TestCloseFromOnEvent(t *testing.T) {
	var self atomic.Pointer[cdp.Client]
	closed := make(chan error, 1)
	client, p := dialPeer(t, cdp.Options{OnEvent: func(ev cdp.Event) {
		closed <- self.Load().Close()
	}})
	self.Store(client)
	p.drain()
	p.event("Inspector.detached", map[string]string{"reason": "test"})
	select {
	case err := <-closed:
		if err != nil {
			t.Errorf("Close from OnEvent = %v", err)
		}
	case <-time.After(testTimeout):
		t.Fatal("Close from OnEvent did not return")
	}
	waitDone(t, client)
}

func TestDialFailure(t *testing.T) {
	srv := httptest.NewServer(http.NotFoundHandler())
	t.Cleanup(srv.Close)
	ctx, cancel := context.WithTimeout(context.Background(), testTimeout)
	defer cancel()
	client, err := cdp.Dial(ctx, wsURL(srv), cdp.Options{})
	if err == nil {
		client.Close()
		t.Fatal("Dial to a non-WebSocket endpoint succeeded")
	}
	if !strings.Contains(err.Error(), wsURL(srv)) {
		t.Errorf("error %q does not name the URL", err)
	}
}
