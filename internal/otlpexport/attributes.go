package otlpexport

import (
	"fmt"
	"strings"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	semconv "go.opentelemetry.io/otel/semconv/v1.43.0"

	"traced/internal/engine"
	"traced/internal/evidence"
)

// traced's own attributes, where the semantic conventions have none.
const (
	attrSession       = attribute.Key("traced.session.id")
	attrSessionName   = attribute.Key("traced.session.name")
	attrMode          = attribute.Key("traced.mode")
	attrStatus        = attribute.Key("traced.status")
	attrTarget        = attribute.Key("traced.target")
	attrSignal        = attribute.Key("traced.signal")
	attrError         = attribute.Key("traced.error")
	attrSeq           = attribute.Key("traced.seq")
	attrEvents        = attribute.Key("traced.events")         // events captured (the last seq)
	attrRingDropped   = attribute.Key("traced.events.dropped") // evicted from the session's ring
	attrThrowsSkipped = attribute.Key("traced.throws.skipped")
	attrCountPrefix   = "traced.count." // + kind: events captured of the kind
	attrRestartOf     = attribute.Key("traced.restart_of")
	attrTextLength    = attribute.Key("traced.text.length") // a cut text's length before the cut

	attrConsoleLevel = attribute.Key("console.level")
	attrConsoleText  = attribute.Key("console.text")
	attrRejection    = attribute.Key("traced.exception.rejection")
	attrCaught       = attribute.Key("traced.exception.caught")
	attrLocals       = attribute.Key("traced.exception.locals")
	attrLogpointRef  = attribute.Key("traced.logpoint.ref")
	attrLogpointText = attribute.Key("traced.logpoint.text")
	attrHookName     = attribute.Key("traced.hook.name")
	attrHookPayload  = attribute.Key("traced.hook.payload")

	attrPauseReason = attribute.Key("traced.pause.reason")
	attrPauseHits   = attribute.Key("traced.pause.breakpoints")

	attrTargetRef    = attribute.Key("traced.target.ref")
	attrTargetKind   = attribute.Key("traced.target.kind")
	attrTargetURL    = attribute.Key("traced.target.url")
	attrTargetStatus = attribute.Key("traced.target.status")
	attrTargetReason = attribute.Key("traced.target.reason")

	attrJobOp       = attribute.Key("traced.job.op")
	attrJobRef      = attribute.Key("traced.job.ref")
	attrJobFinished = attribute.Key("traced.job.finished")
	attrJobTotal    = attribute.Key("traced.job.total")
	attrJobURL      = attribute.Key("traced.job.url") // where traced serves what the job made

	attrEvidenceFailure    = attribute.Key("traced.evidence.failure")
	attrEvidenceSummary    = attribute.Key("traced.evidence.summary")
	attrEvidenceCause      = attribute.Key("traced.evidence.immediate_cause")
	attrEvidenceConfidence = attribute.Key("traced.evidence.confidence")
)

// maxStackFrames is how many frames an exception's stacktrace attribute lists.
const maxStackFrames = 32

// exported tells whether events of the kind are exported, as span events or spans; the rest
// (scripts, contexts, bound breakpoints) are counted on the root span only.
func exported(k engine.Kind) bool {
	return k != engine.KindScript && k != engine.KindContext && k != engine.KindBreakpoint
}

// eventAttributes names the span event a captured event becomes and gives its attributes; ""
// for a kind not exported as an event (scripts, contexts, bound breakpoints: counted on the
// root span only).
func eventAttributes(ev *engine.Event, stringCap int) (string, []attribute.KeyValue) {
	attrs := []attribute.KeyValue{attrSeq.Int64(int64(ev.Seq))}
	switch ev.Kind {
	case engine.KindConsole:
		c := ev.Console
		attrs = append(attrs, attrConsoleLevel.String(c.Level), attrConsoleText.String(c.Text.Value))
		attrs = appendLength(attrs, c.Text)
		attrs = appendFrame(attrs, c.Frame)
		return "console", attrs
	case engine.KindException:
		x := ev.Exception
		attrs = append(attrs, semconv.ExceptionType(exceptionType(x.Class, x.Value)),
			semconv.ExceptionMessage(x.Message.Value), semconv.ExceptionStacktrace(stacktrace(x.Stack, stringCap)))
		if x.Rejection {
			attrs = append(attrs, attrRejection.Bool(true))
		}
		attrs = appendFrame(attrs, &engine.Frame{URL: x.URL, File: x.File, Line: x.Line, Column: x.Column})
		return "exception", attrs
	case engine.KindThrow:
		x := ev.Throw
		attrs = append(attrs, semconv.ExceptionType(exceptionType(x.Class, x.Value)),
			semconv.ExceptionMessage(x.Message.Value), semconv.ExceptionStacktrace(stacktrace(x.Stack, stringCap)),
			attrCaught.Bool(x.Caught))
		if len(x.Locals) > 0 {
			attrs = append(attrs, attrLocals.String(locals(x.Locals, stringCap)))
		}
		attrs = appendFrame(attrs, x.Location)
		return "exception", attrs
	case engine.KindStdout, engine.KindStderr:
		stream := semconv.LogIostreamStdout
		if ev.Kind == engine.KindStderr {
			stream = semconv.LogIostreamStderr
		}
		attrs = append(attrs, stream, semconv.LogRecordOriginal(ev.Output.Text.Value))
		return string(ev.Kind), appendLength(attrs, ev.Output.Text)
	case engine.KindLogpoint:
		attrs = append(attrs, attrLogpointRef.String(ev.Logpoint.Ref), attrLogpointText.String(ev.Logpoint.Text.Value))
		return "logpoint", appendLength(attrs, ev.Logpoint.Text)
	case engine.KindHook:
		attrs = append(attrs, attrHookName.String(ev.Hook.Name), attrHookPayload.String(ev.Hook.Payload.Value))
		return "hook", appendLength(attrs, ev.Hook.Payload)
	case engine.KindTarget: // one never debugged (a target with a span is a span)
		return "target " + ev.TargetInfo.Status, append(attrs, targetAttributes(ev.TargetInfo)...)
	case engine.KindExit:
		if ev.Exit.Code != nil {
			attrs = append(attrs, semconv.ProcessExitCode(*ev.Exit.Code))
		}
		if ev.Exit.Signal != "" {
			attrs = append(attrs, attrSignal.String(ev.Exit.Signal))
		}
		return "exit", attrs
	}
	return "", nil
}

func appendLength(attrs []attribute.KeyValue, t engine.Text) []attribute.KeyValue {
	if t.Truncated {
		attrs = append(attrs, attrTextLength.Int(t.Length))
	}
	return attrs
}

// appendFrame adds a source position as the code.* attributes.
func appendFrame(attrs []attribute.KeyValue, f *engine.Frame) []attribute.KeyValue {
	if f == nil {
		return attrs
	}
	path := f.File
	if path == "" {
		path = f.URL
	}
	if path != "" {
		attrs = append(attrs, semconv.CodeFilePath(path))
	}
	if f.Function != "" {
		attrs = append(attrs, semconv.CodeFunctionName(f.Function))
	}
	if f.Line > 0 {
		attrs = append(attrs, semconv.CodeLineNumber(f.Line), semconv.CodeColumnNumber(f.Column))
	}
	return attrs
}

func exceptionType(class, value string) string {
	switch {
	case class != "":
		return class
	case value != "":
		return "thrown value"
	}
	return "Error"
}

// stacktrace renders frames as node prints them, innermost first, cut at maxStackFrames and at
// 16 times the string cap (the span limit).
func stacktrace(frames []engine.Frame, stringCap int) string {
	var b strings.Builder
	for i, f := range frames {
		if i == maxStackFrames {
			fmt.Fprintf(&b, "    ... %d more\n", len(frames)-i)
			break
		}
		fn := f.Function
		if fn == "" {
			fn = "<anonymous>"
		}
		fmt.Fprintf(&b, "    at %s (%s:%d)\n", fn, f.Where(), f.Column)
	}
	return engine.CapText(strings.TrimSuffix(b.String(), "\n"), 16*stringCap).Value
}

func locals(vars []engine.Variable, stringCap int) string {
	parts := make([]string, len(vars))
	for i, v := range vars {
		parts[i] = v.Name + "=" + v.Value
	}
	return engine.CapText(strings.Join(parts, ", "), stringCap).Value
}

func pauseAttributes(session string, ev *engine.Event) []attribute.KeyValue {
	p := ev.Pause
	attrs := []attribute.KeyValue{attrSession.String(session), attrSeq.Int64(int64(ev.Seq)), attrPauseReason.String(p.Reason)}
	if ev.Target != "" {
		attrs = append(attrs, attrTargetRef.String(ev.Target))
	}
	if len(p.HitBreakpoints) > 0 {
		attrs = append(attrs, attrPauseHits.StringSlice(p.HitBreakpoints))
	}
	return appendFrame(attrs, p.Location)
}

func targetAttributes(info *engine.TargetInfo) []attribute.KeyValue {
	attrs := []attribute.KeyValue{attrTargetRef.String(info.Ref), attrTargetKind.String(info.Kind),
		attrTargetStatus.String(info.Status)}
	if info.URL != "" {
		attrs = append(attrs, attrTargetURL.String(info.URL))
	}
	if info.PID > 0 {
		attrs = append(attrs, semconv.ProcessPID(info.PID))
	}
	if info.Reason != "" {
		attrs = append(attrs, attrTargetReason.String(info.Reason))
	}
	return attrs
}

// rootAttributes describe a finished session on its root span.
func (e *Exporter) rootAttributes(sum engine.Summary) []attribute.KeyValue {
	argv := make([]string, 0, 2+len(sum.NodeArgs)+len(sum.Args))
	argv = append(append(append(argv, "node"), sum.NodeArgs...), sum.Target)
	argv = append(argv, sum.Args...)
	for i := range argv {
		argv[i] = engine.CapText(argv[i], e.opts.StringCap).Value
	}
	attrs := []attribute.KeyValue{
		attrSession.String(sum.ID), attrMode.String(sum.Mode), attrStatus.String(string(sum.Status)),
		attrTarget.String(sum.Target), semconv.ProcessCommandArgs(argv...), semconv.ProcessWorkingDirectory(sum.Cwd),
		semconv.ProcessRuntimeName("nodejs"), attrEvents.Int64(int64(sum.LastSeq)), attrRingDropped.Int(sum.Dropped),
	}
	if e.opts.NodeVersion != "" {
		attrs = append(attrs, semconv.ProcessRuntimeVersion(e.opts.NodeVersion))
	}
	if sum.Name != "" {
		attrs = append(attrs, attrSessionName.String(sum.Name))
	}
	if sum.PID > 0 {
		attrs = append(attrs, semconv.ProcessPID(sum.PID))
	}
	if sum.ExitCode != nil {
		attrs = append(attrs, semconv.ProcessExitCode(*sum.ExitCode))
	}
	if sum.Signal != "" {
		attrs = append(attrs, attrSignal.String(sum.Signal))
	}
	if sum.Error != "" {
		attrs = append(attrs, attrError.String(engine.CapText(sum.Error, e.opts.StringCap).Value))
	}
	if sum.ThrowsSkipped > 0 {
		attrs = append(attrs, attrThrowsSkipped.Int(sum.ThrowsSkipped))
	}
	if sum.RestartOf != "" {
		attrs = append(attrs, attrRestartOf.String(sum.RestartOf))
	}
	for _, k := range engine.Kinds {
		if n := sum.Counts[k]; n > 0 {
			attrs = append(attrs, attribute.Int(attrCountPrefix+string(k), n))
		}
	}
	return attrs
}

// evidenceAttributes summarise the evidence chain around the failure.
func evidenceAttributes(ev *evidence.Evidence, stringCap int) []attribute.KeyValue {
	f := ev.Failure
	summary := f.Message
	if f.Class != "" {
		summary = f.Class + ": " + summary
	}
	if f.Location != nil {
		summary += " at " + f.Location.Where()
	}
	if f.Kind == evidence.FailureExit {
		summary = "exit"
		if f.ExitCode != nil {
			summary += fmt.Sprintf(" code %d", *f.ExitCode)
		}
		if f.Signal != "" {
			summary += " signal " + f.Signal
		}
	}
	attrs := []attribute.KeyValue{attrEvidenceFailure.String(string(f.Kind)),
		attrEvidenceSummary.String(engine.CapText(summary, stringCap).Value), attrEvidenceConfidence.String(string(ev.Confidence))}
	if c := ev.ImmediateCause; c != nil {
		attrs = append(attrs, attrEvidenceCause.String(engine.CapText(fmt.Sprintf("#%d %s: %s", c.Seq, c.Kind, c.Summary), stringCap).Value))
	}
	return attrs
}

// rootStatus is Error for a session that failed, was killed by a signal or exited non-zero.
func rootStatus(sum engine.Summary) (codes.Code, string) {
	switch {
	case sum.Status == engine.StatusFailed:
		return codes.Error, sum.Error
	case sum.Signal != "":
		return codes.Error, "killed by " + sum.Signal
	case sum.ExitCode != nil && *sum.ExitCode != 0:
		return codes.Error, fmt.Sprintf("exit code %d", *sum.ExitCode)
	}
	return codes.Unset, ""
}
