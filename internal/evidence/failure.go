package evidence

import (
	"fmt"
	"strings"

	"traced/internal/engine"
)

// maxStack caps the frames a failure carries: the innermost ten locate a throw; deeper frames are
// mostly framework and node plumbing that costs an AI reader tokens without adding evidence.
const maxStack = 10

// Reasons Build gives for nil Evidence.
const (
	reasonClean   = "exited with code 0 and no exception was captured"
	reasonStopped = "stopped by a stop request and no exception was captured"
	reasonRunning = "session still running and no exception yet"
)

// findFailure picks the failure: the last exception, else a non-zero exit or signal, unless the
// user stopped the session. It returns the failure, the index of its event in in.Events
// (len(in.Events) when the exit is known only from the summary), and a reason when there is none.
func findFailure(in Input) (*Failure, int, string) {
	for i := len(in.Events) - 1; i >= 0; i-- {
		if e := in.Events[i]; e.Kind == engine.KindException && e.Exception != nil {
			return exceptionFailure(e), i, ""
		}
	}
	s := in.Summary
	if !s.Status.Finished() {
		// The program stands paused at an exception it threw: that is the failure in front of
		// the user, though not yet reported (node reports an uncaught one once it runs on).
		if j := pausedAtThrow(in.Events); j >= 0 {
			return throwFailure(in.Events[j], nil, ""), j, ""
		}
	}
	if !s.Status.Finished() || s.Status == engine.StatusStopped {
		// A server goes on after a handler's throw became a 500, or was stopped since: the
		// failure is the last throw the program logged (printed its message) after catching it.
		if j, log := lastLoggedThrow(in.Events); j >= 0 {
			f := throwFailure(in.Events[j], nil, "")
			f.LoggedSeq = log
			return f, j, ""
		}
	}
	if s.Status == engine.StatusStopped {
		return nil, 0, reasonStopped + caughtText(in.Events)
	}
	for i := len(in.Events) - 1; i >= 0; i-- {
		if e := in.Events[i]; e.Kind == engine.KindExit && e.Exit != nil {
			if !failed(e.Exit.Code, e.Exit.Signal) {
				return nil, 0, reasonClean // the exit event is the fact the summary was made from
			}
			if j := lastThrow(in.Events[:i]); j >= 0 { // something caught it, then the run failed
				return throwFailure(in.Events[j], e.Exit.Code, e.Exit.Signal), j, ""
			}
			return exitFailure(e.Seq, e.Exit.Code, e.Exit.Signal), i, ""
		}
	}
	if s.Status.Finished() && failed(s.ExitCode, s.Signal) {
		return exitFailure(0, s.ExitCode, s.Signal), len(in.Events), ""
	}
	switch s.Status {
	case engine.StatusExited:
		return nil, 0, reasonClean
	case engine.StatusFailed:
		return nil, 0, fmt.Sprintf("session failed (%s) and the program raised no exception and reported no exit", s.Error)
	default:
		return nil, 0, reasonRunning + caughtText(in.Events)
	}
}

// caughtText names the caught throws of a run with no failure, so that "no exception" is never
// said of a program whose code threw: a server may have answered one of them with a 500 without
// printing it. "" when there were none.
func caughtText(evs []engine.Event) string {
	n, last := 0, -1
	for i, e := range evs {
		if e.Kind == engine.KindThrow && e.Throw != nil {
			n++
			last = i
		}
	}
	if n == 0 {
		return ""
	}
	t := evs[last].Throw
	first, _, _ := strings.Cut(t.Message.Value, "\n")
	at := ""
	if t.Location != nil {
		at = " at " + t.Location.Where()
	}
	return fmt.Sprintf("; but user code threw %d time(s), each caught, none printed: the last, seq %d, %s: %s%s (GET /api/trace?kinds=throw lists them)",
		n, evs[last].Seq, t.Class, first, at)
}

// failed reports whether an exit status is a failure: a non-zero code or a signal.
func failed(code *int, signal string) bool {
	return signal != "" || (code != nil && *code != 0)
}

func exceptionFailure(e engine.Event) *Failure {
	x := e.Exception
	f := &Failure{Kind: FailureException, Seq: e.Seq, Target: e.Target, Class: x.Class, Message: x.Message.Value,
		Location: throwSite(x)}
	if len(x.Stack) > 0 {
		f.Stack = append([]engine.Frame{}, x.Stack[:min(len(x.Stack), maxStack)]...)
	}
	return f
}

// lastThrow is the index of the last throw event, -1 when there is none.
func lastThrow(evs []engine.Event) int {
	for i := len(evs) - 1; i >= 0; i-- {
		if evs[i].Kind == engine.KindThrow && evs[i].Throw != nil {
			return i
		}
	}
	return -1
}

// pausedAtThrow is the index of the throw a target stands paused at now: the last pause of
// some target is an exception pause, not resumed since, and that target's last event before it
// is the throw it paused for. -1 when there is none.
func pausedAtThrow(evs []engine.Event) int {
	resumed := map[string]bool{}
	for i := len(evs) - 1; i >= 0; i-- {
		e := evs[i]
		switch {
		case e.Kind == engine.KindResume:
			resumed[e.Target] = true
		case e.Kind == engine.KindPause && e.Pause != nil && !resumed[e.Target]:
			resumed[e.Target] = true // an older pause of this target is over
			if e.Pause.Reason != "exception" && e.Pause.Reason != "promiseRejection" {
				continue
			}
			for j := i - 1; j >= 0; j-- {
				if evs[j].Target != e.Target {
					continue
				}
				if evs[j].Kind == engine.KindThrow && evs[j].Throw != nil {
					return j
				}
				break
			}
		}
	}
	return -1
}

// minLogged is the shortest message lastLoggedThrow looks for: shorter ones match by chance.
const minLogged = 4

// loggedWithin is how many events after a caught throw (scripts parsed aside) its print is looked
// for: a handler logs its error at once (Express on the next tick), and the bound keeps the scan
// linear in a full ring of throws nobody printed.
const loggedWithin = 200

// lastLoggedThrow is the index of the last caught throw whose message the program then printed
// (a console call, or an output line: a server's error handler, a logger's JSON, the program's
// own catch), and
// the seq of that print; -1 when there is none.
func lastLoggedThrow(evs []engine.Event) (int, uint64) {
	for i := len(evs) - 1; i >= 0; i-- {
		t := evs[i].Throw
		if evs[i].Kind != engine.KindThrow || t == nil { // predicted uncaught too: an async handler's throw, which a promise caught
			continue
		}
		msg, _, _ := strings.Cut(t.Message.Value, "\n") // an output line holds one line of it
		if len(msg) < minLogged {
			continue
		}
		seen := 0
		for _, e := range evs[i+1:] {
			if e.Kind == engine.KindScript || e.Kind == engine.KindContext {
				continue // a logger loading its serializers parses scripts: they do not count
			}
			if seen++; seen > loggedWithin {
				break
			}
			var text string
			switch {
			case e.Kind == engine.KindConsole && e.Console != nil && (e.Console.Level == "error" || e.Console.Level == "warning"):
				text = e.Console.Text.Value
			case (e.Kind == engine.KindStderr || e.Kind == engine.KindStdout) && e.Output != nil: // a logger's JSON line too
				text = e.Output.Text.Value
			}
			if text != "" && strings.Contains(text, msg) {
				return i, e.Seq
			}
		}
	}
	return -1, 0
}

// throwFailure is a failed exit told by the last throw before it: a failing assertion a test
// runner caught, a handler's throw a server turned into a 500.
func throwFailure(e engine.Event, code *int, signal string) *Failure {
	t := e.Throw
	f := exitFailure(e.Seq, code, signal)
	f.Kind, f.Target, f.Class, f.Message, f.Location = FailureThrow, e.Target, t.Class, t.Message.Value, cloneFrame(t.Location)
	if len(t.Stack) > 0 {
		f.Stack = append([]engine.Frame{}, t.Stack[:min(len(t.Stack), maxStack)]...)
	}
	return f
}

// asException lets a throw be rated as an exception at its user frame.
func asException(t *engine.ThrowInfo) *engine.ExceptionInfo {
	x := &engine.ExceptionInfo{Class: t.Class, Message: t.Message, Value: t.Value, Stack: t.Stack}
	if l := t.Location; l != nil {
		x.URL, x.File, x.Line, x.Column, x.Generated = l.URL, l.File, l.Line, l.Column, l.Generated
	}
	return x
}

func exitFailure(seq uint64, code *int, signal string) *Failure {
	f := &Failure{Kind: FailureExit, Seq: seq, Signal: signal}
	if code != nil {
		c := *code
		f.ExitCode = &c
	}
	return f
}

// throwSite is where x was thrown: its own position when the inspector gave one, else the
// innermost stack frame, else nil.
func throwSite(x *engine.ExceptionInfo) *engine.Frame {
	if x.URL != "" || x.File != "" || x.Line > 0 {
		f := &engine.Frame{URL: x.URL, File: x.File, Line: x.Line, Column: x.Column, Internal: engine.InternalURL(x.URL), Generated: x.Generated}
		if len(x.Stack) > 0 && sameFile(&x.Stack[0], f) && x.Stack[0].Line == x.Line {
			f.Function, f.Internal = x.Stack[0].Function, x.Stack[0].Internal
		}
		return f
	}
	if len(x.Stack) > 0 {
		return cloneFrame(&x.Stack[0])
	}
	return nil
}
