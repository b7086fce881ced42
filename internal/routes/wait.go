package routes

import "time"

// waitBound is how long a request's waitMs asks to wait: def when absent, never past limit.
// Every route that takes a waitMs reads it here, so the clamp is written once.
func waitBound(waitMs *int64, def, limit time.Duration) time.Duration {
	if waitMs == nil {
		return def
	}
	return min(time.Duration(max(*waitMs, 0))*time.Millisecond, limit)
}

// execWait is the wait of an execution command (continue, step, run-to...): how long it waits
// for the next pause before it answers a running state.
func execWait(waitMs *int64) time.Duration { return waitBound(waitMs, defaultExecWait, maxExecWait) }
