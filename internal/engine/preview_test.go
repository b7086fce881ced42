package engine

import (
	"math"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"
)

// The remote objects below have the shapes V8 (node 20) sends in Runtime.consoleAPICalled; the
// expected texts are what node's own console.log prints for the same values, except where a
// comment says the shallow preview cannot show more.

func str(s string) remoteObject { return remoteObject{Type: "string", Value: s} }

func num(v float64, desc string) remoteObject {
	return remoteObject{Type: "number", Value: v, Description: desc}
}

func unserializable(typ, v string) remoteObject {
	return remoteObject{Type: typ, UnserializableValue: v, Description: v}
}

func boolean(v bool) remoteObject {
	d := "false"
	if v {
		d = "true"
	}
	return remoteObject{Type: "boolean", Value: v, Description: d}
}

var (
	null      = remoteObject{Type: "object", Subtype: "null", Value: nil}
	undefined = remoteObject{Type: "undefined"}
)

func fn(desc, className string) remoteObject {
	return remoteObject{Type: "function", ClassName: className, Description: desc, ObjectID: "1"}
}

func object(p objectPreview) remoteObject {
	if p.Type == "" {
		p.Type = "object"
	}
	if p.Description == "" {
		p.Description = "Object"
	}
	return remoteObject{Type: "object", Subtype: p.Subtype, ClassName: p.Description,
		Description: p.Description, ObjectID: "1", Preview: &p}
}

func prop(name, typ, value string) propertyPreview {
	return propertyPreview{Name: name, Type: typ, Value: value}
}

// index is an array preview's elements.
func index(values ...string) []propertyPreview {
	out := make([]propertyPreview, 0, len(values))
	for i, v := range values {
		out = append(out, prop(strconv.Itoa(i), "number", v))
	}
	return out
}

// entry is a Map or Set entry; a nil key makes a Set entry.
func entry(key *objectPreview, value objectPreview) entryPreview {
	return entryPreview{Key: key, Value: value}
}

func leaf(typ, desc string) objectPreview {
	return objectPreview{Type: typ, Description: desc, Properties: []propertyPreview{}}
}

func TestCapText(t *testing.T) {
	cases := []struct {
		name      string
		in        string
		max       int
		want      string
		truncated bool
	}{
		{"fits", "hello", 5, "hello", false},
		{"empty", "", 0, "", false},
		{"ascii cut", "hello world", 5, "hello", true},
		{"cut to nothing", "abc", 0, "", true},
		{"cut after a whole rune", "héllo", 3, "hé", true},
		{"cut inside a 2-byte rune", "héllo", 2, "h", true},
		{"cut inside a 3-byte rune", "a€b", 2, "a", true},
		{"cut inside a 3-byte rune, later byte", "a€b", 3, "a", true},
		{"cut inside a 4-byte rune", "x😀y", 4, "x", true},
		{"cut before a 4-byte rune", "x😀y", 1, "x", true},
		{"rune at the very start", "😀😀", 3, "", true},
		{"all multi-byte", strings.Repeat("日本", 100), 100, strings.Repeat("日本", 16) + "日", true},
		// Not UTF-8 (a child's binary output): cut where asked, not emptied.
		{"continuation bytes only", strings.Repeat("\x80", 20), 10, strings.Repeat("\x80", 10), true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := capText(c.in, c.max)
			if got.Value != c.want || got.Truncated != c.truncated {
				t.Fatalf("capText(%q, %d) = %q truncated=%v, want %q truncated=%v",
					c.in, c.max, got.Value, got.Truncated, c.want, c.truncated)
			}
			if len(got.Value) > c.max {
				t.Errorf("value is %d bytes, over the cap %d", len(got.Value), c.max)
			}
			if c.truncated && got.Length != len(c.in) {
				t.Errorf("Length %d, want %d", got.Length, len(c.in))
			}
			if !c.truncated && got.Length != 0 {
				t.Errorf("Length %d set on an uncut text", got.Length)
			}
			if utf8.ValidString(c.in) && !utf8.ValidString(got.Value) {
				t.Errorf("cut valid UTF-8 into invalid %q", got.Value)
			}
		})
	}
}

// TestCapTextEveryCut cuts a mixed-width string at every length.
func TestCapTextEveryCut(t *testing.T) {
	s := "aé€😀b日本語😀é"
	for max := 0; max <= len(s)+1; max++ {
		got := capText(s, max)
		if !utf8.ValidString(got.Value) || !strings.HasPrefix(s, got.Value) || len(got.Value) > max ||
			len(got.Value) < max-(utf8.UTFMax-1) || got.Truncated != (max < len(s)) {
			t.Errorf("capText(%q, %d) = %+v", s, max, got)
		}
	}
}

func TestConsoleText(t *testing.T) {
	cases := []struct {
		name string
		args []remoteObject
		want string
	}{
		{"nothing", nil, ""},
		{"one string", []remoteObject{str("hello")}, "hello"},
		{"a lone string is not a format", []remoteObject{str("100%% %s")}, "100%% %s"},
		{"node's example", []remoteObject{str("a"), num(1, "1"), object(objectPreview{
			Properties: []propertyPreview{prop("x", "number", "1")}})}, "a 1 { x: 1 }"},
		{"strings bare after the first", []remoteObject{num(1, "1"), str("b"), str("c")}, "1 b c"},
		{"empty format still joins", []remoteObject{str(""), num(1, "1")}, " 1"},

		// printf directives
		{"%s", []remoteObject{str("%s!"), str("x")}, "x!"},
		{"%s number", []remoteObject{str("%s"), num(1.5, "1.5")}, "1.5"},
		{"%s -0", []remoteObject{str("%s"), unserializable("number", "-0")}, "-0"},
		{"%s null undefined", []remoteObject{str("%s %s"), null, undefined}, "null undefined"},
		{"%s bigint", []remoteObject{str("%s"), unserializable("bigint", "10n")}, "10n"},
		{"%s symbol", []remoteObject{str("%s"), {Type: "symbol", Description: "Symbol(q)"}}, "Symbol(q)"},
		{"%s function is its source", []remoteObject{str("%s"), fn("function foo(){}", "Function")}, "function foo(){}"},
		{"%s object", []remoteObject{str("%s"), object(objectPreview{
			Properties: []propertyPreview{prop("x", "number", "1")}})}, "{ x: 1 }"},
		{"%d keeps fractions", []remoteObject{str("%d"), num(1.5, "1.5")}, "1.5"},
		{"%d large", []remoteObject{str("%d"), num(1234567, "1234567")}, "1234567"},
		{"%d numeric string", []remoteObject{str("%d"), str(" 42 ")}, "42"},
		{"%d hex string", []remoteObject{str("%d"), str("0x1f")}, "31"},
		{"%d empty string", []remoteObject{str("%d"), str("")}, "0"},
		{"%d junk string", []remoteObject{str("%d"), str("4x")}, "NaN"},
		{"%d underscore string", []remoteObject{str("%d"), str("1_000")}, "NaN"},
		{"%d signed hex string", []remoteObject{str("%d"), str("-0x10")}, "NaN"},
		{"%d infinity string", []remoteObject{str("%d"), str("-Infinity")}, "-Infinity"},
		{"%d bigint", []remoteObject{str("%d"), unserializable("bigint", "10n")}, "10n"},
		{"%d true", []remoteObject{str("%d"), boolean(true)}, "1"},
		{"%d null", []remoteObject{str("%d"), null}, "0"},
		{"%d undefined", []remoteObject{str("%d"), undefined}, "NaN"},
		{"%d object", []remoteObject{str("%d"), object(objectPreview{})}, "NaN"},
		{"%d symbol", []remoteObject{str("%d"), {Type: "symbol", Description: "Symbol(s)"}}, "NaN"},
		{"%d -0", []remoteObject{str("%d"), unserializable("number", "-0")}, "-0"},
		{"%i truncates", []remoteObject{str("%i"), num(1.5, "1.5")}, "1"},
		{"%i string prefix", []remoteObject{str("%i"), str("42abc")}, "42"},
		{"%i negative string", []remoteObject{str("%i"), str("  -7.9")}, "-7"},
		{"%i hex string", []remoteObject{str("%i"), str("0x1F")}, "31"},
		{"%i -0 string", []remoteObject{str("%i"), str("-0")}, "-0"},
		{"%i of 1e21 parses its text", []remoteObject{str("%i"), num(1e21, "1e+21")}, "1"},
		{"%i infinity", []remoteObject{str("%i"), unserializable("number", "Infinity")}, "NaN"},
		{"%i true", []remoteObject{str("%i"), boolean(true)}, "NaN"},
		{"%i bigint", []remoteObject{str("%i"), unserializable("bigint", "10n")}, "10n"},
		{"%f string prefix", []remoteObject{str("%f"), str("2.5abc")}, "2.5"},
		{"%f exponent string", []remoteObject{str("%f"), str(".5e1x")}, "5"},
		{"%f small", []remoteObject{str("%f"), str("1e-7")}, "1e-7"},
		{"%f large", []remoteObject{str("%f"), str("1234567")}, "1234567"},
		{"%f infinity string", []remoteObject{str("%f"), str("Infinity")}, "Infinity"},
		{"%f bigint", []remoteObject{str("%f"), unserializable("bigint", "10n")}, "10"},
		{"%f number", []remoteObject{str("%f"), num(0.1, "0.1")}, "0.1"},
		{"%f number without description", []remoteObject{str("%f"), {Type: "number", Value: 1e21}}, "1e+21"},
		{"node's mixed example", []remoteObject{str("%s %d %i %f"), str("x"), num(1.5, "1.5"), num(1.5, "1.5"), str("2.5abc")}, "x 1.5 1 2.5"},
		{"%o %O", []remoteObject{str("%o|%O"), object(objectPreview{Properties: []propertyPreview{prop("x", "number", "1")}}),
			object(objectPreview{Properties: []propertyPreview{prop("y", "string", "s")}})}, "{ x: 1 }|{ y: 's' }"},
		{"%j string", []remoteObject{str("%j"), str(`<"x">`)}, `"<\"x\">"`},
		{"%c consumed", []remoteObject{str("%c%s"), str("color: red"), str("hi")}, "hi"},
		{"%% with args", []remoteObject{str("%%"), num(1, "1")}, "% 1"},
		{"%% before a directive", []remoteObject{str("%d%%"), num(5, "5")}, "5%"},
		{"unknown directive kept", []remoteObject{str("%x %s"), str("a")}, "%x a"},
		{"directive without an argument kept", []remoteObject{str("%s %s"), str("a")}, "a %s"},
		{"trailing percent", []remoteObject{str("a%"), num(1, "1")}, "a% 1"},
		{"extra args after the format", []remoteObject{str("%s"), str("a"), str("b"), num(2, "2")}, "a b 2"},

		// values
		{"null undefined bigint symbol", []remoteObject{null, undefined, unserializable("bigint", "10n"),
			{Type: "symbol", Description: "Symbol(q)", ObjectID: "1"}}, "null undefined 10n Symbol(q)"},
		{"numbers", []remoteObject{num(1.5, "1.5"), unserializable("number", "-0"), unserializable("number", "NaN"),
			unserializable("number", "Infinity"), num(1234567, "1234567"), num(1e21, "1e+21")}, "1.5 -0 NaN Infinity 1234567 1e+21"},
		{"booleans", []remoteObject{boolean(true), boolean(false)}, "true false"},
		{"strings are bare at the top level", []remoteObject{num(1, "1"), str("it's")}, "1 it's"},
		{"array", []remoteObject{object(objectPreview{Subtype: "array", Description: "Array(2)",
			Properties: index("1", "2")})}, "[ 1, 2 ]"},
		{"empty array", []remoteObject{object(objectPreview{Subtype: "array", Description: "Array(0)",
			Properties: []propertyPreview{}})}, "[]"},
		{"array of strings", []remoteObject{object(objectPreview{Subtype: "array", Description: "Array(2)",
			Properties: []propertyPreview{prop("0", "string", "a"), prop("1", "string", "b")}})}, "[ 'a', 'b' ]"},
		{"array with a named property", []remoteObject{object(objectPreview{Subtype: "array", Description: "Array(2)",
			Properties: []propertyPreview{prop("0", "number", "1"), prop("1", "number", "2"), prop("foo", "string", "x")}})},
			"[ 1, 2, foo: 'x' ]"},
		{"typed array drops V8's extra properties", []remoteObject{object(objectPreview{Subtype: "typedarray",
			Description: "Uint8Array(2)", Properties: []propertyPreview{prop("0", "number", "1"), prop("1", "number", "2"),
				{Name: "buffer", Type: "object", Subtype: "arraybuffer", Value: "ArrayBuffer(2)"},
				prop("byteLength", "number", "2"), prop("Symbol(Symbol.toStringTag)", "string", "Uint8Array")}})},
			"Uint8Array(2) [ 1, 2 ]"},
		{"overflowing array", []remoteObject{object(objectPreview{Subtype: "array", Description: "Array(200)",
			Overflow: true, Properties: index("0", "1", "2")})}, "[ 0, 1, 2, … ]"},
		{"empty object", []remoteObject{object(objectPreview{Properties: []propertyPreview{}})}, "{}"},
		{"class instance", []remoteObject{object(objectPreview{Description: "Foo",
			Properties: []propertyPreview{prop("x", "number", "1")}})}, "Foo { x: 1 }"},
		{"overflowing object", []remoteObject{object(objectPreview{Overflow: true, Properties: []propertyPreview{
			prop("s", "string", "a\nb"), {Name: "n", Type: "object", Subtype: "null", Value: "null"},
			prop("u", "undefined", "undefined"), prop("b", "bigint", "10n"), prop("sy", "symbol", "Symbol(z)")}})},
			`{ s: 'a\nb', n: null, u: undefined, b: 10n, sy: Symbol(z), … }`},
		{"keys quoted as node quotes them", []remoteObject{object(objectPreview{Properties: []propertyPreview{
			prop("12", "number", "5"), prop("a-b", "number", "1"), prop("_ok", "number", "2"), prop("$d", "number", "3"),
			prop("é", "number", "6"), prop("with space", "number", "7"), prop("a1", "number", "8")}})},
			"{ '12': 5, 'a-b': 1, _ok: 2, '$d': 3, 'é': 6, 'with space': 7, a1: 8 }"},
		{"string quoting", []remoteObject{object(objectPreview{Subtype: "array", Description: "Array(5)",
			Properties: []propertyPreview{prop("0", "string", "a"), prop("1", "string", "it's"),
				prop("2", "string", `say "hi"`), prop("3", "string", `both ' and "`),
				prop("4", "string", "tab\there\n\x01\x7f\\")}})},
			`[ 'a', "it's", 'say "hi"', ` + "`both ' and \"`" + `, 'tab\there\n\x01\x7F\\' ]`},
		{"nested object from V8 is its description", []remoteObject{object(objectPreview{Properties: []propertyPreview{
			prop("id", "number", "42"), {Name: "items", Type: "object", Subtype: "array", Value: "Array(2)"}}})},
			"{ id: 42, items: Array(2) }"}, // node prints [ 'a', 'b' ]: the shallow preview has no more
		{"nested plain object from V8 is {…}", []remoteObject{object(objectPreview{Properties: []propertyPreview{
			{Name: "a", Type: "object", Value: "Object"}, {Name: "f", Type: "object", Value: "Foo"},
			{Name: "n", Type: "object", Subtype: "null", Value: "null"}}})},
			"{ a: {…}, f: Foo, n: null }"}, // node prints { b: { c: 1 } } and Foo {...}
		{"nested value preview", []remoteObject{object(objectPreview{Properties: []propertyPreview{
			{Name: "a", Type: "object", ValuePreview: &objectPreview{Type: "object", Description: "Object",
				Properties: []propertyPreview{prop("b", "number", "1"), prop("c", "string", "x")}}},
			{Name: "l", Type: "object", Subtype: "array", ValuePreview: &objectPreview{Type: "object", Subtype: "array",
				Description: "Array(1)", Properties: index("7")}}}})},
			"{ a: { b: 1, c: 'x' }, l: [ 7 ] }"},
		{"function, accessor and object-without-value properties", []remoteObject{object(objectPreview{
			Properties: []propertyPreview{prop("f", "function", ""), {Name: "g", Type: "accessor"},
				{Name: "o", Type: "object"}}})}, "{ f: [Function], g: [Getter/Setter], o: {…} }"},
		{"map", []remoteObject{object(objectPreview{Subtype: "map", Description: "Map(2)",
			Properties: []propertyPreview{prop("size", "number", "2")},
			Entries: []entryPreview{
				entry(ptr(leaf("string", "a")), leaf("number", "1")),
				entry(ptr(leaf("string", "b")), objectPreview{Type: "object", Description: "Object",
					Properties: []propertyPreview{prop("y", "number", "2")}}),
			}})}, "Map(2) { 'a' => 1, 'b' => { y: 2 } }"},
		{"map of odd keys", []remoteObject{object(objectPreview{Subtype: "map", Description: "Map(4)",
			Entries: []entryPreview{
				entry(ptr(leaf("function", "function foo(){}")), leaf("object", "Object")),
				entry(&objectPreview{Type: "object", Subtype: "null", Description: "null"}, leaf("undefined", "undefined")),
				entry(ptr(leaf("bigint", "10n")), leaf("symbol", "Symbol(x)")),
				entry(ptr(leaf("object", "Foo")), objectPreview{Type: "object", Subtype: "array", Description: "Array(1)",
					Properties: index("1")}),
			}})}, "Map(4) { [Function: foo] => {}, null => undefined, 10n => Symbol(x), Foo {} => [ 1 ] }"},
		{"empty map", []remoteObject{object(objectPreview{Subtype: "map", Description: "Map(0)",
			Properties: []propertyPreview{prop("size", "number", "0")}})}, "Map(0) {}"},
		{"set", []remoteObject{object(objectPreview{Subtype: "set", Description: "Set(2)",
			Properties: []propertyPreview{prop("size", "number", "2")},
			Entries:    []entryPreview{entry(nil, leaf("number", "1")), entry(nil, leaf("string", "s"))}})},
			"Set(2) { 1, 's' }"},
		{"overflowing set", []remoteObject{object(objectPreview{Subtype: "set", Description: "Set(9)", Overflow: true,
			Entries: []entryPreview{entry(nil, leaf("number", "1"))}})}, "Set(9) { 1, … }"},
		{"functions", []remoteObject{fn("function foo(){}", "Function"), fn("class X{}", "Function"),
			fn("() => 1", "Function"), fn("async function af(){}", "AsyncFunction"),
			fn("function* gen(){}", "GeneratorFunction"), fn("class Bar extends Foo {}", "Function"),
			fn("class {}", "Function"), fn("m(){}", "Function")},
			"[Function: foo] [class X] [Function (anonymous)] [AsyncFunction: af] [GeneratorFunction: gen] " +
				"[class Bar extends Foo] [class (anonymous)] [Function: m]"},
		{"error uses its description", []remoteObject{str("failed:"), {Type: "object", Subtype: "error", ClassName: "Error",
			Description: "Error: boom\n    at f (/w/a.js:1:7)", Preview: &objectPreview{Type: "object", Subtype: "error",
				Properties: []propertyPreview{prop("message", "string", "boom")}}}},
			"failed: Error: boom\n    at f (/w/a.js:1:7)"},
		{"regexp and date use their description", []remoteObject{
			{Type: "object", Subtype: "regexp", Description: "/x/g", Preview: &objectPreview{Type: "object",
				Subtype: "regexp", Description: "/x/g", Properties: []propertyPreview{prop("lastIndex", "number", "0")}}},
			{Type: "object", Subtype: "date", Description: "Thu Jan 01 1970 00:00:00 GMT+0000 (Coordinated Universal Time)",
				Preview: &objectPreview{Type: "object", Subtype: "date", Properties: []propertyPreview{}}}},
			"/x/g Thu Jan 01 1970 00:00:00 GMT+0000 (Coordinated Universal Time)"},
		{"object without preview", []remoteObject{{Type: "object", ClassName: "Foo", Description: "Foo"}}, "Foo"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := consoleText(c.args, 1<<20); got != c.want {
				t.Fatalf("consoleText\n got %s\nwant %s", got, c.want)
			}
		})
	}
}

func ptr(p objectPreview) *objectPreview { return &p }

// TestConsoleTextStopsAtCap: a call with many large arguments is not built past the cap.
func TestConsoleTextStopsAtCap(t *testing.T) {
	big := strings.Repeat("x", 1000)
	args := []remoteObject{num(1, "1")}
	for range 100 {
		args = append(args, str(big))
	}
	got := consoleText(args, 1500)
	if len(got) < 1500 || len(got) > 1500+len(big)+1 {
		t.Fatalf("built %d bytes for a cap of 1500", len(got))
	}
}

func TestFunctionText(t *testing.T) {
	cases := []struct {
		desc, className, want string
	}{
		{"function foo(a, b) { return a }", "Function", "[Function: foo]"},
		{"function push() { [native code] }", "Function", "[Function: push]"},
		{"function () {}", "Function", "[Function (anonymous)]"},
		{"function(){}", "Function", "[Function (anonymous)]"},
		{"(a) => a", "Function", "[Function (anonymous)]"},
		{"a => a", "Function", "[Function (anonymous)]"},
		{"async (a) => a", "AsyncFunction", "[AsyncFunction (anonymous)]"},
		{"async a => a", "AsyncFunction", "[AsyncFunction (anonymous)]"},
		{"async function load() {}", "AsyncFunction", "[AsyncFunction: load]"},
		{"function* gen() {}", "GeneratorFunction", "[GeneratorFunction: gen]"},
		{"function *gen() {}", "GeneratorFunction", "[GeneratorFunction: gen]"},
		{"function*gen() {}", "GeneratorFunction", "[GeneratorFunction: gen]"},
		{"async function* ag() {}", "AsyncGeneratorFunction", "[AsyncGeneratorFunction: ag]"},
		{"m() {}", "Function", "[Function: m]"},
		{"async m() {}", "AsyncFunction", "[AsyncFunction: m]"},
		{"*g() {}", "GeneratorFunction", "[GeneratorFunction: g]"},
		{"functionName() {}", "Function", "[Function: functionName]"},
		{"class X {}", "Function", "[class X]"},
		{"class X{ constructor(a) {} }", "Function", "[class X]"},
		{"class {}", "Function", "[class (anonymous)]"},
		{"class{}", "Function", "[class (anonymous)]"},
		{"class Bar extends Foo {}", "Function", "[class Bar extends Foo]"},
		{"class extends Foo {}", "Function", "[class (anonymous) extends Foo]"},
		{"class\nX {}", "Function", "[class X]"},
		{"classic() {}", "Function", "[Function: classic]"},
		{"", "Function", "[Function (anonymous)]"},
		// Entry previews carry no class name: the kind comes from the source.
		{"async function f() {}", "", "[AsyncFunction: f]"},
		{"function* g() {}", "", "[GeneratorFunction: g]"},
		{"async function* h() {}", "", "[AsyncGeneratorFunction: h]"},
		{"async () => 1", "", "[AsyncFunction (anonymous)]"},
	}
	for _, c := range cases {
		if got := functionText(c.desc, c.className); got != c.want {
			t.Errorf("functionText(%q, %q) = %s, want %s", c.desc, c.className, got, c.want)
		}
	}
}

// TestFormatRemote covers values as an exception's thrown value shows them.
func TestFormatRemote(t *testing.T) {
	cases := []struct {
		in   remoteObject
		want string
	}{
		{str("oops"), "'oops'"},
		{str("it's"), `"it's"`},
		{num(42, "42"), "42"},
		{remoteObject{Type: "number", Value: 7.0}, "7"},
		{boolean(false), "false"},
		{remoteObject{Type: "boolean", Value: true}, "true"},
		{null, "null"},
		{undefined, "undefined"},
		{unserializable("bigint", "-5n"), "-5n"},
		{remoteObject{Type: "symbol", Description: "Symbol()"}, "Symbol()"},
		{fn("function foo(){}", "Function"), "[Function: foo]"},
		{remoteObject{Type: "object", Subtype: "error", Description: "TypeError: x\n    at y"}, "TypeError: x\n    at y"},
		{object(objectPreview{Properties: []propertyPreview{prop("code", "number", "1")}}), "{ code: 1 }"},
	}
	for _, c := range cases {
		if got := formatRemote(c.in); got != c.want {
			t.Errorf("formatRemote(%+v) = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestJSNumber(t *testing.T) {
	cases := []struct {
		in   float64
		want string
	}{
		{0, "0"}, {1, "1"}, {-1.5, "-1.5"}, {0.1, "0.1"}, {1234567, "1234567"}, {123456789012, "123456789012"},
		{1e20, "100000000000000000000"}, {1e21, "1e+21"}, {1.5e300, "1.5e+300"}, {0.000001, "0.000001"},
		{1e-7, "1e-7"}, {-2.5e-10, "-2.5e-10"}, {math.Copysign(0, -1), "-0"}, {math.NaN(), "NaN"},
		{math.Inf(1), "Infinity"}, {math.Inf(-1), "-Infinity"},
	}
	for _, c := range cases {
		if got := jsNumber(c.in); got != c.want {
			t.Errorf("jsNumber(%v) = %s, want %s", c.in, got, c.want)
		}
	}
}

func TestFirstLine(t *testing.T) {
	for in, want := range map[string]string{"": "", "a": "a", "a\nb": "a", "\nb": "", "a\r\nb": "a\r"} {
		if got := firstLine(in); got != want {
			t.Errorf("firstLine(%q) = %q, want %q", in, got, want)
		}
	}
}
