package api

import "traced/internal/engine"

// SourceMapsResponse answers GET /api/debug/{session}/sourcemap.
type SourceMapsResponse = engine.SourceMaps

// SourceMapSwitch is the body of POST /api/debug/{session}/sourcemap.
type SourceMapSwitch struct {
	Enabled *bool `json:"enabled" validate:"required"`
}

// SourceMapSwitchResponse answers POST /api/debug/{session}/sourcemap.
type SourceMapSwitchResponse struct {
	Enabled bool `json:"enabled"`
}
