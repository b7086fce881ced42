package textform

import (
	"cmp"
	"fmt"
	"strconv"
	"strings"

	"traced/api"
	"traced/internal/heapsnap"
)

// Layouts of the inspection and profiling answers an agent reads often (console, vars, stack,
// hotpatch, restart, heap snapshots and sampling): a line an item, never a tree of keys.

// consoleText renders the console history one entry a line, seq level file:line text:
//
//	12  log    app.js:7  listening on :8080
//	next: 12
func consoleText(b *strings.Builder, v api.HistoryResponse) {
	if len(v.Events) == 0 {
		b.WriteString("no console output\n")
	}
	rows := make([][]string, 0, len(v.Events))
	for _, ev := range v.Events {
		seq := strconv.FormatUint(ev.Seq, 10)
		if ev.Target != "" {
			seq += "@" + ev.Target
		}
		switch {
		case ev.Console != nil:
			pos := "-"
			if f := ev.Console.Frame; f != nil {
				pos = frameWhere(*f)
			}
			rows = append(rows, []string{seq, ev.Console.Level, pos, Strip(oneLine(ev.Console.Text))})
		default: // another kind in the page: its own one-line form
			rows = append(rows, []string{seq, string(ev.Kind), "-", Strip(eventDetail(ev))})
		}
	}
	columns(b, "", []int{2, 2, 2}, rows)
	cursorText(b, v.Gap, v.Next, v.More)
}

// varsText renders a frame's variables as the state's locals.
func varsText(b *strings.Builder, v api.VarsResponse) {
	if len(v.Variables) == 0 {
		fmt.Fprintf(b, "no variables in %s\n", v.Frame)
		return
	}
	head := "" // in a tree, the session and target the frame is in
	if v.Target != "" {
		head = strings.TrimSpace(v.Session+" "+v.Target) + " "
	}
	if head != "" || (v.Frame != "" && v.Frame != "f0") {
		fmt.Fprintf(b, "%sframe %s:\n", head, cmp.Or(v.Frame, "f0"))
	}
	localsText(b, v.Variables)
}

// hotpatchText says whether the new source took, then the state it left (a restarted frame).
func hotpatchText(b *strings.Builder, v api.HotpatchResult) {
	b.WriteString("hotpatch " + v.Status)
	if v.DryRun {
		b.WriteString(" (dry run: nothing changed)")
	}
	if v.RestartedFrame {
		b.WriteString(", frame restarted")
	}
	b.WriteByte('\n')
	if e := v.CompileError; e != nil {
		fmt.Fprintf(b, "compile error at line %d:%d: %s\n", e.Line, e.Column, e.Message)
	}
	if v.State != nil {
		stateText(b, *v.State)
	}
}

// restartText answers a restart as launch answers a start: the new session, then the state.
func restartText(b *strings.Builder, v api.RestartResponse) {
	b.WriteString(Session(v.Session))
	if v.Previous != "" {
		b.WriteString("  (restart of " + v.Previous + ")")
	}
	b.WriteByte('\n')
	for _, nc := range v.NotCarried {
		b.WriteString("not carried: " + nc + "\n")
	}
	if v.State.Location != nil {
		stateText(b, v.State)
	} else {
		outputText(b, v.State.Output)
	}
}

// snapshotText renders a snapshot's summary: its ref and size, then the top constructors by
// self size (the object ids stay in the JSON form, for heap inspect).
func snapshotText(b *strings.Builder, v api.SnapshotInfo) {
	b.WriteString(v.Ref)
	if v.Tag != "" {
		b.WriteString(" " + v.Tag)
	}
	fmt.Fprintf(b, "  %d objects, %s self size, %s file\n", v.Nodes, size(v.Total), size(v.Bytes))
	classesText(b, v.Classes)
	if v.Download != "" {
		b.WriteString("download: " + v.Download + "\n")
	}
	if v.Retained != "" {
		b.WriteString("next: " + v.Retained + "\n")
	}
}

func classesText(b *strings.Builder, classes []heapsnap.Class) {
	rows := make([][]string, 0, len(classes))
	for _, c := range classes {
		rows = append(rows, []string{size(c.SelfSize), strconv.Itoa(c.Count) + "x", c.Name})
	}
	columns(b, "  ", []int{2, 2}, rows)
}

// diffText renders a heap diff one constructor a line, the growth first.
func diffText(b *strings.Builder, v heapsnap.Diff) {
	fmt.Fprintf(b, "%s -> %s  %s\n", v.From, v.To, signedSize(v.SizeDelta))
	rows := make([][]string, 0, len(v.Classes))
	for _, c := range v.Classes {
		rows = append(rows, []string{signedSize(c.SizeDelta), fmt.Sprintf("%+d", c.CountDelta), c.Name,
			fmt.Sprintf("now %dx %s", c.Count, size(c.Size))})
	}
	columns(b, "  ", []int{2, 2, 2}, rows)
}

// samplingText renders the top allocation sites a line each.
func samplingText(b *strings.Builder, v api.HeapSampling) {
	fmt.Fprintf(b, "sampled %s\n", size(v.TotalBytes))
	rows := make([][]string, 0, len(v.Sites))
	for _, s := range v.Sites {
		rows = append(rows, []string{size(s.Bytes), fmt.Sprintf("%.1f%%", s.Pct), cmpOr(s.Function, "(anonymous)"), where(s.File, "", s.Line)})
	}
	columns(b, "  ", []int{2, 2, 2}, rows)
}

// jobText renders a heap job: its result once done, else its progress.
func jobText(b *strings.Builder, v api.JobResponse) {
	switch {
	case v.Error != nil:
		fmt.Fprintf(b, "%s %s failed\n", v.Job, v.Op)
		errorText(b, *v.Error)
	case v.Result != nil:
		b.WriteString(Answer(v.Result))
	default:
		fmt.Fprintf(b, "%s %s %s", v.Job, v.Op, v.Status)
		if p := v.Progress; p != nil && p.Total > 0 {
			fmt.Fprintf(b, " %d/%d", p.Done, p.Total)
		}
		fmt.Fprintf(b, "\nnext: traced job %s --wait 30s\n", v.Job)
	}
}

func cmpOr(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

// size renders bytes in the unit that keeps three digits or so.
func size(n int64) string {
	f, unit := float64(n), "B"
	for _, u := range []string{"KB", "MB", "GB"} {
		if f < 1024 && f > -1024 {
			break
		}
		f, unit = f/1024, u
	}
	if unit == "B" {
		return strconv.FormatInt(n, 10) + " B"
	}
	return strconv.FormatFloat(f, 'f', 1, 64) + " " + unit
}

func signedSize(n int64) string {
	if n >= 0 {
		return "+" + size(n)
	}
	return size(n)
}

// propsText renders an object and its properties a line each, nested ones indented, each with
// its ref when it has one:
//
//	o1 Job { id: 7, retries: 2 }
//	  id       7
//	  retries  2
//	  o2 tags  Array(2)
func propsText(b *strings.Builder, v api.Props) {
	fmt.Fprintf(b, "%s %s\n", v.Ref, v.Value)
	propertiesText(b, "  ", v.Properties)
	if v.Truncated > 0 {
		fmt.Fprintf(b, "  … %d more properties\n", v.Truncated)
	}
}

func propertiesText(b *strings.Builder, indent string, props []api.Property) {
	rows := make([][]string, 0, len(props))
	flush := func() {
		columns(b, indent, []int{1, 2}, rows)
		rows = rows[:0]
	}
	for _, p := range props {
		name := p.Name
		if p.Kind != "" && p.Kind != "own" {
			name += " (" + p.Kind + ")"
		}
		rows = append(rows, []string{p.Ref, name, p.Value})
		if len(p.Properties) > 0 { // a nested level: its rows go under this one
			flush()
			propertiesText(b, indent+"  ", p.Properties)
		}
	}
	flush()
}

// instancesText renders the live objects of a prototype, the first ones with their refs.
func instancesText(b *strings.Builder, v api.Instances) {
	fmt.Fprintf(b, "%d instances of %s (all: %s)\n", v.Count, v.Prototype, v.Ref)
	propertiesText(b, "  ", v.Instances)
	if shown := len(v.Instances); v.Count > shown {
		fmt.Fprintf(b, "  … %d more: props %s\n", v.Count-shown, v.Ref)
	}
}
