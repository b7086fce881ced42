package launch

import (
	"reflect"
	"slices"
	"strings"
	"testing"
)

func TestChildEnv(t *testing.T) {
	base := []string{"PATH=/usr/bin", "HOME=/home/u", "NODE_OPTIONS=--require /evil.js",
		"TRACED_TOKEN=secret", "LANG=C", "EMPTY=", "NOEQUALS"}
	cases := []struct {
		name  string
		base  []string
		extra map[string]string
		want  []string
	}{
		{"base without what could hijack or leak", base, nil,
			[]string{"PATH=/usr/bin", "HOME=/home/u", "LANG=C", "EMPTY=", "NOEQUALS"}},
		{"request overrides base", base, map[string]string{"LANG": "en_US.UTF-8", "PATH": "/opt/bin"},
			[]string{"HOME=/home/u", "EMPTY=", "NOEQUALS", "LANG=en_US.UTF-8", "PATH=/opt/bin"}},
		{"request adds", base, map[string]string{"DEBUG": "1", "EMPTY2": ""},
			[]string{"PATH=/usr/bin", "HOME=/home/u", "LANG=C", "EMPTY=", "NOEQUALS", "DEBUG=1", "EMPTY2="}},
		{"request may set NODE_OPTIONS", base, map[string]string{"NODE_OPTIONS": "--max-old-space-size=64"},
			[]string{"PATH=/usr/bin", "HOME=/home/u", "LANG=C", "EMPTY=", "NOEQUALS", "NODE_OPTIONS=--max-old-space-size=64"}},
		{"a value with =", nil, map[string]string{"A": "b=c"}, []string{"A=b=c"}},
		{"empty", nil, nil, []string{}},
		{"names are case-sensitive", []string{"node_options=x", "Traced_Token=y"}, nil,
			[]string{"node_options=x", "Traced_Token=y"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := ChildEnv(c.base, c.extra)
			// Base order is kept; the request's variables follow, in no particular order.
			nBase := len(got) - len(c.extra)
			slices.Sort(got[nBase:])
			want := slices.Clone(c.want)
			slices.Sort(want[len(want)-len(c.extra):])
			if !reflect.DeepEqual(got, want) {
				t.Fatalf("ChildEnv\n got %q\nwant %q", got, want)
			}
			for _, kv := range got {
				k, v, _ := strings.Cut(kv, "=")
				if k == "TRACED_TOKEN" || (k == "NODE_OPTIONS" && v != c.extra["NODE_OPTIONS"]) {
					t.Fatalf("%q passed to the child", kv)
				}
			}
		})
	}
	if base[2] != "NODE_OPTIONS=--require /evil.js" || len(base) != 7 {
		t.Fatalf("ChildEnv changed its base: %q", base)
	}
}

func TestCheckArgv(t *testing.T) {
	long := strings.Repeat("x", maxArgStrlen)
	for _, c := range []struct {
		name  string
		args  []string
		env   map[string]string
		field string // "": accepted
	}{
		{"fine", []string{"a", ""}, map[string]string{"A": "", "B": "c"}, ""},
		{"longest argument", []string{long[1:]}, nil, ""},
		{"nul in args", []string{"ok", "a\x00b"}, nil, "args[1] "},
		{"long argument", []string{long}, nil, "args[0] "},
		{"nul in a value", nil, map[string]string{"V": "a\x00"}, "env.V "},
		{"nul in a name", nil, map[string]string{"V\x00W": "a"}, "env.VW "},
		{"long variable", nil, map[string]string{"V": long[2:]}, "env.V "},
		{"longest variable", nil, map[string]string{"V": long[3:]}, ""},
	} {
		err := CheckArgv(c.args, c.env)
		if c.field == "" && err != nil || c.field != "" && (err == nil || !strings.HasPrefix(err.Error(), c.field)) {
			t.Errorf("%s: %v, want it to start with %q", c.name, err, c.field)
		}
	}
}
