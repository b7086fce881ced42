package engine

import (
	"context"
	"time"
)

// FirstOutputWait bounds how long a start waits for the program's first line of output, so that
// a server's "listening on :PORT" is in the start's answer; a program that prints nothing costs
// the start this much.
const FirstOutputWait = time.Second

// startOutputKinds end the wait for a first line: output, or a program that will print nothing
// more for now: its exit, or a pause (a breakpoint the start set, a debugger statement).
var startOutputKinds = KindSet{KindConsole: true, KindStdout: true, KindStderr: true, KindException: true, KindExit: true, KindPause: true}

// StartOutput is what the program printed and threw since it started (bounded as an execution
// answer's output), after waiting up to wait for the first of it; nil when it printed nothing.
func (tl Timeline) StartOutput(ctx context.Context, wait time.Duration) *ExecOutput {
	ctx, cancel := context.WithTimeout(ctx, wait)
	defer cancel()
	_, _ = tl.Wait(ctx, 0, Filter{Kinds: startOutputKinds}) // a timeout answers what there is: nothing
	return tl.outputSince(0)
}
