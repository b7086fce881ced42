package api

// AttachRequest is the body of POST /api/debug/attach: exactly one of WSURL and Port.
type AttachRequest struct {
	WSURL             string `json:"wsUrl,omitempty"`                                        // ws://127.0.0.1:9229/<uuid>
	Port              int    `json:"port,omitempty" validate:"omitempty,min=1,max=65535"`    // the inspector's port on 127.0.0.1
	Name              string `json:"name,omitempty" validate:"omitempty,excludesall=/ \x00"` // as for start
	PauseOnExceptions string `json:"pauseOnExceptions,omitempty" validate:"omitempty,oneof=none uncaught caught all"`
}
