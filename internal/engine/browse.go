package engine

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"traced/internal/cdp/proto"
)

// Scripts lists the loaded scripts in load order whose file or URL contains filter; node's own
// only with internal.
func (in Inspector) Scripts(filter string, internal bool) ([]ScriptInfo, error) {
	if err := in.t.s.debugOnly(); err != nil {
		return nil, err
	}
	in.t.mu.Lock()
	out := make([]ScriptInfo, 0, len(in.t.scripts))
	for _, sc := range in.t.scripts {
		if (sc.Internal && !internal) || (filter != "" && !strings.Contains(sc.URL, filter)) {
			continue
		}
		out = append(out, sc)
	}
	in.t.mu.Unlock()
	for i := range out {
		if m := in.t.maps.of(out[i].ScriptID); m != nil {
			for _, src := range m.Sources() {
				out[i].Sources = append(out[i].Sources, in.t.s.sourceName(src))
			}
		}
	}
	slices.SortFunc(out, func(a, b ScriptInfo) int { return scriptOrder(a.ScriptID) - scriptOrder(b.ScriptID) })
	return out, nil
}

func scriptOrder(id string) int { n, _ := strconv.Atoi(id); return n }

// scriptFor finds the script of a file: a path relative to the session's cwd, an absolute path
// or a URL.
func (in Inspector) scriptFor(file string) (string, bool) {
	path := file
	if !strings.HasPrefix(path, "/") && !strings.Contains(path, "://") && !strings.HasPrefix(path, "node:") {
		path = in.t.s.dir() + "/" + path
	}
	in.t.mu.Lock()
	defer in.t.mu.Unlock()
	best := ""
	for id, sc := range in.t.scripts {
		if u := sc.URL; u == file || u == path || u == "file://"+path {
			if best == "" || scriptOrder(id) > scriptOrder(best) { // the newest of a reloaded file
				best = id
			}
		}
	}
	return best, best != ""
}

// scriptURL is the URL node gave a script when it parsed it ("" for an unknown id).
func (in Inspector) scriptURL(id string) string {
	if id == "" {
		return ""
	}
	in.t.mu.Lock()
	defer in.t.mu.Unlock()
	return in.t.scripts[id].URL
}

// SourceSpec asks for source: of the paused frame or of a file, around a line or whole.
type SourceSpec struct {
	File  string // "" : the script of the paused frame
	Frame int
	Line  int  // 1-based centre line; 0: the paused line, or the whole file when File is set
	Lines int  // lines on each side (0: 5)
	All   bool // the whole script
}

// SourceView is a piece of a script's source.
type SourceView struct {
	File      string
	Total     int // lines in the script
	Lines     []SourceLine
	Truncated bool // cut at maxViewLines
}

// maxViewLines caps a whole-script view.
const maxViewLines = 5000

// Source shows source: around the pause by default.
func (in Inspector) Source(ctx context.Context, spec SourceSpec) (SourceView, error) {
	p, c, err := in.pauseNow()
	if err != nil {
		return SourceView{}, err
	}
	var src []string
	var file string
	cur := -1 // 0-based marked line
	switch {
	case spec.File != "":
		id, ok := in.scriptFor(spec.File)
		if ok {
			if src, err = in.source(ctx, c, id); err != nil {
				return SourceView{}, fmt.Errorf("source: %w", err)
			}
			in.t.mu.Lock()
			file = fileOf(in.t.scripts[id].URL, in.t.s.dir())
			in.t.mu.Unlock()
			if p != nil && p.CallFrames[0].Location.ScriptID == id && !in.t.SourceMapping().mapped(p.CallFrames[0]) {
				cur = p.CallFrames[0].Location.LineNumber
			}
			break
		}
		id, source, ok := in.t.SourceMapping().scriptWithSource(in.t.s.absPath(spec.File))
		if !ok {
			return SourceView{}, fmt.Errorf("%w: no loaded script is %s, and no source map has it", ErrNoRef, spec.File)
		}
		if src, err = in.t.SourceMapping().originalSource(id, source); err != nil {
			return SourceView{}, fmt.Errorf("source: %w", err)
		}
		file = in.t.s.sourceName(source)
		if p != nil {
			if top := in.pausedFrame(p.CallFrames[0]); top.Generated != nil && top.URL == sourceURL(source) {
				cur = top.Line - 1
			}
		}
	case p == nil:
		return SourceView{}, fmt.Errorf("%w: source around the pause needs a paused program; or name a file", ErrRunning)
	default:
		f, err := frameOf(p, spec.Frame)
		if err != nil {
			return SourceView{}, err
		}
		if src, cur, file, err = in.t.SourceMapping().frameSource(ctx, c, f); err != nil {
			return SourceView{}, fmt.Errorf("source: %w", err)
		}
	}
	view := SourceView{File: file, Total: len(src)}
	centre := cur
	if spec.Line > 0 {
		centre = spec.Line - 1
	}
	if spec.All || centre < 0 {
		for i, l := range src[:min(len(src), maxViewLines)] {
			view.Lines = append(view.Lines, SourceLine{Line: i + 1, Text: l, Current: i == cur})
		}
		view.Truncated = len(src) > maxViewLines
		return view, nil
	}
	n := spec.Lines
	if n <= 0 {
		n = 5
	}
	for _, l := range around(src, centre, n) {
		l.Current = l.Line-1 == cur
		view.Lines = append(view.Lines, l)
	}
	if view.Lines == nil {
		return view, fmt.Errorf("%w: line %d is past the end of %s (%d lines)", ErrBadInput, spec.Line, view.File, len(src))
	}
	return view, nil
}

// SearchSpec asks to search the loaded scripts' sources.
type SearchSpec struct {
	Query         string
	Regex         bool
	CaseSensitive bool
	Internal      bool // node's own scripts too
}

// Match is a line of a script that matched a search.
type Match struct {
	File string
	Line int
	Text string
}

// maxMatches caps a search's answer.
const maxMatches = 200

// Search finds a query in the loaded scripts (Debugger.searchInContent), in load order.
func (in Inspector) Search(ctx context.Context, spec SearchSpec) ([]Match, bool, error) {
	c, err := in.t.liveClient()
	if err != nil {
		return nil, false, err
	}
	scripts, _ := in.Scripts("", spec.Internal)
	out := []Match{}
	for _, sc := range scripts {
		var res struct {
			Result []struct {
				LineNumber  int    `json:"lineNumber"`
				LineContent string `json:"lineContent"`
			} `json:"result"`
		}
		if err := proto.Do(ctx, c, proto.DebuggerSearchInContent{
			ScriptID: sc.ScriptID, Query: spec.Query, CaseSensitive: spec.CaseSensitive, IsRegex: spec.Regex,
		}, &res); err != nil {
			return out, false, fmt.Errorf("search %s: %w", sc.URL, err)
		}
		for _, m := range res.Result {
			if len(out) == maxMatches {
				return out, true, nil
			}
			file := sc.File
			if file == "" {
				file = sc.URL
			}
			out = append(out, Match{File: file, Line: m.LineNumber + 1,
				Text: CapText(strings.TrimRight(m.LineContent, "\r\n"), in.t.s.stringCap).Value})
		}
	}
	return out, false, nil
}

// History returns the events of one kind after the cursor, console ones of the given levels
// only, at most limit (<= 0: all retained).
func (tl Timeline) History(kind Kind, after uint64, levels []string, limit int) (Page, error) {
	if err := tl.s.debugOnly(); err != nil {
		return Page{}, err
	}
	kinds := KindSet{kind: true}
	if kind == KindException { // the exceptions: those that reached the inspector, and every throw
		kinds[KindThrow] = true
	}
	if len(levels) == 0 {
		return tl.Events(after, Filter{Kinds: kinds}, limit), nil
	}
	for i, l := range levels {
		if l == "warn" { // console.warn's CDP type
			levels[i] = "warning"
		}
	}
	page := tl.Events(after, Filter{Kinds: kinds}, 0)
	kept := page.Events[:0]
	for _, ev := range page.Events {
		if ev.Console != nil && slices.Contains(levels, ev.Console.Level) {
			kept = append(kept, ev)
		}
	}
	if limit > 0 && len(kept) > limit {
		kept = kept[:limit]
		page.Next = kept[len(kept)-1].Seq
		page.More = true
	}
	page.Events = kept
	return page, nil
}

// ContextView is a live execution context.
type ContextView struct {
	ContextInfo
	Main bool // the program's own context
}

// Contexts lists the live execution contexts.
func (in Inspector) Contexts() ([]ContextView, error) {
	if err := in.t.s.debugOnly(); err != nil {
		return nil, err
	}
	in.t.mu.Lock()
	out := make([]ContextView, 0, len(in.t.contexts))
	for _, c := range in.t.contexts {
		out = append(out, ContextView{ContextInfo: c, Main: c.ID == in.t.mainContext})
	}
	in.t.mu.Unlock()
	slices.SortFunc(out, func(a, b ContextView) int { return a.ID - b.ID })
	return out, nil
}
