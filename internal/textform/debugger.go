package textform

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"traced/api"
)

// stateText renders a state as the debugger's "where am I":
//
//	s1  paused at app.js:47 (bp1)        ("paused in t2 at" in a process tree)
//	   46|   const lock = await this.acquireLock(job.id);
//	 > 47|   if (!lock) return;
//	locals:
//	  job   Job { id: "test-123", type: "email", retries: 2 }
//	  lock  false
//	stack:
//	  f0 processJob  app.js:47
//	  f1 poll        app.js:71
//	  -- f2-f7 node internals
func stateText(b *strings.Builder, st api.State) {
	outputText(b, st.Output)
	in := ""
	if st.Target != "" {
		in = " in " + st.Target
	}
	also := ""
	if len(st.AlsoPaused) > 0 {
		also = "also paused: " + strings.Join(st.AlsoPaused, ", ") + "\n"
	}
	defer b.WriteString(also)
	if st.Session != "" { // the answer names what it is about: a bare command's session too
		b.WriteString(st.Session + "  ")
	}
	if st.Location == nil {
		fmt.Fprintf(b, "%s%s\n", st.Status, in)
		return
	}
	at := whereBoth(*st.Location)
	if l := st.Location; st.Reason == "step" && l.Column > 0 {
		// a step may stay on its line (a call's arguments, a chain): the column says it moved
		at = fmt.Sprintf("%s:%d", frameWhere(*l), l.Column)
		if g := l.Generated; g != nil {
			at += fmt.Sprintf(" (%s)", where(g.File, g.URL, g.Line))
		}
	}
	fmt.Fprintf(b, "paused%s at %s", in, at)
	switch {
	case len(st.Hit) > 0:
		hits := make([]string, 0, len(st.Hit))
		for _, ref := range st.Hit {
			for _, bp := range st.Breakpoints {
				if bp.Ref == ref && bp.Hits > 0 {
					ref = fmt.Sprintf("%s, hit %d", ref, bp.Hits)
				}
			}
			hits = append(hits, ref)
		}
		fmt.Fprintf(b, " (%s)", strings.Join(hits, "; "))
	case st.Reason != "":
		fmt.Fprintf(b, " (%s)", st.Reason)
	}
	b.WriteByte('\n')
	if st.Frame != "" && st.Frame != "f0" {
		fmt.Fprintf(b, "frame %s:\n", st.Frame)
	}
	sourceText(b, st.Source)
	localsText(b, st.Locals)
	if rv := st.ReturnValue; rv != nil {
		fmt.Fprintf(b, "returns: %s\n", rv.Value)
	}
	stackText(b, st.Stack)
}

// sourceText renders the lines around the current one, numbered, the current one marked.
func sourceText(b *strings.Builder, lines []api.SourceLine) {
	width := 0
	for _, l := range lines {
		width = max(width, len(strconv.Itoa(l.Line)))
	}
	for _, l := range lines {
		mark := "   "
		if l.Current {
			mark = " > "
		}
		fmt.Fprintf(b, "%s%*d| %s\n", mark, width, l.Line, l.Text)
	}
}

// localsText renders the variables of a frame, with the ref of those that have one.
func localsText(b *strings.Builder, locals []api.Variable) {
	if len(locals) == 0 {
		return
	}
	b.WriteString("locals:\n")
	rows := make([][]string, 0, len(locals))
	gaps := []int{2}
	for _, v := range locals {
		if v.Ref == "" {
			rows = append(rows, []string{v.Name, v.Value})
		} else {
			rows, gaps = append(rows, []string{v.Ref, v.Name, v.Value}), []int{1, 2}
		}
	}
	columns(b, "  ", gaps, rows)
}

// stackText renders the stack a frame a line; a run of node's own frames is one line, as they
// are rarely the question, and an async boundary is named where it is crossed.
func stackText(b *strings.Builder, stack []api.StackFrame) {
	if len(stack) == 0 {
		return
	}
	b.WriteString("stack:\n")
	rows := make([][]string, 0, len(stack))
	for i := 0; i < len(stack); i++ {
		f := stack[i]
		if f.Internal {
			j := i
			for j+1 < len(stack) && stack[j+1].Internal {
				j++
			}
			if j > i {
				rows = append(rows, []string{"--", fmt.Sprintf("%s-%s node internals", f.Ref, stack[j].Ref)})
				i = j
				continue
			}
		}
		if f.Async != "" && (i == 0 || stack[i-1].Async != f.Async) {
			rows = append(rows, []string{"--", f.Async})
		}
		name := f.Function
		if name == "" {
			name = "(anonymous)"
		}
		rows = append(rows, []string{f.Ref, name, frameWhere(f.Frame)})
	}
	columns(b, "  ", []int{1, 2}, rows)
}

// breakpointsText renders one breakpoint a line, then where it bound:
//
//	bp1  debugme.js:7  hits 1  if i > 2  on hit 3
//	  at debugme.js:7
func breakpointsText(b *strings.Builder, bps []api.Breakpoint) {
	if len(bps) == 0 {
		b.WriteString("no breakpoints\n")
		return
	}
	for _, bp := range bps {
		fmt.Fprintf(b, "%s  %s  hits %d", bp.Ref, bp.Location, bp.Hits)
		if bp.Condition != "" {
			fmt.Fprintf(b, "  if %s", bp.Condition)
		}
		if bp.HitCount > 0 {
			fmt.Fprintf(b, "  on hit %d", bp.HitCount)
		}
		b.WriteByte('\n')
		switch {
		case bp.Pending:
			b.WriteString("  pending: binds when a script whose source map has it loads\n")
		case len(bp.Resolved) == 0:
			b.WriteString("  not bound yet: no loaded script matches\n")
		}
		resolvedText(b, bp.Resolved)
		if bp.Warning != "" {
			fmt.Fprintf(b, "  warning: %s\n", bp.Warning)
		}
	}
}

// logpointsText renders one logpoint a line, then where it bound:
//
//	lp1  app.js:9  i=${i}  emitted 3 of 100  if i > 2
//	  at app.js:9
func logpointsText(b *strings.Builder, lps []api.Logpoint) {
	if len(lps) == 0 {
		b.WriteString("no logpoints\n")
		return
	}
	for _, lp := range lps {
		fmt.Fprintf(b, "%s  %s  %s  emitted %d of %d", lp.Ref, lp.Location, lp.Template, lp.Emitted, lp.Max)
		if lp.Condition != "" {
			fmt.Fprintf(b, "  if %s", lp.Condition)
		}
		if lp.Disabled {
			b.WriteString("  (removed by the flood guard)")
		}
		b.WriteByte('\n')
		if len(lp.Resolved) == 0 {
			b.WriteString("  not bound yet: no loaded script matches\n")
		}
		resolvedText(b, lp.Resolved)
		if lp.Warning != "" {
			fmt.Fprintf(b, "  warning: %s\n", lp.Warning)
		}
	}
}

// resolvedText renders where a breakpoint bound, a line per place; when it bound in more than
// one target, each line says in which: "at app.js:6  bound in t0, t1, t2".
func resolvedText(b *strings.Builder, resolved []api.Frame) {
	var places []string
	in := map[string][]string{}
	targets := map[string]bool{}
	for _, f := range resolved {
		at, t := whereBoth(f), cmp.Or(f.Target, "t0")
		if _, ok := in[at]; !ok {
			places = append(places, at)
		}
		if !slices.Contains(in[at], t) {
			in[at] = append(in[at], t)
		}
		targets[t] = true
	}
	for _, at := range places {
		if len(targets) > 1 {
			fmt.Fprintf(b, "  at %s  bound in %s\n", at, strings.Join(in[at], ", "))
		} else {
			fmt.Fprintf(b, "  at %s\n", at)
		}
	}
}

// evalText renders a value with its type, or the exception thrown, then the session (and
// target) it was evaluated in, and a hint on the next line:
//
//	2  (number)  in s1 t2
func evalText(b *strings.Builder, res api.EvalResult) {
	if res.Exception != "" {
		fmt.Fprintf(b, "threw %s", res.Exception)
	} else {
		fmt.Fprintf(b, "%s  (%s)", res.Value, res.Type)
	}
	if res.Session != "" {
		fmt.Fprintf(b, "  in %s", strings.TrimSpace(res.Session+" "+res.Target))
	}
	b.WriteByte('\n')
	if res.Hint != "" {
		fmt.Fprintf(b, "hint: %s\n", res.Hint)
	}
}

// errorText renders the error envelope as two lines.
func errorText(b *strings.Builder, e api.ErrorDetail) {
	fmt.Fprintf(b, "error: %s\n", e.Message)
	if e.Hint != "" {
		fmt.Fprintf(b, "hint: %s\n", e.Hint)
	}
}

// outputText renders what an execution command's program printed and threw, before where it
// stands now:
//
//	output:
//	  call 1 1
//	  ! TypeError: x is not a function (app.js:3)
//	  … 4 more after seq 17
func outputText(b *strings.Builder, o *api.ExecOutput) {
	if o == nil {
		return
	}
	b.WriteString("output:\n")
	var last uint64
	for _, e := range o.Entries {
		mark := ""
		switch e.Kind {
		case kindStderr:
			mark = "[stderr] "
		case kindException:
			mark = "! "
		}
		fmt.Fprintf(b, "  %s%s\n", mark, Strip(e.Text))
		last = e.Seq
	}
	if o.More > 0 {
		fmt.Fprintf(b, "  … %d more after seq %d\n", o.More, last)
	}
}
