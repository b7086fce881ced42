package main

import (
	"context"
	"fmt"
	"net"
	"os"
	"time"

	"traced/internal/engine"
)

// inheritedListener takes over the listening socket a parent bound and passed as file
// descriptor fd (the CLI binds the loopback port itself, so it knows the address before this
// process runs and its first request waits in the backlog instead of failing).
func inheritedListener(fd int) (net.Listener, error) {
	if fd < 3 {
		return nil, fmt.Errorf("--listen-fd %d: descriptors 0-2 are stdio", fd)
	}
	f := os.NewFile(uintptr(fd), "listen-fd")
	if f == nil {
		return nil, fmt.Errorf("--listen-fd %d: not an open descriptor", fd)
	}
	defer f.Close() // FileListener dups it
	ln, err := net.FileListener(f)
	if err != nil {
		return nil, fmt.Errorf("--listen-fd %d: %w", fd, err)
	}
	return ln, nil
}

// idleTick is the most an idle check may lag; small next to any useful idle timeout.
const idleTick = time.Second

// watchIdle calls exit once live has been false for d without a break, checking every
// min(d/10, idleTick). It returns when ctx ends or after calling exit.
func watchIdle(ctx context.Context, d time.Duration, live func() bool, exit func()) {
	every := min(max(d/10, 10*time.Millisecond), idleTick)
	t := time.NewTicker(every)
	defer t.Stop()
	watchTicks(ctx, d, t.C, live, exit)
}

// watchTicks is watchIdle's loop, checking at each tick. Idleness counts from the first check
// that saw no live session, read on the clock as the check runs: a tick's own timestamp is
// when it was sent, which under load may be long before the check (a tick delivered late
// would backdate the last live check and end the service as its session ended).
func watchTicks(ctx context.Context, d time.Duration, ticks <-chan time.Time, live func() bool, exit func()) {
	idleSince := time.Now() // a service starts idle
	for {
		select {
		case <-ctx.Done():
			return
		case <-ticks:
			now := time.Now()
			switch {
			case live():
				idleSince = time.Time{}
			case idleSince.IsZero():
				idleSince = now
			case now.Sub(idleSince) >= d:
				exit()
				return
			}
		}
	}
}

// anyLive reports whether the manager holds a session that has not ended.
func anyLive(mgr *engine.Manager) bool {
	for _, s := range mgr.List() {
		switch s.Status {
		case engine.StatusExited, engine.StatusStopped, engine.StatusFailed:
		default:
			return true
		}
	}
	return false
}
