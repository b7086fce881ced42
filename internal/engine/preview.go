package engine

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// capText cuts s to at most max bytes on a rune boundary and marks the cut.
func capText(s string, max int) Text {
	if len(s) <= max {
		return Text{Value: s}
	}
	cut := max
	// Back up at most to the start of the rune the cut falls in; input that is not UTF-8 (a
	// child's binary output) is cut where it is rather than emptied.
	for back := 0; cut > 0 && back < utf8.UTFMax-1 && !utf8Start(s[cut]); back++ {
		cut--
	}
	if !utf8Start(s[cut]) {
		cut = max
	}
	return Text{Value: s[:cut], Truncated: true, Length: len(s)}
}

func utf8Start(b byte) bool { return b&0xC0 != 0x80 }

// consoleText joins console arguments as node's console prints them: strings bare, other values
// as previews, and printf-style directives of a leading string substituted.
func consoleText(args []remoteObject, max int) string {
	if len(args) == 1 && args[0].Type == "string" { // node prints a lone string as is, "%%" included
		s, _ := args[0].Value.(string)
		return s
	}
	var b strings.Builder
	rest := args
	if len(args) > 0 && args[0].Type == "string" {
		format, _ := args[0].Value.(string)
		rest = args[1:]
		b.WriteString(substitute(format, &rest))
	}
	formatted := len(rest) < len(args)
	for i, a := range rest {
		if formatted || i > 0 { // node joins with a space even after an empty format string
			b.WriteByte(' ')
		}
		if a.Type == "string" {
			s, _ := a.Value.(string)
			b.WriteString(s)
		} else {
			b.WriteString(formatRemote(a))
		}
		if b.Len() > max { // already over the cap: stop building a string nobody keeps
			break
		}
	}
	return b.String()
}

// substitute applies %s %d %i %f %o %O %j %c directives, consuming args as node does.
func substitute(format string, args *[]remoteObject) string {
	if !strings.ContainsRune(format, '%') {
		return format
	}
	var b strings.Builder
	for i := 0; i < len(format); i++ {
		c := format[i]
		if c != '%' || i+1 == len(format) {
			b.WriteByte(c)
			continue
		}
		d := format[i+1]
		if d == '%' {
			b.WriteByte('%')
			i++
			continue
		}
		if !strings.ContainsRune("sdifoOjc", rune(d)) || len(*args) == 0 {
			b.WriteByte(c)
			continue
		}
		a := (*args)[0]
		*args = (*args)[1:]
		i++
		switch d {
		case 'c': // CSS: consumed, not printed
		case 's':
			switch a.Type {
			case "string":
				s, _ := a.Value.(string)
				b.WriteString(s)
			case "function": // String(fn): its source
				b.WriteString(a.Description)
			default:
				b.WriteString(formatRemote(a))
			}
		case 'd', 'i', 'f':
			b.WriteString(numberText(a, d))
		case 'j':
			if s, ok := a.Value.(string); ok && a.Type == "string" {
				b.WriteString(jsonText(s))
			} else {
				b.WriteString(formatRemote(a))
			}
		default:
			b.WriteString(formatRemote(a))
		}
	}
	return b.String()
}

// numberText renders a for %d, %i or %f as node does: Number(a), parseInt(a) and parseFloat(a),
// bigints kept as bigints by %d and %i.
func numberText(a remoteObject, d byte) string {
	switch a.Type {
	case "bigint":
		if d == 'f' {
			return strings.TrimSuffix(a.UnserializableValue, "n")
		}
		return a.UnserializableValue
	case "number":
		s := a.Description // V8's own rendering: "1.5", "-0", "Infinity", "1e+21"
		if s == "" {
			s = a.UnserializableValue
		}
		if s == "" {
			f, _ := a.Value.(float64)
			s = jsNumber(f)
		}
		if d == 'i' {
			return parseIntText(s)
		}
		return s
	case "string":
		s, _ := a.Value.(string)
		switch d {
		case 'd':
			return toNumberText(s)
		case 'i':
			return parseIntText(s)
		}
		return parseFloatText(s)
	case "boolean":
		if d == 'd' {
			if a.Value == true {
				return "1"
			}
			return "0"
		}
	case "object":
		if a.Subtype == "null" && d == 'd' {
			return "0"
		}
	}
	return "NaN"
}

// jsDecimal is JavaScript's StrDecimalLiteral without Infinity.
var jsDecimal = regexp.MustCompile(`^[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?`)

// toNumberText is Number(s) for a string: the whole trimmed string must be a number literal.
func toNumberText(s string) string {
	s = strings.TrimSpace(s)
	if s == "" {
		return "0"
	}
	if len(s) > 2 && s[0] == '0' && !strings.Contains(s, "_") {
		base := map[byte]int{'x': 16, 'X': 16, 'o': 8, 'O': 8, 'b': 2, 'B': 2}[s[1]]
		if base != 0 {
			n, err := strconv.ParseUint(s[2:], base, 64)
			if err != nil {
				return "NaN"
			}
			return jsNumber(float64(n))
		}
	}
	if jsDecimal.FindString(s) == s || strings.TrimLeft(s, "+-") == "Infinity" && len(s) <= len("+Infinity") {
		return parseFloatText(s)
	}
	return "NaN"
}

// parseFloatText is parseFloat(s): the longest decimal prefix after leading white space.
func parseFloatText(s string) string {
	s = strings.TrimLeftFunc(s, unicode.IsSpace)
	for _, inf := range []string{"Infinity", "+Infinity", "-Infinity"} {
		if strings.HasPrefix(s, inf) {
			return strings.TrimPrefix(inf, "+")
		}
	}
	m := jsDecimal.FindString(s)
	if m == "" {
		return "NaN"
	}
	f, err := strconv.ParseFloat(m, 64)
	if err != nil && !errors.Is(err, strconv.ErrRange) { // out of range: ±Inf or ±0, as in JS
		return "NaN"
	}
	return jsNumber(f)
}

// parseIntText is parseInt(s, undefined): an optional sign, then hex after 0x, else decimal digits.
func parseIntText(s string) string {
	s = strings.TrimLeftFunc(s, unicode.IsSpace)
	sign := ""
	if s != "" && (s[0] == '-' || s[0] == '+') {
		sign, s = strings.TrimPrefix(s[:1], "+"), s[1:]
	}
	digits, hex := "0123456789", false
	if len(s) >= 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X') {
		digits, hex, s = "0123456789abcdefABCDEF", true, s[2:]
	}
	n := 0
	for n < len(s) && strings.IndexByte(digits, s[n]) >= 0 {
		n++
	}
	if n == 0 {
		return "NaN"
	}
	lit := s[:n]
	if hex {
		lit = "0x" + lit + "p0"
	}
	f, _ := strconv.ParseFloat(sign+lit, 64) // only range errors are possible, and ±Inf is right
	return jsNumber(f)
}

// jsNumber formats f as JavaScript's Number.prototype.toString does.
func jsNumber(f float64) string {
	switch {
	case math.IsNaN(f):
		return "NaN"
	case math.IsInf(f, 1):
		return "Infinity"
	case math.IsInf(f, -1):
		return "-Infinity"
	case f == 0 && math.Signbit(f):
		return "-0" // node's formatNumber keeps the sign; toString would not
	}
	if abs := math.Abs(f); abs != 0 && (abs >= 1e21 || abs < 1e-6) {
		m, e, _ := strings.Cut(strconv.FormatFloat(f, 'e', -1, 64), "e")
		sign, digits := e[:1], strings.TrimLeft(e[1:], "0")
		return m + "e" + sign + digits
	}
	return strconv.FormatFloat(f, 'f', -1, 64)
}

// formatRemote renders a remote object as a debugger shows it, without fetching anything more.
func formatRemote(o remoteObject) string {
	switch o.Type {
	case "string":
		s, _ := o.Value.(string)
		return jsQuote(s)
	case "number", "boolean":
		if o.UnserializableValue != "" {
			return o.UnserializableValue
		}
		if o.Description != "" {
			return o.Description
		}
		return jsonText(o.Value)
	case "bigint":
		return o.UnserializableValue
	case "undefined":
		return "undefined"
	case "symbol":
		return o.Description
	case "function":
		return functionText(o.Description, o.ClassName)
	}
	switch o.Subtype {
	case "null":
		return "null"
	case "error":
		return o.Description // the stack, as node prints an Error
	case "regexp", "date": // the preview lists internals (lastIndex, flags...) node does not print
		return o.Description
	}
	if o.Preview != nil {
		return previewText(o.Preview)
	}
	return o.Description
}

// functionText renders a function as node does ([Function: f], [AsyncFunction: f], [class A
// extends B], [Function (anonymous)]) from its source text and, when known, its class name.
func functionText(desc, className string) string {
	if rest, ok := strings.CutPrefix(desc, "class"); ok && (rest == "" || rest[0] == '{' || unicode.IsSpace(rune(rest[0]))) {
		head, _, _ := strings.Cut(desc, "{")
		name, extends := "(anonymous)", ""
		rest := strings.Fields(head)[1:]
		if len(rest) > 0 && rest[0] != "extends" {
			name, rest = rest[0], rest[1:]
		}
		if len(rest) > 1 && rest[0] == "extends" {
			extends = " extends " + strings.Join(rest[1:], " ")
		}
		return "[class " + name + extends + "]"
	}
	head := desc
	if i := strings.IndexAny(head, "({"); i >= 0 {
		head = head[:i]
	}
	fields := strings.Fields(head)
	kind := "Function"
	switch className {
	case "AsyncFunction", "GeneratorFunction", "AsyncGeneratorFunction":
		kind = className
	}
	async := len(fields) > 0 && fields[0] == "async"
	if async {
		fields = fields[1:]
	}
	generator := false
	if len(fields) > 0 && (fields[0] == "function" || strings.HasPrefix(fields[0], "function*")) {
		// function f, function* g, function *g, function*g
		generator = strings.HasPrefix(fields[0], "function*")
		if rest := strings.TrimPrefix(fields[0], "function*"); generator && rest != "" {
			fields[0] = rest
		} else {
			fields = fields[1:]
		}
	} else if len(fields) != 1 || !strings.HasPrefix(desc[len(head):], "(") {
		fields = nil // an arrow function: its name is not in its source
	}
	name := ""
	if len(fields) == 1 {
		generator = generator || strings.HasPrefix(fields[0], "*")
		name = strings.TrimPrefix(fields[0], "*")
	}
	if className == "" { // an entry preview carries no class name: infer the kind from the source
		switch {
		case async && generator:
			kind = "AsyncGeneratorFunction"
		case async:
			kind = "AsyncFunction"
		case generator:
			kind = "GeneratorFunction"
		}
	}
	if name == "" {
		return "[" + kind + " (anonymous)]"
	}
	return "[" + kind + ": " + name + "]"
}

// previewText renders V8's shallow preview: { a: 1, b: 'x' }, [ 1, 2 ], Map(2) { 'k' => v }.
func previewText(p *objectPreview) string {
	if p.Subtype == "promise" {
		return promiseText(p)
	}
	array := p.Subtype == "array" || p.Subtype == "typedarray"
	var parts []string
	if p.Subtype == "map" || p.Subtype == "set" {
		for _, e := range p.Entries {
			v := valuePreviewText(&e.Value)
			if e.Key != nil {
				v = valuePreviewText(e.Key) + " => " + v
			}
			parts = append(parts, v)
		}
	} else {
		for _, pr := range p.Properties {
			switch {
			case array && isIndex(pr.Name):
				parts = append(parts, propertyText(pr))
			case p.Subtype == "typedarray": // buffer, byteLength...: V8 lists them, node does not
			default:
				parts = append(parts, keyText(pr.Name)+": "+propertyText(pr))
			}
		}
	}
	if p.Overflow {
		parts = append(parts, "…")
	}
	open, close := "{", "}"
	if array {
		open, close = "[", "]"
	}
	prefix := ""
	if p.Description != "" && p.Description != "Object" && p.Subtype != "array" {
		prefix = p.Description + " " // Foo { x: 1 }, Map(2) {...}, Uint8Array(2) [...]; not Array(2)
	}
	if len(parts) == 0 {
		return prefix + open + close
	}
	return fmt.Sprintf("%s%s %s %s", prefix, open, strings.Join(parts, ", "), close)
}

// promiseText renders a promise as node does: Promise { <pending> }, Promise { 42 },
// Promise { <rejected> Error: x }.
func promiseText(p *objectPreview) string {
	state, result := "", ""
	for _, pr := range p.Properties {
		switch pr.Name {
		case "[[PromiseState]]":
			state = pr.Value
		case "[[PromiseResult]]":
			result = firstLine(propertyText(pr))
		}
	}
	switch state {
	case "pending":
		return "Promise { <pending> }"
	case "rejected":
		return "Promise { <rejected> " + result + " }"
	}
	return "Promise { " + result + " }"
}

// valuePreviewText renders a Map or Set entry's key or value.
func valuePreviewText(p *objectPreview) string {
	switch {
	case p.Type == "string":
		return jsQuote(p.Description)
	case p.Type == "function":
		return functionText(p.Description, "")
	case p.Type == "object" && p.Subtype != "null" && p.Subtype != "error" && p.Subtype != "regexp" && p.Subtype != "date":
		return previewText(p)
	}
	return p.Description
}

func propertyText(pr propertyPreview) string {
	switch {
	case pr.Type == "string":
		return jsQuote(pr.Value)
	case pr.ValuePreview != nil:
		return previewText(pr.ValuePreview)
	case pr.Type == "function":
		return "[Function]"
	case pr.Type == "accessor":
		return "[Getter/Setter]"
	case pr.Type == "object" && pr.Subtype != "null" && (pr.Value == "" || pr.Value == "Object"):
		return "{…}" // V8 previews one level; a plain nested object is only named "Object"
	}
	return pr.Value
}

func isIndex(name string) bool {
	if name == "" {
		return false
	}
	for i := range len(name) {
		if name[i] < '0' || name[i] > '9' {
			return false
		}
	}
	return true
}

// keyText quotes a property name as node does when it is not a plain identifier.
func keyText(name string) string {
	if name == "" {
		return "''"
	}
	for i := range len(name) {
		c := name[i]
		if c != '_' && (c < 'a' || c > 'z') && (c < 'A' || c > 'Z') && (i == 0 || c < '0' || c > '9') {
			return jsQuote(name)
		}
	}
	return name
}

// jsQuote quotes s as node's util.inspect does: single quotes unless s contains one, then double
// quotes, then backticks; control characters escaped.
func jsQuote(s string) string {
	q := byte('\'')
	if strings.IndexByte(s, '\'') >= 0 {
		switch {
		case strings.IndexByte(s, '"') < 0:
			q = '"'
		case strings.IndexByte(s, '`') < 0 && !strings.Contains(s, "${"):
			q = '`'
		}
	}
	var b strings.Builder
	b.Grow(len(s) + 2)
	b.WriteByte(q)
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == q || c == '\\':
			b.WriteByte('\\')
			b.WriteByte(c)
		case c == '\b':
			b.WriteString(`\b`)
		case c == '\t':
			b.WriteString(`\t`)
		case c == '\n':
			b.WriteString(`\n`)
		case c == '\f':
			b.WriteString(`\f`)
		case c == '\r':
			b.WriteString(`\r`)
		case c < 0x20 || c == 0x7f:
			fmt.Fprintf(&b, `\x%02X`, c)
		default:
			b.WriteByte(c)
		}
	}
	b.WriteByte(q)
	return b.String()
}

func jsonText(v any) string {
	var b strings.Builder
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false) // JSON.stringify leaves <, > and & alone
	if err := enc.Encode(v); err != nil {
		return fmt.Sprint(v)
	}
	return strings.TrimSuffix(b.String(), "\n")
}

// firstLine returns s up to its first newline.
func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}
