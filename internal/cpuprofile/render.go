package cpuprofile

import (
	"fmt"
	"strconv"
	"strings"

	"traced/internal/sourcemap"
)

// MaxTextBytes bounds a rendered answer: about 2 KB, what an agent reads cheaply in one call.
const MaxTextBytes = 2048

// RenderDiagnoses renders diagnoses as text of at most maxBytes (MaxTextBytes when 0), each
// target's first line naming its category; the targets share the budget.
func RenderDiagnoses(ds []Diagnosis, maxBytes int) string {
	if maxBytes <= 0 {
		maxBytes = MaxTextBytes
	}
	var b strings.Builder
	for i, d := range ds {
		share := (maxBytes - b.Len()) / (len(ds) - i)
		b.WriteString(renderDiagnosis(d, share))
	}
	return b.String()
}

// renderDiagnosis renders one target within maxBytes.
func renderDiagnosis(d Diagnosis, maxBytes int) string {
	w := boundedText{max: maxBytes}
	w.line(headline(d))
	evidence := fmt.Sprintf("  busy %s of %s · gc %s of busy · (program) %s · in packages %s · %.0f wake-ups/s", pct(d.BusyPct), ms(d.WallMs), pct(d.GCPct), pct(d.ProgramPct), pct(d.DependencyPct), d.WakeupsPerSec)
	if l := d.Loop; l != nil {
		// Utilisation reads high while the profiler samples (see ParseLoopStats): say so.
		evidence += fmt.Sprintf(" · loop delay p50 %s p99 %s max %s · utilisation %.2f (reads high while profiling)", ms(l.DelayP50Ms), ms(l.DelayP99Ms), ms(l.DelayMaxMs), l.Utilization)
	}
	w.line(evidence)
	for _, f := range d.Top {
		w.line("  " + functionLine(f))
	}
	for _, s := range d.Stalls {
		w.line(fmt.Sprintf("  stall %s at +%s: %s", ms(s.DurationMs), ms(s.StartMs), strings.Join(s.Stack, " < ")))
	}
	if n := d.StallCount - len(d.Stalls); n > 0 {
		w.line(fmt.Sprintf("  … %s more, shorter", plural(n, "stall")))
	}
	return w.String()
}

// headline is a diagnosis's first line: the target, the category and its main evidence.
func headline(d Diagnosis) string {
	head := fmt.Sprintf("%s: %s: ", cmpOr(d.Target, "target"), d.Category)
	switch d.Category {
	case CategoryCPUUser, CategoryCPUDependency:
		head += fmt.Sprintf("%s busy for %s", pct(d.BusyPct), ms(d.WallMs))
		if len(d.Top) > 0 {
			head += "; hottest " + hottest(d.Top[0])
		}
	case CategoryGC:
		head += fmt.Sprintf("the garbage collector takes %s of the busy time (%s busy for %s)", pct(d.GCPct), pct(d.BusyPct), ms(d.WallMs))
	case CategoryBlocked:
		if d.StallCount == 0 && d.Loop != nil { // the delay histogram saw what the samples did not
			head += fmt.Sprintf("event-loop delay p99 %s, max %s", ms(d.Loop.DelayP99Ms), ms(d.Loop.DelayMaxMs))
			break
		}
		head += fmt.Sprintf("%s over %d ms, %s of %s", plural(d.StallCount, "stall"), StallMs, ms(d.StallMs), ms(d.WallMs))
		if d.StallSite != "" {
			head += fmt.Sprintf("; %d of them (%s) in %s", d.StallSiteCount, ms(d.StallSiteMs), d.StallSite)
		}
	case CategoryIOWait:
		head += fmt.Sprintf("%s busy for %s: the loop mostly waits (I/O, child processes, timers)", pct(d.BusyPct), ms(d.WallMs))
		if d.StallCount > 0 {
			head += fmt.Sprintf("; %s over %d ms, %s in all", plural(d.StallCount, "stall"), StallMs, ms(d.StallMs))
		}
	case CategoryIdle:
		head += fmt.Sprintf("%s busy for %s: nothing to do", pct(d.BusyPct), ms(d.WallMs))
	}
	return head
}

// hottest names a function at its hottest line, with its self share.
func hottest(f Function) string {
	if f.URL == "" {
		s := fmt.Sprintf("%s (self %s)", f.Name, pct(f.SelfPct))
		if f.Caller != "" {
			s += " run by " + f.Caller
		}
		return s
	}
	at := place(f.URL, f.Start.Line, f.Original)
	if len(f.Lines) > 0 {
		at = place(f.URL, f.Lines[0].Line, f.Lines[0].Original)
	}
	return fmt.Sprintf("%s (%s, self %s)", f.Name, at, pct(f.SelfPct))
}

// functionLine renders a function with its times, hot lines and what V8 did with it.
func functionLine(f Function) string {
	var b strings.Builder
	b.WriteString(f.Name)
	if f.URL != "" {
		b.WriteString(" " + place(f.URL, f.Start.Line, f.Original))
	}
	fmt.Fprintf(&b, " self %s total %s", pct(f.SelfPct), pct(f.TotalPct))
	if f.Caller != "" {
		b.WriteString(" run by " + f.Caller)
	}
	if len(f.InlinedInto) > 0 {
		b.WriteString(" inlined into " + strings.Join(f.InlinedInto, ","))
	}
	if f.Deopt != "" {
		b.WriteString(" deopt: " + f.Deopt)
	}
	for i, l := range f.Lines[:min(len(f.Lines), 3)] {
		line := strconv.Itoa(l.Line)
		if l.Original != nil {
			line = place(l.Original.Source, l.Original.Line, nil)
		}
		sep := ", "
		if i == 0 {
			sep = " lines "
		}
		fmt.Fprintf(&b, "%s%s (%s)", sep, line, ticksShare(l, f))
	}
	return b.String()
}

// ticksShare is a line's share of its function's self time.
func ticksShare(l Line, f Function) string {
	if f.SelfMs <= 0 {
		return strconv.Itoa(l.Ticks)
	}
	return pct(100 * l.Ms / f.SelfMs)
}

// RenderSummary renders a profile's busiest functions as text of at most maxBytes
// (MaxTextBytes when 0).
func RenderSummary(s Summary, maxBytes int) string {
	if maxBytes <= 0 {
		maxBytes = MaxTextBytes
	}
	w := boundedText{max: maxBytes}
	w.line(fmt.Sprintf("%s, %d samples · idle %s · (program) %s · gc %s", ms(s.WallMs), s.Samples, ms(s.IdleMs), ms(s.ProgramMs), ms(s.GCMs)))
	for _, f := range s.Functions {
		if f.SelfMs <= 0 && f.TotalMs <= 0 {
			break
		}
		w.line("  " + functionLine(f))
	}
	return w.String()
}

// frameLabel renders a call frame as "name file:line" (1-based), or its name alone.
func frameLabel(f CallFrame) string {
	if f.URL == "" {
		return f.label()
	}
	return f.label() + " " + place(f.URL, f.start().Line, nil)
}

// place renders a 1-based line of a script as "file:line", through the source map when an
// original position is known.
func place(url string, line int, orig *sourcemap.Original) string {
	if orig != nil {
		url, line = orig.Source, orig.Line
	}
	return shortName(url) + ":" + strconv.Itoa(line)
}

// shortName shortens a script URL for text: a package's path from node_modules/, otherwise
// the file and its folder.
func shortName(url string) string {
	name := strings.TrimPrefix(url, "file://")
	if i := strings.LastIndex(name, "node_modules/"); i >= 0 {
		return name[i:]
	}
	if strings.HasPrefix(name, "node:") {
		return name
	}
	parts := strings.Split(name, "/")
	return strings.Join(parts[max(len(parts)-2, 0):], "/")
}

// plural counts n things: "1 stall", "2 stalls".
func plural(n int, thing string) string {
	if n == 1 {
		return "1 " + thing
	}
	return strconv.Itoa(n) + " " + thing + "s"
}

func pct(v float64) string { return strconv.FormatFloat(v, 'f', 0, 64) + "%" }

// ms renders a duration in ms, in seconds from 10 s.
func ms(v float64) string {
	if v >= 10000 {
		return strconv.FormatFloat(v/1000, 'f', 1, 64) + " s"
	}
	return strconv.FormatFloat(v, 'f', 0, 64) + " ms"
}

func cmpOr(s, alt string) string {
	if s == "" {
		return alt
	}
	return s
}

// boundedText collects lines up to max bytes; what does not fit is counted in a last line.
// A first line too long for the budget is cut, and nothing follows it.
type boundedText struct {
	b       strings.Builder
	max     int
	dropped int
	cut     bool
}

// omittedReserve is room kept for the "… N more lines" note.
const omittedReserve = 24

func (w *boundedText) line(s string) {
	switch {
	case w.cut:
	case w.b.Len() == 0 && len(s)+1 > w.max-omittedReserve: // the first line is the answer
		w.b.WriteString(truncate(s, w.max-1) + "\n")
		w.cut = true
	case w.dropped > 0 || w.b.Len()+len(s)+1 > w.max-omittedReserve:
		w.dropped++
	default:
		w.b.WriteString(s + "\n")
	}
}

func (w *boundedText) String() string {
	if w.dropped > 0 && !w.cut {
		return w.b.String() + fmt.Sprintf("  … %d more lines\n", w.dropped)
	}
	return w.b.String()
}

// truncate cuts s to at most n bytes on a rune boundary, marking the cut.
func truncate(s string, n int) string {
	if len(s) <= n || n < 4 {
		return s[:min(len(s), max(n, 0))]
	}
	cut := n - len("…")
	for cut > 0 && !utf8RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "…"
}

func utf8RuneStart(b byte) bool { return b&0xC0 != 0x80 }
