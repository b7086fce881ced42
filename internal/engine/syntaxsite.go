package engine

import (
	"path/filepath"
	"strconv"
	"strings"
)

// A SyntaxError in a CommonJS file is thrown by node's loader (wrapSafe), so the exception's own
// position is inside node. Where the user's error is comes from sources that hold on every node
// line (20 to 26) together:
//   - Debugger.scriptFailedToParse names the file, and its stack's top frame is the loader frame
//     the exception is thrown from: that ties the two together;
//   - node prints the error's "arrow" on stderr: "/abs/file.js:12", the source line, a caret
//     line under the error. Node 20 and 22 also put it at the head of the exception's
//     description; 24+ only in the error's `stack`, of which the event carries a preview cut to
//     50 characters (whole for a short path only).
// When neither the description nor the preview has the line, the exception event waits for the
// arrow on stderr (the two come over different pipes, in either order), or for the exit.

// syntaxState is what the session knows of a syntax error; under Session.mu.
type syntaxState struct {
	failed *failedParse   // the last script that failed to compile
	held   *ExceptionInfo // a loader syntax error waiting for its line
	arrow  arrow          // the last arrow read on stderr
}

// failedParse is a script V8 could not compile, and the loader frame that compiled it.
type failedParse struct {
	info ScriptInfo
	from *callFrame // top frame of scriptFailedToParse's stack; nil when node gave none
}

// arrow is node's "file:line / source / caret" head of a syntax error.
type arrow struct {
	path         string
	line, column int // column 1-based, 0 without a caret
	rest         int // lines still to read (the source, the caret); 0: complete
}

// noteFailedParse records a script that failed to compile, once per file and version: node 22+
// compiles a CommonJS file a second time as a module before giving up.
func (dp dispatcher) noteFailedParse(p *scriptParsed) {
	info := ScriptInfo{ScriptID: p.ScriptID, URL: p.URL, File: fileOf(p.URL, dp.t.s.dir()), Hash: p.Hash,
		Internal: InternalURL(p.URL), FailedToParse: true}
	fp := &failedParse{info: info}
	if p.StackTrace != nil && len(p.StackTrace.CallFrames) > 0 {
		fp.from = &p.StackTrace.CallFrames[0]
	}
	dp.t.mu.Lock()
	prev := dp.t.syntax.failed
	dp.t.syntax.failed = fp
	dp.t.mu.Unlock()
	if prev != nil && prev.info.URL == info.URL && prev.info.Hash == info.Hash {
		return
	}
	dp.t.record(Event{Kind: KindScript, Script: &info})
}

// syntaxSite points a loader-thrown error at the file that failed to compile: its URL as the
// stack frames spell it, and the line and column when the error's text has them (0 if not).
func (dp dispatcher) syntaxSite(d *exceptionDetails, o *remoteObject, info *ExceptionInfo) {
	var fp *failedParse
	dp.t.mu.Lock()
	if f := dp.t.syntax.failed; f != nil && f.from != nil && d.StackTrace != nil && len(d.StackTrace.CallFrames) > 0 {
		top := d.StackTrace.CallFrames[0]
		if top.ScriptID == f.from.ScriptID && top.LineNumber == f.from.LineNumber && top.ColumnNumber == f.from.ColumnNumber {
			fp = f
		}
	}
	dp.t.mu.Unlock()
	for _, text := range []string{o.Description, previewProp(o.Preview, "stack")} {
		a, ok := parseArrow(text)
		if !ok || (fp != nil && fileOf(fp.info.URL, "") != a.path) {
			continue
		}
		u := sourceURL(a.path)
		if fp != nil {
			u = fp.info.URL
		}
		info.URL, info.File, info.Line, info.Column, info.Generated = u, fileOf(a.path, dp.t.s.dir()), a.line, a.column, nil
		return
	}
	if fp != nil {
		info.URL, info.File, info.Line, info.Column, info.Generated = fp.info.URL, fp.info.File, 0, 0, nil
	}
}

// holdSyntaxError keeps a loader syntax error without a line until node's arrow for its file is
// read from stderr; it returns the exception to record now, or nil while it waits. Only a
// session that reads the child's stderr waits.
func (dp dispatcher) holdSyntaxError(info *ExceptionInfo) *ExceptionInfo {
	if !dp.t.main() { // the stderr arrow a held error waits for is the main process's
		return info
	}
	dp.t.mu.Lock()
	defer dp.t.mu.Unlock()
	fp := dp.t.syntax.failed
	if info.Line != 0 || fp == nil || info.URL != fp.info.URL || dp.t.s.child == nil {
		return info
	}
	dp.t.syntax.held = info
	return dp.matchArrow()
}

// syntaxOutput follows stderr for node's arrow; it returns a held exception its line completed.
// Once a file failed to parse, only an arrow naming that file starts over: a line the program
// printed before cannot take its place.
func (dp dispatcher) syntaxOutput(line string) *ExceptionInfo {
	dp.t.mu.Lock()
	defer dp.t.mu.Unlock()
	a := &dp.t.syntax.arrow
	want := ""
	if fp := dp.t.syntax.failed; fp != nil {
		want = fileOf(fp.info.URL, "")
	}
	if path, n, ok := pathLine(line); ok && (path == want || (want == "" && a.rest == 0)) {
		*a = arrow{path: path, line: n, rest: 2}
		return nil
	}
	switch a.rest {
	case 2: // the source line
		a.rest = 1
		return nil
	case 1: // the caret line
		if i := strings.IndexByte(line, '^'); i >= 0 && strings.TrimLeft(line[:i], " ") == "" {
			a.column = i + 1
		}
		a.rest = 0
	}
	return dp.matchArrow()
}

// releaseSyntax hands over a held exception at the end, with whatever stderr said of its line.
func (dp dispatcher) releaseSyntax() *ExceptionInfo {
	dp.t.mu.Lock()
	defer dp.t.mu.Unlock()
	dp.t.syntax.arrow.rest = 0
	if info := dp.matchArrow(); info != nil {
		return info
	}
	info := dp.t.syntax.held
	dp.t.syntax.held = nil
	return info
}

// matchArrow completes the held exception with a complete arrow for its file; under s.mu.
func (dp dispatcher) matchArrow() *ExceptionInfo {
	info, a := dp.t.syntax.held, dp.t.syntax.arrow
	if info == nil || a.path == "" || a.rest != 0 || fileOf(info.URL, "") != a.path {
		return nil
	}
	dp.t.syntax.held = nil
	info.Line, info.Column = a.line, a.column
	return info
}

// parseArrow parses the arrow at the head of an error's text. The first line must be whole (a
// newline after it): a preview may cut the text anywhere.
func parseArrow(text string) (arrow, bool) {
	lines := strings.SplitN(text, "\n", 4)
	if len(lines) < 2 {
		return arrow{}, false
	}
	path, n, ok := pathLine(lines[0])
	if !ok {
		return arrow{}, false
	}
	a := arrow{path: path, line: n}
	if len(lines) >= 3 {
		caret := lines[2]
		if i := strings.IndexByte(caret, '^'); i >= 0 && strings.TrimLeft(caret[:i], " ") == "" {
			a.column = i + 1
		}
	}
	return a, true
}

// previewProp is a string property of an object's preview ("" when absent). V8 cuts long
// strings in the middle with an ellipsis: only the head before it is kept.
func previewProp(p *objectPreview, name string) string {
	if p == nil {
		return ""
	}
	for _, pr := range p.Properties {
		if pr.Name == name && pr.Type == "string" {
			head, _, _ := strings.Cut(pr.Value, "…")
			return head
		}
	}
	return ""
}

// pathLine parses "/abs/path.js:12" as printed by node above a SyntaxError.
func pathLine(s string) (string, int, bool) {
	i := strings.LastIndexByte(s, ':')
	if i <= 0 || !filepath.IsAbs(s[:i]) {
		return "", 0, false
	}
	n, err := strconv.Atoi(s[i+1:])
	if err != nil || n < 1 {
		return "", 0, false
	}
	return s[:i], n, true
}
