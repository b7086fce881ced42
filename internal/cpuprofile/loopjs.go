package cpuprofile

import (
	"encoding/json"
	"errors"
	"fmt"
)

// Event-loop figures come from perf_hooks in the target itself, evaluated through the inspector
// (Runtime.evaluate with returnByValue), so the program needs no preload: start the monitor
// when the profiler starts, read it back when it stops, and pass ParseLoopStats's answer to
// Diagnose. Both snippets find perf_hooks with process.getBuiltinModule (node 20.16+), which
// works in the main thread and in workers alike; the monitor lives on a global symbol.

// LoopMonitorStartJS starts measuring event-loop delay (a histogram at 10 ms resolution,
// fine enough for stalls over StallMs) and marks the start of the utilisation window. Starting
// again restarts. The histogram's timer is unref'd: it keeps no program alive.
const LoopMonitorStartJS = `(() => {
  const { monitorEventLoopDelay, performance } = process.getBuiltinModule('node:perf_hooks');
  const key = Symbol.for('traced.loopMonitor');
  if (globalThis[key]) globalThis[key].histogram.disable();
  const resolution = 10;
  const histogram = monitorEventLoopDelay({ resolution });
  histogram.enable();
  globalThis[key] = { histogram, resolution, elu: performance.eventLoopUtilization(), started: performance.now() };
  return true;
})()`

// LoopMonitorReadJS stops the monitor and answers its figures as a JSON string (ParseLoopStats
// reads it): delay percentiles in ms, utilisation over the window, the window in ms; or
// {"error": "..."} when the monitor was not started.
const LoopMonitorReadJS = `(() => {
  const { performance } = process.getBuiltinModule('node:perf_hooks');
  const key = Symbol.for('traced.loopMonitor');
  const m = globalThis[key];
  if (!m) return JSON.stringify({ error: 'the event-loop monitor was not started' });
  delete globalThis[key];
  const h = m.histogram;
  h.disable();
  // The histogram records the time between its timer's runs: the delay is what exceeds the
  // resolution.
  const ms = (ns) => (h.count > 0 && Number.isFinite(ns) ? Math.max(ns / 1e6 - m.resolution, 0) : 0);
  return JSON.stringify({
    p50Ms: ms(h.percentile(50)),
    p99Ms: ms(h.percentile(99)),
    maxMs: ms(h.max),
    utilization: performance.eventLoopUtilization(m.elu).utilization,
    windowMs: performance.now() - m.started,
  });
})()`

// Utilisation reads high while V8's CPU profiler samples the same thread: its sampling signal
// cuts libuv's idle wait short (an idle program measured 0.73 under node 20's --cpu-prof, 0.0004
// without). Diagnose therefore takes busy time from the profile's (idle) samples and shows the
// utilisation as evidence only.

// ParseLoopStats reads LoopMonitorReadJS's answer.
func ParseLoopStats(data []byte) (LoopStats, error) {
	var v struct {
		LoopStats
		Error string `json:"error"`
	}
	if err := json.Unmarshal(data, &v); err != nil {
		return LoopStats{}, fmt.Errorf("event-loop figures: %w", err)
	}
	if v.Error != "" {
		return LoopStats{}, errors.New(v.Error)
	}
	return v.LoopStats, nil
}
