package engine

import (
	"context"
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
	s *Target
}

// callerOf bounds a target's connection; nil stays nil.
func (t *Target) callerOf(c clientCaller) clientCaller {
	if c == nil {
		return nil
	}
	return boundedCaller{c: c, s: t}
}

func (b boundedCaller) Call(ctx context.Context, method string, params, result any) error {
	if b.s.main() && b.s.s.frozen() { // no answer can come: say so now, not at the bound
		return b.s.s.frozenError()
	}
	ctx, cancel := b.bound(ctx)
	defer cancel()
	err := b.s.dispatcher().afterPassing(ctx)
	if err == nil {
		err = b.c.Call(ctx, method, params, result)
	}
	return b.outcome(ctx, method, err)
}

// bound gives a call without a deadline of its own the session's callBound.
func (b boundedCaller) bound(ctx context.Context) (context.Context, context.CancelFunc) {
	_, has := ctx.Deadline()
	if bound := b.s.s.callBound; !has && ctx.Value(unboundedKey{}) == nil && bound > 0 {
		return context.WithTimeout(ctx, bound)
	}
	return ctx, func() {}
}

// outcome says why a call failed in the user's terms: a program that does not answer, or an
// inspector that is gone.
func (b boundedCaller) outcome(ctx context.Context, method string, err error) error {
	switch {
	case err == nil:
		return nil
	case errors.Is(err, context.DeadlineExceeded) && b.s.main() && b.s.s.frozen(): // it froze during the call
		return b.s.s.frozenError()
	case errors.Is(err, context.DeadlineExceeded):
		return &timeoutError{msg: fmt.Sprintf("%s: %s got no answer in time; %s", ErrInspectorTimeout, method, b.s.s.busyWhy()), cause: err}
	case errors.Is(err, cdp.ErrClosed) && ctx.Err() == nil:
		return b.s.closedError(err)
	}
	return err
}

// pid is the process the session debugs, 0 before it exists.
func (s *Session) pid() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.child != nil {
		return s.child.PID()
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
func (tg *Target) closedError(err error) error {
	if !tg.main() { // a worker or child ended; the session goes on
		return fmt.Errorf("%w: target %s of %s has ended: %w", ErrFinished, tg.ref, tg.s.id, err)
	}
	t := time.NewTimer(2 * drainWait) // finish waits up to drainWait for the output readers
	defer t.Stop()
	select {
	case <-tg.s.done:
		return fmt.Errorf("%w: %s: %w", ErrFinished, tg.s.id, err)
	case <-t.C:
	}
	tg.s.mu.Lock()
	defer tg.s.mu.Unlock()
	if tg.s.lost {
		return tg.s.lostError()
	}
	return fmt.Errorf("%w: %s: %w", ErrInspectorLost, tg.s.id, err)
}

// lostError is the error of every call after the inspector was lost; under mu.
func (s *Session) lostError() error {
	return fmt.Errorf("%w: session %s (%s)", ErrInspectorLost, s.id, s.reason)
}
