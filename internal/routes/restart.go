package routes

import (
	"errors"
	"net/http"

	"github.com/go-chi/chi/v5"

	"traced/api"
	"traced/api/convert"
	"traced/internal/engine"
)

// restart runs a debug session's program again with its debugger settings, and answers the new
// run's state at its first pause (or running once waitMs has passed).
func (a *app) restart(w http.ResponseWriter, r *http.Request) {
	req, err := decodeValid[api.RestartRequest](r)
	if err != nil {
		a.writeError(w, r, err)
		return
	}
	wait := execWait(req.WaitMs)
	res, err := a.cfg.Engine.Restart(r.Context(), chi.URLParam(r, "session"))
	if errors.Is(err, engine.ErrNotRestartable) {
		err = newError(http.StatusConflict, "not_restartable", err.Error(),
			"an attached process is run by you: start it again, then POST /api/debug/attach")
	}
	if err != nil {
		a.writeError(w, r, err)
		return
	}
	if req.WaitMs == nil && !mayPause(res.Session) {
		wait = 0 // as launch without a breakpoint: the output, not a wait for a pause that cannot come
	}
	st, err := res.Session.Main().FirstStop(r.Context(), wait)
	if err != nil {
		a.writeError(w, r, err)
		return
	}
	wire := convert.FromState(st)
	if st.Status != engine.StatusPaused { // no pause: what it printed, as a start answers
		wire.Output = convert.FromExecOutputPtr(res.Session.Timeline().StartOutput(r.Context(), engine.FirstOutputWait))
	}
	render(w, r, http.StatusOK, api.RestartResponse{Session: a.summary(res.Session.Summary()), Previous: res.Previous,
		State: wire, NotCarried: res.NotCarried})
}

// mayPause says whether a restarted session has an enabled breakpoint to pause at; launch waits
// for a first pause only then, and restart answers as launch does.
func mayPause(s *engine.Session) bool {
	bps, err := s.Settings().Breakpoints()
	if err != nil {
		return true // not ours to guess: wait as asked
	}
	for _, bp := range bps {
		if bp.Enabled {
			return true
		}
	}
	return false
}

// noLiveEdit answers a hot-patch on a node without live edit: the restart does what it was for.
func noLiveEdit(r *http.Request, err error) error {
	return newError(http.StatusNotImplemented, "live_edit_unavailable", err.Error(),
		"this node cannot replace running code (GET /api/trace/status: node.features.liveEdit); save the file and POST "+
			debugPath(r, "restart")+" to run it again with the same breakpoints")
}
