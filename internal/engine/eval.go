package engine

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"strings"
	"time"

	"traced/internal/cdp/proto"
	"traced/internal/preview"
)

// EvalSpec asks for an evaluation.
type EvalSpec struct {
	Expression     string
	Frame          int           // of a paused program
	AwaitPromise   bool          // wait for a promise result to settle (while running)
	SideEffectFree bool          // refuse expressions with side effects (V8's throwOnSideEffect)
	Timeout        time.Duration // 0: DefaultEvalTimeout
}

// DefaultEvalTimeout bounds an evaluation: V8 terminates one that runs longer.
const DefaultEvalTimeout = 5 * time.Second

// evalGroup holds the remote objects evals create, released at the next resume.
const evalGroup = "traced-eval"

// Eval evaluates an expression in a frame of the paused program, or globally while it runs.
// Refs in the expression (v1, @v1, o2) stand for the values they name. The answer names the
// session and target, and a name out of scope gets a hint saying how to reach it.
func (in Inspector) Eval(ctx context.Context, spec EvalSpec) (EvalResult, error) {
	in.t.mu.Lock()
	running := in.t.paused == nil
	in.t.mu.Unlock()
	res, err := in.evalIn(ctx, spec)
	if err != nil {
		return res, err
	}
	res.Session, res.Target = in.t.Named()
	if res.Hint == "" {
		res.Hint = outOfScopeHint(res.Exception, running)
	}
	return res, nil
}

// notDefinedRE reads the name of a ReferenceError for a name not in scope.
var notDefinedRE = regexp.MustCompile(`^ReferenceError: ([\p{L}\p{N}_$]+) is not defined`)

// outOfScopeHint says how to reach a name an evaluation did not find: require is a CommonJS
// module's own, while the program runs an evaluation sees only globals, and a paused frame sees
// only the outer names its function uses.
func outOfScopeHint(exception string, running bool) string {
	m := notDefinedRE.FindStringSubmatch(exception)
	switch {
	case m == nil:
		return ""
	case m[1] == "require":
		return "require is a CommonJS module's own, not a global: process.getBuiltinModule('node:fs') reaches a " +
			"built-in module (node 20.16+), process.mainModule.require('x') a package from the main thread " +
			"(from an ES module: await import('x') with await)"
	case running:
		return m[1] + " is not a global: a module's own names are in scope only while the program is paused " +
			"in that module; pause it, or stop at a breakpoint there, then evaluate again"
	}
	return m[1] + " is not in this frame's scope (a function sees only the outer names it uses): " +
		"--frame f1 evaluates in its caller"
}

func (in Inspector) evalIn(ctx context.Context, spec EvalSpec) (EvalResult, error) {
	p, c, err := in.pauseNow()
	if err != nil {
		return EvalResult{}, err
	}
	timeout := spec.Timeout
	if timeout <= 0 {
		timeout = DefaultEvalTimeout
	}
	expr, keys, err := in.interpolate(ctx, c, spec.Expression)
	defer dropInterpolated(context.WithoutCancel(ctx), c, keys)
	if err != nil {
		return EvalResult{}, err
	}
	in.t.mu.Lock()
	in.t.evalValues = true
	in.t.mu.Unlock()
	var res evaluateResult
	if p != nil {
		f, err := scopedFrameOf(p, spec.Frame)
		if err != nil {
			return EvalResult{}, err
		}
		// V8 ends a long evaluation at timeout; a process that cannot even start it (frozen)
		// must not hold the request longer than that.
		callCtx, cancel := context.WithTimeout(ctx, timeout+time.Second)
		defer cancel()
		err = proto.Do(callCtx, c, proto.DebuggerEvaluateOnCallFrame{CallFrameID: f.CallFrameID, Expression: expr,
			GeneratePreview: true, ObjectGroup: evalGroup, Timeout: timeout.Milliseconds(), ThrowOnSideEffect: spec.SideEffectFree}, &res)
		if err != nil && strings.Contains(err.Error(), "Execution was terminated") {
			return EvalResult{Type: "undefined", Value: "undefined",
				Exception: fmt.Sprintf("terminated: still running after %s (timeoutMs)", timeout)}, nil
		}
		if err != nil {
			return EvalResult{}, fmt.Errorf("eval: %w", err)
		}
		if spec.AwaitPromise && res.ExceptionDetails == nil && res.Result.Subtype == "promise" {
			return in.settled(ctx, c, p, res.Result)
		}
	} else {
		call := proto.RuntimeEvaluate{Expression: expr, GeneratePreview: true, ObjectGroup: evalGroup,
			Timeout: timeout.Milliseconds(), ThrowOnSideEffect: spec.SideEffectFree,
			AwaitPromise: spec.AwaitPromise, ReplMode: spec.AwaitPromise} // replMode: top-level await
		// The wait for a promise is V8's, not bounded by its timeout: bound the call too.
		callCtx, cancel := context.WithTimeout(ctx, timeout+time.Second)
		defer cancel()
		if err := proto.Do(callCtx, c, call, &res); err != nil {
			if strings.Contains(err.Error(), "Execution was terminated") {
				return EvalResult{Type: "undefined", Value: "undefined",
					Exception: fmt.Sprintf("terminated: still running after %s (timeoutMs)", timeout)}, nil
			}
			if spec.AwaitPromise && errors.Is(err, context.DeadlineExceeded) && ctx.Err() == nil && !in.t.s.frozen() {
				return EvalResult{Type: "undefined", Value: "undefined",
					Exception: fmt.Sprintf("timed out after %s waiting for the promise", timeout)}, nil
			}
			return EvalResult{}, fmt.Errorf("eval: %w", err)
		}
	}
	return in.evalResult(ctx, c, p, res)
}

// evalResult renders an evaluation's answer and names its value with a ref: v while paused,
// o for an object while running (there is no pause for a v ref to belong to).
func (in Inspector) evalResult(ctx context.Context, c clientCaller, p *debuggerPaused, res evaluateResult) (EvalResult, error) {
	text, cut := in.t.s.preview(res.Result, 1)
	if res.ExceptionDetails == nil && hasNested(res.Result) {
		if deep := in.deeper(ctx, c, []remoteObject{res.Result})[0]; deep != "" {
			text = deep
		}
	}
	out := EvalResult{Type: typeOf(res.Result), Value: text}
	if d := res.ExceptionDetails; d != nil {
		out.Exception = d.Text
		if d.Exception != nil {
			out.Exception = firstLine(preview.Value(*d.Exception))
		}
		return out, nil
	}
	switch {
	case p != nil:
		in.t.mu.Lock()
		out.Ref = in.t.refs.valueRef(p, refValue{obj: res.Result})
		in.t.mu.Unlock()
	case res.Result.ObjectID != "":
		ref, _, err := in.persist(ctx, c, res.Result)
		if err != nil {
			return out, err
		}
		out.Ref = ref
	}
	out.Expand = expandHint(out.Ref, cut && res.Result.ObjectID != "")
	return out, nil
}

// settled reads a promise's state while the program is paused: awaiting it would wait for a
// program that cannot run, so a settled promise gives its value and a pending one says so.
func (in Inspector) settled(ctx context.Context, c clientCaller, p *debuggerPaused, promise remoteObject) (EvalResult, error) {
	var props propertiesResult
	if err := proto.Do(ctx, c, proto.RuntimeGetProperties{
		ObjectID: promise.ObjectID, OwnProperties: true, GeneratePreview: true,
	}, &props); err != nil {
		return EvalResult{}, fmt.Errorf("eval: promise state: %w", err)
	}
	var state string
	var value *remoteObject
	for _, pd := range props.Internal {
		switch pd.Name {
		case "[[PromiseState]]":
			if pd.Value != nil {
				state, _ = pd.Value.Value.(string)
			}
		case "[[PromiseResult]]":
			value = pd.Value
		}
	}
	switch {
	case state == "fulfilled" && value != nil:
		return in.evalResult(ctx, c, p, evaluateResult{Result: *value})
	case state == "rejected" && value != nil:
		return EvalResult{Type: typeOf(*value), Value: CapText(preview.Value(*value), in.t.s.stringCap).Value,
			Exception: "Uncaught (in promise) " + firstLine(preview.Value(*value))}, nil
	}
	out, err := in.evalResult(ctx, c, p, evaluateResult{Result: promise})
	out.Hint = "the promise is pending: it cannot settle while the program is paused; continue, then evaluate again"
	return out, err
}
