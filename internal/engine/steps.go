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
