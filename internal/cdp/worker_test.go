package cdp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"testing"
	"time"
)

// fakeParent is the parent connection of a worker: it takes each tunnelled command and hands it
// to the test.
type fakeParent struct {
	sent chan command
}

func (p *fakeParent) Call(ctx context.Context, method string, params, result any) error {
	if method != "NodeWorker.sendMessageToWorker" {
		return fmt.Errorf("unexpected %s", method)
	}
	raw, _ := json.Marshal(params)
	var tunnel struct {
		SessionID string `json:"sessionId"`
		Message   string `json:"message"`
	}
	if err := json.Unmarshal(raw, &tunnel); err != nil || tunnel.SessionID != "w1" {
		return fmt.Errorf("bad tunnel %s: %v", raw, err)
	}
	var cmd command
	if err := json.Unmarshal([]byte(tunnel.Message), &cmd); err != nil {
		return err
	}
	p.sent <- cmd
	return nil
}
func (p *fakeParent) Send(context.Context, string, any) (*Pending, error) { return nil, ErrClosed }
func (p *fakeParent) Close() error                                        { return nil }
func (p *fakeParent) Done() <-chan struct{}                               { return nil }
func (p *fakeParent) Err() error                                          { return nil }

func TestWorkerTunnelsCallsAndEvents(t *testing.T) {
	parent := &fakeParent{sent: make(chan command, 4)}
	var w *Worker
	got := make(chan string, 4)
	// The handler calls the worker and waits: the reply comes through Receive (the parent's
	// dispatcher), not through the worker's own dispatcher, which is the one waiting.
	w = NewWorker(parent, "w1", func(ev Event) {
		var res struct{ Value int }
		err := w.Call(context.Background(), "Runtime.evaluate", nil, &res)
		got <- fmt.Sprintf("%s %d %v", ev.Method, res.Value, err)
	})
	t.Cleanup(func() { w.Close(); <-w.Done() })

	w.Receive([]byte(`{"method":"Debugger.paused","params":{}}`))
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	select {
	case cmd := <-parent.sent:
		if cmd.Method != "Runtime.evaluate" {
			t.Fatalf("sent %s", cmd.Method)
		}
		w.Receive(fmt.Appendf(nil, `{"id":%d,"result":{"value":7}}`, cmd.ID))
	case <-ctx.Done():
		t.Fatal("no command tunnelled")
	}
	select {
	case s := <-got:
		if s != "Debugger.paused 7 <nil>" {
			t.Fatalf("handler saw %q", s)
		}
	case <-ctx.Done():
		t.Fatal("handler did not finish")
	}
}

func TestWorkerEndFailsCallsWithItsCause(t *testing.T) {
	parent := &fakeParent{sent: make(chan command, 4)}
	w := NewWorker(parent, "w1", nil)
	p, err := w.Send(context.Background(), "Runtime.evaluate", nil)
	if err != nil {
		t.Fatal(err)
	}
	gone := errors.New("the worker ended")
	w.End(gone)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := p.Wait(ctx, nil); !errors.Is(err, gone) {
		t.Fatalf("pending call = %v, want the cause", err)
	}
	if err := w.Call(ctx, "Runtime.evaluate", nil, nil); !errors.Is(err, gone) {
		t.Fatalf("later call = %v, want the cause", err)
	}
	select {
	case <-w.Done():
	case <-ctx.Done():
		t.Fatal("dispatcher did not end")
	}
	if !errors.Is(w.Err(), gone) {
		t.Fatalf("Err = %v", w.Err())
	}
}
