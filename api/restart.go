package api

// RestartRequest is the body of POST /api/debug/{session}/restart.
type RestartRequest struct {
	// WaitMs bounds the wait for the new run's first pause (default 5000, at most 60000); past
	// it the answer is a running state.
	WaitMs *int64 `json:"waitMs,omitempty" validate:"omitempty,min=0"`
}

// RestartResponse answers POST /api/debug/{session}/restart: the new session, the one it
// replaced, and the new run's state at its first pause (or running).
type RestartResponse struct {
	Session  Summary `json:"session"`
	Previous string  `json:"previous"` // the replaced session's id; it keeps it, the new session has the name
	State    State   `json:"state"`
	// NotCarried lists breakpoints that were not set again, each with why.
	NotCarried []string `json:"notCarried,omitempty"`
}

// NodeFeatures are the node capabilities that differ between node lines.
type NodeFeatures struct {
	// LiveEdit: hot-patch (POST hotpatch) works; node 26 removed it: use POST restart.
	LiveEdit bool `json:"liveEdit"`
	// TypeScript: how node runs a .ts file by itself ("strip", "transform"), absent when it does not.
	TypeScript string `json:"typescript,omitempty"`
}
