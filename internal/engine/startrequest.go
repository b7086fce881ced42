package engine

import (
	"fmt"
	"regexp"
	"time"
)

// StartRequest asks for a new traced run of target.
type StartRequest struct {
	Target    string
	Args      []string
	NodeArgs  []string          // node's own flags, before the target: --test, --import tsx...
	Cwd       string            // relative to the root, or absolute inside it; default the root
	Env       map[string]string // added to the child's environment
	Name      string
	Timeout   time.Duration // stop the program after this long; 0: no limit
	MaxEvents int           // ring size; 0: the configured default

	Mode              string           // ModeTrace (default) or ModeDebug
	PauseOnStart      bool             // debug: stay paused at the first line
	PauseOnExceptions string           // debug: none (default), uncaught, caught or all
	ExceptionClasses  []string         // debug: the mode stops only at these classes; empty: all
	Breakpoints       []BreakpointSpec // debug: set before the program runs
	Logpoints         []LogpointSpec   // debug: set before the program runs, after the breakpoints
	// SourceMaps switches source mapping; nil means on. Off, every position is the generated one.
	SourceMaps *bool
	// Workers switches following worker threads; nil means on. Off, each is let run uncaptured.
	Workers *bool
	// Children switches following child processes; nil means on. Off, each is let run uncaptured.
	Children *bool
	// FollowMatch, when set, follows only the workers whose script URL and the children whose
	// command line (script and first arguments) it matches (RE2); the rest are let run.
	FollowMatch string
	// Throws asks for throw events (throws.go); nil: none.
	Throws *ThrowOptions
	// CreationStacks (debug) records where each handle that can keep a loop alive is created,
	// for alive (creation.go); off by default, for its cost.
	CreationStacks bool

	carry *carried // a restart's debugger settings (relaunch.go)
}

// checkMode defaults the mode to trace and refuses debugger settings on a trace session.
func checkMode(req *StartRequest) error {
	switch req.Mode {
	case "":
		req.Mode = ModeTrace
	case ModeTrace, ModeDebug:
	default:
		return fmt.Errorf("mode: %w: %q is not trace or debug", ErrBadInput, req.Mode)
	}
	switch req.PauseOnExceptions {
	case "", "none", "uncaught", "caught", "all":
	default:
		return fmt.Errorf("pauseOnExceptions: %w: %q is not none, uncaught, caught or all", ErrBadInput, req.PauseOnExceptions)
	}
	if req.Mode == ModeTrace && req.CreationStacks {
		return fmt.Errorf("%w: creationStacks needs mode \"debug\": alive answers in debug sessions", ErrBadInput)
	}
	if req.Mode == ModeTrace && (req.PauseOnStart || len(req.Breakpoints) > 0 || len(req.Logpoints) > 0 || len(req.ExceptionClasses) > 0 || (req.PauseOnExceptions != "" && req.PauseOnExceptions != "none")) {
		return fmt.Errorf("%w: pauseOnStart, pauseOnExceptions, pauseOnExceptionClasses, breakpoints and logpoints need mode \"debug\"", ErrBadInput)
	}
	if err := checkNodeArgs(req.NodeArgs); err != nil {
		return err
	}
	if _, err := regexp.Compile(req.FollowMatch); err != nil {
		return fmt.Errorf("followMatch: %w: %v", ErrBadInput, err)
	}
	if err := checkThrowOptions(req.Throws); err != nil {
		return err
	}
	return checkStartPoints(req)
}
