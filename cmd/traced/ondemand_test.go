package main

import (
	"context"
	"sync/atomic"
	"testing"
	"time"
)

// TestWatchIdle: the service exits once no session has been live for the timeout, and a live
// session holds it off.
func TestWatchIdle(t *testing.T) {
	const d = 50 * time.Millisecond
	var live atomic.Bool
	live.Store(true)
	exited := make(chan time.Time, 1)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan struct{})
	go func() {
		defer close(done)
		watchIdle(ctx, d, live.Load, func() { exited <- time.Now() })
	}()

	// Live for a while: no exit, though several timeouts pass.
	select {
	case <-exited:
		t.Fatal("exited while a session was live")
	case <-time.After(4 * d):
	}
	ended := time.Now()
	live.Store(false)
	select {
	case at := <-exited:
		// The last tick that saw a live session came up to one check interval before it ended.
		if at.Sub(ended) < d/2 {
			t.Errorf("exited %v after the last live session, want about %v", at.Sub(ended), d)
		}
	case <-time.After(exitBound):
		t.Fatalf("no exit within %v of going idle", exitBound)
	}
	select {
	case <-done:
	case <-time.After(exitBound):
		t.Fatal("watchIdle did not return after exit")
	}
}

// TestWatchIdleLateTicks: ticks delivered late (their timestamps long past, as under load) do
// not shorten the idle timeout: a session that just ended keeps the service for d.
func TestWatchIdleLateTicks(t *testing.T) {
	const d = time.Hour
	var live atomic.Bool
	live.Store(true)
	ticks := make(chan time.Time)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		watchTicks(ctx, d, ticks, live.Load, func() {})
	}()
	// tick hands a tick over; false when watchTicks has returned instead (it exited).
	tick := func(at time.Time) bool {
		select {
		case ticks <- at:
			return true
		case <-done:
			return false
		}
	}
	tick(time.Now().Add(-2 * d)) // a check that saw the session live, its tick sent long ago
	live.Store(false)
	// The second is handed over once the first idle check is done.
	if !tick(time.Now()) || !tick(time.Now()) {
		t.Error("exited as the session ended, not an idle timeout later")
	}
	cancel()
	<-done
}
