// Package jsscan reads JavaScript source lines just enough to find where a let, const or class
// declaration binds a name, and where each function starts and ends: a light token scan that
// skips strings, templates and comments, with no parser and nothing of the running program.
// Positions are V8's: lines 0-based, columns 0-based in UTF-16 code units.
package jsscan

import (
	"strings"
	"unicode"
	"unicode/utf16"
	"unicode/utf8"
)

// Pos is a position in source lines: Line 0-based, Column 0-based in UTF-16 code units.
type Pos struct {
	Line   int
	Column int
}

// Declaration finds a let, const or class declaration of name between from and to in lines,
// and reports where its binding is initialised: the end of the declarator that binds it (a
// pause before there is in the dead zone), or a class's name. Strings, templates and comments
// are skipped; a name bound by destructuring counts, a property key does not.
func Declaration(lines []string, name string, from, to Pos) (Pos, bool) {
	sc := scanner{lines: lines, line: from.Line, end: to}
	if from.Line < len(lines) {
		sc.col = byteColumn(lines[from.Line], from.Column)
	}
	for {
		tok, _, ok := sc.next()
		if !ok {
			return Pos{}, false
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
	end       Pos
	inComment bool
}

// declared reads the declaration that keyword tok starts, if it is one, and reports where it
// binds name.
func (sc *scanner) declared(tok, name string) (Pos, bool) {
	switch tok {
	case "class":
		if t, at, ok := sc.next(); ok && t == name {
			return at, true
		}
	case "let", "const":
		return sc.declarators(name)
	}
	return Pos{}, false
}

// declarators reads the declarator list after let or const and reports where name is bound.
func (sc *scanner) declarators(name string) (Pos, bool) {
	depth, init := 0, false
	prev, prevAt := "", Pos{}
	for {
		tok, at, ok := sc.next()
		if !ok {
			return Pos{}, false
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
				return Pos{}, false
			}
		case "=":
			init = init || depth == 0
		case ",":
			init = init && depth != 0
		case ";":
			if depth == 0 {
				return Pos{}, false
			}
		case "of", "in":
			if depth == 0 && !init { // a for-of or for-in head: its binding came before
				return Pos{}, false
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
func (sc *scanner) declaratorEnd(tok string, at, last Pos, depth int) Pos {
	lastTok := ""
	for {
		switch {
		case depth == 0 && (tok == "," || tok == ";" || tok == "of" || tok == "in"):
			return at
		case depth == 0 && at.Line > last.Line && isIdentifier(tok) && endsOperand(lastTok):
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
			return Pos{Line: sc.end.Line, Column: sc.end.Column}
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
func (sc *scanner) next() (string, Pos, bool) {
	for sc.line < len(sc.lines) {
		l := sc.lines[sc.line]
		if sc.line > sc.end.Line || (sc.line == sc.end.Line && sc.col >= byteColumn(l, sc.end.Column)) {
			return "", Pos{}, false
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
		at := Pos{Line: sc.line, Column: utf16Column(l, sc.col)}
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
	return "", Pos{}, false
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
