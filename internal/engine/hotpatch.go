package engine

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"traced/internal/cdp/proto"
	"traced/internal/preview"
)

// Hot-patch outcomes, as V8 names them (Debugger.setScriptSource status); V8 may add others.
const (
	PatchOk           = "Ok"
	PatchCompileError = "CompileError"
)

// CompileError is where a patched source fails to compile, 1-based.
type CompileError struct {
	Message string
	Line    int
	Column  int
}

// HotpatchResult is what a hot-patch did. State is set when the patch restarted the paused top
// frame: the program stands at the start of the edited function again.
type HotpatchResult struct {
	Status         string
	DryRun         bool
	CompileError   *CompileError
	RestartedFrame bool
	State          *State
}

// Workspace is the root targets, working directories and patched files must lie in.
func (m *Manager) Workspace() Workspace { return m.ws }

// Hotpatch replaces a loaded script's code with its file on disk (Debugger.setScriptSource);
// with dryRun it only checks the new source. The file must resolve inside ws. When the program
// is paused in a function the patch changes, V8 restarts that top frame; the answer then
// carries the state at the function's start, waited for at most wait.
func (t *Target) Hotpatch(ctx context.Context, ws Workspace, file string, dryRun bool, wait time.Duration) (HotpatchResult, error) {
	c, err := t.liveClient()
	if err != nil {
		return HotpatchResult{}, err
	}
	real, err := ws.Resolve(t.s.dir(), file)
	if err != nil {
		return HotpatchResult{}, err
	}
	scriptID, _ := t.Inspector().scriptFor(real)
	if scriptID == "" && !filepath.IsAbs(file) {
		scriptID, _ = t.Inspector().scriptFor(filepath.Join(t.s.dir(), file)) // node names the path it was given
	}
	if scriptID == "" {
		return HotpatchResult{}, fmt.Errorf("%w: %s is not loaded", ErrNotLoaded, file)
	}
	st, err := os.Stat(real)
	if err != nil {
		return HotpatchResult{}, fmt.Errorf("hotpatch: %w", err)
	}
	if st.Size() > maxSourceBytes {
		return HotpatchResult{}, fmt.Errorf("%w: %s is %d bytes, over the %d a patch takes", ErrBadInput, file, st.Size(), maxSourceBytes)
	}
	src, err := os.ReadFile(real)
	if err != nil {
		return HotpatchResult{}, fmt.Errorf("hotpatch: %w", err)
	}

	t.mu.Lock()
	from := t.paused
	next := t.nextPause
	t.mu.Unlock()
	var res struct {
		Status           string `json:"status"`
		ExceptionDetails *struct {
			Text         string        `json:"text"`
			LineNumber   int           `json:"lineNumber"`
			ColumnNumber int           `json:"columnNumber"`
			Exception    *remoteObject `json:"exception,omitempty"`
		} `json:"exceptionDetails"`
	}
	err = proto.Do(ctx, c, proto.DebuggerSetScriptSource{
		ScriptID: scriptID, ScriptSource: string(src), DryRun: dryRun, AllowTopFrameEditing: true,
	}, &res)
	if liveEditGone(err) {
		return HotpatchResult{}, fmt.Errorf("%w: hotpatch %s: V8 answered %v", ErrNoLiveEdit, file, err)
	}
	if err != nil {
		return HotpatchResult{}, fmt.Errorf("hotpatch %s: %w", file, err)
	}
	out := HotpatchResult{Status: res.Status, DryRun: dryRun}
	if d := res.ExceptionDetails; d != nil {
		if out.Status == "" {
			out.Status = PatchCompileError
		}
		msg := d.Text
		if d.Exception != nil {
			msg = firstLine(preview.Value(*d.Exception))
		}
		f := frameAt("", "", d.LineNumber, d.ColumnNumber, "")
		out.CompileError = &CompileError{Message: msg, Line: f.Line, Column: f.Column}
	}
	if out.Status == "" {
		out.Status = PatchOk
	}
	if out.Status != PatchOk || dryRun {
		return out, nil
	}
	t.mu.Lock()
	delete(t.sources, scriptID) // the next view fetches the new code
	t.mu.Unlock()
	if from == nil || len(from.CallFrames) == 0 || from.CallFrames[0].Location.ScriptID != scriptID {
		return out, nil
	}
	// Paused in the patched script: if the edit touched the top frame's function, V8 restarts it
	// and pauses at its start. A pause already there, or the evaluation of the old frame failing,
	// tells that it did.
	if !t.restarting(ctx, c, from, next) {
		return out, nil
	}
	t.Control().leftPause(from)
	state, err := t.Control().awaitPause(ctx, next, wait)
	if err != nil {
		return HotpatchResult{}, err
	}
	out.RestartedFrame, out.State = true, &state
	return out, nil
}

// restarting reports whether V8 left the pause from after a patch: a new pause arrived, or
// the old top frame can no longer be evaluated in.
func (tg *Target) restarting(ctx context.Context, c clientCaller, from *debuggerPaused, next chan struct{}) bool {
	select {
	case <-next:
		return true
	default:
	}
	var res evaluateResult
	err := proto.Do(ctx, c, proto.DebuggerEvaluateOnCallFrame{
		CallFrameID: from.CallFrames[0].CallFrameID, Expression: "0", Silent: true,
	}, &res)
	tg.mu.Lock()
	moved := tg.paused != from
	tg.mu.Unlock()
	if err != nil || moved {
		return true
	}
	// V8 restarts the frame from its message loop, which may come after both answers: give it
	// a moment before concluding the edit left the top frame alone.
	t := time.NewTimer(restartGrace)
	defer t.Stop()
	select {
	case <-next:
		return true
	case <-t.C:
		return false
	case <-ctx.Done():
		return false
	}
}

// restartGrace bounds the wait for a restart V8 has not shown yet; a patch that leaves the
// paused function alone pays it once.
const restartGrace = 300 * time.Millisecond
