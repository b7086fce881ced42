// Package bpspec reads and writes what a breakpoint or logpoint is made of, with no debugger
// state: a location "file:line[:col]" and its bounds, the aliases of a ref, and the JavaScript
// conditions V8 evaluates at each hit (a hit count kept in the program, a logpoint's emission
// through a binding), so that V8 decides whether to pause without a round trip per hit.
package bpspec

import (
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"
)

// ErrBad is the error of a spec that cannot be read; the engine reports it as bad input.
var ErrBad = errors.New("bad input")

// MaxPosition bounds the lines and columns a user gives (the contract states the same bound):
// CDP positions are int32, and no source has a billion lines.
const MaxPosition = 1_000_000_000

var locationRE = regexp.MustCompile(`^(.+?):([0-9]+)(?::([0-9]+))?$`)

// Location reads file:line[:col] (1-based, col 0 when absent), each bounded by MaxPosition.
func Location(location string) (file string, line, col int, err error) {
	m := locationRE.FindStringSubmatch(location)
	if m == nil {
		return "", 0, 0, fmt.Errorf("%w: location %q is not file:line[:col]", ErrBad, location)
	}
	line, err = position("line", m[2])
	if err == nil && m[3] != "" {
		col, err = position("column", m[3])
	}
	if err != nil {
		return "", 0, 0, fmt.Errorf("location %q: %w", location, err)
	}
	if line < 1 {
		return "", 0, 0, fmt.Errorf("%w: line %d: lines start at 1", ErrBad, line)
	}
	return m[1], line, col, nil
}

// File is the file part of a location Location accepted.
func File(location string) string {
	if m := locationRE.FindStringSubmatch(location); m != nil {
		return m[1]
	}
	return ""
}

// position reads a 1-based line or column, refusing one past MaxPosition.
func position(name, digits string) (int, error) {
	n, err := strconv.Atoi(digits)
	if err != nil || n > MaxPosition {
		return 0, fmt.Errorf("%w: %s %s is past %d", ErrBad, name, digits, MaxPosition)
	}
	return n, nil
}

// Line reads "file:line" (a breakpoint's location as asked).
func Line(loc string) (string, int, bool) {
	i := strings.LastIndexByte(loc, ':')
	if i <= 0 {
		return "", 0, false
	}
	n, err := strconv.Atoi(loc[i+1:])
	return loc[:i], n, err == nil
}

// Ref accepts the aliases "@v1" and "BP#1" (alias "BP#") for "v1" and "bp1" (prefix "bp").
func Ref(ref, prefix, alias string) string {
	ref = strings.TrimPrefix(ref, "@")
	if n, ok := strings.CutPrefix(ref, alias); ok {
		return prefix + n
	}
	return ref
}

// Condition composes the user's condition with a hit counter kept in the program: V8 pauses
// at the hitCount-th hit that meets cond (hitCount 0: at every one).
func Condition(ref, cond string, hitCount int) string {
	if hitCount <= 0 {
		return cond
	}
	return And(cond, HitExpr(ref, "==", hitCount))
}

// HitExpr is a JavaScript condition that counts one more hit under key in the program
// (globalThis.__tracedHits, per thread) and says whether this one pauses: its 1-based number n
// meets "n op count", op one of ==, >, >=, <, <= or % (every count-th).
func HitExpr(key, op string, count int) string {
	k := strconv.Quote(key)
	n := fmt.Sprintf(`((globalThis.__tracedHits ??= {})[%s] = (globalThis.__tracedHits[%s] || 0) + 1)`, k, k)
	switch op {
	case "%":
		return fmt.Sprintf("%s %% %d === 0", n, count)
	case "==":
		return fmt.Sprintf("%s === %d", n, count)
	}
	return fmt.Sprintf("%s %s %d", n, op, count)
}

// And is "a and then b" as one JavaScript condition; an empty a is b.
func And(a, b string) string {
	if strings.TrimSpace(a) == "" {
		return b
	}
	return "(" + a + ") && " + b
}

// LogCondition emits [ref, text] through the binding named binding; a template that throws
// emits the error instead. It always answers false: a logpoint does not pause.
func LogCondition(ref, binding, template, cond string) string {
	emit := fmt.Sprintf("(() => { let t; try { t = %s; } catch (e) { t = 'logpoint error: ' + e; } "+
		"globalThis.%s(JSON.stringify([%q, String(t)])); return false; })()", TemplateLiteral(template), binding, ref)
	return And(cond, emit)
}

// TemplateLiteral is a logpoint's template as the JS template literal it is evaluated as.
func TemplateLiteral(template string) string {
	return "`" + strings.NewReplacer("\\", "\\\\", "`", "\\`").Replace(template) + "`"
}
