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
// process is let run at once and reported as a released target. Letting it run takes staying
// connected until it ends: hung up early, node may still break at its first line (the break
// --inspect-brk schedules can come after the hang-up) with no one to resume it. So traced stays,
// with every pause skipped, and hangs up when node waits for that at its end.

// releaseTimeout bounds the calls that let one such process run.
const releaseTimeout = 5 * time.Second

// releaser tracks the released processes' connections: the session's end closes them.
type releaser struct {
	wg     sync.WaitGroup
	ending chan struct{} // closed when the session ends: every connection hangs up
	once   sync.Once
}

func (r *releaser) end() {
	r.once.Do(func() {
		if r.ending != nil {
			close(r.ending)
		}
	})
	r.wg.Wait()
}

// releaseInspector lets the process behind url run, in the background, and records it as a
// target.
func (s *Session) releaseInspector(url string) {
	s.mu.Lock()
	if s.releasedURLs[url] { // a line may come through stderr and again as a TAP comment
		s.mu.Unlock()
		return
	}
	s.releasedURLs[url] = true
	s.nextTarget++
	info := TargetInfo{Ref: "t" + strconv.Itoa(s.nextTarget), Kind: "process", Status: TargetReleased,
		Reason: "child processes are not followed yet: it runs on uncaptured, but for its output"}
	s.released = append(s.released, info)
	if s.releasing.ending == nil {
		s.releasing.ending = make(chan struct{})
	}
	ending := s.releasing.ending
	s.releasing.wg.Add(1)
	s.mu.Unlock()
	s.record(Event{Kind: KindTarget, Target: info.Ref, TargetInfo: &info})
	go func() {
		defer s.releasing.wg.Done()
		s.letRun(url, ending)
	}()
}

// letRun connects to a waiting process, skips its pauses, lets it run and stays until it ends.
func (s *Session) letRun(url string, ending <-chan struct{}) {
	ctx, cancel := context.WithTimeout(context.Background(), releaseTimeout)
	defer cancel()
	waiting := make(chan struct{}, 1)
	c, err := cdp.Dial(ctx, url, cdp.Options{OnEvent: func(ev cdp.Event) {
		if ev.Method == "NodeRuntime.waitingForDisconnect" {
			signal(waiting)
		}
	}})
	if err != nil {
		s.log.Debug("release a child's inspector", "session", s.id, "err", err)
		return
	}
	defer func() {
		c.Close()
		<-c.Done()
	}()
	for _, step := range []struct {
		method string
		params any
	}{
		{"NodeRuntime.notifyWhenWaitingForDisconnect", map[string]any{"enabled": true}},
		{"Debugger.enable", nil},
		{"Debugger.setSkipAllPauses", map[string]any{"skip": true}},
		{"Runtime.runIfWaitingForDebugger", nil},
	} {
		if err := c.Call(ctx, step.method, step.params, nil); err != nil {
			s.log.Debug("release a child's inspector", "session", s.id, "step", step.method, "err", err)
			return
		}
	}
	select {
	case <-waiting: // it has ended and waits for traced to hang up
	case <-c.Done():
	case <-ending:
	}
}
