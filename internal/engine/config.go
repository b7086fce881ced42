package engine

import (
	"errors"
	"os"
	"time"

	"traced/internal/sourcemap"
)

// Config sets the engine's limits. Zero fields take the defaults below.
type Config struct {
	// NodePath is the absolute path of the node binary, resolved once at start-up.
	NodePath string
	// ShimPath is the traced binary, which runs a session's shim (internal/shim): the child
	// subreaper that kills the session's whole tree when the service dies, SIGKILL included.
	// Empty, node is the service's own child and what left its tree outlives a killed service
	// until the next start reaps it (ReapLeftovers).
	ShimPath string
	// Root is the workspace: targets and working directories must resolve inside it.
	Root string
	// MaxEvents is the default per-session ring size (events); a start request may ask for less.
	MaxEvents int
	// MaxSessions is how many sessions are retained, live or finished.
	MaxSessions int
	// StringCap caps every captured string (bytes); longer values are cut and marked truncated.
	StringCap int
	// StartTimeout bounds the wait for node to print its inspector URL and accept the attach.
	StartTimeout time.Duration
	// DiscardEvery is how many console events pass between two Runtime.discardConsoleEntries, so
	// a long-lived target does not keep every logged object alive for the inspector.
	DiscardEvery int
	// MaxSourceMapBytes caps one source map read (bytes of JSON); a larger map is not used and
	// its status says so.
	MaxSourceMapBytes int64
	// DataDir is where each session gets a directory of its own for heap snapshots and CPU
	// profiles, removed with the session; default os.TempDir().
	DataDir string
	// InspectorTimeout bounds one inspector call made for a request that sets no bound of its
	// own: past it the request fails with ErrInspectorTimeout and the session goes on.
	InspectorTimeout time.Duration
	// RedactOff shows credential-shaped values and secret-named variables as the program has
	// them (traced serve --redact=off); by default they read <redacted:KIND>.
	RedactOff bool
	// MaxHeapDiskBytes caps the heap snapshot files one session keeps (bytes): a snapshot that
	// would pass it is cut off and removed.
	MaxHeapDiskBytes int64

	// ChildEnv, when set, adds to each launched child's environment (the OTLP exporter's
	// TRACEPARENT for the session's root span); the start request's Env wins over it.
	ChildEnv func(session string) map[string]string
}

// Defaults.
const (
	DefaultMaxEvents    = 10000 // events per session: ~1-5 MB of typical events
	DefaultMaxSessions  = 20
	DefaultStringCap    = 500 // bytes per captured value: a readable line, cheap for an AI reader
	DefaultStartTimeout = 10 * time.Second
	// DefaultInspectorTimeout: a live program answers the debugger in milliseconds; one that
	// has not answered in this long is frozen, or busy where V8 does not look at messages.
	DefaultInspectorTimeout = 10 * time.Second
	DefaultDiscardEvery     = 1000 // measured: cuts node's peak memory from 114 MB to 70 MB at no cost in rate
	// DefaultMaxHeapDiskBytes is a session's snapshot disk cap: a snapshot file is about twice
	// the heap it describes (BenchmarkHeapSnapshot: 49 MB of heap, a 92 MB file), so 2 GiB
	// holds a few snapshots of a heap of a few hundred MB.
	DefaultMaxHeapDiskBytes = 2 << 30
	// MaxEventsLimit is the largest ring a request may ask for.
	MaxEventsLimit = 1_000_000
)

func (c Config) withDefaults() Config {
	if c.MaxEvents <= 0 {
		c.MaxEvents = DefaultMaxEvents
	}
	if c.MaxSessions <= 0 {
		c.MaxSessions = DefaultMaxSessions
	}
	if c.StringCap <= 0 {
		c.StringCap = DefaultStringCap
	}
	if c.StartTimeout <= 0 {
		c.StartTimeout = DefaultStartTimeout
	}
	if c.MaxSourceMapBytes <= 0 {
		c.MaxSourceMapBytes = sourcemap.DefaultMaxBytes
	}
	if c.DiscardEvery <= 0 {
		c.DiscardEvery = DefaultDiscardEvery
	}
	if c.DataDir == "" {
		c.DataDir = os.TempDir()
	}
	if c.InspectorTimeout <= 0 {
		c.InspectorTimeout = DefaultInspectorTimeout
	}
	if c.MaxHeapDiskBytes <= 0 {
		c.MaxHeapDiskBytes = DefaultMaxHeapDiskBytes
	}
	return c
}

// Errors the engine returns; the HTTP layer maps them to statuses with errors.Is.
var (
	ErrNotFound     = errors.New("session not found")
	ErrTooMany      = errors.New("every retained session is live")
	ErrOutsideRoot  = errors.New("path is outside the workspace root")
	ErrTargetAbsent = errors.New("target not found")
	ErrBadInput     = errors.New("bad input")
	ErrShutdown     = errors.New("engine is shutting down")
	ErrFinished     = errors.New("session has finished")
	// ErrLive: the call needs a finished session (a delete) and this one still runs.
	ErrLive = errors.New("session is still live")
	// ErrStoppedStarting: a stop (or shutdown) reached the session before it finished starting.
	ErrStoppedStarting = errors.New("session was stopped while starting")
)

// StartError is a failure to launch or attach, with the tail of what node wrote to stderr.
type StartError struct {
	Stage  string // "spawn", "inspector-url", "attach", "enable"
	Stderr string // at most stderrTail bytes
	Err    error
}

func (e *StartError) Error() string {
	msg := "start node: " + e.Stage + ": " + e.Err.Error()
	if e.Stderr != "" {
		msg += "\nstderr:\n" + e.Stderr
	}
	return msg
}

func (e *StartError) Unwrap() error { return e.Err }
