package api

// SlowRequest is the body of POST /api/debug/{session}/slow.
type SlowRequest struct {
	WindowMs int `json:"windowMs,omitempty" validate:"omitempty,min=100,max=60000"` // default 2000 (60000 with untilExit)
	// UntilExit answers once the program ends, windowMs at the latest.
	UntilExit bool `json:"untilExit,omitempty"`
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

// AliveHandle is one handle or request of a target's event loop.
type AliveHandle struct {
	// Kind is server, socket, pipe, child, child-stdio, message-port, stdio, timeout, interval,
	// immediate, worker, request or other.
	Kind     string  `json:"kind"`
	Type     string  `json:"type,omitempty"` // the JS constructor's name
	Ref      bool    `json:"ref"`            // false: unref'd, it lets the process exit
	FD       *int    `json:"fd,omitempty"`
	Address  string  `json:"address,omitempty"`  // a server's host:port or pipe path
	Peer     string  `json:"peer,omitempty"`     // a socket's remote end
	Local    string  `json:"local,omitempty"`    // a socket's own end
	PID      int     `json:"pid,omitempty"`      // a child process's (a stdio pipe's: its child's)
	Command  string  `json:"command,omitempty"`  // a child process's command line
	DelayMs  float64 `json:"delayMs,omitempty"`  // a timer's
	Callback string  `json:"callback,omitempty"` // a timer's callback's name
	Location string  `json:"location,omitempty"` // a timer's callback's file:line
	ThreadID int     `json:"threadId,omitempty"` // a worker's
	// CreatedAt is where the program created it (creationStacks): its creation stack's first
	// frame of the program's, file:line; Creation that stack, "function file:line" each.
	CreatedAt string   `json:"createdAt,omitempty"`
	Creation  []string `json:"creation,omitempty"`
}

// AliveTarget is what keeps one target's event loop alive.
type AliveTarget struct {
	Target     string        `json:"target"`
	Kind       string        `json:"kind"`
	PID        int           `json:"pid,omitempty"`
	ThreadID   int           `json:"threadId,omitempty"`
	Keeping    []AliveHandle `json:"keeping"`
	NotKeeping []AliveHandle `json:"notKeeping"`
	Error      string        `json:"error,omitempty"`
}

// AliveReport answers GET /api/debug/{session}/alive: why the program does not exit.
type AliveReport struct {
	Targets []AliveTarget `json:"targets"`
	Text    string        `json:"text"` // at most 2 KB; each target's first line says what keeps it
}
