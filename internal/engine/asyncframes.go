package engine

import (
	"context"
	"fmt"
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"strings"

	jsonv2 "github.com/go-json-experiment/json"

	"traced/internal/cdp/proto"
)

// Async frames. V8 records async parents for the inspector only while async stacks are on (POST
// async-depth), which is off by default (see DefaultAsyncDepth). Its zero-cost async stack traces
// are always on: an error's stack names the await chain down to the user
// ("at async loadConfig (tla.mjs:5:16)"), as node prints it. So the async part of an exception's
// or a throw's stack is read from the error's own stack, and that of a pause from a stack V8
// captures in its top frame. A rejection node's own code made (an awaited fs.promises.readFile)
// is then placed at the user's awaiting frame, node's frames collapsed.

// maxAsyncFrames caps the async frames added to a stack: an await chain is a few frames deep,
// and deeper ones are the runner's or the loader's.
const maxAsyncFrames = 8

// asyncAwait labels a frame of an await chain read from a zero-cost async stack trace.
const asyncAwait = "await"

// stackLine is one frame line of a V8 stack string: "at [async ][fn (]place:line:col[)]".
var stackLine = regexp.MustCompile(`^\s*at (async )?(?:(.*?) \()?([^()\s][^()]*?):(\d+):(\d+)\)?$`)

// textFrame is a frame read from a stack string; line and column are 1-based.
type textFrame struct {
	async     bool
	function  string
	url       string
	line, col int
}

// parseStack reads the frames of a V8 stack string; lines it cannot read are skipped (an eval's
// "<anonymous>", "Promise.all (index 0)", a message's own lines).
func parseStack(stack string) []textFrame {
	var out []textFrame
	for _, l := range strings.Split(stack, "\n") {
		m := stackLine.FindStringSubmatch(l)
		if m == nil || strings.Contains(m[3], "<anonymous>") {
			continue
		}
		line, err1 := strconv.Atoi(m[4])
		col, err2 := strconv.Atoi(m[5])
		if err1 != nil || err2 != nil || line < 1 {
			continue
		}
		out = append(out, textFrame{async: m[1] != "", function: m[2], url: stackURL(m[3]), line: line, col: max(col, 1)})
	}
	return out
}

// stackURL spells a stack's place as the inspector spells script URLs: a CommonJS module's path
// becomes a file: URL.
func stackURL(place string) string {
	if strings.HasPrefix(place, "/") {
		return (&url.URL{Scheme: "file", Path: place}).String()
	}
	return place
}

// asyncFramesOf is the async part of an error's stack (its description), node's own frames
// collapsed, each marked async and placed through its script's source map.
func (in Inspector) asyncFramesOf(stack string) []Frame {
	return in.errorFrames(stack, true)
}

// errorFrames are the frames of an error's stack but node's own, the async ones marked; only
// those of its await chain with onlyAsync.
func (in Inspector) errorFrames(stack string, onlyAsync bool) []Frame {
	var out []Frame
	for _, f := range parseStack(stack) {
		if (onlyAsync && !f.async) || InternalURL(f.url) {
			continue
		}
		if len(out) == maxAsyncFrames {
			break
		}
		out = append(out, in.textFramePlace(f))
	}
	return out
}

// textFramePlace places a frame read from a stack string, marked async.
func (in Inspector) textFramePlace(f textFrame) Frame {
	id, _ := in.scriptFor(f.url)
	fr := in.t.SourceMapping().place(f.function, id, f.url, f.line-1, f.col-1)
	if f.async {
		fr.Async = asyncAwait
	}
	return fr
}

// firstUserFrame is the first frame of user code in frames, nil when none is.
func (in Inspector) firstUserFrame(frames []Frame) *Frame {
	for i := range frames {
		if !frames[i].Internal && in.t.s.isUserURL(frames[i].URL) {
			return &frames[i]
		}
	}
	return nil
}

// awaitingPause rewrites an exception pause whose every frame is node's own or traced's (the
// preload's monitor of an uncaught error: a top-level await's rejection, a rejection node's
// code made) to stand at the user's frames read from the error's stack, the awaiting ones
// marked: the user never stops in node's internals nor in traced's code. Under no lock; p is
// not shared yet.
func (in Inspector) awaitingPause(p *debuggerPaused) {
	if p.Data == nil || p.Data.Subtype != "error" || len(p.CallFrames) == 0 {
		return
	}
	for _, f := range p.CallFrames {
		url := in.t.dispatcher().frameURL(f)
		in.t.mu.Lock()
		own := in.t.scripts[f.Location.ScriptID].Internal // node's, or traced's preload
		in.t.mu.Unlock()
		if !InternalURL(url) && !own {
			return
		}
	}
	listener := p.CallFrames[0]
	monitor := listener.FunctionName == fatalListener
	frames := in.errorFrames(p.Data.Description, false)
	switch {
	case in.firstUserFrame(frames) != nil:
		p.CallFrames = in.awaitedFrames(frames)
		p.chainRead = true // its frames are the chain already
	case monitor && len(p.CallFrames) > 1:
		// The error names no user frame (node 26's fs errors carry no stack): node's frames
		// that emitted the monitor's event, never traced's own.
		p.CallFrames = slices.Clone(p.CallFrames[1:])
	default:
		return
	}
	if monitor {
		// The preload's monitor holds the error as its local: f0 reads and evaluates there.
		p.CallFrames[0].CallFrameID, p.CallFrames[0].ScopeChain, p.CallFrames[0].This = listener.CallFrameID, listener.ScopeChain, listener.This
	}
}

// awaitedFrames turns frames read from a stack string into paused frames: places to show, with
// no scopes to read and no call frame to evaluate in.
func (in Inspector) awaitedFrames(frames []Frame) []pausedFrame {
	out := make([]pausedFrame, 0, len(frames))
	for _, f := range frames {
		line, col := f.Line, f.Column
		url := f.URL
		if f.Generated != nil {
			url, line, col = f.Generated.URL, f.Generated.Line, f.Generated.Column
		}
		id, _ := in.scriptFor(url)
		out = append(out, pausedFrame{FunctionName: f.Function, URL: url, async: f.Async,
			Location: location{ScriptID: id, LineNumber: line - 1, ColumnNumber: col - 1}})
	}
	return out
}

// stackProbe captures, in the paused top frame, the frames of its await chain as V8's zero-cost
// async stack traces see them, through structured call sites: a program's own
// Error.prepareStackTrace (source-map-support, a runner's) is set aside for the capture.
const stackProbe = `(() => { const E = Error, p = E.prepareStackTrace, l = E.stackTraceLimit; try {
E.stackTraceLimit = 100; E.prepareStackTrace = (_, cs) => cs.filter((c) => c.isAsync()).map((c) =>
[c.getFunctionName() || "", String(c.getScriptNameOrSourceURL() || ""), c.getLineNumber() || 0, c.getColumnNumber() || 0]);
return JSON.stringify(new E().stack); } finally { E.prepareStackTrace = p; E.stackTraceLimit = l; } })()`

// awaitChain is the async part of a pause's stack when V8 recorded none: the await chain of its
// top frame, read once per pause (the probe goes out with the pause's prefetch: prefetch.go).
// Exception pauses read it from the error's stack.
func (in Inspector) awaitChain(ctx context.Context, c clientCaller, p *debuggerPaused) []Frame {
	in.t.mu.Lock()
	done, frames := p.chainRead, p.chain
	in.t.mu.Unlock()
	if done {
		return frames
	}
	switch {
	case p.Data != nil && p.Data.Subtype == "error":
		frames = in.asyncFramesOf(p.Data.Description)
	case needsChainProbe(p) && c != nil:
		w := in.prefetchedChain(ctx, c, p)
		if w == nil {
			var err error
			if w, err = send(ctx, c, chainProbe(p)); err != nil {
				break
			}
		}
		var res evaluateResult
		if w.Wait(ctx, &res) == nil {
			frames = in.chainFrames(res)
		}
	}
	in.t.mu.Lock()
	p.chainRead, p.chain = true, frames
	in.t.mu.Unlock()
	return frames
}

// needsChainProbe reports whether a pause's await chain is read with stackProbe: not an
// exception pause (its error's stack has it), and a top frame to run it in.
func needsChainProbe(p *debuggerPaused) bool {
	return !(p.Data != nil && p.Data.Subtype == "error") && len(p.CallFrames) > 0 && p.CallFrames[0].CallFrameID != ""
}

// chainProbe is the call that runs stackProbe in p's top frame.
func chainProbe(p *debuggerPaused) proto.DebuggerEvaluateOnCallFrame {
	return proto.DebuggerEvaluateOnCallFrame{CallFrameID: p.CallFrames[0].CallFrameID, Expression: stackProbe, Silent: true, ReturnByValue: true}
}

// chainFrames reads stackProbe's answer; a failure (the frame gone, a realm without structured
// call sites) leaves the stack without its async part.
func (in Inspector) chainFrames(res evaluateResult) []Frame {
	if res.ExceptionDetails != nil {
		return nil
	}
	s, ok := res.Result.Value.(string)
	if !ok {
		return nil
	}
	var sites [][]any
	if jsonv2.Unmarshal([]byte(s), &sites) != nil {
		return nil
	}
	var out []Frame
	for _, site := range sites {
		if len(out) == maxAsyncFrames {
			break
		}
		if len(site) != 4 {
			continue
		}
		fn, _ := site[0].(string)
		place, _ := site[1].(string)
		line, _ := site[2].(float64)
		col, _ := site[3].(float64)
		u := stackURL(place)
		if InternalURL(u) || line < 1 {
			continue
		}
		out = append(out, in.textFramePlace(textFrame{async: true, function: fn, url: u, line: int(line), col: max(int(col), 1)}))
	}
	return out
}

// scopedFrameOf is frameOf for what runs in a frame (eval, a variable's change, a restart): a
// frame of an await chain has no call frame to run in.
func scopedFrameOf(p *debuggerPaused, frame int) (pausedFrame, error) {
	f, err := frameOf(p, frame)
	if err == nil && f.CallFrameID == "" {
		err = fmt.Errorf("%w: frame f%d is an awaiting frame read from the error's stack: it has no scope to run in (its place and the exception are what is known; GET exception)", ErrBadInput, frame)
	}
	return f, err
}
