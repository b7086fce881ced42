package routes

import (
	"errors"
	"net/http"

	"traced/api"
	"traced/api/convert"
	"traced/internal/engine"
)

func (a *app) sourceMaps(w http.ResponseWriter, r *http.Request) {
	file := r.URL.Query().Get("file")
	a.onSession(w, r, http.StatusOK, func(s *engine.Target) (any, error) {
		maps, err := s.SourceMapping().Of(file)
		if errors.Is(err, engine.ErrNoRef) {
			return nil, newError(http.StatusNotFound, "no_source_map", err.Error(), "GET "+debugPath(r, "sourcemap")+" lists every script's source map")
		}
		return convert.FromSourceMapsResponse(maps), err
	})
}

func (a *app) setSourceMaps(w http.ResponseWriter, r *http.Request) {
	req, err := decodeValid[api.SourceMapSwitch](r)
	if err != nil {
		a.writeError(w, r, err)
		return
	}
	a.onSession(w, r, http.StatusOK, func(s *engine.Target) (any, error) {
		return api.SourceMapSwitchResponse{Enabled: *req.Enabled}, s.SourceMapping().SetEnabled(*req.Enabled)
	})
}
