package textform

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
)

// genericText renders any answer from its JSON, keeping the field order: objects as `key: value`
// lines indented by depth, arrays as `- ` items, empty ones as [] and {}.
func genericText(b *strings.Builder, v any) {
	raw, err := json.Marshal(v)
	if err != nil {
		fmt.Fprintf(b, "error: %v\n", err)
		return
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	tok, err := dec.Token()
	if err != nil {
		return
	}
	if d, ok := tok.(json.Delim); ok {
		writeValue(b, dec, d, "", "")
		return
	}
	fmt.Fprintf(b, "%s\n", scalar(tok))
}

// writeValue writes the object or array opened by d; first is the prefix of its first line
// (a "- " item marker), indent the prefix of the others.
func writeValue(b *strings.Builder, dec *json.Decoder, d json.Delim, first, indent string) {
	prefix := func() string {
		p := first
		first = indent
		return p
	}
	empty := true
	for dec.More() {
		empty = false
		if d == '{' {
			keyTok, _ := dec.Token()
			key, _ := keyTok.(string)
			tok, err := dec.Token()
			if err != nil {
				return
			}
			if nd, ok := tok.(json.Delim); ok {
				if !dec.More() { // an empty object or array
					dec.Token()
					fmt.Fprintf(b, "%s%s: %s\n", prefix(), key, emptyOf(nd))
					continue
				}
				fmt.Fprintf(b, "%s%s:\n", prefix(), key)
				writeValue(b, dec, nd, indent+"  ", indent+"  ")
				continue
			}
			fmt.Fprintf(b, "%s%s: %s\n", prefix(), key, scalar(tok))
			continue
		}
		tok, err := dec.Token()
		if err != nil {
			return
		}
		p := prefix()
		if nd, ok := tok.(json.Delim); ok {
			if !dec.More() {
				dec.Token()
				fmt.Fprintf(b, "%s- %s\n", p, emptyOf(nd))
				continue
			}
			writeValue(b, dec, nd, p+"- ", indent+"  ")
			continue
		}
		fmt.Fprintf(b, "%s- %s\n", p, scalar(tok))
	}
	dec.Token() // the closing delimiter
	if empty {
		fmt.Fprintf(b, "%s%s\n", prefix(), emptyOf(d))
	}
}

func emptyOf(d json.Delim) string {
	if d == '[' {
		return "[]"
	}
	return "{}"
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
