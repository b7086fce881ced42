package engine

import (
	"context"
	"fmt"

	"traced/internal/cdp"
	"traced/internal/cdp/proto"
)

// waiter waits for the answer of a call sent (send).
type waiter interface {
	Wait(ctx context.Context, result any) error
}

// send sends a call without waiting for its answer: calls sent one after another reach V8 in
// that order and are answered in it, so calls that need no answer from each other (a pause's
// scopes, the resume after reading them) go back to back and cost one round trip, not one each.
// A request's call (through boundedCaller) keeps its bound.
func send(ctx context.Context, c clientCaller, cmd proto.Command) (waiter, error) {
	switch c := c.(type) {
	case boundedCaller:
		return c.send(ctx, cmd)
	case cdp.Conn:
		p, err := c.Send(ctx, cmd.Method(), cmd)
		if err != nil {
			return nil, err // not a nil *cdp.Pending in a non-nil waiter
		}
		return p, nil
	}
	return nil, fmt.Errorf("%s: %T has no way to send a call without waiting", cmd.Method(), c)
}

// send is Call's first half: the call bounded and sent after any pause traced is passing.
func (b boundedCaller) send(ctx context.Context, cmd proto.Command) (waiter, error) {
	bctx, cancel := b.bound(ctx)
	defer cancel() // after outcome: a cancelled bctx would read as the caller giving up
	err := b.s.dispatcher().afterPassing(bctx)
	var w waiter
	if err == nil {
		w, err = send(bctx, b.c, cmd)
	}
	if err != nil {
		return nil, b.outcome(bctx, cmd.Method(), err)
	}
	return boundedWait{w: w, b: b, method: cmd.Method()}, nil
}

// boundedWait is Call's second half: the answer waited for within the bound.
type boundedWait struct {
	w      waiter
	b      boundedCaller
	method string
}

func (w boundedWait) Wait(ctx context.Context, result any) error {
	ctx, cancel := w.b.bound(ctx)
	defer cancel()
	return w.b.outcome(ctx, w.method, w.w.Wait(ctx, result))
}

// bounded gives an answer sent for nobody in particular (a prefetch) the bound of the request
// that takes it, when it takes it through boundedCaller.
func bounded(c clientCaller, w waiter, method string) waiter {
	if b, ok := c.(boundedCaller); ok {
		return boundedWait{w: w, b: b, method: method}
	}
	return w
}
