// Package preview renders the JavaScript values the V8 inspector sends (v8.RemoteObject and
// its shallow previews) as text: as node's console prints them (Console, Value) and as a
// debugger lists them (Debug). It fetches nothing: what the preview lacks stays out.
package preview

import (
	"encoding/json"
	"fmt"
	"strings"
	"unicode"

	"traced/internal/v8"
)

// Value renders a remote object as a debugger shows it, without fetching anything more.
func Value(o v8.RemoteObject) string {
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
		return JSON(o.Value)
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
func previewText(p *v8.ObjectPreview) string {
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
			case array && IsIndex(pr.Name):
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
func promiseText(p *v8.ObjectPreview) string {
	state, result := "", ""
	for _, pr := range p.Properties {
		switch pr.Name {
		case "[[PromiseState]]":
			state = pr.Value
		case "[[PromiseResult]]":
			result, _, _ = strings.Cut(propertyText(pr), "\n") // its first line
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
func valuePreviewText(p *v8.ObjectPreview) string {
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

func propertyText(pr v8.PropertyPreview) string {
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

// IsIndex says whether a property name is an array index.
func IsIndex(name string) bool {
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

// JSON renders a decoded JSON value as JSON.stringify does.
func JSON(v any) string {
	var b strings.Builder
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false) // JSON.stringify leaves <, > and & alone
	if err := enc.Encode(v); err != nil {
		return fmt.Sprint(v)
	}
	return strings.TrimSuffix(b.String(), "\n")
}
