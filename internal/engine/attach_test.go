package engine

import (
	"context"
	"errors"
	"net"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
)

func TestCheckInspectorURL(t *testing.T) {
	for _, c := range []struct {
		url  string
		want error // nil: accepted
	}{
		{"ws://127.0.0.1:9229/0f2c936f-b1cd-4ac9-aab3-f63b0f33d55e", nil},
		{"ws://[::1]:9229/x", nil},
		{"ws://localhost:9229/x", nil},
		{"ws://LOCALHOST:9229/x", nil},
		{"ws://10.0.0.1:9229/x", ErrNotLoopback},
		{"ws://0.0.0.0:9229/x", ErrNotLoopback},
		{"ws://127.0.0.2:9229/x", ErrNotLoopback},
		{"ws://0177.0.0.1:9229/x", ErrNotLoopback},
		{"ws://2130706433:9229/x", ErrNotLoopback},
		{"ws://[::ffff:127.0.0.1]:9229/x", ErrNotLoopback},
		{"ws://[fe80::1%25lo]:9229/x", ErrNotLoopback},
		{"ws://localhost6:9229/x", ErrNotLoopback},
		{"ws://localhost.attacker.example:9229/x", ErrNotLoopback},
		{"ws://127.0.0.1.attacker.example:9229/x", ErrNotLoopback},
		{"wss://127.0.0.1:9229/x", ErrBadInput},
		{"http://127.0.0.1:9229/x", ErrBadInput},
		{"ws://user@127.0.0.1:9229/x", ErrBadInput},
		{"ws://127.0.0.1/x", ErrBadInput},
		{"ws://127.0.0.1:0/x", ErrBadInput},
		{"ws://127.0.0.1:70000/x", ErrBadInput},
		{"127.0.0.1:9229", ErrBadInput},
		{"", ErrBadInput},
	} {
		_, err := checkInspectorURL(c.url)
		if (c.want == nil) != (err == nil) || (c.want != nil && !errors.Is(err, c.want)) {
			t.Errorf("%q: %v, want %v", c.url, err, c.want)
		}
	}
}

func TestInspectorURLOfNeedsExactlyOne(t *testing.T) {
	for _, req := range []AttachRequest{{}, {WSURL: "ws://127.0.0.1:1/x", Port: 1}, {Port: -1}, {Port: 65536}} {
		if _, err := inspectorURLOf(context.Background(), req); !errors.Is(err, ErrBadInput) {
			t.Errorf("%+v: %v, want ErrBadInput", req, err)
		}
	}
}

// TestDiscoverURL serves /json/list as node does, and as it should not.
func TestDiscoverURL(t *testing.T) {
	for _, c := range []struct {
		name, body string
		status     int
		want       string // a URL, or the start of an error
	}{
		{"first node target", `[{"type":"other","webSocketDebuggerUrl":"ws://127.0.0.1:1/a"},{"type":"node","webSocketDebuggerUrl":"ws://127.0.0.1:1/b"}]`, 200, "ws://127.0.0.1:1/b"},
		{"remote target", `[{"type":"node","webSocketDebuggerUrl":"ws://10.0.0.1:1/b"}]`, 200, "the inspector is not on loopback"},
		{"no node target", `[]`, 200, "start node: discover"},
		{"not a list", `{"x":1}`, 200, "start node: discover"},
		{"hidden", `WebSockets request was expected`, 404, "start node: discover"},
	} {
		t.Run(c.name, func(t *testing.T) {
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				if r.URL.Path != "/json/list" {
					http.NotFound(w, r)
					return
				}
				w.WriteHeader(c.status)
				w.Write([]byte(c.body))
			}))
			defer srv.Close()
			_, port, _ := net.SplitHostPort(srv.Listener.Addr().String())
			n, _ := strconv.Atoi(port)
			got, err := discoverURL(context.Background(), n)
			if err != nil {
				got = err.Error()
			}
			if !strings.HasPrefix(got, c.want) {
				t.Fatalf("got %q, want %q...", got, c.want)
			}
		})
	}
}
