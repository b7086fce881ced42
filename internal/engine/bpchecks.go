package engine

import (
	"context"
	"fmt"
	"os"
	"path"
	"slices"
	"strings"

	"traced/internal/cdp/proto"
	"traced/internal/engine/bpspec"
)

// The checks a breakpoint or logpoint passes before it is set: a file that can bind, a
// condition and a template V8 can parse; and, once set, whether it sits in module code that
// has already run (and so will not stop until the program runs again).

// MissingFileError: a breakpoint asked on a file that is not on disk, not loaded and no loaded
// source map names: it would wait for ever, pending.
type MissingFileError struct {
	Location string // as asked
	Path     string // the absolute path looked for
	Nearest  string // a loaded script of the same name, as the user would write it; "" none
}

func (e *MissingFileError) Error() string {
	msg := fmt.Sprintf("%s: no file %s, and no loaded script or source map has it", e.Location, e.Path)
	if e.Nearest != "" {
		msg += "; the nearest loaded script is " + e.Nearest
	}
	return msg
}

// Unwrap makes it a bad input.
func (e *MissingFileError) Unwrap() error { return ErrBadInput }

// SyntaxError: a condition or logpoint template V8 cannot parse; set, it would never stop and
// record a SyntaxError at every hit.
type SyntaxError struct {
	What   string // "condition" or "template"
	Source string // as given
	Error_ string // V8's message, e.g. "SyntaxError: Unexpected end of input"
}

func (e *SyntaxError) Error() string {
	return fmt.Sprintf("%s %q does not parse: %s", e.What, e.Source, e.Error_)
}

// Unwrap makes it a bad input.
func (e *SyntaxError) Unwrap() error { return ErrBadInput }

// checkFile refuses a location whose file cannot bind: not on disk, not a loaded script's, not
// a source a loaded map has.
func (bs Breakpoints) checkFile(location, abs string, line int) error {
	if _, loaded := bs.t.Inspector().scriptFor(abs); loaded {
		return nil
	}
	if _, err := os.Stat(abs); err == nil {
		return nil
	}
	if _, mapped, err := bs.t.SourceMapping().originalTarget(location, abs, line); mapped || err != nil {
		return nil
	}
	return &MissingFileError{Location: location, Path: abs, Nearest: bs.nearestScript(abs)}
}

// nearestScript is the loaded script of abs's base name sharing the longest tail of path with
// it, relative to the session's cwd when inside it; "" when none has that name.
func (bs Breakpoints) nearestScript(abs string) string {
	base := path.Base(abs)
	bs.t.mu.Lock()
	defer bs.t.mu.Unlock()
	best, bestTail := "", -1
	for _, sc := range bs.t.scripts {
		file := strings.TrimPrefix(sc.URL, "file://")
		if !strings.HasPrefix(file, "/") || path.Base(file) != base || strings.Contains(file, "/node_modules/") {
			continue
		}
		if tail := commonTail(file, abs); tail > bestTail || (tail == bestTail && file < best) {
			best, bestTail = file, tail
		}
	}
	if rel, ok := strings.CutPrefix(best, bs.t.s.dir()+"/"); ok {
		return rel
	}
	return best
}

// commonTail counts the path elements a and b end with alike.
func commonTail(a, b string) int {
	as, bs := strings.Split(a, "/"), strings.Split(b, "/")
	n := 0
	for n < len(as) && n < len(bs) && as[len(as)-1-n] == bs[len(bs)-1-n] {
		n++
	}
	return n
}

// checkSyntax compiles src in the target without running or keeping it, and refuses it with
// V8's own message when it does not parse; shown is what the user wrote.
func (bs Breakpoints) checkSyntax(ctx context.Context, c clientCaller, what, src, shown string) error {
	if strings.TrimSpace(src) == "" {
		return nil
	}
	var res struct {
		ExceptionDetails *exceptionDetails `json:"exceptionDetails"`
	}
	if err := proto.Do(ctx, c, proto.RuntimeCompileScript{
		Expression: src, SourceURL: "", PersistScript: false,
	}, &res); err != nil {
		return fmt.Errorf("check the %s: %w", what, err)
	}
	if d := res.ExceptionDetails; d != nil {
		msg := d.Text
		if d.Exception != nil && d.Exception.Description != "" {
			msg = d.Exception.Description
		}
		return &SyntaxError{What: what, Source: shown, Error_: msg}
	}
	return nil
}

// checkPoint checks what a breakpoint or logpoint is given: its file and its condition and
// template parse.
func (bs Breakpoints) checkPoint(ctx context.Context, c clientCaller, location, condition, template string) error {
	if location != "" {
		abs, line, _, err := bs.t.s.Settings().parseLocation(location)
		if err != nil {
			return err
		}
		if err := bs.checkFile(location, abs, line); err != nil {
			return err
		}
	}
	if err := bs.checkSyntax(ctx, c, "condition", condition, condition); err != nil {
		return err
	}
	if template != "" {
		return bs.checkSyntax(ctx, c, "template", bpspec.TemplateLiteral(template), template)
	}
	return nil
}

// ranAlready lists the targets (t0, t1...) where bp is bound in a script's top-level code that
// has run already: module code runs once, so the breakpoint will not stop there until the
// program runs again. A target paused in that script's top-level code is not listed.
func (bs Breakpoints) ranAlready(ctx context.Context, ref string) []string {
	bs.t.s.mu.Lock()
	i := slices.IndexFunc(bs.t.s.breakpoints, func(bp *breakpoint) bool { return bp.ref() == ref })
	if i < 0 {
		bs.t.s.mu.Unlock()
		return nil
	}
	bp := bs.t.s.breakpoints[i]
	targets := append([]*Target{bs.t}, bs.t.s.Tree().debuggedBut(bs.t)...)
	bs.t.s.mu.Unlock()
	var out []string
	for _, t := range targets {
		if t.Breakpoints().topLevelRan(ctx, bp) {
			out = append(out, t.ref)
		}
	}
	slices.SortFunc(out, func(a, b string) int { return targetNumber(a) - targetNumber(b) })
	return out
}

// topLevelRan reports whether bp's binding in t is in the top-level code of a script t has
// loaded and is not standing in: V8 lists the breakable positions of the script's own
// function, nested functions left out (restrictToFunction), from its first position; a paused
// frame at one of them is the top-level code still running.
func (bs Breakpoints) topLevelRan(ctx context.Context, bp *breakpoint) bool {
	c := bs.t.liveConn()
	if c == nil {
		return false
	}
	bs.t.lock()
	var at *location
	if b := bs.t.bindings[bp]; b != nil && len(b.resolved) > 0 && b.resolved[0].Generated == nil {
		r := b.resolved[0]
		for id, sc := range bs.t.scripts {
			if sc.URL == r.URL {
				at = &location{ScriptID: id, LineNumber: r.Line - 1, ColumnNumber: r.Column - 1}
			}
		}
	}
	var standing []location // the paused frames in that script
	if p := bs.t.paused; p != nil && at != nil {
		for _, f := range p.CallFrames {
			if f.Location.ScriptID == at.ScriptID {
				standing = append(standing, f.Location)
			}
		}
	}
	bs.t.unlock()
	if at == nil {
		return false
	}
	last := at.LineNumber
	for _, l := range standing {
		last = max(last, l.LineNumber)
	}
	var res struct {
		Locations []location `json:"locations"`
	}
	call := proto.DebuggerGetPossibleBreakpoints{
		Start:              proto.Location{ScriptID: at.ScriptID, ColumnNumber: proto.Int(0)},
		End:                &proto.Location{ScriptID: at.ScriptID, LineNumber: last + 1, ColumnNumber: proto.Int(0)},
		RestrictToFunction: true,
	}
	if err := proto.Do(ctx, c, call, &res); err != nil {
		bs.t.s.log.Debug("top-level positions", "session", bs.t.s.id, "target", bs.t.ref, "err", err)
		return false
	}
	top := func(x location) bool {
		return slices.ContainsFunc(res.Locations, func(l location) bool {
			return l.LineNumber == x.LineNumber && l.ColumnNumber == x.ColumnNumber
		})
	}
	return top(*at) && !slices.ContainsFunc(standing, top)
}
