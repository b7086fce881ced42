package textform

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
)

// genericText renders any answer from its JSON, keeping the field order, compactly: a top-level
// scalar is a `key: value` line, an item of a list one line of `key=value` pairs (nested values
// inline, in braces and brackets), so a list of fifty frames is fifty lines, never a tree of
// keys:
//
//	ref: cpu1
//	self:
//	  function=handle  selfMs=77  selfPct=14.8
func genericText(b *strings.Builder, v any) {
	raw, err := json.Marshal(v)
	if err != nil {
		fmt.Fprintf(b, "error: %v\n", err)
		return
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	n, err := parseNode(dec)
	if err != nil {
		fmt.Fprintf(b, "error: %v\n", err)
		return
	}
	switch n.kind {
	case '{':
		if len(n.keys) == 0 {
			b.WriteString("{}\n")
		}
		for i, k := range n.keys {
			writeField(b, k, n.vals[i])
		}
	case '[':
		if len(n.vals) == 0 {
			b.WriteString("[]\n")
		}
		for _, item := range n.vals {
			b.WriteString(oneLineValue(item) + "\n")
		}
	default:
		b.WriteString(n.scalar + "\n")
	}
}

// node is a decoded JSON value that keeps its object's key order: kind '{' (keys and vals),
// '[' (vals) or 0 (scalar).
type node struct {
	kind   byte
	scalar string
	keys   []string
	vals   []*node
}

func parseNode(dec *json.Decoder) (*node, error) {
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	d, ok := tok.(json.Delim)
	if !ok {
		return &node{scalar: scalar(tok)}, nil
	}
	n := &node{kind: byte(d)}
	for dec.More() {
		if n.kind == '{' {
			k, err := dec.Token()
			if err != nil {
				return nil, err
			}
			key, _ := k.(string)
			n.keys = append(n.keys, key)
		}
		v, err := parseNode(dec)
		if err != nil {
			return nil, err
		}
		n.vals = append(n.vals, v)
	}
	_, err = dec.Token() // the closing delimiter
	return n, err
}

// writeField writes a top-level field: a scalar or a small value on its line, a list holding
// objects one item a line below its key.
func writeField(b *strings.Builder, key string, v *node) {
	if v.kind == '[' && len(v.vals) > 0 && hasObject(v) {
		b.WriteString(key + ":\n")
		for _, item := range v.vals {
			b.WriteString("  " + oneLineValue(item) + "\n")
		}
		return
	}
	if v.kind == '[' && len(v.vals) > 0 { // scalars: one line
		parts := make([]string, len(v.vals))
		for i, item := range v.vals {
			parts[i] = oneLineValue(item)
		}
		b.WriteString(key + ": " + strings.Join(parts, ", ") + "\n")
		return
	}
	if v.kind == '{' && len(v.keys) == 0 {
		b.WriteString(key + ": {}\n")
		return
	}
	b.WriteString(key + ": " + oneLineValue(v) + "\n")
}

func hasObject(v *node) bool {
	for _, item := range v.vals {
		if item.kind != 0 {
			return true
		}
	}
	return false
}

// oneLineValue renders a value on one line: an object's fields as key=value two spaces apart (nested
// in braces), a list's items comma-separated in brackets.
func oneLineValue(n *node) string {
	switch n.kind {
	case '{':
		parts := make([]string, len(n.keys))
		for i, k := range n.keys {
			v := n.vals[i]
			s := oneLineValue(v)
			if v.kind == '{' {
				s = "{" + s + "}"
			}
			parts[i] = k + "=" + s
		}
		return strings.Join(parts, "  ")
	case '[':
		parts := make([]string, len(n.vals))
		for i, item := range n.vals {
			parts[i] = oneLineValue(item)
			if item.kind == '{' {
				parts[i] = "{" + parts[i] + "}"
			}
		}
		return "[" + strings.Join(parts, ", ") + "]"
	}
	return n.scalar
}

// scalar renders a JSON scalar token: strings as they are (one line), null as -.
func scalar(tok json.Token) string {
	switch t := tok.(type) {
	case nil:
		return "-"
	case string:
		return strings.ReplaceAll(t, "\n", `\n`)
	case json.Number:
		return t.String()
	case bool:
		return strconv.FormatBool(t)
	}
	return fmt.Sprint(tok)
}
