package engine

import (
	"context"
	"strings"
	"unicode"
	"unicode/utf16"
	"unicode/utf8"
)

// A let, const or class binding read before its declaration ran is in its temporal dead zone:
// it has no value yet. Node 22+ sends such a binding without a value; node 20 sends undefined,
// so there the declaration is looked up in the source (declared at or after the pause).
const (
	uninitializedType  = "uninitialized"
	uninitializedValue = "<uninitialized>"
)

// location is a CDP position in a script: line and column 0-based.
type location struct {
	ScriptID     string `json:"scriptId"`
	LineNumber   int    `json:"lineNumber"`
	ColumnNumber int    `json:"columnNumber"`
}

func (l location) before(o location) bool {
	return l.LineNumber < o.LineNumber || (l.LineNumber == o.LineNumber && l.ColumnNumber < o.ColumnNumber)
}

// uninitialized says whether a scope entry is a binding in its temporal dead zone.
func (s *Session) uninitialized(ctx context.Context, c clientCaller, f pausedFrame, sc scope, pd propertyDescriptor) bool {
	if pd.Value == nil {
		return pd.Get == nil && pd.Set == nil // node 22+: no value at all
	}
	if pd.Value.Type != "undefined" || sc.StartLocation == nil || sc.EndLocation == nil ||
		(sc.Type != "local" && sc.Type != "block") || sc.StartLocation.ScriptID != f.Location.ScriptID {
		return false
	}
	lines, err := s.source(ctx, c, f.Location.ScriptID)
	if err != nil {
		return false // no source: undefined is what node said
	}
	at, ok := declaration(lines, pd.Name, *sc.StartLocation, *sc.EndLocation)
	pause := location{LineNumber: f.Location.LineNumber, ColumnNumber: f.Location.ColumnNumber}
	return ok && !at.before(pause)
}

// declaration finds where name is bound by a let, const or class declaration between from and
// to: the position of the name itself. Strings, templates and comments are skipped; a name
// bound by destructuring counts, a property key does not.
func declaration(lines []string, name string, from, to location) (location, bool) {
	sc := scanner{lines: lines, line: from.LineNumber, end: to}
	if from.LineNumber < len(lines) {
		sc.col = byteColumn(lines[from.LineNumber], from.ColumnNumber)
	}
	for {
		tok, _, ok := sc.next()
		if !ok {
			return location{}, false
		}
		if at, found := sc.declared(tok, name); found {
			return at, true
		}
	}
}

// scanner yields the identifiers and punctuation of JavaScript source lines.
type scanner struct {
	lines     []string
	line, col int
	end       location
	inComment bool
}

// declared reads the declaration that keyword tok starts, if it is one, and reports where it
// binds name.
func (sc *scanner) declared(tok, name string) (location, bool) {
	switch tok {
	case "class":
		if t, at, ok := sc.next(); ok && t == name {
			return at, true
		}
	case "let", "const":
		return sc.declarators(name)
	}
	return location{}, false
}

// declarators reads the declarator list after let or const and reports where name is bound.
func (sc *scanner) declarators(name string) (location, bool) {
	depth, init := 0, false
	prev, prevAt := "", location{}
	for {
		tok, at, ok := sc.next()
		if !ok {
			return location{}, false
		}
		if prev == name && tok != ":" { // a key before ':' renames; the name after it binds
			return sc.declaratorEnd(tok, at, prevAt, depth), true
		}
		prev = ""
		switch tok {
		case "{", "[", "(":
			depth++
		case "}", "]", ")":
			if depth--; depth < 0 {
				return location{}, false
			}
		case "=":
			init = init || depth == 0
		case ",":
			init = init && depth != 0
		case ";":
			if depth == 0 {
				return location{}, false
			}
		case "of", "in":
			if depth == 0 && !init { // a for-of or for-in head: its binding came before
				return location{}, false
			}
		case "let", "const", "class":
			if depth == 0 { // a statement without a semicolon ended before this one
				return sc.declared(tok, name)
			}
		default:
			if !init && isIdentifier(tok) {
				prev, prevAt = tok, at
			}
		}
	}
}

// declaratorEnd reads on from tok (at) to where the declarator that binds a name ends: the
// binding is initialised there, so a pause before it is in the dead zone. A pattern's binding
// ends with the whole declarator; a new line that starts a statement ends it too.
func (sc *scanner) declaratorEnd(tok string, at, last location, depth int) location {
	lastTok := ""
	for {
		switch {
		case depth == 0 && (tok == "," || tok == ";" || tok == "of" || tok == "in"):
			return at
		case depth == 0 && at.LineNumber > last.LineNumber && isIdentifier(tok) && endsOperand(lastTok):
			return at // automatic semicolon insertion
		case tok == "{" || tok == "[" || tok == "(":
			depth++
		case tok == "}" || tok == "]" || tok == ")":
			if depth--; depth < 0 {
				return at
			}
		}
		lastTok, last = tok, at
		var ok bool
		if tok, at, ok = sc.next(); !ok {
			return location{LineNumber: sc.end.LineNumber, ColumnNumber: sc.end.ColumnNumber}
		}
	}
}

// endsOperand says whether an expression can end with tok, so that a new line after it may
// end the statement.
func endsOperand(tok string) bool {
	r, _ := utf8.DecodeRuneInString(tok)
	return tok != "" && (isIdentifier(tok) || unicode.IsDigit(r) || strings.ContainsRune(")]}\"", r))
}

func isIdentifier(tok string) bool {
	r, _ := utf8.DecodeRuneInString(tok)
	return r == '$' || r == '_' || unicode.IsLetter(r)
}

// next returns the next token: an identifier or keyword, or one punctuation character.
func (sc *scanner) next() (string, location, bool) {
	for sc.line < len(sc.lines) {
		l := sc.lines[sc.line]
		if sc.line > sc.end.LineNumber || (sc.line == sc.end.LineNumber && sc.col >= byteColumn(l, sc.end.ColumnNumber)) {
			return "", location{}, false
		}
		if sc.col >= len(l) {
			sc.line, sc.col = sc.line+1, 0
			continue
		}
		if sc.inComment {
			if i := strings.Index(l[sc.col:], "*/"); i >= 0 {
				sc.col, sc.inComment = sc.col+i+2, false
			} else {
				sc.col = len(l)
			}
			continue
		}
		r, size := utf8.DecodeRuneInString(l[sc.col:])
		at := location{LineNumber: sc.line, ColumnNumber: utf16Column(l, sc.col)}
		switch {
		case unicode.IsSpace(r):
			sc.col += size
		case r == '/' && sc.col+1 < len(l) && l[sc.col+1] == '/':
			sc.col = len(l)
		case r == '/' && sc.col+1 < len(l) && l[sc.col+1] == '*':
			sc.col, sc.inComment = sc.col+2, true
		case r == '"' || r == '\'' || r == '`':
			sc.skipString(byte(r))
			return "\"", at, true
		case r == '$' || r == '_' || unicode.IsLetter(r):
			start := sc.col
			for sc.col < len(l) {
				r, size := utf8.DecodeRuneInString(l[sc.col:])
				if r != '$' && r != '_' && !unicode.IsLetter(r) && !unicode.IsDigit(r) {
					break
				}
				sc.col += size
			}
			return l[start:sc.col], at, true
		default:
			sc.col += size
			return string(r), at, true
		}
	}
	return "", location{}, false
}

// skipString moves past a string or template literal (templates may span lines; their
// substitutions are skipped with them, which loses nothing a declaration needs).
func (sc *scanner) skipString(q byte) {
	sc.col++
	for sc.line < len(sc.lines) {
		l := sc.lines[sc.line]
		for sc.col < len(l) {
			switch l[sc.col] {
			case '\\':
				sc.col += 2
				continue
			case q:
				sc.col++
				return
			}
			sc.col++
		}
		if q != '`' {
			return // an unterminated string ends with its line
		}
		sc.line, sc.col = sc.line+1, 0
	}
}

// V8 counts columns in UTF-16 code units; the scanner walks bytes.
func utf16Column(line string, byteCol int) int {
	n := 0
	for _, r := range line[:min(byteCol, len(line))] {
		n += utf16.RuneLen(r)
	}
	return n
}

func byteColumn(line string, col int) int {
	n := 0
	for i, r := range line {
		if n >= col {
			return i
		}
		n += utf16.RuneLen(r)
	}
	return len(line)
}
