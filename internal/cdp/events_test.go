package cdp_test

import (
	"context"
	"encoding/json"
	"fmt"
	"sync/atomic"
	"testing"
	"time"

	"github.com/coder/websocket"

	"traced/internal/cdp"
)

func TestEventsInOrder(t *testing.T) {
	events := make(chan cdp.Event, 100)
	client, p := dialPeer(t, cdp.Options{OnEvent: func(ev cdp.Event) { events <- ev }})

	p.event("Runtime.executionContextCreated", map[string]any{"context": map[string]int{"id": 1}})
	p.event("Future.somethingNew", map[string]any{"shape": []any{"we", "do", "not", "know"}})
	p.send(websocket.MessageBinary, "\x00\x01 binary frames are not CDP")
	p.send(websocket.MessageText, `{"method":"NoParams.atAll"}`)
	for i := range 20 {
		p.event("Test.seq", map[string]int{"i": i})
	}

	want := []string{"Runtime.executionContextCreated", "Future.somethingNew", "NoParams.atAll"}
	for i := range 20 {
		want = append(want, fmt.Sprintf("Test.seq %d", i))
	}
	for _, w := range want {
		var ev cdp.Event
		select {
		case ev = <-events:
		case <-time.After(testTimeout):
			t.Fatalf("no event, want %s", w)
		}
		got := ev.Method
		if ev.Method == "Test.seq" {
			var params struct{ I int }
			if err := json.Unmarshal(ev.Params, &params); err != nil {
				t.Fatalf("params %s: %v", ev.Params, err)
			}
			got = fmt.Sprintf("%s %d", ev.Method, params.I)
		}
		if got != w {
			t.Fatalf("event = %s, want %s", got, w)
		}
	}

	res := goCall(context.Background(), client, "Test.still", nil)
	p.reply(p.readRequest().ID, true)
	if err := await(t, res).err; err != nil {
		t.Fatalf("call after unknown events: %v", err)
	}
}

// A consumer that stops reading events must not stall replies: the reader queues events and
// keeps correlating.
func TestSlowOnEventDoesNotBlockReplies(t *testing.T) {
	entered := make(chan struct{})
	release := make(chan struct{})
	var dispatched atomic.Int64
	client, p := dialPeer(t, cdp.Options{OnEvent: func(ev cdp.Event) {
		if ev.Method == "Test.slow" {
			close(entered)
			<-release
		}
		dispatched.Add(1)
	}})
	t.Cleanup(func() { close(release) }) // runs before dialPeer's cleanup waits for Done

	p.event("Test.slow", nil)
	select {
	case <-entered:
	case <-time.After(testTimeout):
		t.Fatal("OnEvent never called")
	}
	for i := range 1000 {
		p.event("Test.queued", map[string]int{"i": i})
	}
	ctx, cancel := context.WithTimeout(context.Background(), testTimeout)
	defer cancel()
	res := goCall(ctx, client, "Test.call", nil)
	p.reply(p.readRequest().ID, "ok")
	r := await(t, res)
	if r.err != nil {
		t.Fatalf("call while OnEvent is blocked: %v", r.err)
	}
	if string(r.result) != `"ok"` {
		t.Errorf("result = %s", r.result)
	}
	if n := dispatched.Load(); n != 0 {
		t.Errorf("%d events dispatched while OnEvent was blocked", n)
	}
}

// OnEvent may call back into the client; its reply arrives through the reader, not the dispatcher.
func TestCallFromOnEvent(t *testing.T) {
	var self atomic.Pointer[cdp.Client]
	resumed := make(chan error, 1)
	client, p := dialPeer(t, cdp.Options{OnEvent: func(ev cdp.Event) {
		if ev.Method == "Debugger.paused" {
			ctx, cancel := context.WithTimeout(context.Background(), testTimeout)
			defer cancel()
			resumed <- self.Load().Call(ctx, "Debugger.resume", nil, nil)
		}
	}})
	self.Store(client)

	p.event("Debugger.paused", map[string]string{"reason": "other"})
	req := p.readRequest()
	if req.Method != "Debugger.resume" {
		t.Fatalf("peer got %s, want Debugger.resume", req.Method)
	}
	p.reply(req.ID, struct{}{})
	select {
	case err := <-resumed:
		if err != nil {
			t.Fatalf("call from OnEvent: %v", err)
		}
	case <-time.After(testTimeout):
		t.Fatal("call from OnEvent did not return")
	}
}

// An event the peer sends before a reply is handled once Drained returns after the call, though
// the reply overtakes it (a slow OnEvent holds it back here).
func TestDrainedAfterReply(t *testing.T) {
	release := make(chan struct{})
	var handled atomic.Bool
	client, p := dialPeer(t, cdp.Options{OnEvent: func(ev cdp.Event) {
		<-release
		if ev.Method == "Test.before" {
			handled.Store(true)
		}
	}})
	ctx, cancel := context.WithTimeout(context.Background(), testTimeout)
	defer cancel()
	res := goCall(ctx, client, "Test.enable", nil)
	id := p.readRequest().ID
	p.event("Test.before", nil)
	p.reply(id, nil)
	if r := await(t, res); r.err != nil {
		t.Fatal(r.err)
	}
	if handled.Load() {
		t.Fatal("the event was handled before the reply came back: the test shows nothing")
	}
	drained := make(chan error, 1)
	go func() { drained <- client.Drained(ctx) }()
	close(release)
	if err := <-drained; err != nil {
		t.Fatalf("Drained: %v", err)
	}
	if !handled.Load() {
		t.Fatal("Drained returned before the event sent ahead of the reply was handled")
	}
}
