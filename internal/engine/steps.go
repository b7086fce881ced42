package engine

import (
	"context"
	"fmt"
)

// step is one CDP call of a set-up sequence.
type step struct {
	method string
	params any
}

// The steps every target shares.
var (
	skipPauses         = step{"Debugger.setSkipAllPauses", map[string]any{"skip": true}}
	runIfWaiting       = step{"Runtime.runIfWaitingForDebugger", nil}
	notifyAtDisconnect = step{"NodeRuntime.notifyWhenWaitingForDisconnect", map[string]any{"enabled": true}}
	// preloadGo lets a child that waits in traced's preload run (boot/preload.cjs): it waits
	// there, not in node's waitForDebugger, so that traced can also let it go without its
	// inspector. Its script has no URL: node's own, never the program's.
	preloadGo = step{"Runtime.evaluate", map[string]any{"expression": `globalThis[Symbol.for("traced.go")]?.()`, "silent": true}}
)

// callSteps makes the calls in order and stops at the first that fails, naming it.
func callSteps(ctx context.Context, c clientCaller, steps ...step) error {
	for _, st := range steps {
		if err := c.Call(ctx, st.method, st.params, nil); err != nil {
			return fmt.Errorf("%s: %w", st.method, err)
		}
	}
	return nil
}
