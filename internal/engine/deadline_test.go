package engine

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"traced/internal/cdp"
	"traced/internal/cdp/proto"
)

// closedConn is a connection that has ended: every call fails with cdp.ErrClosed.
type closedConn struct{}

func (closedConn) Call(context.Context, string, any, any) error { return cdp.ErrClosed }
func (closedConn) Send(context.Context, string, any) (*cdp.Pending, error) {
	return nil, fmt.Errorf("%w: send: EOF", cdp.ErrClosed)
}
func (closedConn) Close() error          { return nil }
func (closedConn) Done() <-chan struct{} { return nil }
func (closedConn) Err() error            { return cdp.ErrClosed }

// A call sent on a connection that closed under it says the target ended, whether it was
// sent (back to back with others) or called: a bare ErrClosed is the 500 a request got while
// its session was being stopped.
func TestClosedConnectionIsTheTargetsEnd(t *testing.T) {
	tg := &Target{ref: "t1", s: &Session{id: "s1", callBound: callTimeout}}
	c := tg.callerOf(closedConn{})
	_, err := send(context.Background(), c, proto.RuntimeGetProperties{})
	if !errors.Is(err, ErrFinished) {
		t.Errorf("send: %v, want ErrFinished", err)
	}
	if err := proto.Do(context.Background(), c, proto.RuntimeEvaluate{}, nil); !errors.Is(err, ErrFinished) {
		t.Errorf("call: %v, want ErrFinished", err)
	}
}
