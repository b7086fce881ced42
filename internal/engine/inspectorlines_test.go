package engine

import (
	"regexp"
	"strconv"
	"strings"
	"testing"
)

const uuid = "3f2b9c1e-8a4d-4e2f-9b1c-0d5e6f7a8b9c"

func TestParseInspectorURL(t *testing.T) {
	const prefix = "Debugger listening on "
	cases := []struct {
		name, line, want string
	}{
		{"node's line", prefix + "ws://127.0.0.1:9229/" + uuid, "ws://127.0.0.1:9229/" + uuid},
		{"lowest port", prefix + "ws://127.0.0.1:1/" + uuid, "ws://127.0.0.1:1/" + uuid},
		{"highest port", prefix + "ws://127.0.0.1:65535/" + uuid, "ws://127.0.0.1:65535/" + uuid},
		{"trailing white space", prefix + "ws://127.0.0.1:9229/" + uuid + " \t", "ws://127.0.0.1:9229/" + uuid},
		{"any interface", prefix + "ws://0.0.0.0:9229/" + uuid, ""},
		{"another host", prefix + "ws://10.0.0.1:9229/" + uuid, ""},
		{"a host with our prefix", prefix + "ws://127.0.0.10:9229/" + uuid, ""},
		{"localhost", prefix + "ws://localhost:9229/" + uuid, ""},
		{"ipv6", prefix + "ws://[::1]:9229/" + uuid, ""},
		{"port too high", prefix + "ws://127.0.0.1:99999/" + uuid, ""},
		{"port just too high", prefix + "ws://127.0.0.1:65536/" + uuid, ""},
		{"port zero", prefix + "ws://127.0.0.1:0/" + uuid, ""},
		{"port with a leading zero", prefix + "ws://127.0.0.1:09229/" + uuid, ""},
		{"port of six digits", prefix + "ws://127.0.0.1:100000/" + uuid, ""},
		{"no port", prefix + "ws://127.0.0.1/" + uuid, ""},
		{"upper-case id", prefix + "ws://127.0.0.1:9229/" + strings.ToUpper(uuid), ""},
		{"short id", prefix + "ws://127.0.0.1:9229/" + uuid[:35], ""},
		{"long id", prefix + "ws://127.0.0.1:9229/" + uuid + "0", ""},
		{"trailing text", prefix + "ws://127.0.0.1:9229/" + uuid + " and more", ""},
		{"not at the start of the line", "x " + prefix + "ws://127.0.0.1:9229/" + uuid, ""},
		{"a program printing a URL", "listening on ws://127.0.0.1:9229/" + uuid, ""},
		{"bare URL", "ws://127.0.0.1:9229/" + uuid, ""},
		{"a second URL after a rejected one", prefix + "ws://0.0.0.0:1/x ws://127.0.0.1:9229/" + uuid, ""},
		{"wss", prefix + "wss://127.0.0.1:9229/" + uuid, ""},
		{"prefix only", prefix, ""},
		{"empty", "", ""},
		{"chatter", "For help, see: https://nodejs.org/en/docs/inspector", ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := ParseInspectorURL(c.line); got != c.want {
				t.Fatalf("ParseInspectorURL(%q) = %q, want %q", c.line, got, c.want)
			}
		})
	}
}

var acceptedURL = regexp.MustCompile(`^ws://127\.0\.0\.1:([0-9]+)/[0-9a-f-]{36}$`)

func FuzzInspectorURL(f *testing.F) {
	for _, s := range []string{
		"Debugger listening on ws://127.0.0.1:9229/" + uuid,
		"Debugger listening on ws://127.0.0.1:65536/" + uuid,
		"Debugger listening on ws://127.0.0.1:0/" + uuid,
		"Debugger listening on ws://0.0.0.0:9229/" + uuid,
		"Debugger listening on ws://127.0.0.1:9229/" + uuid + "\r",
		"Debugger listening on ",
		"ws://127.0.0.1:9229/" + uuid,
		"",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		got := ParseInspectorURL(line)
		if got == "" {
			return
		}
		m := acceptedURL.FindStringSubmatch(got)
		if m == nil {
			t.Fatalf("ParseInspectorURL(%q) accepted %q", line, got)
		}
		if port, err := strconv.Atoi(m[1]); err != nil || port < 1 || port > 65535 {
			t.Fatalf("ParseInspectorURL(%q) accepted port %q", line, m[1])
		}
		if !strings.HasPrefix(line, "Debugger listening on "+got) {
			t.Fatalf("ParseInspectorURL(%q) = %q, not the URL right after the prefix", line, got)
		}
	})
}

func TestInspectorChatter(t *testing.T) {
	cases := []struct {
		line string
		want bool
	}{
		{"Debugger listening on ws://127.0.0.1:9229/" + uuid, true},
		{"For help, see: https://nodejs.org/en/docs/inspector", true},
		{"Debugger attached.", true},
		{"Waiting for the debugger to disconnect...", true},
		{"Debugger ending on ws://127.0.0.1:9229/" + uuid, true},
		{"", false},
		{"Error: boom", false},
		{"  Debugger attached.", false},
		{"debugger attached.", false},
		{"my Debugger listening on thing", false},
	}
	for _, c := range cases {
		if got := inspectorChatter(c.line); got != c.want {
			t.Errorf("inspectorChatter(%q) = %v, want %v", c.line, got, c.want)
		}
	}
}
