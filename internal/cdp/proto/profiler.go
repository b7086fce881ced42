package proto

// The Profiler domain's commands traced uses: the CPU profiler and precise coverage.

// Commands without parameters.
type (
	ProfilerEnable              struct{}
	ProfilerStart               struct{}
	ProfilerStop                struct{}
	ProfilerTakePreciseCoverage struct{}
	ProfilerStopPreciseCoverage struct{}
)

// ProfilerSetSamplingInterval sets the CPU profiler's interval, before it starts.
type ProfilerSetSamplingInterval struct {
	Interval int `json:"interval"` // µs
}

// ProfilerStartPreciseCoverage starts coverage: per function, or per block when Detailed.
type ProfilerStartPreciseCoverage struct {
	CallCount bool `json:"callCount"`
	Detailed  bool `json:"detailed"`
}

func (ProfilerEnable) Method() string               { return "Profiler.enable" }
func (ProfilerStart) Method() string                { return "Profiler.start" }
func (ProfilerStop) Method() string                 { return "Profiler.stop" }
func (ProfilerTakePreciseCoverage) Method() string  { return "Profiler.takePreciseCoverage" }
func (ProfilerStopPreciseCoverage) Method() string  { return "Profiler.stopPreciseCoverage" }
func (ProfilerSetSamplingInterval) Method() string  { return "Profiler.setSamplingInterval" }
func (ProfilerStartPreciseCoverage) Method() string { return "Profiler.startPreciseCoverage" }
