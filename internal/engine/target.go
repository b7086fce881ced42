package engine

// newTarget makes a session's value for one of its targets, with the per-connection state
// empty; the caller sets its connection and registers it (debugged).
func newTarget(tr *Session, ref string, maps *sessionMaps) *Target {
	return &Target{
		s:          tr,
		ref:        ref,
		maps:       maps,
		scripts:    make(map[string]ScriptInfo),
		sources:    make(map[string][]string),
		contexts:   make(map[int]ContextInfo),
		startPause: make(chan struct{}),
		nextPause:  make(chan struct{}),
		discard:    make(chan struct{}, 1),
		unbind:     make(chan struct{}, 1),
		gate:       make(chan struct{}, 1),
		ended:      make(chan struct{}),
	}
}

// newTargetOf makes the value of a worker or child process of the session, its source maps
// read as the main thread's are.
func (t *Target) newTargetOf(ref string) *Target {
	return newTarget(t.s, ref, &sessionMaps{byScript: make(map[string]*scriptMap), off: !t.maps.enabled(), load: t.maps.load})
}

// main reports whether the value is the main thread's (t0).
func (t *Target) main() bool { return t.ref == "t0" || t.ref == "" }

// caller is the target's inspector connection as clientCaller, under mu; nil before it is
// attached (a nil cdp.Conn must not become a non-nil interface value).
func (t *Target) caller() clientCaller {
	if t.conn == nil {
		return nil
	}
	return t.conn
}

// Session is the session the target belongs to.
func (t *Target) Session() *Session { return t.s }

// Main is the session's main thread (t0).
func (s *Session) Main() *Target { return s.main }
