package preview

import (
	"fmt"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"

	"traced/internal/v8"
)

// The debugger's value previews are shorter than console text: a debugger shows a value in a
// list of many, and the user expands what interests them (GET props). Console text stays as
// node prints it (Value).

// maxPreviewItems caps the elements a debugger preview lists of an array, a map or an object.
const maxPreviewItems = 10

// stackPlaceRE finds the first file position in an error's stack.
var stackPlaceRE = regexp.MustCompile(`(?:file://)?((?:/|node:)[^\s():]+):([0-9]+):[0-9]+`)

// Debug renders a value as a debugger lists it, and whether the preview left part of
// the value out (then GET props shows the rest).
func Debug(o v8.RemoteObject, cwd string) (string, bool) {
	switch {
	case o.Type == "function":
		return functionPreview(o), false
	case o.Subtype == "error":
		return errorPreview(o.Description, cwd), true
	case o.Type != "object" || o.Preview == nil || o.Subtype == "null" || o.Subtype == "regexp" || o.Subtype == "date":
		return Value(o), false
	}
	p := *o.Preview
	cut := p.Overflow
	if len(p.Properties) > maxPreviewItems {
		p.Properties, p.Overflow, cut = p.Properties[:maxPreviewItems], true, true
	}
	if len(p.Entries) > maxPreviewItems {
		p.Entries, p.Overflow, cut = p.Entries[:maxPreviewItems], true, true
	}
	switch {
	case strings.HasPrefix(o.Description, "Buffer(") && o.Subtype == "typedarray":
		return bufferPreview(o.Description, p), cut
	case o.Subtype == "array":
		return o.Description + " " + previewText(&p), cut // Array(47) [ 'a', 'b', … ]
	}
	return previewText(&p), cut
}

// functionPreview renders a function with its parameters: Function total(list),
// AsyncFunction f(a, b), class Job.
func functionPreview(o v8.RemoteObject) string {
	text := functionText(o.Description, o.ClassName) // [Function: total], [class Job extends Base]
	text = strings.TrimSuffix(strings.TrimPrefix(text, "["), "]")
	if strings.HasPrefix(text, "class ") {
		return text
	}
	kind, name, _ := strings.Cut(text, ": ")
	if name == "" {
		kind, name = strings.TrimSuffix(kind, " (anonymous)"), "(anonymous)"
	}
	return kind + " " + name + paramsOf(o.Description)
}

// paramsOf returns a function's parameter list from its source: "(a, b)", or "(x)" for x => ...
func paramsOf(src string) string {
	open := strings.IndexByte(src, '(')
	arrow := strings.Index(src, "=>")
	if arrow >= 0 && (open < 0 || open > arrow) { // x => ...
		return "(" + strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(src[:arrow]), "async ")) + ")"
	}
	if open < 0 {
		return "()"
	}
	depth := 0
	for i := open; i < len(src); i++ {
		switch src[i] {
		case '(':
			depth++
		case ')':
			depth--
			if depth == 0 {
				params := strings.Join(strings.Fields(src[open+1:i]), " ")
				if len(params) > 60 {
					params = params[:60] + "…"
				}
				return "(" + params + ")"
			}
		}
	}
	return "(…)"
}

// errorPreview renders an error as its message and where it was thrown: Error: boom (at a.js:3).
func errorPreview(desc, cwd string) string {
	first, rest, _ := strings.Cut(desc, "\n")
	if m := stackPlaceRE.FindStringSubmatch(rest); m != nil {
		line, _ := strconv.Atoi(m[2])
		return fmt.Sprintf("%s (at %s:%d)", first, fileOrURL(m[1], cwd), line)
	}
	return first
}

// fileOrURL names an absolute path relative to cwd when it is under it; another place
// (node:internal/...) stays as it is.
func fileOrURL(path, cwd string) string {
	if filepath.IsAbs(path) && cwd != "" {
		if rel, err := filepath.Rel(cwd, path); err == nil && filepath.IsLocal(rel) {
			return rel
		}
	}
	return path
}

// bufferPreview renders a Buffer's first bytes in hex: Buffer(11) <48 65 6c 6c 6f …>.
func bufferPreview(desc string, p v8.ObjectPreview) string {
	var b strings.Builder
	b.WriteString(desc + " <")
	n := 0
	for _, pr := range p.Properties {
		if !IsIndex(pr.Name) {
			continue
		}
		v, err := strconv.Atoi(pr.Value)
		if err != nil {
			continue
		}
		if n > 0 {
			b.WriteByte(' ')
		}
		fmt.Fprintf(&b, "%02x", v)
		n++
	}
	if p.Overflow {
		b.WriteString(" …")
	}
	b.WriteByte('>')
	return b.String()
}
