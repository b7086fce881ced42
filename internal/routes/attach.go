package routes

import (
	"errors"
	"net/http"

	"traced/api"
	"traced/internal/engine"
)

// attachHint is how to give an attach what it needs.
const attachHint = `POST /api/debug/attach {"wsUrl":"ws://127.0.0.1:9229/<id>"} or {"port":9229}, for a node started with --inspect=127.0.0.1:9229`

// attach answers POST /api/debug/attach: a debug session on a node already running with --inspect.
func (a *app) attach(w http.ResponseWriter, r *http.Request) {
	req, err := decodeValid[api.AttachRequest](r)
	if err != nil {
		a.writeError(w, r, err)
		return
	}
	s, err := a.cfg.Engine.Attach(r.Context(), engine.AttachRequest{
		WSURL: req.WSURL, Port: req.Port, Name: req.Name, PauseOnExceptions: req.PauseOnExceptions,
	})
	if err != nil {
		a.writeError(w, r, attachError(err))
		return
	}
	a.answerStarted(w, r, s)
}

// attachError gives the errors of attaching their own codes and hints; the rest render as usual.
func attachError(err error) error {
	var se *engine.StartError
	switch {
	case errors.Is(err, engine.ErrNotLoopback):
		return newError(http.StatusForbidden, "not_loopback", err.Error(),
			"traced attaches to inspectors on this machine only: start node with --inspect=127.0.0.1:<port>")
	case errors.Is(err, engine.ErrBadInput):
		return badRequest(err.Error(), attachHint)
	case errors.As(err, &se):
		return newError(http.StatusBadGateway, "attach_failed", "attach: "+se.Stage+": "+se.Err.Error(),
			"check the process runs with --inspect=127.0.0.1:<port> and GET http://127.0.0.1:<port>/json/list lists it; "+attachHint)
	}
	return err
}
