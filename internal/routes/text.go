package routes

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"mime"
	"net/http"
	"strconv"
	"strings"

	"traced/api"
)

// Text form: every answer under /api/debug/ and of the trace reads (tracetext.go), errors
// included, can be rendered as compact text for a reader that pays per token (an agent) or a
// terminal. JSON stays the default; text is chosen by ?format=text or an Accept header that
// prefers text/plain. The state, breakpoint lists, eval results, errors, sessions and events
// have their own layouts; any other answer falls back to indented `key: value` lines of its
// JSON, so a new route has a text form without doing anything.

// textPrefix is the path prefix of the debug routes, which all speak text.
const textPrefix = "/api/debug/"

// render writes v with status, as text when the request asks for it on a route with a text form
// (speaksText) and as JSON otherwise. Handlers of those routes render through here (onSession,
// execute, writeError, the trace reads).
func render(w http.ResponseWriter, r *http.Request, status int, v any) {
	if !speaksText(r.URL.Path) {
		writeJSON(w, status, v)
		return
	}
	w.Header().Add("Vary", "Accept")
	if !wantsText(r) {
		writeJSON(w, status, v)
		return
	}
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.Header().Set("X-Content-Type-Options", "nosniff")
	w.WriteHeader(status)
	_, _ = io.WriteString(w, textOf(v))
}

// wantsText reports whether the request asks for text: ?format=text, or (without format) an Accept
// header that rates text/plain above application/json. Wildcards ask for neither.
func wantsText(r *http.Request) bool {
	switch r.URL.Query().Get("format") {
	case "text":
		return true
	case "json":
		return false
	}
	var text, json float64
	for _, part := range strings.Split(strings.Join(r.Header.Values("Accept"), ","), ",") {
		mt, params, err := mime.ParseMediaType(strings.TrimSpace(part))
		if err != nil {
			continue
		}
		q := 1.0
		if s, ok := params["q"]; ok {
			if q, err = strconv.ParseFloat(s, 64); err != nil {
				continue
			}
		}
		switch mt {
		case "text/plain":
			text = max(text, q)
		case "application/json":
			json = max(json, q)
		}
	}
	return text > 0 && text > json
}

// Text is the text form of an answer of the API, for in-process readers (the MCP tools) that
// decode JSON and answer text, as a route asked with ?format=text would.
func Text(v any) string { return textOf(v) }

// textOf renders one answer. The result ends with a newline.
func textOf(v any) string {
	var b strings.Builder
	switch v := v.(type) {
	case api.State:
		stateText(&b, v)
	case api.BreakpointsResponse:
		breakpointsText(&b, v.Breakpoints)
	case api.BreakpointResponse:
		breakpointsText(&b, []api.Breakpoint{v.Breakpoint})
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
	case api.SessionResponse:
		b.WriteString(sessionLine(v.Session) + "\n")
		if v.State != nil {
			stateText(&b, *v.State)
		}
	default:
		genericText(&b, v)
	}
	return b.String()
}

// stateText renders a state as the debugger's "where am I":
//
//	paused at app.js:47 (bp1)            ("paused in t2 at" in a process tree)
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
	if st.Location == nil {
		fmt.Fprintf(b, "%s%s\n", st.Status, in)
		return
	}
	fmt.Fprintf(b, "paused%s at %s", in, whereBoth(*st.Location))
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
	case st.Reason != "" && st.Reason != "other": // "other" is V8's word for a step
		fmt.Fprintf(b, " (%s)", st.Reason)
	}
	b.WriteByte('\n')
	if st.Frame != "" && st.Frame != "f0" {
		fmt.Fprintf(b, "frame %s:\n", st.Frame)
	}
	width := 0
	for _, l := range st.Source {
		width = max(width, len(strconv.Itoa(l.Line)))
	}
	for _, l := range st.Source {
		mark := "   "
		if l.Current {
			mark = " > "
		}
		fmt.Fprintf(b, "%s%*d| %s\n", mark, width, l.Line, l.Text)
	}
	if len(st.Locals) > 0 {
		b.WriteString("locals:\n")
		rows := make([][]string, 0, len(st.Locals))
		gaps := []int{2}
		for _, v := range st.Locals {
			if v.Ref == "" {
				rows = append(rows, []string{v.Name, v.Value})
			} else {
				rows, gaps = append(rows, []string{v.Ref, v.Name, v.Value}), []int{1, 2}
			}
		}
		columns(b, "  ", gaps, rows)
	}
	if rv := st.ReturnValue; rv != nil {
		fmt.Fprintf(b, "returns: %s\n", rv.Value)
	}
	if len(st.Stack) > 0 {
		b.WriteString("stack:\n")
		rows := make([][]string, 0, len(st.Stack))
		for i := 0; i < len(st.Stack); i++ {
			f := st.Stack[i]
			if f.Internal { // a run of node's own frames is one line: they are rarely the question
				j := i
				for j+1 < len(st.Stack) && st.Stack[j+1].Internal {
					j++
				}
				if j > i {
					rows = append(rows, []string{"--", fmt.Sprintf("%s-%s node internals", f.Ref, st.Stack[j].Ref)})
					i = j
					continue
				}
			}
			if f.Async != "" && (i == 0 || st.Stack[i-1].Async != f.Async) {
				rows = append(rows, []string{"--", f.Async})
			}
			name := f.Function
			if name == "" {
				name = "(anonymous)"
			}
			rows = append(rows, []string{f.Ref, name, f.Where()})
		}
		columns(b, "  ", []int{1, 2}, rows)
	}
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
		for _, f := range bp.Resolved {
			fmt.Fprintf(b, "  at %s\n", whereBoth(f))
		}
	}
}

// whereBoth is a frame's file:line, followed by the generated one when a source map moved it:
// "src/app.ts:9 (dist/app.js:7)".
func whereBoth(f api.Frame) string {
	if g := f.Generated; g != nil {
		return fmt.Sprintf("%s (%s)", f.Where(), api.Frame{URL: g.URL, File: g.File, Line: g.Line}.Where())
	}
	return f.Where()
}

// evalText renders a value with its type, or the exception thrown.
func evalText(b *strings.Builder, res api.EvalResult) {
	if res.Exception != "" {
		fmt.Fprintf(b, "threw %s\n", res.Exception)
		return
	}
	fmt.Fprintf(b, "%s  (%s)\n", res.Value, res.Type)
}

// errorText renders the error envelope as two lines.
func errorText(b *strings.Builder, e api.ErrorDetail) {
	fmt.Fprintf(b, "error: %s\n", e.Message)
	if e.Hint != "" {
		fmt.Fprintf(b, "hint: %s\n", e.Hint)
	}
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

// genericText renders any answer from its JSON, keeping the field order: objects as `key: value`
// lines indented by depth, arrays as `- ` items, empty ones as [] and {}.
func genericText(b *strings.Builder, v any) {
	raw, err := json.Marshal(v)
	if err != nil {
		fmt.Fprintf(b, "error: %v\n", err)
		return
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	tok, err := dec.Token()
	if err != nil {
		return
	}
	if d, ok := tok.(json.Delim); ok {
		writeValue(b, dec, d, "", "")
		return
	}
	fmt.Fprintf(b, "%s\n", scalar(tok))
}

// writeValue writes the object or array opened by d; first is the prefix of its first line
// (a "- " item marker), indent the prefix of the others.
func writeValue(b *strings.Builder, dec *json.Decoder, d json.Delim, first, indent string) {
	prefix := func() string {
		p := first
		first = indent
		return p
	}
	empty := true
	for dec.More() {
		empty = false
		if d == '{' {
			keyTok, _ := dec.Token()
			key, _ := keyTok.(string)
			tok, err := dec.Token()
			if err != nil {
				return
			}
			if nd, ok := tok.(json.Delim); ok {
				if !dec.More() { // an empty object or array
					dec.Token()
					fmt.Fprintf(b, "%s%s: %s\n", prefix(), key, emptyOf(nd))
					continue
				}
				fmt.Fprintf(b, "%s%s:\n", prefix(), key)
				writeValue(b, dec, nd, indent+"  ", indent+"  ")
				continue
			}
			fmt.Fprintf(b, "%s%s: %s\n", prefix(), key, scalar(tok))
			continue
		}
		tok, err := dec.Token()
		if err != nil {
			return
		}
		p := prefix()
		if nd, ok := tok.(json.Delim); ok {
			if !dec.More() {
				dec.Token()
				fmt.Fprintf(b, "%s- %s\n", p, emptyOf(nd))
				continue
			}
			writeValue(b, dec, nd, p+"- ", indent+"  ")
			continue
		}
		fmt.Fprintf(b, "%s- %s\n", p, scalar(tok))
	}
	dec.Token() // the closing delimiter
	if empty {
		fmt.Fprintf(b, "%s%s\n", prefix(), emptyOf(d))
	}
}

func emptyOf(d json.Delim) string {
	if d == '[' {
		return "[]"
	}
	return "{}"
}

// scalar renders a JSON scalar token: strings as they are (one line), null as -.
func scalar(tok json.Token) string {
	switch t := tok.(type) {
	case nil:
		return "-"
	case string:
		return strings.ReplaceAll(t, "\n", `\n`)
	case json.Number:
		return t.String()
	case bool:
		return strconv.FormatBool(t)
	}
	return fmt.Sprint(tok)
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
		case api.KindStderr:
			mark = "[stderr] "
		case api.KindException:
			mark = "! "
		}
		fmt.Fprintf(b, "  %s%s\n", mark, e.Text)
		last = e.Seq
	}
	if o.More > 0 {
		fmt.Fprintf(b, "  … %d more after seq %d\n", o.More, last)
	}
}
