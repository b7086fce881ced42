package engine

import (
	"regexp"
	"strings"
	"unicode/utf8"
)

// Node 22.18+, 24 and 26 run a TypeScript file themselves: they erase its types with spaces,
// keeping every line and column, and run it under the file's own URL with no source map. Such a
// script is its own original: a breakpoint on it binds by its URL, and its source view shows the
// file as written rather than the erased text V8 holds.

// isTypeScript reports whether path names a TypeScript file node may run itself.
func isTypeScript(path string) bool {
	for _, ext := range []string{".ts", ".mts", ".cts"} {
		if strings.HasSuffix(path, ext) {
			return true
		}
	}
	return false
}

// runsItself reports whether a parsed script is a file node runs as it is (no source map) at
// the absolute path p, under mu.
func (sm SourceMapping) runsItself(scriptID, p string) bool {
	sc := sm.t.scripts[scriptID]
	return sc.SourceMapURL == "" && !sc.Internal && fileOf(sc.URL, "") == p
}

// fileURLRegex is the V8 urlRegex of a file loaded as CJS (its path) or ESM (a file:// URL).
func fileURLRegex(p string) string { return "^(file://)?" + regexp.QuoteMeta(p) + "$" }

// sourceURLTrailer is what node appends to a type-stripped script: "\n\n//# sourceURL=<file>".
var sourceURLTrailer = regexp.MustCompile(`\n*//# sourceURL=[^\n]*\n*$`)

// ownText returns the text a user wrote for a TypeScript script node ran with its types erased:
// the file on disk, when it is what node ran (every character the same, or erased to a space).
// Anything else (no such file, edited since, transformed rather than stripped) keeps src.
func (sm SourceMapping) ownText(scriptID, src string) string {
	sm.t.mu.Lock()
	sc := sm.t.scripts[scriptID]
	sm.t.mu.Unlock()
	p := fileOf(sc.URL, "")
	if p == "" || sc.SourceMapURL != "" || !isTypeScript(p) {
		return src
	}
	real, err := sm.t.s.ws.Resolve("/", p)
	if err != nil {
		return src
	}
	data, err := readCapped(real, maxSourceBytes)
	if err != nil || !erasedFrom(sourceURLTrailer.ReplaceAllString(src, ""), string(data)) {
		return src
	}
	return string(data)
}

// erasedFrom reports whether ran is own with some characters replaced by spaces (a type
// erasure), trailing blank space aside: same lines, same columns.
func erasedFrom(ran, own string) bool {
	for ran != "" && own != "" {
		r, nr := utf8.DecodeRuneInString(ran)
		o, no := utf8.DecodeRuneInString(own)
		if r != o && (r != ' ' || o == '\n') {
			return false
		}
		ran, own = ran[nr:], own[no:]
	}
	return strings.TrimSpace(ran) == "" && strings.TrimSpace(own) == ""
}
