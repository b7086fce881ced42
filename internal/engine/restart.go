package engine

import (
	"context"
	"fmt"
	"time"

	"traced/internal/cdp/proto"
)

// RestartFrame runs frame (0: the top) again from its start (Debugger.restartFrame, mode
// StepInto: V8 resumes and pauses at the function's first statement) and returns the state
// there, or a running state once wait has passed.
func (ct Control) RestartFrame(ctx context.Context, frame int, wait time.Duration) (State, error) {
	c, err := ct.t.liveClient()
	if err != nil {
		return State{}, err
	}
	ct.t.mu.Lock()
	p := ct.t.paused
	ct.t.mu.Unlock()
	if p == nil {
		return State{}, fmt.Errorf("%w: restart-frame needs a paused program", ErrRunning)
	}
	f, err := scopedFrameOf(p, frame)
	if err != nil {
		return State{}, err
	}
	call := proto.DebuggerRestartFrame{CallFrameID: f.CallFrameID, Mode: "StepInto"}
	since := ct.t.s.Timeline().lastSeq()
	return ct.t.s.Timeline().outputAfter(since)(ct.run(ctx, c, "restart-frame", call, wait))
}

// SetAsyncCallStackDepth sets how many async parents V8 records for stacks (0: none).
func (ct Control) SetAsyncCallStackDepth(ctx context.Context, depth int) error {
	c, err := ct.t.liveClient()
	if err != nil {
		return err
	}
	if err := proto.Do(ctx, c, proto.DebuggerSetAsyncCallStackDepth{MaxDepth: depth}, nil); err != nil {
		return err
	}
	ct.t.s.mu.Lock()
	ct.t.s.asyncDepth = depth
	ct.t.s.mu.Unlock()
	ct.t.toEveryTarget(ctx, proto.DebuggerSetAsyncCallStackDepth{MaxDepth: depth})
	return nil
}
