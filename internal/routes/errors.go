package routes

import (
	"encoding/json"
	"errors"
	"net/http"
	"runtime/debug"
	"strings"

	"github.com/go-chi/chi/v5"

	"traced/api"
	"traced/internal/engine"
)

// httpError is an error with the status, code and hint it is rendered with.
type httpError struct {
	status  int
	code    string
	message string
	hint    string
}

func (e *httpError) Error() string { return e.message }

func newError(status int, code, message, hint string) *httpError {
	return &httpError{status: status, code: code, message: message, hint: hint}
}

func badRequest(message, hint string) *httpError {
	return newError(http.StatusBadRequest, "bad_request", message, hint)
}

// writeError renders err as the single error envelope (as text on a debug route that asks for
// it, see render). Known errors map to their status; anything
// else is a 500 whose message does not leak internals.
func (a *app) writeError(w http.ResponseWriter, r *http.Request, err error) {
	he := a.httpErrorOf(r, err)
	render(w, r, he.status, api.ErrorBody{Error: api.ErrorDetail{Code: he.code, Message: he.message, Hint: he.hint}})
}

// httpErrorOf maps err to its status, code and hint (writeError renders it; a failed job
// reports it).
func (a *app) httpErrorOf(r *http.Request, err error) *httpError {
	var he *httpError
	var se *engine.StartError
	switch {
	case errors.As(err, &he):
	case pointError(r, err) != nil:
		he = pointError(r, err)
	case errors.Is(err, engine.ErrNotFound):
		he = newError(http.StatusNotFound, "not_found", err.Error(), "GET /api/trace/list shows the retained sessions")
	case errors.Is(err, engine.ErrTraceMode):
		he = newError(http.StatusForbidden, "trace_session", err.Error(),
			`start a debug session: POST /api/trace/start {"target":...,"mode":"debug"}`)
	case errors.Is(err, engine.ErrRunning):
		he = newError(http.StatusConflict, "running", err.Error(), "process is running; POST "+debugPath(r, "pause"))
	case errors.Is(err, engine.ErrAsyncStacks):
		he = newError(http.StatusConflict, "async_stacks_on", err.Error(),
			"the program keeps running; a callback started while async stacks were on cannot be cut short: stop the session (POST /api/trace/stop), or set async-depth 0 before the loop begins")
	case errors.Is(err, engine.ErrNotStarted):
		start := "cpu/start"
		switch {
		case strings.Contains(err.Error(), "coverage"):
			start = "coverage/start"
		case strings.Contains(err.Error(), "sampling"):
			start = "heap/sampling/start"
		case strings.Contains(err.Error(), "tracking"):
			start = "heap/tracking/start"
		}
		he = newError(http.StatusConflict, "not_started", err.Error(), "POST "+debugPath(r, start)+" first")
	case errors.Is(err, engine.ErrStaleRef):
		he = newError(http.StatusConflict, "stale_ref", err.Error(),
			"value refs last until the program moves on: GET "+debugPath(r, "state")+" gives fresh ones; GET "+debugPath(r, "props")+"?ref=v1 keeps a value as an o ref")
	case errors.Is(err, engine.ErrNoTarget):
		he = newError(http.StatusNotFound, "no_such_target", err.Error(), "GET "+debugPath(r, "targets")+" lists the targets and their status")
	case errors.Is(err, engine.ErrNoRef):
		he = newError(http.StatusNotFound, "no_such_ref", err.Error(), "GET "+debugPath(r, "breakpoints")+" lists them")
	case errors.Is(err, engine.ErrLocationTaken):
		he = newError(http.StatusConflict, "location_taken", err.Error(),
			"DELETE "+debugPath(r, "breakpoints/{ref}")+" first, or use another column (file:line:col)")
	case errors.Is(err, engine.ErrFrozen):
		he = newError(http.StatusConflict, "frozen", err.Error(),
			"send the process SIGCONT, then retry (GET /api/trace/list shows \"unresponsive\" gone), or POST /api/trace/stop to end it")
	case errors.Is(err, engine.ErrInspectorTimeout):
		he = newError(http.StatusGatewayTimeout, "inspector_timeout", err.Error(),
			"the session is still there and the call may succeed later: retry, GET "+debugPath(r, "state")+
				" once the program answers, or POST /api/trace/stop to end it (POST "+debugPath(r, "kill-execution")+" cannot reach a frozen process)")
	case errors.Is(err, engine.ErrInspectorLost):
		he = newError(http.StatusConflict, "inspector_lost", err.Error(),
			"the program runs on, but no debugger call can reach it (its stdout and stderr are still captured): POST /api/trace/stop ends it")
	case errors.Is(err, engine.ErrLive):
		he = newError(http.StatusConflict, "live", err.Error(), "POST /api/trace/stop {\"id\":...} first, then delete it")
	case errors.Is(err, engine.ErrFinished):
		he = newError(http.StatusConflict, "finished", err.Error(), a.finishedHint(r, err))
	case errors.Is(err, engine.ErrTooMany):
		he = newError(http.StatusTooManyRequests, "too_many_sessions", err.Error(),
			"POST /api/trace/stop {\"id\":...} a live session, or wait until one finishes")
	case errors.Is(err, engine.ErrOutsideRoot):
		he = badRequest(err.Error(), "target and cwd must resolve inside the workspace root "+a.cfg.Engine.Capabilities().Root)
		he.code = "outside_workspace"
	case errors.Is(err, engine.ErrTargetAbsent):
		he = badRequest(err.Error(), "target is a path to a .js/.mjs/.cjs file, relative to cwd (default: the workspace root)")
		he.code = "target_not_found"
	case errors.Is(err, engine.ErrLinkLoop):
		he = badRequest(err.Error(), "the path's symlinks lead back to themselves: name the file itself, or fix the links (ls -l shows them)")
	case errors.Is(err, engine.ErrBadInput):
		he = badRequest(err.Error(), "see GET /api/openapi.yaml for the request schema")
	case errors.Is(err, engine.ErrStoppedStarting):
		he = newError(http.StatusConflict, "stopped", err.Error(), "the session was stopped before it started; POST /api/trace/start again")
	case errors.Is(err, engine.ErrShutdown):
		he = newError(http.StatusServiceUnavailable, "shutting_down", err.Error(), "the service is stopping; start it again")
	case errors.As(err, &se):
		he = newError(http.StatusInternalServerError, "start_failed", se.Error(),
			"check the target runs with `node <target>`; GET /api/trace/status shows the node in use")
	default:
		a.log.Error("request failed", "method", r.Method, "path", r.URL.Path, "err", err)
		he = newError(http.StatusInternalServerError, "internal", "internal error", "retry; if it persists, see the service log")
	}
	return he
}

// finishedHint points an operation on an ended session at its restart (breakpoints are kept
// and can still be listed, set and removed), or at the session that replaced it.
func (a *app) finishedHint(r *http.Request, err error) string {
	if _, next, ok := strings.Cut(err.Error(), "restarted as "); ok {
		return "the program has ended and was restarted as " + next + ": name that session"
	}
	if strings.Contains(err.Error(), "target ") && strings.Contains(err.Error(), " has ended") {
		return "that worker or child has ended; the program runs on: GET " + debugPath(r, "targets") + " lists the targets and their status"
	}
	s, gerr := a.cfg.Engine.Get(chi.URLParam(r, "session"))
	if gerr != nil || !s.Restartable() {
		return "the program has ended; start a new session"
	}
	return "the program has ended: POST " + debugPath(r, "restart") +
		" runs it again with its breakpoints, which can still be listed, set and removed"
}

// recoverPanics renders a handler's panic as the 500 envelope and logs it with its stack; chi's
// Recoverer answers a bare 500, which breaks the contract. http.ErrAbortHandler goes on to the
// server, which drops the connection as asked.
func (a *app) recoverPanics(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		defer func() {
			v := recover()
			if v == nil {
				return
			}
			if v == http.ErrAbortHandler {
				panic(v)
			}
			a.log.Error("handler panicked", "method", r.Method, "path", r.URL.Path, "panic", v, "stack", string(debug.Stack()))
			if headerHasToken(r.Header, "Connection", "upgrade") {
				return // the connection may be hijacked: nothing can be written on it
			}
			a.writeError(w, r, newError(http.StatusInternalServerError, "internal", "internal error", "retry; if it persists, see the service log"))
		}()
		next.ServeHTTP(w, r)
	})
}

// headerHasToken reports whether the comma-separated values of header name include token, compared
// case-insensitively (RFC 9110 §7.6.1): browsers send "Connection: keep-alive, Upgrade".
func headerHasToken(h http.Header, name, token string) bool {
	for _, v := range h.Values(name) {
		for t := range strings.SplitSeq(v, ",") {
			if strings.EqualFold(strings.TrimSpace(t), token) {
				return true
			}
		}
	}
	return false
}

// writeJSON renders v with status. A failed write is not reported: the status is already sent,
// and it means the client went away.
func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("X-Content-Type-Options", "nosniff")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}
