package engine

import (
	"errors"
	"fmt"
	"syscall"
	"time"
	"unicode/utf8"

	"traced/internal/engine/launch"
)

// What the engine adds to launch: the env a session's config gives its child, a refused spawn as
// the caller's error or the service's, the stderr a start error quotes, and node's end as the
// engine's ExitInfo.

// stderrTail is how much of node's stderr a start error quotes.
const stderrTail = 4000

// drainWait bounds how long output readers may run after the child exits; a grandchild that
// inherited the pipes could otherwise hold them open forever.
const drainWait = 2 * time.Second

// spawnError classifies a failed spawn: an argument list past the kernel's total limit is the
// request's (args and env together), anything else the service's.
func spawnError(err error) error {
	if errors.Is(err, syscall.E2BIG) {
		return fmt.Errorf("%w: args and env together are past the kernel's argument list limit: %w", ErrBadInput, err)
	}
	return &StartError{Stage: "spawn", Err: err}
}

// exitInfo is node's end as the engine records it.
func exitInfo(e launch.Exit) ExitInfo {
	return ExitInfo{Code: e.Code, Signal: e.Signal}
}

// withChildEnv adds what Config.ChildEnv gives a session's child to the request's env, which wins.
func withChildEnv(req map[string]string, add func(string) map[string]string, session string) map[string]string {
	if add == nil {
		return req
	}
	env := add(session)
	for k, v := range req {
		if env == nil {
			env = make(map[string]string, len(req))
		}
		env[k] = v
	}
	return env
}

// tailBuffer keeps the last n bytes written to it.
type tailBuffer struct {
	n   int
	buf []byte
}

func (t *tailBuffer) add(line string) {
	t.buf = append(t.buf, line...)
	t.buf = append(t.buf, '\n')
	if len(t.buf) > t.n {
		keep := t.buf[len(t.buf)-t.n:]
		// It starts on a whole character: a start error quotes it.
		for i := 0; i < utf8.UTFMax-1 && len(keep) > 0 && !utf8.RuneStart(keep[0]); i++ {
			keep = keep[1:]
		}
		t.buf = append(t.buf[:0], keep...)
	}
}

func (t *tailBuffer) String() string { return string(t.buf) }
