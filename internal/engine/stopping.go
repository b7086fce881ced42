package engine

import (
	"context"
	"fmt"
	"time"
)

// StopGrace is how long a stop waits after SIGTERM before SIGKILL: time for a program's own
// handler to flush and close, short enough for a call that answers once the program is gone.
const StopGrace = 2 * time.Second

// stop ends a session as a user's stop does: SIGTERM to node's process group, SIGKILL to the
// whole tree once node has ended or the grace has passed (at once for a frozen process, which
// cannot act on SIGTERM); stoppedBy says which signal ended node. An attached session is
// detached. reason is kept as the session's.
func (s *Session) stop(reason string) {
	s.mu.Lock()
	if s.endedAt != nil {
		s.mu.Unlock()
		return
	}
	s.stopped = true
	if reason != "" && s.reason == "" {
		s.reason = reason
	}
	c := s.child
	attached := s.attached != nil
	s.mu.Unlock()
	if attached {
		signal(s.detach) // the process is not ours to kill: attachLoop hangs up instead
		return
	}
	if c == nil { // still spawning: launch kills what it spawns once it sees stopped
		return
	}
	by := "SIGKILL"
	if !s.frozen() {
		s.setStoppedBy("SIGTERM")
		c.Terminate()
		t := time.NewTimer(StopGrace)
		select {
		case <-c.Exited():
			by = ""
		case <-t.C:
		}
		t.Stop()
	}
	if by != "" {
		s.setStoppedBy(by)
	}
	c.Kill() // what is left of the tree, node too after the grace
}

// stopAtTimeout stops a session its timeoutMs has run out on, having asked first what keeps
// its program running: the answer stays in its summary, beside why it was stopped.
func (s *Session) stopAtTimeout(d time.Duration) {
	why := s.Redact(s.StillRunning(context.Background())) // a child's command line may carry a token
	s.mu.Lock()
	if s.endedAt == nil {
		s.stillRunning = why
	}
	s.mu.Unlock()
	s.stop(fmt.Sprintf("stopped after timeoutMs=%d", d.Milliseconds()))
}

// setStoppedBy records the signal a stop sends; finish reads it once node has exited.
func (s *Session) setStoppedBy(sig string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.exit == nil {
		s.stoppedBy = sig
	}
}
