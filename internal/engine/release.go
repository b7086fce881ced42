package engine

import (
	"context"
	"strconv"
	"sync"
	"time"

	"traced/internal/cdp"
)

// A process of the tree that opens an inspector of its own and waits for a debugger (a test
// file under node --test inherits --inspect-brk from the runner) prints its URL on the shared
// stderr. traced does not follow child processes yet; so that none waits forever, each such
// inspector is let run at once (Runtime.runIfWaitingForDebugger, then hang up) and reported as a
// released target.

// releaseTimeout bounds letting one such process run.
const releaseTimeout = 5 * time.Second

// releaser tracks the releases under way: the session's end waits for them (each is bounded).
type releaser struct {
	wg sync.WaitGroup
}

// releaseInspector lets the process behind url run, in the background, and records it as a target.
func (s *Session) releaseInspector(url string) {
	s.mu.Lock()
	s.nextTarget++
	info := TargetInfo{Ref: "t" + strconv.Itoa(s.nextTarget), Kind: "process", Status: TargetReleased,
		Reason: "child processes are not followed yet: it runs on uncaptured, but for its output"}
	s.released = append(s.released, info)
	s.mu.Unlock()
	s.record(Event{Kind: KindTarget, Target: info.Ref, TargetInfo: &info})
	s.releasing.wg.Add(1)
	go func() {
		defer s.releasing.wg.Done()
		ctx, cancel := context.WithTimeout(context.Background(), releaseTimeout)
		defer cancel()
		c, err := cdp.Dial(ctx, url, cdp.Options{})
		if err != nil {
			s.log.Debug("release a child's inspector", "session", s.id, "err", err)
			return
		}
		if err := c.Call(ctx, "Runtime.runIfWaitingForDebugger", nil, nil); err != nil {
			s.log.Debug("release a child's inspector", "session", s.id, "err", err)
		}
		c.Close()
		select {
		case <-c.Done():
		case <-ctx.Done():
		}
	}()
}
