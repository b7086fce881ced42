package engine

import (
	"context"
	"slices"

	"traced/internal/cdp/proto"
)

// An exception that ends the process without V8 ever pausing at it as uncaught: an ESM top-level
// await's rejection (V8 predicts node's loader catches it; node ends the process from C++). The
// preload's uncaughtExceptionMonitor listener (boot/preload.cjs) holds a debugger statement:
// that pause is the user's exception stop when their mode asks for uncaught exceptions and no
// uncaught stop came before it in this target; otherwise it is passed like traced's own pauses.

// fatalListener is the preload's listener function.
const fatalListener = "tracedUncaught"

// isFatalPause reports, under mu, whether a pause is the preload's debugger statement.
func (dp dispatcher) isFatalPause(p *debuggerPaused) bool {
	return p.Reason == "other" && dp.t.SourceMapping().inPreload(p) && p.CallFrames[0].FunctionName == fatalListener
}

// passFatal shows the preload's pause as an uncaught exception stop, or lets it go.
func (dp dispatcher) passFatal(p *debuggerPaused) {
	ctx, cancel := passContext()
	defer cancel()
	c := dp.t.liveConn()
	if c == nil {
		return
	}
	data := &pauseData{Uncaught: true}
	if err, ok := dp.fatalError(ctx, c, p.CallFrames[0]); ok {
		data.remoteObject = err
	}
	dp.t.lock()
	show := dp.t.s.mode == ModeDebug && !dp.t.stoppedUncaught && dp.t.s.Settings().userStopsAt(&debuggerPaused{Data: data})
	if show {
		dp.endPass() // the pause is the user's after all
	}
	dp.t.unlock()
	if show {
		user := *p
		user.Reason, user.Data = "exception", data
		dp.onPaused(&user)
		return
	}
	dp.t.SourceMapping().stopOrPass(ctx, c, p, nil)
}

// fatalError reads the listener's error argument from its frame.
func (dp dispatcher) fatalError(ctx context.Context, c clientCaller, f pausedFrame) (remoteObject, bool) {
	scopes := f.scopes()
	i := slices.IndexFunc(scopes, func(sc scope) bool { return sc.Type == "local" })
	if i < 0 || scopes[i].Object.ObjectID == "" {
		return remoteObject{}, false
	}
	var props propertiesResult
	if err := proto.Do(ctx, c, proto.RuntimeGetProperties{
		ObjectID: scopes[i].Object.ObjectID, OwnProperties: true,
	}, &props); err != nil {
		return remoteObject{}, false
	}
	for _, pd := range props.Result {
		if pd.Name == "error" && pd.Value != nil {
			return *pd.Value, true
		}
	}
	return remoteObject{}, false
}
