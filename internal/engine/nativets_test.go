package engine

import "testing"

func TestErasedFrom(t *testing.T) {
	own := "interface O { n: number }\nfunction f(o: O): number {\n  return o.n;\n}\ntype T = string;\n"
	cases := []struct {
		name, ran string
		want      bool
	}{
		{"types erased, trailer gone", "                         \nfunction f(o   )         {\n  return o.n;\n}\n                \n", true},
		{"the text itself", own, true},
		{"edited since", "                         \nfunction f(o   )         {\n  return o.m;\n}\n", false},
		{"a line shifted", "\nfunction f(o   )         {\n  return o.n;\n}\n", false},
		{"more code than the file", own + "console.log(1);\n", false},
	}
	for _, c := range cases {
		ran := sourceURLTrailer.ReplaceAllString(c.ran+"\n\n//# sourceURL=file:///w/t.ts", "")
		if got := erasedFrom(ran, own); got != c.want {
			t.Errorf("%s: %v, want %v", c.name, got, c.want)
		}
	}
}
