// Package textform renders traced's API answers and events in their compact text form: the one
// renderer the routes (?format=text), the MCP tools and `traced run` share, for a reader that
// pays per token (an agent) or a terminal.
//
// The state, breakpoint lists, eval results, errors, sessions and events have their own layouts;
// any other answer falls back to a compact form of its JSON (`key: value` lines, a list item a
// line of key=value pairs), so a new route has a text form without doing anything. The text is always valid UTF-8: bytes a program wrote that
// are not (binary output, a line cut inside a character) read as U+FFFD.
package textform

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"traced/api"
	"traced/internal/heapsnap"
)

// Event kinds the text form marks; api.Kind names the wire value.
const (
	kindStderr    api.Kind = "stderr"
	kindException api.Kind = "exception"
)

// Answer renders one answer of the API. The result ends with a newline.
func Answer(v any) string {
	var b strings.Builder
	switch v := v.(type) {
	case api.State:
		stateText(&b, v)
	case api.BreakpointsResponse:
		breakpointsText(&b, v.Breakpoints)
	case api.BreakpointResponse:
		breakpointsText(&b, []api.Breakpoint{v.Breakpoint})
	case api.LogpointsResponse:
		logpointsText(&b, v.Logpoints)
	case api.LogpointResponse:
		logpointsText(&b, []api.Logpoint{v.Logpoint})
	case api.EvalResult:
		evalText(&b, v)
	case api.ErrorBody:
		errorText(&b, v.Error)
	case api.ListResponse:
		listText(&b, v.Sessions)
	case api.TraceResponse:
		traceText(&b, v)
	case api.EventsResponse:
		pageText(&b, v)
	case api.WaitResponse:
		waitText(&b, v)
	case api.HeapAnalysis:
		fmt.Fprintf(&b, "%s %s %s\n%s", v.Session, v.Target, v.Snapshot, v.Text)
	case api.LeakReport:
		fmt.Fprintf(&b, "%s %s %s", v.Session, v.Target, v.Text)
	case api.LeakBeginResponse:
		fmt.Fprintf(&b, "%s %s leak window open: %s, watermark id %d, sampling %v\nnext: %s\n", v.Session, v.Target, v.Snapshot, v.Watermark, v.Sampling, v.Next)
	case api.CPUProfile:
		fmt.Fprintf(&b, "ref: %s\ndownload: %s\n%s", v.Ref, v.Download, v.Text)
	case api.SlowReport:
		b.WriteString(v.Text)
	case api.AliveReport:
		b.WriteString(v.Text)
	case api.EvidenceResponse:
		evidenceText(&b, v)
	case api.SessionResponse:
		b.WriteString(Session(v.Session) + "\n")
		if v.Note != "" {
			b.WriteString(v.Note + "\n")
		}
		if v.State != nil {
			stateText(&b, *v.State)
		} else {
			outputText(&b, v.Output)
		}
	case api.HistoryResponse:
		consoleText(&b, v)
	case api.VarsResponse:
		varsText(&b, v)
	case api.StackResponse:
		stackText(&b, v.Stack)
	case api.HotpatchResult:
		hotpatchText(&b, v)
	case api.RestartResponse:
		restartText(&b, v)
	case api.SnapshotInfo:
		snapshotText(&b, v)
	case heapsnap.Diff:
		diffText(&b, v)
	case api.HeapSampling:
		samplingText(&b, v)
	case api.SamplingStartRequest:
		fmt.Fprintf(&b, "heap sampling on, a sample every %d bytes\nnext: traced heap sample stop answers the top allocation sites\n", v.IntervalBytes)
	case api.JobResponse:
		jobText(&b, v)
	case api.SourceView:
		fmt.Fprintf(&b, "%s (%d lines)\n", v.File, v.Total)
		sourceText(&b, v.Lines)
		if v.Truncated {
			b.WriteString("… cut: ask for fewer lines or a --line\n")
		}
	case api.Props:
		propsText(&b, v)
	case api.Instances:
		instancesText(&b, v)
	default:
		genericText(&b, v)
	}
	return valid(b.String())
}

// valid replaces each run of bytes that is not UTF-8 with U+FFFD. It costs one scan when the
// text is valid, the common case.
func valid(s string) string {
	if utf8.ValidString(s) {
		return s
	}
	return strings.ToValidUTF8(s, "\uFFFD")
}

// where renders a position as file:line for a person, preferring the local path to the URL.
func where(file, url string, line int) string {
	name := file
	if name == "" {
		name = url
	}
	if name == "" {
		name = "<unknown>"
	}
	if line > 0 {
		return fmt.Sprintf("%s:%d", name, line)
	}
	return name
}

// frameWhere is where(f's position).
func frameWhere(f api.Frame) string { return where(f.File, f.URL, f.Line) }

// whereBoth is a frame's file:line, followed by the generated one when a source map moved it:
// "src/app.ts:9 (dist/app.js:7)".
func whereBoth(f api.Frame) string {
	if g := f.Generated; g != nil {
		return fmt.Sprintf("%s (%s)", frameWhere(f), where(g.File, g.URL, g.Line))
	}
	return frameWhere(f)
}

// columns writes rows with each column but the last padded to its widest cell, followed by
// gaps[i] spaces. A row's last cell is not padded, nor counted in its column's width: a short
// row's one long cell does not widen the others.
func columns(b *strings.Builder, indent string, gaps []int, rows [][]string) {
	widths := make([]int, len(gaps))
	for _, row := range rows {
		for i, cell := range row[:len(row)-1] {
			widths[i] = max(widths[i], len(cell))
		}
	}
	for _, row := range rows {
		b.WriteString(indent)
		for i, cell := range row {
			if i == len(row)-1 {
				b.WriteString(cell)
				break
			}
			b.WriteString(cell)
			b.WriteString(strings.Repeat(" ", widths[i]-len(cell)+gaps[i]))
		}
		b.WriteByte('\n')
	}
}
