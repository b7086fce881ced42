package routepath

import (
	"strings"
	"testing"
)

func TestRefusal(t *testing.T) {
	for _, c := range []struct {
		body      string
		msg, hint string
	}{
		{`{"error":{"code":"not_paused","message":"process is running","hint":"POST /api/debug/s1/pause"}}`, "process is running", "POST /api/debug/s1/pause"},
		{"error: process is running\nhint: POST /api/debug/s1/pause\n", "process is running", "POST /api/debug/s1/pause"},
		{"error: no such session\n", "no such session", ""},
		{"<html>bad gateway</html>", "the service answered 502: <html>bad gateway</html>", ""},
	} {
		msg, hint := Refusal(502, []byte(c.body))
		if msg != c.msg || hint != c.hint {
			t.Errorf("Refusal(%q) = %q, %q; want %q, %q", c.body, msg, hint, c.msg, c.hint)
		}
	}
}

func TestRewriteRoutes(t *testing.T) {
	var seen []Route
	got := RewriteRoutes(`pause: POST /api/debug/s1/pause; expand: GET /api/debug/s1/props?ref=v1, start: POST /api/trace/start {"mode":"debug"}`,
		func(r Route) (string, bool) {
			seen = append(seen, r)
			return strings.ToLower(r.Method), r.Method != "GET"
		})
	if want := `pause: post; expand: GET /api/debug/s1/props?ref=v1, start: post`; got != want {
		t.Errorf("got %q\nwant %q", got, want)
	}
	want := []Route{{"POST", "/api/debug/s1/pause", "", ""}, {"GET", "/api/debug/s1/props", "?ref=v1", ""},
		{"POST", "/api/trace/start", "", ` {"mode":"debug"}`}}
	if len(seen) != len(want) {
		t.Fatalf("routes %+v, want %+v", seen, want)
	}
	for i := range want {
		if seen[i] != want[i] {
			t.Errorf("route %d: %+v, want %+v", i, seen[i], want[i])
		}
	}
}
