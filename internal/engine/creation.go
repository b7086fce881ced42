package engine

import (
	"context"

	"traced/internal/cpuprofile"
)

// installCreation installs the creation hook (cpuprofile.CreationHookJS) in a target of a
// session started with CreationStacks, through the inspector, while the target stands at its
// start: the main thread at its first-line break, a worker or child process as traced sets it
// up (before its script; a child waits in the preload), again at a worker's start break. What the program creates from then on has a creation
// stack for alive. A target that refuses runs on without one: alive answers there without
// createdAt.
func (t *Target) installCreation(ctx context.Context, c clientCaller) {
	if !t.s.req.CreationStacks || t.s.mode != ModeDebug {
		return
	}
	if _, err := evalJSON(ctx, c, cpuprofile.CreationHookJS); err != nil {
		t.s.log.Debug("creation hook", "session", t.s.id, "target", t.Ref(), "err", err)
	}
}
