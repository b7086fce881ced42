package engine

import (
	"context"
	"errors"
	"strconv"
	"time"

	"traced/internal/cdp/proto"
)

// Why a live program cannot answer the debugger (Summary.Unresponsive).
const (
	// UnresponsiveStopped: its process is stopped (SIGSTOP, a tracer); calls answer ErrFrozen.
	UnresponsiveStopped = "stopped"
	// UnresponsiveNotAnswering: its inspector left a probe unanswered past probeBound (busy in
	// native code or a tight loop, a long heap snapshot). Calls still go through, bounded as ever:
	// the answer may yet come.
	UnresponsiveNotAnswering = "not_answering"
)

// ErrFrozen: the program's process is stopped (SIGSTOP, a tracer): no inspector call can be
// answered until it is continued, so calls are refused at once instead of timing out.
var ErrFrozen = errors.New("the program's process is stopped")

// watchEvery is how often a live session's process is looked at: a stop is seen well within
// two seconds. /proc has no event to wait on.
const watchEvery = 500 * time.Millisecond

// probeBound is how long the inspector may take to answer the watch's probe, a call V8 answers
// from its message loop without running the program's code.
const probeBound = time.Second

// watch follows whether the program can answer, until the session ends, and publishes the
// session's status at each change (the stream's session message). One goroutine per spawned
// session, started once the inspector is attached.
func (s *Session) watch() {
	tick := time.NewTicker(watchEvery)
	defer tick.Stop()
	for {
		select {
		case <-s.done:
			return
		case <-tick.C:
		}
		now := s.observe()
		s.mu.Lock()
		changed := s.endedAt == nil && now != s.unresponsive
		if changed {
			s.unresponsive = now
		}
		s.mu.Unlock()
		if changed {
			s.pub.PublishStatus(s.Summary())
		}
	}
}

// observe says whether the program can answer now: its process state first, then a probe.
func (s *Session) observe() string {
	if s.frozen() {
		return UnresponsiveStopped
	}
	s.mu.Lock()
	conn := s.main.conn
	s.mu.Unlock()
	if conn == nil {
		return ""
	}
	ctx, cancel := context.WithTimeout(context.Background(), probeBound)
	defer cancel()
	go func() { // a session that ends meanwhile ends the probe
		select {
		case <-s.done:
			cancel()
		case <-ctx.Done():
		}
	}()
	err := proto.Do(ctx, conn, proto.RuntimeGetHeapUsage{}, nil)
	if errors.Is(err, context.DeadlineExceeded) {
		return UnresponsiveNotAnswering
	}
	return ""
}

// frozenError is ErrFrozen for this session's process, saying how to let it go on.
func (s *Session) frozenError() error {
	return &frozenErr{pid: s.pid()}
}

type frozenErr struct{ pid int }

func (e *frozenErr) Error() string {
	return ErrFrozen.Error() + " (SIGSTOP or a tracer): kill -CONT " + strconv.Itoa(e.pid) + " lets it go on"
}

func (e *frozenErr) Unwrap() error { return ErrFrozen }
