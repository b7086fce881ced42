package api

// SlowRequest is the body of POST /api/debug/{session}/slow.
type SlowRequest struct {
	WindowMs int `json:"windowMs,omitempty" validate:"omitempty,min=100,max=60000"` // default 2000
}

// SlowTarget is one target's diagnosis: its category and the figures behind it.
type SlowTarget struct {
	Target        string  `json:"target"`             // t0, t1...
	Kind          string  `json:"kind"`               // main, worker or process
	Category      string  `json:"category,omitempty"` // idle, gc, cpu-user, cpu-dependency, event-loop-blocked, io-wait
	Headline      string  `json:"headline,omitempty"` // the text's first line for the target
	BusyPct       float64 `json:"busyPct"`
	GCPct         float64 `json:"gcPct"` // of the busy time
	ProgramPct    float64 `json:"programPct"`
	DependencyPct float64 `json:"dependencyPct"` // of the script time
	StallCount    int     `json:"stallCount"`
	StallMs       float64 `json:"stallMs"`
	LoopDelayP99  float64 `json:"loopDelayP99Ms"`
	Utilization   float64 `json:"utilization"`
	Error         string  `json:"error,omitempty"` // why the target has no diagnosis
}

// SlowReport answers POST /api/debug/{session}/slow: why the program is slow, every target
// sampled over one window.
type SlowReport struct {
	WindowMs float64      `json:"windowMs"`
	Ended    bool         `json:"ended"`
	Targets  []SlowTarget `json:"targets"`
	Text     string       `json:"text"` // at most 2 KB, each target's first line naming its category
}
