package engine

import (
	"context"
	"fmt"

	"traced/internal/cdp/proto"
)

// step is one CDP call of a set-up sequence.
type step = proto.Command

// The steps every target shares.
var (
	skipPauses         step = proto.DebuggerSetSkipAllPauses{Skip: true}
	runIfWaiting       step = proto.RuntimeRunIfWaitingForDebugger{}
	notifyAtDisconnect step = proto.NodeRuntimeNotifyWhenWaitingForDisconnect{Enabled: true}
	// preloadGo lets a child that waits in traced's preload run (boot/preload.cjs): it waits
	// there, not in node's waitForDebugger, so that traced can also let it go without its
	// inspector. Its script has no URL: node's own, never the program's.
	// It may come before the preload waits (t0 under node 20's --test is the test file's own
	// inspector, dialled as soon as it opens; a child known first from its banner): then it
	// leaves a flag, not enumerable, that the preload reads instead of waiting.
	preloadGo step = proto.RuntimeEvaluate{Expression: `((k) => typeof globalThis[k] === "function" ? globalThis[k]() : ` +
		`Object.defineProperty(globalThis, k, { value: true, configurable: true }))(Symbol.for("traced.go"))`, Silent: true}
)

// callSteps makes the calls in order and stops at the first that fails, naming it.
func callSteps(ctx context.Context, c clientCaller, steps ...step) error {
	for _, st := range steps {
		if err := proto.Do(ctx, c, st, nil); err != nil {
			return fmt.Errorf("%s: %w", st.Method(), err)
		}
	}
	return nil
}
