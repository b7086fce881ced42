package routes

import (
	"math"
	"runtime"
	"runtime/debug"
)

// limitGraphMemory sets the Go runtime's soft memory limit, for as long as an analysed graph of
// a snapshot of size bytes is held, to what the service used before plus that size: reading a
// 1 GiB snapshot and the questions after it then stay within 1.0× its size over the service's
// own use (unlimited, the questions took 1.14×). A limit the operator set (GOMEMLIMIT) is left
// as it is. It returns what puts the limit back.
func limitGraphMemory(size int64) (restore func()) {
	if prev := debug.SetMemoryLimit(-1); prev != math.MaxInt64 {
		return func() {} // GOMEMLIMIT: the operator's
	}
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	debug.SetMemoryLimit(int64(ms.HeapInuse+ms.StackInuse) + size)
	return func() { debug.SetMemoryLimit(math.MaxInt64) }
}
