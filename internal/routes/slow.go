package routes

import (
	"errors"
	"net/http"
	"time"

	"github.com/go-chi/chi/v5"

	"traced/api"
	"traced/api/convert"
	"traced/internal/engine"
)

// mountSlow serves the one-call answers of why a program is slow and why it will not exit.
func (a *app) mountSlow(r chi.Router) {
	r.Post(debugRoutes+"/slow", a.slow)  // sample every target for a window: a category each
	r.Get(debugRoutes+"/alive", a.alive) // what keeps each target's event loop alive
}

func (a *app) slow(w http.ResponseWriter, r *http.Request) {
	req, err := decodeValid[api.SlowRequest](r)
	if err != nil {
		a.writeError(w, r, err)
		return
	}
	def := engine.DefaultSlowWindowMs
	if req.UntilExit {
		def = engine.MaxSlowWindowMs
	}
	window := time.Duration(cmpOr(req.WindowMs, def)) * time.Millisecond
	a.onSession(w, r, http.StatusOK, func(t *engine.Target) (any, error) {
		res, err := t.Session().Slow(r.Context(), window, req.UntilExit)
		if errors.Is(err, engine.ErrBusy) {
			return nil, newError(http.StatusConflict, "busy", err.Error(), "POST "+debugPath(r, "cpu/stop")+" ends the profile you started; then ask again")
		}
		return convert.FromSlowReport(res), err
	})
}

func (a *app) alive(w http.ResponseWriter, r *http.Request) {
	a.onSession(w, r, http.StatusOK, func(t *engine.Target) (any, error) {
		res, err := t.Session().Alive(r.Context())
		return convert.FromAliveReport(res), err
	})
}
