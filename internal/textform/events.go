package textform

import (
	"cmp"
	"fmt"
	"strconv"
	"strings"

	"traced/api"
)

// Sessions and events: a session is one line, an event is one line, so that an agent polling a
// run reads a log, not a tree of keys:
//
//	s1  trace  exited (code 1)  throws.js  9 events
//	3  console    log starting 42  (throws.js:3)
//	9  exit       code 1
//	next: 9

// Session renders a summary on one line: id and name, mode, status (with the exit code, signal
// or error), the command (the program relative to the cwd), the events retained (and those the
// OTLP export lost).
func Session(s api.Summary) string {
	id := s.ID
	if s.Name != "" {
		id += " " + s.Name
	}
	status := string(s.Status)
	if s.StoppedBy != "" {
		status += " by " + s.StoppedBy
		if s.StoppedBy == "SIGKILL" {
			status += " (SIGTERM did not end it)"
		}
	}
	switch s.Unresponsive {
	case "stopped":
		status += ", process stopped (SIGSTOP): kill -CONT " + strconv.Itoa(s.PID)
	case "not_answering":
		status += ", not answering the debugger"
	}
	switch {
	case s.ExitCode != nil:
		status += fmt.Sprintf(" (code %d)", *s.ExitCode)
	case s.Signal != "" && s.Signal != s.StoppedBy:
		status += " (" + s.Signal + ")"
	case s.Signal != "":
	case s.Error != "":
		first, _, _ := strings.Cut(s.Error, "\n")
		status += ": " + first
	}
	events := fmt.Sprintf("%d events", s.Events)
	if s.Dropped > 0 {
		events += fmt.Sprintf(", %d dropped", s.Dropped)
	}
	if s.Export != nil && s.Export.Dropped > 0 {
		events += fmt.Sprintf(", %d not exported", s.Export.Dropped)
	}
	program := s.Target // absolute; relative to the cwd reads shorter
	if rel, ok := strings.CutPrefix(program, s.Cwd+"/"); ok && s.Cwd != "" {
		program = rel
	}
	return valid(strings.Join([]string{id, s.Mode, status, strings.Join(append([]string{program}, s.Args...), " "), events}, "  "))
}

func listText(b *strings.Builder, sessions []api.Summary) {
	if len(sessions) == 0 {
		b.WriteString("no sessions\n")
		return
	}
	for _, s := range sessions {
		b.WriteString(Session(s) + "\n")
	}
}

// eventsText writes one event a line: seq, kind, what happened.
func eventsText(b *strings.Builder, events []api.Event) {
	rows := make([][]string, 0, len(events))
	for _, ev := range events {
		rows = append(rows, []string{strconv.FormatUint(ev.Seq, 10), EventKind(ev), eventDetail(ev)})
	}
	columns(b, "", []int{2, 2}, rows)
}

// cursorText ends a page: evicted seqs, then the cursor of the next call.
func cursorText(b *strings.Builder, gap *api.Gap, next uint64, more bool) {
	if gap != nil {
		fmt.Fprintf(b, "gap: seqs %d-%d were evicted\n", gap.From, gap.To)
	}
	fmt.Fprintf(b, "next: %d", next)
	if more {
		b.WriteString(" (more: call again with after=" + strconv.FormatUint(next, 10) + ")")
	}
	b.WriteByte('\n')
}

func traceText(b *strings.Builder, v api.TraceResponse) {
	b.WriteString(Session(v.Session) + "\n")
	events, dropped := condenseReport(dropEchoes(v.Events))
	eventsText(b, events)
	if dropped > 0 {
		b.WriteString(reportNote(dropped))
	}
	if v.Session.StillRunning != "" { // its timeoutMs stopped it: what kept it running then
		b.WriteString(valid(cmp.Or(v.Session.Error, "stopped") + ":\n" + v.Session.StillRunning))
	}
}

// dropEchoes leaves out the stdout or stderr line that a console call of the same text printed:
// the call is listed, with its file:line, and the line once, not twice.
func dropEchoes(events []api.Event) []api.Event {
	consoled := map[string]int{}
	for _, ev := range events {
		if ev.Console != nil {
			consoled[ev.Console.Text.Value]++
		}
	}
	if len(consoled) == 0 {
		return events
	}
	out := make([]api.Event, 0, len(events))
	for _, ev := range events {
		if ev.Output != nil && consoled[ev.Output.Text.Value] > 0 {
			consoled[ev.Output.Text.Value]--
			continue
		}
		out = append(out, ev)
	}
	return out
}

func pageText(b *strings.Builder, v api.EventsResponse) {
	fmt.Fprintf(b, "%s  %s\n", v.Session, v.Status)
	eventsText(b, v.Events)
	cursorText(b, v.Gap, v.Next, v.More)
}

func waitText(b *strings.Builder, v api.WaitResponse) {
	if v.State == nil || v.State.Session == "" { // a state names the session and status itself
		fmt.Fprintf(b, "%s  %s\n", v.Session, v.Status)
	}
	switch {
	case v.State != nil:
		stateText(b, *v.State)
	case v.Event != nil:
		eventsText(b, []api.Event{*v.Event})
	case v.TimedOut:
		b.WriteString("timed out: no matching event yet\n")
		if v.StillRunning != "" {
			b.WriteString(v.StillRunning)
		}
	case v.Finished:
		b.WriteString("finished: the session ended without a matching event\n")
		if v.Earlier > 0 {
			fmt.Fprintf(b, "earlier: seq %d matched before this wait began (after=%d reads it)\n", v.Earlier, v.Earlier-1)
		}
	}
	cursorText(b, v.Gap, v.Next, false)
}

// EventKind is an event's kind, with the target of a worker's or a child's ("console@t1").
func EventKind(ev api.Event) string {
	kind := string(ev.Kind)
	if ev.Target != "" {
		kind += "@" + ev.Target
	}
	return kind
}

// Event is what an event says, on one line, valid UTF-8; "" for an event whose kind says it
// all (resume).
func Event(ev api.Event) string { return valid(eventDetail(ev)) }

// eventDetail is Event before the bytes are made valid: callers writing whole answers make them
// valid once.
func eventDetail(ev api.Event) string {
	switch {
	case ev.Throw != nil:
		return throwDetail(ev.Throw)
	case ev.Console != nil:
		return ev.Console.Level + " " + Strip(oneLine(ev.Console.Text)) + at(ev.Console.Frame)
	case ev.Exception != nil:
		return exceptionDetail(ev.Exception)
	case ev.Output != nil:
		return Strip(oneLine(ev.Output.Text))
	case ev.Exit != nil:
		if ev.Exit.Code != nil {
			return fmt.Sprintf("code %d", *ev.Exit.Code)
		}
		return "signal " + ev.Exit.Signal
	case ev.Pause != nil:
		s := ev.Pause.Reason + at(ev.Pause.Location)
		if len(ev.Pause.HitBreakpoints) > 0 {
			s += " hit " + strings.Join(ev.Pause.HitBreakpoints, ",")
		}
		return s
	case ev.Script != nil:
		if ev.Script.File != "" {
			return ev.Script.File
		}
		return ev.Script.URL
	case ev.Context != nil:
		return strings.TrimSpace(ev.Context.Name + " " + ev.Context.Origin)
	case ev.Logpoint != nil:
		s := ev.Logpoint.Ref + " " + oneLine(ev.Logpoint.Text)
		if ev.Logpoint.Disabled {
			s += "  (last: the flood guard removed it)"
		}
		return s
	case ev.Hook != nil:
		return ev.Hook.Name + " " + oneLine(ev.Hook.Payload)
	case ev.Breakpoint != nil:
		return ev.Breakpoint.Ref + " bound" + at(&ev.Breakpoint.Location)
	case ev.Progress != nil:
		s := strings.TrimSpace(fmt.Sprintf("%s %s %d/%d", ev.Progress.Op, ev.Progress.Ref, ev.Progress.Done, ev.Progress.Total))
		if ev.Progress.Finished {
			s += " finished"
		}
		return s
	}
	if t := ev.TargetInfo; t != nil {
		s := strings.TrimSpace(t.Kind + " " + t.Status + " " + t.Title)
		if t.Reason != "" {
			s += ": " + t.Reason
		}
		return s
	}
	return "" // resume: the kind says it all
}

func throwDetail(t *api.ThrowInfo) string {
	s := oneLine(t.Message)
	if t.Class != "" {
		s = t.Class + ": " + s
	}
	caught := "uncaught"
	if t.Caught {
		caught = "caught"
	}
	s += at(t.Location) + callers(t) + "  " + caught
	var locals []string
	for _, v := range t.Locals {
		locals = append(locals, v.Name+"="+v.Value)
	}
	if len(locals) > 0 {
		s += "  " + strings.Join(locals, " ")
	}
	return s
}

// maxCallers is how many calling user frames a throw's line names after its own.
const maxCallers = 2

// callers is " ← f (file:line)" for the user frames that called the throw's frame: which call
// of a shared helper threw is the next question a reader asks.
func callers(t *api.ThrowInfo) string {
	if t.Location == nil {
		return ""
	}
	from := -1
	for i, f := range t.Stack {
		if f.URL == t.Location.URL && f.Line == t.Location.Line {
			from = i
			break
		}
	}
	if from < 0 {
		return ""
	}
	var b strings.Builder
	n := 0
	for _, f := range t.Stack[from+1:] {
		if f.Internal || f.Async != "" || n == maxCallers {
			break
		}
		name := cmp.Or(f.Function, "(anonymous)")
		fmt.Fprintf(&b, " ← %s (%s)", name, frameWhere(f))
		n++
	}
	return b.String()
}

func exceptionDetail(x *api.ExceptionInfo) string {
	s := oneLine(x.Message)
	if x.Class != "" && !strings.HasPrefix(s, x.Class) {
		s = x.Class + ": " + s
	}
	if x.Rejection {
		s = "unhandled rejection: " + s
	}
	if x.Line > 0 {
		s += "  (" + where(x.File, x.URL, x.Line) + ")"
	}
	return s
}

// at is "  (file:line)" for a known frame.
func at(f *api.Frame) string {
	if f == nil {
		return ""
	}
	return "  (" + frameWhere(*f) + ")"
}

// oneLine renders captured text on one line, marking a cut one with its full length.
func oneLine(t api.Text) string {
	s := strings.ReplaceAll(t.Value, "\n", `\n`)
	if t.Truncated {
		s += fmt.Sprintf("… (%d bytes)", t.Length)
	}
	return s
}
