package engine

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"

	"traced/internal/cdp"
)

// Errors of a program that does not let the debugger through; the HTTP layer maps them.
var (
	// ErrInspectorTimeout: an inspector call got no answer within its bound. The program is
	// frozen (SIGSTOP), or busy where V8 does not look at the debugger's messages (a long regex,
	// an optimised tight loop on node 22). The session stays: the answer may still come.
	ErrInspectorTimeout = errors.New("the program is not answering the debugger")
	// ErrInspectorLost: the inspector connection ended while the program runs on (it closed its
	// inspector, say). Nothing can reach the program any more; only a stop is left.
	ErrInspectorLost = errors.New("the inspector connection is lost")
)

// unboundedKey marks a context whose inspector calls take as long as their operation needs.
type unboundedKey struct{}

// unboundedCalls is for jobs (a heap snapshot of a large heap takes a minute): their calls are
// bounded by the job's context, which ends with the session or a cancel, not by callBound.
func unboundedCalls(ctx context.Context) context.Context {
	return context.WithValue(ctx, unboundedKey{}, true)
}

// boundedCaller is the client every request's inspector call goes through: a call gets the
// request's own deadline, or callBound when it has none, and a call past it fails with
// ErrInspectorTimeout (the reply, if it comes later, is dropped by the client).
type boundedCaller struct {
	c clientCaller
	s *Session
}

// callerOf bounds a target's connection; nil stays nil.
func (s *Session) callerOf(c clientCaller) clientCaller {
	if c == nil {
		return nil
	}
	return boundedCaller{c: c, s: s}
}

func (b boundedCaller) Call(ctx context.Context, method string, params, result any) error {
	_, has := ctx.Deadline()
	bound := b.s.callBound
	if !has && ctx.Value(unboundedKey{}) == nil && bound > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, bound)
		defer cancel()
	}
	err := b.s.afterPassing(ctx)
	if err == nil {
		err = b.c.Call(ctx, method, params, result)
	}
	switch {
	case err == nil:
		return nil
	case errors.Is(err, context.DeadlineExceeded):
		return &timeoutError{msg: fmt.Sprintf("%s: %s got no answer in time; %s", ErrInspectorTimeout, method, b.s.busyWhy()), cause: err}
	case errors.Is(err, cdp.ErrClosed) && ctx.Err() == nil:
		return b.s.closedError(err)
	}
	return err
}

// waiter waits for the answer of a call sent (send).
type waiter interface {
	Wait(ctx context.Context, result any) error
}

// send sends a call without waiting for its answer where the connection allows it: calls sent
// one after another reach V8 in that order, so what needs no answer (the resume after a pause's
// scopes are read) can follow at once. Elsewhere it makes the call and keeps its answer. It is
// for traced's own calls in a pause it passes: no request's bound or wait applies.
func send(ctx context.Context, c clientCaller, method string, params any) (waiter, error) {
	if b, ok := c.(boundedCaller); ok {
		c = b.c
	}
	switch c := c.(type) {
	case *cdp.Client:
		p, err := c.Send(ctx, method, params)
		if err != nil {
			return nil, err
		}
		return p, nil
	case *workerTarget:
		return c.Send(ctx, method, params)
	}
	var raw json.RawMessage
	if err := c.Call(ctx, method, params, &raw); err != nil {
		return nil, err
	}
	return answered(raw), nil
}

// answered is a call made already: Wait decodes its answer.
type answered json.RawMessage

func (a answered) Wait(_ context.Context, result any) error {
	if result == nil || len(a) == 0 {
		return nil
	}
	return cdp.Decode(a, result)
}

// pid is the process the session debugs, 0 before it exists.
func (s *Session) pid() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.child != nil {
		return s.child.pid
	}
	if s.attached != nil {
		return s.attached.pid
	}
	return 0
}

// frozen reports whether the process is stopped (SIGSTOP, a tracer).
func (s *Session) frozen() bool {
	st := procState(s.pid())
	return st == 'T' || st == 't'
}

// timeoutError is ErrInspectorTimeout with the call's own deadline error, worded once.
type timeoutError struct {
	msg   string
	cause error
}

func (e *timeoutError) Error() string   { return e.msg }
func (e *timeoutError) Unwrap() []error { return []error{ErrInspectorTimeout, e.cause} }

// busyWhy says what the process is doing, from its state in /proc.
func (s *Session) busyWhy() string {
	pid := s.pid()
	switch procState(pid) {
	case 'T', 't':
		return "its process is stopped (SIGSTOP or a tracer): SIGCONT " + strconv.Itoa(pid) + " lets it go on"
	case 'D':
		return "its process waits in the kernel (disk or device I/O)"
	case 'R':
		return "its process is busy in code that does not let the debugger in (a long regular expression, a native call, or on node 22 an optimised tight loop)"
	}
	return "its process is busy or blocked outside JavaScript"
}

// procState is the state letter of /proc/PID/stat (R, S, D, T, Z...), or 0.
func procState(pid int) byte {
	if pid <= 0 {
		return 0
	}
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return 0
	}
	// The command name is in parentheses and may hold anything; the state follows the last ')'.
	i := strings.LastIndexByte(string(b), ')')
	if i < 0 || i+2 >= len(b) {
		return 0
	}
	return b[i+2]
}

// closedError is the error of a call whose connection closed under it: the end of the session
// when the program is ending, a lost inspector when it runs on.
func (s *Session) closedError(err error) error {
	if !s.main() { // a worker or child ended; the session goes on
		return fmt.Errorf("%w: target %s of %s has ended: %w", ErrFinished, s.ref, s.id, err)
	}
	t := time.NewTimer(2 * drainWait) // finish waits up to drainWait for the output readers
	defer t.Stop()
	select {
	case <-s.done:
		return fmt.Errorf("%w: %s: %w", ErrFinished, s.id, err)
	case <-t.C:
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.lost {
		return s.lostError()
	}
	return fmt.Errorf("%w: %s: %w", ErrInspectorLost, s.id, err)
}

// lostError is the error of every call after the inspector was lost; under mu.
func (s *Session) lostError() error {
	return fmt.Errorf("%w: session %s (%s)", ErrInspectorLost, s.id, s.reason)
}
