package api

// StatusResponse answers GET /api/trace/status: what this service can do.
type StatusResponse struct {
	Service    string   `json:"service"` // always "traced"
	Version    string   `json:"version"`
	Node       NodeInfo `json:"node"`
	SourceMaps bool     `json:"sourceMaps"` // positions mapped to original sources by traced (per session, on by default)
	Replay     string   `json:"replay"`     // "timeline": captured events are replayed, never time travel
	Modes      []string `json:"modes"`
	Auth       bool     `json:"auth"`
	Root       string   `json:"root"`
	Limits     Limits   `json:"limits"`
	// Export is the OpenTelemetry export's state; absent when export is off.
	Export *ExportStatus `json:"export,omitempty"`
}

// ExportStatus is how the OTLP export fares since the service started.
type ExportStatus struct {
	Endpoint  string `json:"endpoint"`            // where spans go (OTLP/HTTP), without credentials
	Queued    int    `json:"queued"`              // captured events waiting to be mapped to spans
	QueueSize int    `json:"queueSize"`           // past this many, captured events are dropped from the export
	Spans     int    `json:"spans"`               // spans the collector took
	Events    int    `json:"events"`              // span events the collector took
	Dropped   int    `json:"dropped"`             // captured events that did not reach it
	LastError string `json:"lastError,omitempty"` // the last failed export's error
}

// NodeInfo says which node the service runs.
type NodeInfo struct {
	Found   bool   `json:"found"`
	Path    string `json:"path,omitempty"`
	Version string `json:"version,omitempty"`
	// Features are what this node line can do (probed once); absent without a node.
	Features *NodeFeatures `json:"features,omitempty"`
}

// Limits are the caps in force.
type Limits struct {
	MaxEvents      int   `json:"maxEvents"`
	MaxSessions    int   `json:"maxSessions"`
	StringCap      int   `json:"stringCap"`
	MaxBodyBytes   int64 `json:"maxBodyBytes"`
	StartTimeoutMs int64 `json:"startTimeoutMs"`
	MaxWaitMs      int64 `json:"maxWaitMs"`
	MaxPageLimit   int   `json:"maxPageLimit"`
	// MaxHeapDiskBytes is the bytes of heap snapshots one session may keep.
	MaxHeapDiskBytes int64 `json:"maxHeapDiskBytes"`
}

// StartRequest is the body of POST /api/trace/start.
type StartRequest struct {
	Target    string            `json:"target" validate:"required"`
	Args      []string          `json:"args,omitempty"`
	NodeArgs  []string          `json:"nodeArgs,omitempty" validate:"max=64,dive,required,excludesall=\x00"` // node's flags
	Cwd       string            `json:"cwd,omitempty"`
	Env       map[string]string `json:"env,omitempty" validate:"dive,keys,required,excludesall=\x00=,endkeys,excludesall=\x00"`
	Name      string            `json:"name,omitempty" validate:"omitempty,excludesall=/ \x00"`
	TimeoutMs int64             `json:"timeoutMs,omitempty"`
	MaxEvents int               `json:"maxEvents,omitempty"`

	Mode              string `json:"mode,omitempty" validate:"omitempty,oneof=trace debug"` // default trace
	PauseOnStart      bool   `json:"pauseOnStart,omitempty"`                                // debug: stay paused at the first line
	PauseOnExceptions string `json:"pauseOnExceptions,omitempty" validate:"omitempty,oneof=none uncaught caught all"`
	// PauseOnExceptionClasses narrows pauseOnExceptions to these exception classes.
	PauseOnExceptionClasses []string `json:"pauseOnExceptionClasses,omitempty" validate:"max=50,dive,min=1,max=200"`
	// Breakpoints and Logpoints (debug) are set before the program runs, as POST breakpoints and
	// POST logpoints would set them.
	Breakpoints []StartBreakpoint `json:"breakpoints,omitempty" validate:"max=100,dive"`
	Logpoints   []LogpointRequest `json:"logpoints,omitempty" validate:"max=100,dive"`
	SourceMaps  *bool             `json:"sourceMaps,omitempty"`                      // default true: show original positions
	Workers     *bool             `json:"workers,omitempty"`                         // default true: follow worker threads
	Children    *bool             `json:"children,omitempty"`                        // default true: follow child processes
	FollowMatch string            `json:"followMatch,omitempty" validate:"max=1024"` // only matching workers and children
	Throws      *ThrowOptions     `json:"throws,omitempty"`                          // throw events; given: on
	// WaitMs (debug) waits at most this long for the program's first pause and answers the state
	// there, so that "start and stop at the first breakpoint" is one call.
	WaitMs *int64 `json:"waitMs,omitempty" validate:"omitempty,min=0,max=60000"`
	// OutputWaitMs bounds how long a start that does not pause waits for the program's first
	// line of output (default 1000; 0 answers at once).
	OutputWaitMs *int64 `json:"outputWaitMs,omitempty" validate:"omitempty,min=0,max=10000"`
	// CreationStacks (debug) records where each handle that can keep the loop alive is created:
	// GET alive names each one's file:line. Off by default: it slows a program that makes many
	// timers or sockets.
	CreationStacks bool `json:"creationStacks,omitempty"`
}

// ThrowOptions configure throw events: every exception user code throws, caught or not.
type ThrowOptions struct {
	Off       bool     `json:"off,omitempty"`                                             // no throw events
	PerSecond int      `json:"perSecond,omitempty" validate:"min=0,max=100000"`           // recorded per second; past it counted
	Classes   []string `json:"classes,omitempty" validate:"max=50,dive,required,max=200"` // only these exception classes
	UserCode  string   `json:"userCode,omitempty" validate:"max=1024"`                    // RE2 over a frame's path or URL
}

// StopRequest is the body of POST /api/trace/stop.
type StopRequest struct {
	ID string `json:"id" validate:"required"`
}

// SessionResponse wraps one session summary.
type SessionResponse struct {
	Session Summary `json:"session"`
	State   *State  `json:"state,omitempty"` // a debug session paused as start or attach answers
	// Output is what a started program that did not pause printed first (its first line waited
	// for briefly): a server's "listening on :PORT".
	Output *ExecOutput `json:"output,omitempty"`
	// Note says what the answer means beyond the summary (a stop with nothing live to stop).
	Note string `json:"note,omitempty"`
}

// ListResponse answers GET /api/trace/list.
type ListResponse struct {
	Sessions []Summary `json:"sessions"`
}

// DefaultSession is the session a client (the CLI, the MCP tools) acts on when none is named:
// the newest one started, live or ended (of two started at once, the later listed), so that a
// session that ends stays the default and its commands say so, rather than the client moving
// silently to an older one still running; ok is false when there is none.
func (l ListResponse) DefaultSession() (id string, ok bool) {
	var pick *Summary
	for i := range l.Sessions {
		s := &l.Sessions[i]
		if pick == nil || !s.StartedAt.Before(pick.StartedAt) {
			pick = s
		}
	}
	if pick == nil {
		return "", false
	}
	return pick.ID, true
}

// TraceResponse answers GET /api/trace: the summary and every retained event.
type TraceResponse struct {
	Session Summary `json:"session"`
	Events  []Event `json:"events"`
}

// EventsResponse answers GET /api/trace/events: a page after a cursor.
type EventsResponse struct {
	Session string  `json:"session"`
	Status  string  `json:"status"`
	Events  []Event `json:"events"`
	Oldest  uint64  `json:"oldest"`
	Newest  uint64  `json:"newest"`
	Gap     *Gap    `json:"gap,omitempty"`
	Next    uint64  `json:"next"`
	More    bool    `json:"more"`
}

// WaitResponse answers GET /api/trace/wait: the first matching event, or why there is none.
type WaitResponse struct {
	Session  string `json:"session"`
	Status   string `json:"status"`
	Event    *Event `json:"event"`
	TimedOut bool   `json:"timedOut"`
	Finished bool   `json:"finished"` // the session ended without a matching event
	// Earlier is, on a finished answer to a wait without a cursor, the seq of the last matching
	// event recorded before the call; 0 when there is none.
	Earlier uint64 `json:"earlier,omitempty"`
	Oldest  uint64 `json:"oldest"`
	Newest  uint64 `json:"newest"`
	Gap     *Gap   `json:"gap,omitempty"`
	Next    uint64 `json:"next"`
	// State is the state at the pause the wait answers, while the target still stands there.
	State *State `json:"state,omitempty"`
	// StillRunning is, on a timeout of a running debug session, what keeps its program running:
	// each target's first line of GET alive.
	StillRunning string `json:"stillRunning,omitempty"`
}

// EvidenceResponse answers GET /api/trace/evidence.
type EvidenceResponse struct {
	Session string `json:"session"`
	Status  string `json:"status"`
	EvidenceResult
}

// HealthResponse answers GET /healthz.
type HealthResponse struct {
	OK bool `json:"ok"`
}
