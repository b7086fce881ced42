package engine

import (
	"strconv"
	"strings"
)

// Caps of the output an execution command's answer carries: the last command of a hunt shows
// what the program printed without a console call, and a chatty program costs a bounded answer.
const (
	maxExecOutput      = 20
	maxExecOutputBytes = 4 << 10
)

// ExecOutput is what the program printed and threw while an execution command ran: console
// calls, output lines no console call made, and exceptions, oldest first.
type ExecOutput struct {
	Entries []OutputEntry
	// More counts what happened past the caps; GET events?after=<the last entry's seq> lists it.
	More int
}

// OutputEntry is one line of ExecOutput.
type OutputEntry struct {
	Seq  uint64
	Kind Kind // console, stdout, stderr or exception
	Text string
}

var execOutputKinds = KindSet{KindConsole: true, KindStdout: true, KindStderr: true, KindException: true}

// lastSeq is the seq of the newest event: an execution command's output is what comes after.
func (tl Timeline) lastSeq() uint64 { return tl.s.store.newest() }

// outputAfter wraps an execution command's answer: its state gets Output, what the program
// printed and threw after seq since.
func (tl Timeline) outputAfter(since uint64) func(State, error) (State, error) {
	return func(st State, err error) (State, error) {
		if err != nil {
			return st, err
		}
		st.Output = tl.outputSince(since)
		return st, nil
	}
}

// outputSince is what the program printed and threw after seq since, nil when nothing.
func (tl Timeline) outputSince(since uint64) *ExecOutput {
	p := tl.s.store.page(since, Filter{Kinds: execOutputKinds}, 0)
	consoled := map[string]int{} // console lines not yet matched by their stdout or stderr line
	for _, ev := range p.Events {
		if ev.Console != nil { // a call printing several lines (mocha's failure block) prints each
			for _, l := range strings.Split(ev.Console.Text.Value, "\n") {
				consoled[l]++
			}
		}
	}
	out := &ExecOutput{Entries: []OutputEntry{}}
	bytes, full := 0, false
	for _, ev := range p.Events {
		var text string
		switch {
		case ev.Console != nil:
			text = ev.Console.Text.Value
		case ev.Output != nil:
			text = ev.Output.Text.Value
			if consoled[text] > 0 { // the line a console call printed: listed once, as the call
				consoled[text]--
				continue
			}
		case ev.Exception != nil:
			text = exceptionLine(ev.Exception)
		default:
			continue
		}
		if full = full || len(out.Entries) == maxExecOutput || bytes+len(text) > maxExecOutputBytes; full {
			out.More++
			continue
		}
		bytes += len(text)
		out.Entries = append(out.Entries, OutputEntry{Seq: ev.Seq, Kind: ev.Kind, Text: text})
	}
	if len(out.Entries) == 0 && out.More == 0 {
		return nil
	}
	return out
}

// exceptionLine is an exception in one line, as node prints its first: "TypeError: x (a.js:3)".
func exceptionLine(e *ExceptionInfo) string {
	var b strings.Builder
	if e.Class != "" && !strings.HasPrefix(e.Message.Value, e.Class) {
		b.WriteString(e.Class + ": ")
	}
	b.WriteString(firstLine(e.Message.Value))
	if e.File != "" {
		b.WriteString(" (" + e.File + ":" + strconv.Itoa(e.Line) + ")")
	}
	return b.String()
}
