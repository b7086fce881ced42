package api

// SourceMapSwitch is the body of POST /api/debug/{session}/sourcemap.
type SourceMapSwitch struct {
	Enabled *bool `json:"enabled" validate:"required"`
}

// SourceMapSwitchResponse answers POST /api/debug/{session}/sourcemap.
type SourceMapSwitchResponse struct {
	Enabled bool `json:"enabled"`
}

// SourceMapStatus says what source map a script has and whether it is in use.
type SourceMapStatus struct {
	ScriptID     string   `json:"scriptId"`
	URL          string   `json:"url"`
	File         string   `json:"file,omitempty"`
	SourceMapURL string   `json:"sourceMapURL,omitempty"` // capped; inline maps show their start
	Inline       bool     `json:"inline,omitempty"`
	MapFile      string   `json:"mapFile,omitempty"`
	Status       string   `json:"status"` // loaded, failed, off
	Reason       string   `json:"reason,omitempty"`
	Sources      []string `json:"sources,omitempty"` // the original sources, relative to cwd when inside it
	Bytes        int64    `json:"bytes,omitempty"`   // memory the loaded map takes, estimated
}

// SourceMapsResponse answers GET /api/debug/{session}/sourcemap. It describes a session's source maps: every user script that names one, or those
// whose generated file or one of whose original sources is file.
type SourceMapsResponse struct {
	Enabled bool              `json:"enabled"`
	Scripts []SourceMapStatus `json:"scripts"`
}
