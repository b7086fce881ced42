package jsscan

// FunctionRange is where one function's source lies: from its first token (`function`, `async`,
// a method's name, an arrow's parameters) to its last (the body's closing brace, or the end of
// an arrow's expression body). Name is what the source calls it, empty when nothing does.
type FunctionRange struct {
	Name       string
	Start, End Pos
}

// maxFunctionRanges caps the ranges kept per script: a bundle of a few MB has tens of
// thousands of functions, and the ranges only name the lines V8 inlined.
const maxFunctionRanges = 100000

// reserved are the words that read like a method's name in `word (...) {` but start a
// statement instead.
var reserved = map[string]bool{
	"if": true, "for": true, "while": true, "switch": true, "catch": true, "with": true,
	"return": true, "function": true, "typeof": true, "await": true, "yield": true, "new": true,
	"delete": true, "void": true, "in": true, "of": true, "instanceof": true, "do": true, "else": true,
}

// modifiers may precede a method's name; the method starts at the first.
var modifiers = map[string]bool{"async": true, "get": true, "set": true, "static": true, "*": true}

// FunctionRanges finds the functions of a script: declarations and expressions, methods,
// arrows (block and expression bodies), nested ones included, by a token scan with no parser.
// Regular expression literals are read as tokens, so a brace inside one can shift the ranges
// of the functions around it; strings, templates and comments are skipped.
func FunctionRanges(lines []string) []FunctionRange {
	fs := functionScan{sc: scanner{lines: lines, end: Pos{Line: len(lines)}}}
	fs.run()
	return fs.out
}

// token is one token with where it starts.
type token struct {
	text string
	at   Pos
}

// openFunc is a function whose end is not found yet: a block body ends at the closing brace
// at depth, an expression body at the first `,` `;` or closing bracket at depth.
type openFunc struct {
	index int // in out
	depth int // nesting depth of its body's brace, or of its expression
	expr  bool
}

// functionScan walks the tokens once, keeping the bracket nesting and the functions open.
type functionScan struct {
	sc     scanner
	out    []FunctionRange
	recent []token // the last tokens, for names and parameter lists looked back at
	opens  []openFunc
	// pending is a function whose body's `{` comes next, once its parameters' parentheses
	// close: pendingParens counts them; -1 until the first `(` is seen.
	pending       int
	pendingParens int
	// expectArrowBody: an arrow's `=>` was the last token; a `{` opens a block body, anything
	// else an expression body.
	expectArrowBody bool
	depth           int
	lastEnd         Pos // the end of the previous token, for an expression body ending
}

func (fs *functionScan) run() {
	fs.pending = -1
	for {
		text, at, ok := fs.sc.next()
		if !ok {
			break
		}
		tok := token{text, at}
		if fs.expectArrowBody {
			fs.expectArrowBody = false
			if text != "{" {
				fs.opens = append(fs.opens, openFunc{index: fs.pending, depth: fs.depth, expr: true})
				fs.pending = -1
			}
		}
		fs.step(tok)
		fs.recent = append(fs.recent, tok)
		if len(fs.recent) > 64 {
			fs.recent = fs.recent[len(fs.recent)-32:]
		}
		fs.lastEnd = Pos{Line: at.Line, Column: at.Column + len(text)}
		if len(fs.out) >= maxFunctionRanges {
			break
		}
	}
	// What never closed ends with the source.
	end := fs.lastEnd
	for _, o := range fs.opens {
		fs.out[o.index].End = end
	}
}

func (fs *functionScan) step(tok token) {
	switch tok.text {
	case "function":
		start, first := tok.at, len(fs.recent)
		if p := fs.back(1); p.text == "async" {
			start, first = p.at, first-1
		}
		fs.begin(fs.nameBefore(first), start)
		fs.pendingParens = -1
	case "(":
		fs.depth++
		if fs.pending >= 0 {
			fs.pendingParens = max(fs.pendingParens, 0) + 1
		}
	case ")":
		fs.closeExpr()
		fs.depth--
		if fs.pending >= 0 && fs.pendingParens > 0 {
			fs.pendingParens--
		}
	case "[":
		fs.depth++
	case "]":
		fs.closeExpr()
		fs.depth--
	case "{":
		fs.depth++
		if fs.pending >= 0 && fs.pendingParens == 0 {
			fs.opens = append(fs.opens, openFunc{index: fs.pending, depth: fs.depth})
			fs.pending = -1
		} else if fs.pending < 0 && fs.back(1).text == ")" {
			fs.method()
		}
	case "}":
		fs.closeExpr()
		if n := len(fs.opens); n > 0 && !fs.opens[n-1].expr && fs.opens[n-1].depth == fs.depth {
			fs.out[fs.opens[n-1].index].End = Pos{Line: tok.at.Line, Column: tok.at.Column + 1}
			fs.opens = fs.opens[:n-1]
		}
		fs.depth--
	case ",", ";":
		fs.closeExprAt(fs.depth)
	case ">":
		if p := fs.back(1); p.text == "=" && p.at.Line == tok.at.Line && p.at.Column+1 == tok.at.Column {
			fs.arrow()
		}
	default:
		if fs.pending >= 0 && fs.pendingParens < 0 && isIdentifier(tok.text) && fs.back(1).text == "function" {
			fs.out[fs.pending].Name = tok.text // function name(...)
		}
	}
}

// begin opens a function starting at start, its body to come.
func (fs *functionScan) begin(name string, start Pos) {
	fs.out = append(fs.out, FunctionRange{Name: name, Start: start})
	fs.pending = len(fs.out) - 1
}

// method opens a method whose `name (...)` the `{` just read follows.
func (fs *functionScan) method() {
	open := fs.matchingParen(len(fs.recent) - 1)
	if open < 1 {
		return
	}
	name := fs.recent[open-1]
	if !isIdentifier(name.text) || reserved[name.text] {
		return
	}
	start := name.at
	for i := open - 2; i >= 0 && modifiers[fs.recent[i].text]; i-- {
		start = fs.recent[i].at
	}
	fs.out = append(fs.out, FunctionRange{Name: name.text, Start: start})
	fs.opens = append(fs.opens, openFunc{index: len(fs.out) - 1, depth: fs.depth})
}

// arrow opens an arrow function whose `=>` was just read (recent ends with its `=`): its
// parameters are the `(...)` or the identifier before it.
func (fs *functionScan) arrow() {
	i := len(fs.recent) - 2 // the token before `=`
	if i < 0 {
		return
	}
	first := i
	if fs.recent[i].text == ")" {
		if first = fs.matchingParen(i); first < 0 {
			return
		}
	} else if !isIdentifier(fs.recent[i].text) {
		return
	}
	start := fs.recent[first].at
	if first >= 1 && fs.recent[first-1].text == "async" {
		start, first = fs.recent[first-1].at, first-1
	}
	fs.out = append(fs.out, FunctionRange{Name: fs.nameBefore(first), Start: start})
	fs.pending = len(fs.out) - 1
	fs.pendingParens = 0 // the body comes next: a `{`, or an expression
	fs.expectArrowBody = true
}

// closeExpr ends the expression bodies a closing bracket at the current depth ends.
func (fs *functionScan) closeExpr() { fs.closeExprAt(fs.depth) }

// closeExprAt ends the expression bodies open at depth: the token just read is past them.
func (fs *functionScan) closeExprAt(depth int) {
	for n := len(fs.opens); n > 0 && fs.opens[n-1].expr && fs.opens[n-1].depth == depth; n = len(fs.opens) {
		fs.out[fs.opens[n-1].index].End = fs.lastEnd
		fs.opens = fs.opens[:n-1]
	}
}

// back is the token n before the current one (1: the last read), or none.
func (fs *functionScan) back(n int) token {
	if i := len(fs.recent) - n; i >= 0 {
		return fs.recent[i]
	}
	return token{}
}

// matchingParen is the index in recent of the `(` that the `)` at i closes, or -1 when it is
// too far back.
func (fs *functionScan) matchingParen(i int) int {
	depth := 0
	for ; i >= 0; i-- {
		switch fs.recent[i].text {
		case ")":
			depth++
		case "(":
			if depth--; depth == 0 {
				return i
			}
		}
	}
	return -1
}

// nameBefore is the name a function starting at recent[i] is given by what precedes it:
// `name = `, `name: `, or none.
func (fs *functionScan) nameBefore(i int) string {
	if i >= 2 && (fs.recent[i-1].text == "=" || fs.recent[i-1].text == ":") && isIdentifier(fs.recent[i-2].text) {
		return fs.recent[i-2].text
	}
	return ""
}
