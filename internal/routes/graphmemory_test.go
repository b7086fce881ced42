package routes

import (
	"math"
	"runtime/debug"
	"testing"
)

// TestLimitGraphMemory: a held graph caps the runtime's soft limit at the service's use plus the
// snapshot's size and puts it back after; an operator's GOMEMLIMIT is never touched.
func TestLimitGraphMemory(t *testing.T) {
	// Not parallel: the memory limit is the process's.
	if prev := debug.SetMemoryLimit(-1); prev != math.MaxInt64 {
		t.Skipf("GOMEMLIMIT is set (%d): the test needs the runtime's default", prev)
	}
	const size = 1 << 30
	restore := limitGraphMemory(size)
	if got := debug.SetMemoryLimit(-1); got < size || got == math.MaxInt64 {
		t.Errorf("while a graph is held: limit %d, want the use plus %d", got, int64(size))
	}
	restore()
	if got := debug.SetMemoryLimit(-1); got != math.MaxInt64 {
		t.Errorf("after: limit %d, want none", got)
	}

	debug.SetMemoryLimit(8 << 30) // as GOMEMLIMIT would
	defer debug.SetMemoryLimit(math.MaxInt64)
	restore = limitGraphMemory(size)
	if got := debug.SetMemoryLimit(-1); got != 8<<30 {
		t.Errorf("the operator's limit became %d", got)
	}
	restore()
	if got := debug.SetMemoryLimit(-1); got != 8<<30 {
		t.Errorf("the operator's limit, after: %d", got)
	}
}
