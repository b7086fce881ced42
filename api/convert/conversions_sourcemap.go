package convert

import (
	"traced/api"
	"traced/internal/engine"
)

// FromSourceMapStatus converts engine.SourceMapStatus to its wire type.
func FromSourceMapStatus(x engine.SourceMapStatus) api.SourceMapStatus {
	return api.SourceMapStatus{
		ScriptID:     x.ScriptID,
		URL:          x.URL,
		File:         x.File,
		SourceMapURL: x.SourceMapURL,
		Inline:       x.Inline,
		MapFile:      x.MapFile,
		Status:       x.Status,
		Reason:       x.Reason,
		Sources:      x.Sources,
		Bytes:        x.Bytes,
	}
}

// FromSourceMapsResponse converts engine.SourceMaps to its wire type.
func FromSourceMapsResponse(x engine.SourceMaps) api.SourceMapsResponse {
	return api.SourceMapsResponse{
		Enabled: x.Enabled,
		Scripts: FromSourceMapStatuss(x.Scripts),
	}
}
