package routes

import (
	"context"
	"errors"
	"math"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/go-chi/chi/v5"

	"traced/api"
	"traced/api/convert"
	"traced/internal/engine"
)

// Defaults and caps of the debug API (the contract states the same bounds).
const (
	// defaultExecWait is how long an execution command waits for the next pause before it answers
	// a running state: long enough for a step or a nearby breakpoint, short enough to come back.
	defaultExecWait = 5 * time.Second
	maxExecWait     = 60 * time.Second
	// defaultSourceLines and maxSourceLines are the lines of source a state shows on each side of
	// the current one: enough to read the statement by default, a bounded answer at most.
	defaultSourceLines = 3
	maxSourceLines     = 50
)

// debugRoutes is the prefix of the debugger's routes; {session} is an id or a name.
const debugRoutes = "/api/debug/{session}"

// mountDebug serves the debugger of debug sessions. Its routes are registered one by one rather
// than as a mounted subrouter, so that an unknown path or method under the prefix answers 404 or
// 405 from chi like any other, before the body and contract checks.
func (a *app) mountDebug(r chi.Router) {
	r.Post(debugRoutes+"/breakpoints", a.setBreakpoint)             // set a line breakpoint
	r.Get(debugRoutes+"/breakpoints", a.listBreakpoints)            // every breakpoint, with hits and resolved locations
	r.Delete(debugRoutes+"/breakpoints/{ref}", a.removeBreakpoint)  // remove one (bp1, BP#1, lp1, LP#1) or all of both kinds
	r.Post(debugRoutes+"/breakpoints/{ref}/toggle", a.toggle)       // enable or disable one breakpoint
	r.Post(debugRoutes+"/breakpoints/active", a.bpActive)           // turn every breakpoint on or off
	r.Post(debugRoutes+"/breakpoints/function", a.fnBreakpoint)     // pause when a function is called
	r.Post(debugRoutes+"/breakpoints/on-load", a.breakOnLoad)       // pause before each script runs
	r.Get(debugRoutes+"/breakable", a.breakable)                    // the lines of a range a breakpoint can stop at
	r.Post(debugRoutes+"/restart-frame", a.restartFrame)            // run a frame again from its start
	r.Post(debugRoutes+"/blackbox", a.addBlackbox)                  // add URL patterns stepping skips
	r.Get(debugRoutes+"/blackbox", a.listBlackbox)                  // the blackbox patterns
	r.Delete(debugRoutes+"/blackbox", a.clearBlackbox)              // remove every blackbox pattern
	r.Post(debugRoutes+"/async-depth", a.asyncDepth)                // how many async parents stacks record
	r.Post(debugRoutes+"/hotpatch", a.hotpatch)                     // replace a loaded script with its file on disk
	r.Post(debugRoutes+"/restart", a.restart)                       // run the program again, breakpoints and all
	r.Post(debugRoutes+"/hooks", a.addHook)                         // inject a function whose calls become events
	r.Get(debugRoutes+"/hooks", a.listHooks)                        // the injected hooks
	r.Post(debugRoutes+"/logpoints", a.setLogpoint)                 // set a logpoint: a line that emits an event, never pauses
	r.Get(debugRoutes+"/logpoints", a.listLogpoints)                // every logpoint, with emissions and resolved locations
	r.Post(debugRoutes+"/pause-on-exceptions", a.pauseOnExceptions) // which thrown exceptions pause
	r.Post(debugRoutes+"/continue", a.resume)                       // run to the next pause
	r.Post(debugRoutes+"/step", a.step)                             // step over, into or out
	r.Post(debugRoutes+"/run-to", a.runTo)                          // run to a line, without a breakpoint left behind
	r.Post(debugRoutes+"/pause", a.pause)                           // pause a running program
	r.Post(debugRoutes+"/kill-execution", a.killExecution)          // end the running JavaScript, keep the session
	r.Get(debugRoutes+"/state", a.state)                            // location, source, locals, stack
	r.Post(debugRoutes+"/eval", a.eval)                             // evaluate an expression in a paused frame
	a.mountInspect(r)
}

// startPoints converts the breakpoints and logpoints of a start request, held to the rules of
// POST breakpoints (exactly one of location and urlRegex) with the field named.
func startPoints(req api.StartRequest) ([]engine.BreakpointSpec, []engine.LogpointSpec, error) {
	bps := make([]engine.BreakpointSpec, 0, len(req.Breakpoints))
	for i, bp := range req.Breakpoints {
		if err := checkBreakpointTarget(api.BreakpointRequest(bp), "breakpoints."+strconv.Itoa(i)+"."); err != nil {
			return nil, nil, err
		}
		bps = append(bps, engine.BreakpointSpec{Location: bp.Location, Condition: bp.Condition, HitCount: bp.HitCount,
			URLRegex: bp.URLRegex, Line: bp.Line, Column: bp.Column})
	}
	lps := make([]engine.LogpointSpec, 0, len(req.Logpoints))
	for _, lp := range req.Logpoints {
		lps = append(lps, engine.LogpointSpec{Location: lp.Location, Template: lp.Template, Condition: lp.Condition, Max: lp.Max})
	}
	return bps, lps, nil
}

func (a *app) setBreakpoint(w http.ResponseWriter, r *http.Request) {
	req, err := decodeValid[api.BreakpointRequest](r)
	if err != nil {
		a.writeError(w, r, err)
		return
	}
	if err := checkBreakpointTarget(req, ""); err != nil {
		a.writeError(w, r, err)
		return
	}
	a.onSession(w, r, http.StatusCreated, func(s *engine.Target) (any, error) {
		bp, err := s.Breakpoints().Set(r.Context(), engine.BreakpointSpec{
			Location: req.Location, Condition: req.Condition, HitCount: req.HitCount,
			URLRegex: req.URLRegex, Line: req.Line, Column: req.Column,
		})
		return api.BreakpointResponse{Breakpoint: convert.FromBreakpoint(bp)}, breakpointError(r, err)
	})
}

func (a *app) listBreakpoints(w http.ResponseWriter, r *http.Request) {
	a.onSession(w, r, http.StatusOK, func(s *engine.Target) (any, error) {
		bps, err := s.Session().Settings().Breakpoints()
		return api.BreakpointsResponse{Breakpoints: convert.FromBreakpoints(bps)}, err
	})
}

func (a *app) removeBreakpoint(w http.ResponseWriter, r *http.Request) {
	ref, err := url.PathUnescape(chi.URLParam(r, "ref")) // chi leaves it escaped when the path had odd escapes
	if err != nil {
		a.writeError(w, r, badRequest("path parameter \"ref\": "+err.Error(), "a ref is bp1, BP#1 (escaped as BP%231), lp1, LP#1 (LP%231) or all"))
		return
	}
	a.onSession(w, r, http.StatusOK, func(s *engine.Target) (any, error) {
		removed, err := s.Breakpoints().Remove(r.Context(), ref)
		if err != nil {
			return nil, refError(r, ref, err)
		}
		return api.RemoveBreakpointResponse{Removed: removed}, nil
	})
}

func (a *app) setLogpoint(w http.ResponseWriter, r *http.Request) {
	req, err := decodeValid[api.LogpointRequest](r)
	if err != nil {
		a.writeError(w, r, err)
		return
	}
	a.onSession(w, r, http.StatusCreated, func(s *engine.Target) (any, error) {
		lp, err := s.Breakpoints().SetLogpoint(r.Context(), engine.LogpointSpec{
			Location: req.Location, Template: req.Template, Condition: req.Condition, Max: req.Max,
		})
		return api.LogpointResponse{Logpoint: convert.FromLogpoint(lp)}, breakpointError(r, err)
	})
}

func (a *app) listLogpoints(w http.ResponseWriter, r *http.Request) {
	a.onSession(w, r, http.StatusOK, func(s *engine.Target) (any, error) {
		lps, err := s.Session().Settings().Logpoints()
		return api.LogpointsResponse{Logpoints: convert.FromLogpoints(lps)}, err
	})
}

func (a *app) pauseOnExceptions(w http.ResponseWriter, r *http.Request) {
	req, err := decodeValid[api.PauseOnExceptionsRequest](r)
	if err != nil {
		a.writeError(w, r, err)
		return
	}
	a.onSession(w, r, http.StatusOK, func(s *engine.Target) (any, error) {
		return api.PauseOnExceptionsResponse{Mode: req.Mode, Classes: req.Classes}, s.SetPauseOnExceptions(r.Context(), req.Mode, req.Classes)
	})
}

func (a *app) resume(w http.ResponseWriter, r *http.Request) {
	req, err := decodeValid[api.ContinueRequest](r)
	if err != nil {
		a.writeError(w, r, err)
		return
	}
	if req.All {
		a.execute(w, r, req.WaitMs, func(ctx context.Context, s *engine.Target, wait time.Duration) (engine.State, error) {
			return s.Control().ContinueAll(ctx, wait)
		})
		return
	}
	a.execute(w, r, req.WaitMs, command(engine.ExecContinue))
}

// stepCommands maps the step kinds of the API to the engine's commands.
var stepCommands = map[string]string{
	"":           engine.ExecOver,
	api.StepOver: engine.ExecOver,
	api.StepInto: engine.ExecInto,
	api.StepOut:  engine.ExecOut,
}

func (a *app) step(w http.ResponseWriter, r *http.Request) {
	req, err := decodeValid[api.StepRequest](r)
	if err != nil {
		a.writeError(w, r, err)
		return
	}
	cmd, ok := stepCommands[req.Kind]
	if !ok {
		a.writeError(w, r, badRequest("body field \"kind\": "+req.Kind+" is not over, into or out", "GET /api/openapi.yaml gives the schema"))
		return
	}
	a.execute(w, r, req.WaitMs, command(cmd))
}

func (a *app) pause(w http.ResponseWriter, r *http.Request) {
	req, err := decodeValid[api.PauseRequest](r)
	if err != nil {
		a.writeError(w, r, err)
		return
	}
	a.execute(w, r, req.WaitMs, command(engine.ExecPause))
}

func (a *app) runTo(w http.ResponseWriter, r *http.Request) {
	req, err := decodeValid[api.RunToRequest](r)
	if err != nil {
		a.writeError(w, r, err)
		return
	}
	a.execute(w, r, req.WaitMs, func(ctx context.Context, s *engine.Target, wait time.Duration) (engine.State, error) {
		st, err := s.Control().RunTo(ctx, req.Location, wait)
		if errors.Is(err, engine.ErrBadInput) {
			// The location is malformed or its script is not loaded: continueToLocation needs a
			// script that exists now, unlike a breakpoint, which binds when the script loads.
			return st, badRequest(err.Error(), "run-to needs file:line[:col] in a loaded script; GET /api/trace?id="+
				chi.URLParam(r, "session")+"&kinds=script lists them, and POST "+debugPath(r, "breakpoints")+" waits for one to load")
		}
		return st, err
	})
}

func (a *app) killExecution(w http.ResponseWriter, r *http.Request) {
	req, err := decodeValid[api.KillExecutionRequest](r)
	if err != nil {
		a.writeError(w, r, err)
		return
	}
	a.execute(w, r, req.WaitMs, func(ctx context.Context, s *engine.Target, wait time.Duration) (engine.State, error) {
		return s.Control().KillExecution(ctx, wait)
	})
}

// execution is an execution command: it runs the program on and answers the state it ends in,
// waiting at most wait for the next pause.
type execution func(ctx context.Context, s *engine.Target, wait time.Duration) (engine.State, error)

// command is the execution of one of the engine's commands (continue, step, pause).
func command(cmd string) execution {
	return func(ctx context.Context, s *engine.Target, wait time.Duration) (engine.State, error) {
		return s.Control().Execute(ctx, cmd, wait)
	}
}

// execute runs an execution and renders the state it ends in. The wait ends early when the
// service shuts down: HTTP shutdown waits for handlers before the engine ends the sessions.
func (a *app) execute(w http.ResponseWriter, r *http.Request, waitMs *int64, run execution) {
	s, err := a.debugSession(r)
	if err != nil {
		a.writeError(w, r, err)
		return
	}
	wait := execWait(waitMs)
	ctx, cancel := context.WithCancel(r.Context())
	defer cancel()
	stop := context.AfterFunc(a.cfg.Shutdown, cancel)
	defer stop()
	st, err := run(ctx, s, wait)
	if err != nil {
		if a.cfg.Shutdown.Err() != nil && errors.Is(err, context.Canceled) {
			err = engine.ErrShutdown
		}
		a.writeError(w, r, err)
		return
	}
	render(w, r, http.StatusOK, convert.FromState(st))
}

// onSession runs op on the debug session the path names and renders its answer with status, or
// its error.
func (a *app) onSession(w http.ResponseWriter, r *http.Request, status int, op func(*engine.Target) (any, error)) {
	s, err := a.debugSession(r)
	if err != nil {
		a.writeError(w, r, err)
		return
	}
	v, err := op(s)
	if err != nil {
		a.writeError(w, r, err)
		return
	}
	render(w, r, status, redactAnswer(s.Session(), v))
}

// debugSession finds the session named by the path, by id or name, seen through the target the
// query names (?target=t2), else the one that paused last.
func (a *app) debugSession(r *http.Request) (*engine.Target, error) {
	s, err := a.cfg.Engine.Get(chi.URLParam(r, "session"))
	if err != nil {
		return nil, err
	}
	return s.On(r.URL.Query().Get("target"))
}

// frameIndex bounds a frame number from the query to an int; the engine refuses one past the stack.
func frameIndex(n uint64) int { return int(min(n, math.MaxInt32)) }

// frameError gives an unknown frame its own hint: the refs that exist are in the stack.
func frameError(r *http.Request, err error) error {
	if errors.Is(err, engine.ErrNoRef) {
		return newError(http.StatusNotFound, "no_such_ref", err.Error(),
			"GET "+debugPath(r, "state")+" lists the stack; frame 0 is the top")
	}
	return err
}

// refError points an unknown logpoint ref at the logpoint list; other refs keep the breakpoint
// list's hint.
func refError(r *http.Request, ref string, err error) error {
	if errors.Is(err, engine.ErrNoRef) && (strings.HasPrefix(ref, "lp") || strings.HasPrefix(ref, "LP#")) {
		return newError(http.StatusNotFound, "no_such_ref", err.Error(), "GET "+debugPath(r, "logpoints")+" lists them")
	}
	return err
}

// debugPath is the path of a debug operation on the request's session, for hints.
func debugPath(r *http.Request, op string) string {
	session := chi.URLParam(r, "session")
	if session == "" {
		session = "{id}"
	}
	return "/api/debug/" + session + "/" + op
}
