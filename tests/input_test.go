package tests

import (
	"encoding/json"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"traced/api"
	"traced/internal/service"
)

func decodeJSON(r io.Reader, v any) error { return json.NewDecoder(r).Decode(v) }

func TestBadInputIsRefusedWithAHint(t *testing.T) {
	t.Parallel()
	// A workspace of its own: the cases below put a symlink in the root and a directory beside it,
	// which must not land in the source tree.
	root := t.TempDir()
	copyFile(t, filepath.Join("testdata", "clean.js"), filepath.Join(root, "clean.js"))
	// A symlink inside the root that points outside it.
	if err := os.Symlink("/etc/hostname", filepath.Join(root, "escape-link.js")); err != nil {
		t.Fatal(err)
	}
	// Two symlinks pointing at each other: resolving either never ends.
	if err := os.Symlink("loop-b.js", filepath.Join(root, "loop-a.js")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("loop-a.js", filepath.Join(root, "loop-b.js")); err != nil {
		t.Fatal(err)
	}
	// A sibling of the root sharing its prefix, holding a script that exists outside the root.
	sibling := root + "-evil"
	if err := os.MkdirAll(sibling, 0o755); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(sibling) })
	copyFile(t, filepath.Join("testdata", "clean.js"), filepath.Join(sibling, "outside.js"))
	h := newHarness(t, func(o *service.Options) {
		o.Engine.Root = root
		o.MaxBodyBytes = 4096
	})

	post := func(body string) *http.Request { return h.request("POST", "/api/trace/start", body) }
	cases := []struct {
		name   string
		req    *http.Request
		status int
		code   string
		inMsg  string // a word the message must contain (the field it names)
	}{
		{"missing target", post(`{"target":"nope.js"}`), 400, "target_not_found", "nope.js"},
		{"parent escape", post(`{"target":"../` + filepath.Base(sibling) + `/outside.js"}`), 400, "outside_workspace", "outside"},
		{"absolute outside", post(`{"target":"/etc/passwd"}`), 400, "outside_workspace", "outside"},
		{"dot-dot inside path", post(`{"target":"sub/../../x.js"}`), 400, "outside_workspace", "outside"},
		{"symlink escape", post(`{"target":"escape-link.js"}`), 400, "outside_workspace", "outside"},
		{"sibling prefix cwd", post(`{"target":"clean.js","cwd":"` + sibling + `"}`), 400, "outside_workspace", "outside"},
		{"symlink loop", post(`{"target":"loop-a.js"}`), 400, "bad_request", "loop"},
		{"file as a directory", post(`{"target":"clean.js/x.js"}`), 400, "target_not_found", "clean.js/x.js"},
		{"empty target", post(`{"target":""}`), 400, "bad_request", "target"},
		{"no target", post(`{}`), 400, "bad_request", "target"},
		{"unknown field", post(`{"target":"clean.js","bogus":1}`), 400, "bad_request", "bogus"},
		{"wrong type", post(`{"target":"clean.js","maxEvents":"many"}`), 400, "bad_request", "maxEvents"},
		{"invalid json", post(`{"target":`), 400, "bad_request", "body"},
		{"env key with =", post(`{"target":"clean.js","env":{"A=B":"x"}}`), 400, "bad_request", "env"},
		{"body too large", post(`{"target":"` + strings.Repeat("a", 5000) + `"}`), 413, "payload_too_large", "limit"},
		{"unknown id", h.request("GET", "/api/trace?id=s999", nil), 404, "not_found", "s999"},
		{"unknown id on stop", h.request("POST", "/api/trace/stop", `{"id":"s999"}`), 404, "not_found", "s999"},
		{"missing id", h.request("GET", "/api/trace/events", nil), 400, "bad_request", "id"},
		{"negative limit", h.request("GET", "/api/trace/events?id=s1&limit=-1", nil), 400, "bad_request", "limit"},
		{"non-numeric after", h.request("GET", "/api/trace/events?id=s1&after=abc", nil), 400, "bad_request", "after"},
		{"unknown kind", h.request("GET", "/api/trace/events?id=s1&kinds=console,bogus", nil), 400, "bad_request", "bogus"},
		{"wait too long", h.request("GET", "/api/trace/wait?id=s1&timeoutMs=999999", nil), 400, "bad_request", "timeoutMs"},
		{"unknown route", h.request("GET", "/api/trace/nope", nil), 404, "not_found", "/api/trace/nope"},
		// The stream refuses before upgrading, with the REST envelope and codes.
		{"stream after without session", h.request("GET", "/api/stream?after=3", nil), 400, "bad_request", "session"},
		{"stream unknown session", h.request("GET", "/api/stream?session=s999", nil), 404, "not_found", "s999"},
		{"stream without upgrade", h.request("GET", "/api/stream?session=s1", nil), 426, "upgrade_required", "WebSocket"},
	}
	// s1 must exist for the query-parameter cases to reach parameter checks of a real session.
	h.start(api.StartRequest{Target: "clean.js"})
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			e := h.with(t).errorOf(c.req, c.status)
			if e.Code != c.code || !strings.Contains(e.Message, c.inMsg) || e.Hint == "" {
				t.Fatalf("error %+v, want code %s, message naming %q, and a hint", e, c.code, c.inMsg)
			}
		})
	}

	t.Run("not json", func(t *testing.T) {
		h := h.with(t)
		req := post(`{"target":"clean.js"}`)
		req.Header.Set("Content-Type", "text/plain")
		if e := h.errorOf(req, 415); !strings.Contains(e.Hint, "application/json") {
			t.Fatalf("error %+v", e)
		}
	})
}

// copyFile copies the file src to dst, creating dst with mode 0644.
func copyFile(t *testing.T, src, dst string) {
	t.Helper()
	b, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(dst, b, 0o644); err != nil {
		t.Fatal(err)
	}
}
