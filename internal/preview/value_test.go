package preview

import (
	"math"
	"strconv"
	"strings"
	"testing"

	"traced/internal/v8"
)

// The remote objects below have the shapes V8 (node 20) sends in Runtime.consoleAPICalled; the
// expected texts are what node's own console.log prints for the same values, except where a
// comment says the shallow preview cannot show more.

func str(s string) v8.RemoteObject { return v8.RemoteObject{Type: "string", Value: s} }

func num(v float64, desc string) v8.RemoteObject {
	return v8.RemoteObject{Type: "number", Value: v, Description: desc}
}

func unserializable(typ, v string) v8.RemoteObject {
	return v8.RemoteObject{Type: typ, UnserializableValue: v, Description: v}
}

func boolean(v bool) v8.RemoteObject {
	d := "false"
	if v {
		d = "true"
	}
	return v8.RemoteObject{Type: "boolean", Value: v, Description: d}
}

var (
	null      = v8.RemoteObject{Type: "object", Subtype: "null", Value: nil}
	undefined = v8.RemoteObject{Type: "undefined"}
)

func fn(desc, className string) v8.RemoteObject {
	return v8.RemoteObject{Type: "function", ClassName: className, Description: desc, ObjectID: "1"}
}

func object(p v8.ObjectPreview) v8.RemoteObject {
	if p.Type == "" {
		p.Type = "object"
	}
	if p.Description == "" {
		p.Description = "Object"
	}
	return v8.RemoteObject{Type: "object", Subtype: p.Subtype, ClassName: p.Description,
		Description: p.Description, ObjectID: "1", Preview: &p}
}

func prop(name, typ, value string) v8.PropertyPreview {
	return v8.PropertyPreview{Name: name, Type: typ, Value: value}
}

// index is an array preview's elements.
func index(values ...string) []v8.PropertyPreview {
	out := make([]v8.PropertyPreview, 0, len(values))
	for i, v := range values {
		out = append(out, prop(strconv.Itoa(i), "number", v))
	}
	return out
}

// entry is a Map or Set entry; a nil key makes a Set entry.
func entry(key *v8.ObjectPreview, value v8.ObjectPreview) v8.EntryPreview {
	return v8.EntryPreview{Key: key, Value: value}
}

func leaf(typ, desc string) v8.ObjectPreview {
	return v8.ObjectPreview{Type: typ, Description: desc, Properties: []v8.PropertyPreview{}}
}

func TestConsoleText(t *testing.T) {
	cases := []struct {
		name string
		args []v8.RemoteObject
		want string
	}{
		{"nothing", nil, ""},
		{"one string", []v8.RemoteObject{str("hello")}, "hello"},
		{"a lone string is not a format", []v8.RemoteObject{str("100%% %s")}, "100%% %s"},
		{"node's example", []v8.RemoteObject{str("a"), num(1, "1"), object(v8.ObjectPreview{
			Properties: []v8.PropertyPreview{prop("x", "number", "1")}})}, "a 1 { x: 1 }"},
		{"strings bare after the first", []v8.RemoteObject{num(1, "1"), str("b"), str("c")}, "1 b c"},
		{"empty format still joins", []v8.RemoteObject{str(""), num(1, "1")}, " 1"},

		// printf directives
		{"%s", []v8.RemoteObject{str("%s!"), str("x")}, "x!"},
		{"%s number", []v8.RemoteObject{str("%s"), num(1.5, "1.5")}, "1.5"},
		{"%s -0", []v8.RemoteObject{str("%s"), unserializable("number", "-0")}, "-0"},
		{"%s null undefined", []v8.RemoteObject{str("%s %s"), null, undefined}, "null undefined"},
		{"%s bigint", []v8.RemoteObject{str("%s"), unserializable("bigint", "10n")}, "10n"},
		{"%s symbol", []v8.RemoteObject{str("%s"), {Type: "symbol", Description: "Symbol(q)"}}, "Symbol(q)"},
		{"%s function is its source", []v8.RemoteObject{str("%s"), fn("function foo(){}", "Function")}, "function foo(){}"},
		{"%s object", []v8.RemoteObject{str("%s"), object(v8.ObjectPreview{
			Properties: []v8.PropertyPreview{prop("x", "number", "1")}})}, "{ x: 1 }"},
		{"%d keeps fractions", []v8.RemoteObject{str("%d"), num(1.5, "1.5")}, "1.5"},
		{"%d large", []v8.RemoteObject{str("%d"), num(1234567, "1234567")}, "1234567"},
		{"%d numeric string", []v8.RemoteObject{str("%d"), str(" 42 ")}, "42"},
		{"%d hex string", []v8.RemoteObject{str("%d"), str("0x1f")}, "31"},
		{"%d empty string", []v8.RemoteObject{str("%d"), str("")}, "0"},
		{"%d junk string", []v8.RemoteObject{str("%d"), str("4x")}, "NaN"},
		{"%d underscore string", []v8.RemoteObject{str("%d"), str("1_000")}, "NaN"},
		{"%d signed hex string", []v8.RemoteObject{str("%d"), str("-0x10")}, "NaN"},
		{"%d infinity string", []v8.RemoteObject{str("%d"), str("-Infinity")}, "-Infinity"},
		{"%d bigint", []v8.RemoteObject{str("%d"), unserializable("bigint", "10n")}, "10n"},
		{"%d true", []v8.RemoteObject{str("%d"), boolean(true)}, "1"},
		{"%d null", []v8.RemoteObject{str("%d"), null}, "0"},
		{"%d undefined", []v8.RemoteObject{str("%d"), undefined}, "NaN"},
		{"%d object", []v8.RemoteObject{str("%d"), object(v8.ObjectPreview{})}, "NaN"},
		{"%d symbol", []v8.RemoteObject{str("%d"), {Type: "symbol", Description: "Symbol(s)"}}, "NaN"},
		{"%d -0", []v8.RemoteObject{str("%d"), unserializable("number", "-0")}, "-0"},
		{"%i truncates", []v8.RemoteObject{str("%i"), num(1.5, "1.5")}, "1"},
		{"%i string prefix", []v8.RemoteObject{str("%i"), str("42abc")}, "42"},
		{"%i negative string", []v8.RemoteObject{str("%i"), str("  -7.9")}, "-7"},
		{"%i hex string", []v8.RemoteObject{str("%i"), str("0x1F")}, "31"},
		{"%i -0 string", []v8.RemoteObject{str("%i"), str("-0")}, "-0"},
		{"%i of 1e21 parses its text", []v8.RemoteObject{str("%i"), num(1e21, "1e+21")}, "1"},
		{"%i infinity", []v8.RemoteObject{str("%i"), unserializable("number", "Infinity")}, "NaN"},
		{"%i true", []v8.RemoteObject{str("%i"), boolean(true)}, "NaN"},
		{"%i bigint", []v8.RemoteObject{str("%i"), unserializable("bigint", "10n")}, "10n"},
		{"%f string prefix", []v8.RemoteObject{str("%f"), str("2.5abc")}, "2.5"},
		{"%f exponent string", []v8.RemoteObject{str("%f"), str(".5e1x")}, "5"},
		{"%f small", []v8.RemoteObject{str("%f"), str("1e-7")}, "1e-7"},
		{"%f large", []v8.RemoteObject{str("%f"), str("1234567")}, "1234567"},
		{"%f infinity string", []v8.RemoteObject{str("%f"), str("Infinity")}, "Infinity"},
		{"%f bigint", []v8.RemoteObject{str("%f"), unserializable("bigint", "10n")}, "10"},
		{"%f number", []v8.RemoteObject{str("%f"), num(0.1, "0.1")}, "0.1"},
		{"%f number without description", []v8.RemoteObject{str("%f"), {Type: "number", Value: 1e21}}, "1e+21"},
		{"node's mixed example", []v8.RemoteObject{str("%s %d %i %f"), str("x"), num(1.5, "1.5"), num(1.5, "1.5"), str("2.5abc")}, "x 1.5 1 2.5"},
		{"%o %O", []v8.RemoteObject{str("%o|%O"), object(v8.ObjectPreview{Properties: []v8.PropertyPreview{prop("x", "number", "1")}}),
			object(v8.ObjectPreview{Properties: []v8.PropertyPreview{prop("y", "string", "s")}})}, "{ x: 1 }|{ y: 's' }"},
		{"%j string", []v8.RemoteObject{str("%j"), str(`<"x">`)}, `"<\"x\">"`},
		{"%c consumed", []v8.RemoteObject{str("%c%s"), str("color: red"), str("hi")}, "hi"},
		{"%% with args", []v8.RemoteObject{str("%%"), num(1, "1")}, "% 1"},
		{"%% before a directive", []v8.RemoteObject{str("%d%%"), num(5, "5")}, "5%"},
		{"unknown directive kept", []v8.RemoteObject{str("%x %s"), str("a")}, "%x a"},
		{"directive without an argument kept", []v8.RemoteObject{str("%s %s"), str("a")}, "a %s"},
		{"trailing percent", []v8.RemoteObject{str("a%"), num(1, "1")}, "a% 1"},
		{"extra args after the format", []v8.RemoteObject{str("%s"), str("a"), str("b"), num(2, "2")}, "a b 2"},

		// values
		{"null undefined bigint symbol", []v8.RemoteObject{null, undefined, unserializable("bigint", "10n"),
			{Type: "symbol", Description: "Symbol(q)", ObjectID: "1"}}, "null undefined 10n Symbol(q)"},
		{"numbers", []v8.RemoteObject{num(1.5, "1.5"), unserializable("number", "-0"), unserializable("number", "NaN"),
			unserializable("number", "Infinity"), num(1234567, "1234567"), num(1e21, "1e+21")}, "1.5 -0 NaN Infinity 1234567 1e+21"},
		{"booleans", []v8.RemoteObject{boolean(true), boolean(false)}, "true false"},
		{"strings are bare at the top level", []v8.RemoteObject{num(1, "1"), str("it's")}, "1 it's"},
		{"array", []v8.RemoteObject{object(v8.ObjectPreview{Subtype: "array", Description: "Array(2)",
			Properties: index("1", "2")})}, "[ 1, 2 ]"},
		{"empty array", []v8.RemoteObject{object(v8.ObjectPreview{Subtype: "array", Description: "Array(0)",
			Properties: []v8.PropertyPreview{}})}, "[]"},
		{"array of strings", []v8.RemoteObject{object(v8.ObjectPreview{Subtype: "array", Description: "Array(2)",
			Properties: []v8.PropertyPreview{prop("0", "string", "a"), prop("1", "string", "b")}})}, "[ 'a', 'b' ]"},
		{"array with a named property", []v8.RemoteObject{object(v8.ObjectPreview{Subtype: "array", Description: "Array(2)",
			Properties: []v8.PropertyPreview{prop("0", "number", "1"), prop("1", "number", "2"), prop("foo", "string", "x")}})},
			"[ 1, 2, foo: 'x' ]"},
		{"typed array drops V8's extra properties", []v8.RemoteObject{object(v8.ObjectPreview{Subtype: "typedarray",
			Description: "Uint8Array(2)", Properties: []v8.PropertyPreview{prop("0", "number", "1"), prop("1", "number", "2"),
				{Name: "buffer", Type: "object", Subtype: "arraybuffer", Value: "ArrayBuffer(2)"},
				prop("byteLength", "number", "2"), prop("Symbol(Symbol.toStringTag)", "string", "Uint8Array")}})},
			"Uint8Array(2) [ 1, 2 ]"},
		{"overflowing array", []v8.RemoteObject{object(v8.ObjectPreview{Subtype: "array", Description: "Array(200)",
			Overflow: true, Properties: index("0", "1", "2")})}, "[ 0, 1, 2, … ]"},
		{"empty object", []v8.RemoteObject{object(v8.ObjectPreview{Properties: []v8.PropertyPreview{}})}, "{}"},
		{"class instance", []v8.RemoteObject{object(v8.ObjectPreview{Description: "Foo",
			Properties: []v8.PropertyPreview{prop("x", "number", "1")}})}, "Foo { x: 1 }"},
		{"overflowing object", []v8.RemoteObject{object(v8.ObjectPreview{Overflow: true, Properties: []v8.PropertyPreview{
			prop("s", "string", "a\nb"), {Name: "n", Type: "object", Subtype: "null", Value: "null"},
			prop("u", "undefined", "undefined"), prop("b", "bigint", "10n"), prop("sy", "symbol", "Symbol(z)")}})},
			`{ s: 'a\nb', n: null, u: undefined, b: 10n, sy: Symbol(z), … }`},
		{"keys quoted as node quotes them", []v8.RemoteObject{object(v8.ObjectPreview{Properties: []v8.PropertyPreview{
			prop("12", "number", "5"), prop("a-b", "number", "1"), prop("_ok", "number", "2"), prop("$d", "number", "3"),
			prop("é", "number", "6"), prop("with space", "number", "7"), prop("a1", "number", "8")}})},
			"{ '12': 5, 'a-b': 1, _ok: 2, '$d': 3, 'é': 6, 'with space': 7, a1: 8 }"},
		{"string quoting", []v8.RemoteObject{object(v8.ObjectPreview{Subtype: "array", Description: "Array(5)",
			Properties: []v8.PropertyPreview{prop("0", "string", "a"), prop("1", "string", "it's"),
				prop("2", "string", `say "hi"`), prop("3", "string", `both ' and "`),
				prop("4", "string", "tab\there\n\x01\x7f\\")}})},
			`[ 'a', "it's", 'say "hi"', ` + "`both ' and \"`" + `, 'tab\there\n\x01\x7F\\' ]`},
		{"nested object from V8 is its description", []v8.RemoteObject{object(v8.ObjectPreview{Properties: []v8.PropertyPreview{
			prop("id", "number", "42"), {Name: "items", Type: "object", Subtype: "array", Value: "Array(2)"}}})},
			"{ id: 42, items: Array(2) }"}, // node prints [ 'a', 'b' ]: the shallow preview has no more
		{"nested plain object from V8 is {…}", []v8.RemoteObject{object(v8.ObjectPreview{Properties: []v8.PropertyPreview{
			{Name: "a", Type: "object", Value: "Object"}, {Name: "f", Type: "object", Value: "Foo"},
			{Name: "n", Type: "object", Subtype: "null", Value: "null"}}})},
			"{ a: {…}, f: Foo, n: null }"}, // node prints { b: { c: 1 } } and Foo {...}
		{"nested value preview", []v8.RemoteObject{object(v8.ObjectPreview{Properties: []v8.PropertyPreview{
			{Name: "a", Type: "object", ValuePreview: &v8.ObjectPreview{Type: "object", Description: "Object",
				Properties: []v8.PropertyPreview{prop("b", "number", "1"), prop("c", "string", "x")}}},
			{Name: "l", Type: "object", Subtype: "array", ValuePreview: &v8.ObjectPreview{Type: "object", Subtype: "array",
				Description: "Array(1)", Properties: index("7")}}}})},
			"{ a: { b: 1, c: 'x' }, l: [ 7 ] }"},
		{"function, accessor and object-without-value properties", []v8.RemoteObject{object(v8.ObjectPreview{
			Properties: []v8.PropertyPreview{prop("f", "function", ""), {Name: "g", Type: "accessor"},
				{Name: "o", Type: "object"}}})}, "{ f: [Function], g: [Getter/Setter], o: {…} }"},
		{"map", []v8.RemoteObject{object(v8.ObjectPreview{Subtype: "map", Description: "Map(2)",
			Properties: []v8.PropertyPreview{prop("size", "number", "2")},
			Entries: []v8.EntryPreview{
				entry(ptr(leaf("string", "a")), leaf("number", "1")),
				entry(ptr(leaf("string", "b")), v8.ObjectPreview{Type: "object", Description: "Object",
					Properties: []v8.PropertyPreview{prop("y", "number", "2")}}),
			}})}, "Map(2) { 'a' => 1, 'b' => { y: 2 } }"},
		{"map of odd keys", []v8.RemoteObject{object(v8.ObjectPreview{Subtype: "map", Description: "Map(4)",
			Entries: []v8.EntryPreview{
				entry(ptr(leaf("function", "function foo(){}")), leaf("object", "Object")),
				entry(&v8.ObjectPreview{Type: "object", Subtype: "null", Description: "null"}, leaf("undefined", "undefined")),
				entry(ptr(leaf("bigint", "10n")), leaf("symbol", "Symbol(x)")),
				entry(ptr(leaf("object", "Foo")), v8.ObjectPreview{Type: "object", Subtype: "array", Description: "Array(1)",
					Properties: index("1")}),
			}})}, "Map(4) { [Function: foo] => {}, null => undefined, 10n => Symbol(x), Foo {} => [ 1 ] }"},
		{"empty map", []v8.RemoteObject{object(v8.ObjectPreview{Subtype: "map", Description: "Map(0)",
			Properties: []v8.PropertyPreview{prop("size", "number", "0")}})}, "Map(0) {}"},
		{"set", []v8.RemoteObject{object(v8.ObjectPreview{Subtype: "set", Description: "Set(2)",
			Properties: []v8.PropertyPreview{prop("size", "number", "2")},
			Entries:    []v8.EntryPreview{entry(nil, leaf("number", "1")), entry(nil, leaf("string", "s"))}})},
			"Set(2) { 1, 's' }"},
		{"overflowing set", []v8.RemoteObject{object(v8.ObjectPreview{Subtype: "set", Description: "Set(9)", Overflow: true,
			Entries: []v8.EntryPreview{entry(nil, leaf("number", "1"))}})}, "Set(9) { 1, … }"},
		{"functions", []v8.RemoteObject{fn("function foo(){}", "Function"), fn("class X{}", "Function"),
			fn("() => 1", "Function"), fn("async function af(){}", "AsyncFunction"),
			fn("function* gen(){}", "GeneratorFunction"), fn("class Bar extends Foo {}", "Function"),
			fn("class {}", "Function"), fn("m(){}", "Function")},
			"[Function: foo] [class X] [Function (anonymous)] [AsyncFunction: af] [GeneratorFunction: gen] " +
				"[class Bar extends Foo] [class (anonymous)] [Function: m]"},
		{"error uses its description", []v8.RemoteObject{str("failed:"), {Type: "object", Subtype: "error", ClassName: "Error",
			Description: "Error: boom\n    at f (/w/a.js:1:7)", Preview: &v8.ObjectPreview{Type: "object", Subtype: "error",
				Properties: []v8.PropertyPreview{prop("message", "string", "boom")}}}},
			"failed: Error: boom\n    at f (/w/a.js:1:7)"},
		{"regexp and date use their description", []v8.RemoteObject{
			{Type: "object", Subtype: "regexp", Description: "/x/g", Preview: &v8.ObjectPreview{Type: "object",
				Subtype: "regexp", Description: "/x/g", Properties: []v8.PropertyPreview{prop("lastIndex", "number", "0")}}},
			{Type: "object", Subtype: "date", Description: "Thu Jan 01 1970 00:00:00 GMT+0000 (Coordinated Universal Time)",
				Preview: &v8.ObjectPreview{Type: "object", Subtype: "date", Properties: []v8.PropertyPreview{}}}},
			"/x/g Thu Jan 01 1970 00:00:00 GMT+0000 (Coordinated Universal Time)"},
		{"object without preview", []v8.RemoteObject{{Type: "object", ClassName: "Foo", Description: "Foo"}}, "Foo"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := Console(c.args, 1<<20); got != c.want {
				t.Fatalf("Console\n got %s\nwant %s", got, c.want)
			}
		})
	}
}

func ptr(p v8.ObjectPreview) *v8.ObjectPreview { return &p }

// TestConsoleTextStopsAtCap: a call with many large arguments is not built past the cap.
func TestConsoleTextStopsAtCap(t *testing.T) {
	big := strings.Repeat("x", 1000)
	args := []v8.RemoteObject{num(1, "1")}
	for range 100 {
		args = append(args, str(big))
	}
	got := Console(args, 1500)
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
		in   v8.RemoteObject
		want string
	}{
		{str("oops"), "'oops'"},
		{str("it's"), `"it's"`},
		{num(42, "42"), "42"},
		{v8.RemoteObject{Type: "number", Value: 7.0}, "7"},
		{boolean(false), "false"},
		{v8.RemoteObject{Type: "boolean", Value: true}, "true"},
		{null, "null"},
		{undefined, "undefined"},
		{unserializable("bigint", "-5n"), "-5n"},
		{v8.RemoteObject{Type: "symbol", Description: "Symbol()"}, "Symbol()"},
		{fn("function foo(){}", "Function"), "[Function: foo]"},
		{v8.RemoteObject{Type: "object", Subtype: "error", Description: "TypeError: x\n    at y"}, "TypeError: x\n    at y"},
		{object(v8.ObjectPreview{Properties: []v8.PropertyPreview{prop("code", "number", "1")}}), "{ code: 1 }"},
	}
	for _, c := range cases {
		if got := Value(c.in); got != c.want {
			t.Errorf("Value(%+v) = %q, want %q", c.in, got, c.want)
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
