package routes

import (
	"context"
	"errors"
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

// maxAsyncDepth caps the async parents V8 records per stack: deep enough for any await chain a
// reader follows, bounded memory per captured stack.
const maxAsyncDepth = 128

// checkBreakpointTarget holds a breakpoint request to exactly one of location and urlRegex
// (with its line). field prefixes the body fields named: "" for the body of POST breakpoints,
// "breakpoints.0." for a start breakpoint.
func checkBreakpointTarget(req api.BreakpointRequest, field string) error {
	const hint = `send {"location":"app.js:12"} or {"urlRegex":"app\\.js$","line":12}`
	at := "body"
	if field != "" {
		at = "body field " + strconv.Quote(strings.TrimSuffix(field, "."))
	}
	switch {
	case req.Location != "" && req.URLRegex != "":
		return badRequest(at+": location and urlRegex exclude each other", hint)
	case req.Location == "" && req.URLRegex == "":
		return badRequest(at+": location or urlRegex is required", hint)
	case req.URLRegex != "" && req.Line == 0:
		return badRequest("body field "+strconv.Quote(field+"line")+" is required with urlRegex", hint)
	case req.Location != "" && (req.Line != 0 || req.Column != 0):
		return badRequest(at+": line and column go with urlRegex; a location carries its own", hint)
	}
	return nil
}

// breakpointError names the nearest breakable lines of a refused line, and the call that lists
// the rest.
func breakpointError(r *http.Request, err error) error {
	var nb *engine.NotBreakableError
	if errors.As(err, &nb) {
		file := nb.File
		var near []string
		for _, n := range nb.Nearest {
			near = append(near, file+":"+strconv.Itoa(n))
		}
		hint := "GET " + debugPath(r, "breakable") + "?location=" + file + ":1-100 lists the breakable lines"
		if len(near) > 0 {
			hint = "try " + strings.Join(near, " or ") + "; " + hint
		}
		e := badRequest(err.Error(), hint)
		e.code = "not_breakable"
		return e
	}
	return loadedError(r, err)
}

// pointError gives a breakpoint or logpoint refused as it was checked (engine/bpchecks.go) its
// code and a hint; nil for any other error.
func pointError(r *http.Request, err error) *httpError {
	var mf *engine.MissingFileError
	var se *engine.SyntaxError
	switch {
	case errors.As(err, &mf):
		hint := "name a file relative to the session's cwd, or an absolute path"
		if s := chi.URLParam(r, "session"); s != "" {
			hint += "; GET /api/trace?id=" + s + "&kinds=script lists the loaded scripts"
		}
		if mf.Nearest != "" {
			hint = "did you mean " + mf.Nearest + "? " + hint
		}
		e := badRequest(err.Error(), hint)
		e.code = "no_such_file"
		return e
	case errors.As(err, &se):
		e := badRequest(err.Error(), "fix the "+se.What+": it is JavaScript evaluated in the paused frame")
		e.code = "syntax_error"
		return e
	}
	return nil
}

// loadedError points an operation on a script not loaded yet at the list of loaded scripts.
func loadedError(r *http.Request, err error) error {
	if errors.Is(err, engine.ErrNotLoaded) {
		e := badRequest(err.Error(), "GET /api/trace?id="+chi.URLParam(r, "session")+"&kinds=script lists the loaded scripts; POST "+
			debugPath(r, "breakpoints")+" waits for one to load")
		e.code = "not_loaded"
		return e
	}
	return err
}

func (a *app) toggle(w http.ResponseWriter, r *http.Request) {
	ref, err := url.PathUnescape(chi.URLParam(r, "ref"))
	if err != nil {
		a.writeError(w, r, badRequest("path parameter \"ref\": "+err.Error(), "a ref is bp1 or BP#1 (escaped as BP%231)"))
		return
	}
	var req api.ToggleRequest
	if r.ContentLength != 0 { // the body is optional
		if req, err = decodeValid[api.ToggleRequest](r); err != nil {
			a.writeError(w, r, err)
			return
		}
	}
	a.onSession(w, r, http.StatusOK, func(s *engine.Target) (any, error) {
		bp, err := s.Breakpoints().Toggle(r.Context(), ref, req.Enabled)
		return api.BreakpointResponse{Breakpoint: convert.FromBreakpoint(bp)}, err
	})
}

func (a *app) bpActive(w http.ResponseWriter, r *http.Request) {
	req, err := decodeValid[api.ActiveRequest](r)
	if err != nil {
		a.writeError(w, r, err)
		return
	}
	a.onSession(w, r, http.StatusOK, func(s *engine.Target) (any, error) {
		return api.ActiveResponse{Active: *req.Active}, s.Breakpoints().SetActive(r.Context(), *req.Active)
	})
}

func (a *app) fnBreakpoint(w http.ResponseWriter, r *http.Request) {
	req, err := decodeValid[api.FunctionBreakpointRequest](r)
	if err != nil {
		a.writeError(w, r, err)
		return
	}
	a.onSession(w, r, http.StatusCreated, func(s *engine.Target) (any, error) {
		bp, err := s.Breakpoints().SetOnFunction(r.Context(), engine.FunctionBreakpointSpec{
			Expression: req.Expression, Condition: req.Condition, HitCount: req.HitCount,
		})
		if errors.Is(err, engine.ErrBadInput) {
			return nil, badRequest(err.Error(), "the expression must evaluate to a function, e.g. a name in scope or obj.method; POST "+
				debugPath(r, "eval")+" shows what it gives")
		}
		return api.BreakpointResponse{Breakpoint: convert.FromBreakpoint(bp)}, breakpointError(r, err)
	})
}

func (a *app) breakOnLoad(w http.ResponseWriter, r *http.Request) {
	var req api.OnLoadRequest
	if r.ContentLength != 0 {
		var err error
		if req, err = decodeValid[api.OnLoadRequest](r); err != nil {
			a.writeError(w, r, err)
			return
		}
	}
	enabled := req.Enabled == nil || *req.Enabled
	a.onSession(w, r, http.StatusOK, func(s *engine.Target) (any, error) {
		return api.OnLoadResponse{Enabled: enabled}, s.Breakpoints().SetBreakOnLoad(r.Context(), enabled)
	})
}

func (a *app) breakable(w http.ResponseWriter, r *http.Request) {
	location := r.URL.Query().Get("location")
	a.onSession(w, r, http.StatusOK, func(s *engine.Target) (any, error) {
		lines, err := s.Breakpoints().Breakable(r.Context(), location)
		if err != nil {
			if errors.Is(err, engine.ErrNotLoaded) {
				return nil, loadedError(r, err)
			}
			if errors.Is(err, engine.ErrBadInput) {
				return nil, badRequest(err.Error(), "location is file:start-end, 1-based, e.g. app.js:10-20")
			}
			return nil, err
		}
		return api.BreakableResponse{Location: location, Lines: convert.FromBreakableLines(lines)}, nil
	})
}

// parseFrame reads a frame as "f1", "@f1" or the number 1 (absent: the top frame).
func parseFrame(v any) (int, error) {
	bad := badRequest(`body field "frame": not a frame ref`, "a frame is f0 (the top), f1... or its number; GET /api/debug/{id}/state lists the stack")
	switch f := v.(type) {
	case nil:
		return 0, nil
	case float64:
		if f < 0 || f != float64(int(f)) || f > 1<<20 {
			return 0, bad
		}
		return int(f), nil
	case string:
		n, err := strconv.Atoi(strings.TrimPrefix(strings.TrimPrefix(f, "@"), "f"))
		if err != nil || n < 0 || !strings.Contains(f, "f") {
			return 0, bad
		}
		return n, nil
	}
	return 0, bad
}

func (a *app) restartFrame(w http.ResponseWriter, r *http.Request) {
	req, err := decodeValid[api.RestartFrameRequest](r)
	if err != nil {
		a.writeError(w, r, err)
		return
	}
	frame, err := parseFrame(req.Frame)
	if err != nil {
		a.writeError(w, r, err)
		return
	}
	a.execute(w, r, req.WaitMs, func(ctx context.Context, s *engine.Target, wait time.Duration) (engine.State, error) {
		st, err := s.Control().RestartFrame(ctx, frame, wait)
		return st, frameError(r, err)
	})
}

// blackboxHint suggests the usual patterns.
func blackboxHint(r *http.Request) string {
	return `POST ` + debugPath(r, "blackbox") + ` {"patterns":["^node:internal","/node_modules/"]} skips node's own code and dependencies`
}

func (a *app) addBlackbox(w http.ResponseWriter, r *http.Request) {
	req, err := decodeValid[api.BlackboxRequest](r)
	if err != nil {
		a.writeError(w, r, err)
		return
	}
	a.onSession(w, r, http.StatusOK, func(s *engine.Target) (any, error) {
		list, err := s.Control().AddBlackbox(r.Context(), req.Patterns)
		if errors.Is(err, engine.ErrBadInput) {
			return nil, badRequest(err.Error(), "patterns are JavaScript regexes over script URLs; "+blackboxHint(r))
		}
		return api.BlackboxResponse{Patterns: list, Suggested: engine.SuggestedBlackbox}, err
	})
}

func (a *app) listBlackbox(w http.ResponseWriter, r *http.Request) {
	a.onSession(w, r, http.StatusOK, func(s *engine.Target) (any, error) {
		list, err := s.Session().Settings().Blackbox()
		return api.BlackboxResponse{Patterns: list, Suggested: engine.SuggestedBlackbox}, err
	})
}

func (a *app) clearBlackbox(w http.ResponseWriter, r *http.Request) {
	a.onSession(w, r, http.StatusOK, func(s *engine.Target) (any, error) {
		list, err := s.Control().ClearBlackbox(r.Context())
		return api.BlackboxResponse{Patterns: list, Suggested: engine.SuggestedBlackbox}, err
	})
}

func (a *app) asyncDepth(w http.ResponseWriter, r *http.Request) {
	req, err := decodeValid[api.AsyncDepthRequest](r)
	if err != nil {
		a.writeError(w, r, err)
		return
	}
	depth := min(*req.Depth, maxAsyncDepth)
	a.onSession(w, r, http.StatusOK, func(s *engine.Target) (any, error) {
		return api.AsyncDepthResponse{Depth: depth}, s.Control().SetAsyncCallStackDepth(r.Context(), depth)
	})
}

func (a *app) hotpatch(w http.ResponseWriter, r *http.Request) {
	req, err := decodeValid[api.HotpatchRequest](r)
	if err != nil {
		a.writeError(w, r, err)
		return
	}
	wait := execWait(req.WaitMs)
	a.onSession(w, r, http.StatusOK, func(s *engine.Target) (any, error) {
		res, err := s.Hotpatch(r.Context(), a.cfg.Engine.Workspace(), req.File, req.DryRun, wait)
		switch {
		case errors.Is(err, engine.ErrOutsideRoot), errors.Is(err, engine.ErrTargetAbsent):
			e := badRequest(err.Error(), "file is the script's path relative to the session's cwd, inside the workspace root "+
				a.cfg.Engine.Workspace().Root())
			e.code = "bad_file"
			return nil, e
		case errors.Is(err, engine.ErrNoLiveEdit):
			return nil, noLiveEdit(r, err)
		case err != nil:
			return nil, loadedError(r, err)
		}
		return convert.FromHotpatchResult(res), nil
	})
}

func (a *app) addHook(w http.ResponseWriter, r *http.Request) {
	req, err := decodeValid[api.HookRequest](r)
	if err != nil {
		a.writeError(w, r, err)
		return
	}
	a.onSession(w, r, http.StatusCreated, func(s *engine.Target) (any, error) {
		hooks, err := s.AddHook(r.Context(), req.Name)
		if errors.Is(err, engine.ErrBadInput) {
			return nil, badRequest(err.Error(), "a hook name is a JavaScript identifier, e.g. onJob; the program calls globalThis.onJob(\"text\")")
		}
		return api.HooksResponse{Hooks: convert.FromHooks(hooks)}, err
	})
}

func (a *app) listHooks(w http.ResponseWriter, r *http.Request) {
	a.onSession(w, r, http.StatusOK, func(s *engine.Target) (any, error) {
		hooks, err := s.Session().Settings().Hooks()
		return api.HooksResponse{Hooks: convert.FromHooks(hooks)}, err
	})
}
