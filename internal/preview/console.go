package preview

import (
	"errors"
	"math"
	"regexp"
	"strconv"
	"strings"
	"unicode"

	"traced/internal/v8"
)

// Console joins console arguments as node's console prints them: strings bare, other values
// as previews, and printf-style directives of a leading string substituted.
func Console(args []v8.RemoteObject, max int) string {
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
			b.WriteString(Value(a))
		}
		if b.Len() > max { // already over the cap: stop building a string nobody keeps
			break
		}
	}
	return b.String()
}

// substitute applies %s %d %i %f %o %O %j %c directives, consuming args as node does.
func substitute(format string, args *[]v8.RemoteObject) string {
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
				b.WriteString(Value(a))
			}
		case 'd', 'i', 'f':
			b.WriteString(numberText(a, d))
		case 'j':
			if s, ok := a.Value.(string); ok && a.Type == "string" {
				b.WriteString(JSON(s))
			} else {
				b.WriteString(Value(a))
			}
		default:
			b.WriteString(Value(a))
		}
	}
	return b.String()
}

// numberText renders a for %d, %i or %f as node does: Number(a), parseInt(a) and parseFloat(a),
// bigints kept as bigints by %d and %i.
func numberText(a v8.RemoteObject, d byte) string {
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
