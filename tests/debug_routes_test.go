package tests

import (
	"encoding/json"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"traced/api"
	"traced/internal/routes"
)

// TestDebugEveryRouteRefusesTraceSessions walks the contract: every operation under
// /api/debug/{session}/ answers a trace session 403 trace_session, with a body and query the
// contract accepts (each operation's examples; an operation without them fails here, so new
// routes come with examples). GET targets is the exception: a trace session has targets too.
func TestDebugEveryRouteRefusesTraceSessions(t *testing.T) {
	t.Parallel()
	doc, err := routes.LoadContract()
	if err != nil {
		t.Fatal(err)
	}
	h := newHarness(t)
	s := h.start(api.StartRequest{Target: "forever.js"})
	n := 0
	for path, item := range doc.Paths.Map() {
		rest, ok := strings.CutPrefix(path, "/api/debug/{session}/")
		if !ok || rest == "targets" {
			continue
		}
		for method, op := range item.Operations() {
			n++
			t.Run(method+" "+rest, func(t *testing.T) {
				target := "/api/debug/" + s.ID + "/" + strings.NewReplacer("{ref}", "bp1", "{job}", "j1").Replace(rest)
				q := url.Values{}
				for _, p := range append(item.Parameters, op.Parameters...) {
					if p.Value.In != "query" || !p.Value.Required {
						continue
					}
					if p.Value.Example == nil {
						t.Fatalf("required query parameter %q has no example", p.Value.Name)
					}
					q.Set(p.Value.Name, toString(p.Value.Example))
				}
				if len(q) > 0 {
					target += "?" + q.Encode()
				}
				var body any
				if op.RequestBody != nil {
					mt := op.RequestBody.Value.Content.Get("application/json")
					if mt == nil {
						t.Fatal("the request body is not JSON")
					}
					body = mt.Example
					if body == nil && mt.Schema != nil && mt.Schema.Value != nil {
						body = mt.Schema.Value.Example
					}
					if body == nil {
						t.Fatal("the request body has no example")
					}
				}
				e := h.with(t).errorOf(h.with(t).request(method, target, body), http.StatusForbidden)
				if e.Code != "trace_session" {
					t.Fatalf("error %+v, want trace_session", e)
				}
			})
		}
	}
	if n < 25 {
		t.Fatalf("%d debug operations in the contract, want the whole debugger", n)
	}
}

func toString(v any) string {
	if s, ok := v.(string); ok {
		return s
	}
	b, _ := json.Marshal(v)
	return string(b)
}
