package routes

import (
	"net/http/httptest"
	"testing"

	"traced/api"
)

func TestWantsText(t *testing.T) {
	for _, c := range []struct {
		query, accept string
		want          bool
	}{
		{"", "", false},
		{"", "*/*", false},
		{"", "text/*", false},
		{"", "text/plain", true},
		{"", "text/plain; charset=utf-8", true},
		{"", "application/json, text/plain", false}, // equal q: JSON, the default, wins
		{"", "application/json;q=0.5, text/plain", true},
		{"", "text/plain;q=0.2, application/json;q=0.9", false},
		{"", "text/plain;q=0", false},
		{"", "text/plain;q=x", false},
		{"format=text", "", true},
		{"format=text", "application/json", true},
		{"format=json", "text/plain", false},
	} {
		r := httptest.NewRequest("GET", "/api/debug/s1/state?"+c.query, nil)
		if c.accept != "" {
			r.Header.Set("Accept", c.accept)
		}
		if got := wantsText(r); got != c.want {
			t.Errorf("?%s Accept %q: text %v, want %v", c.query, c.accept, got, c.want)
		}
	}
}

// TestRenderTextOnDebugRoutesOnly: the text form is for /api/debug answers and the trace reads;
// other routes stay JSON whatever they are asked.
func TestRenderTextOnDebugRoutesOnly(t *testing.T) {
	body := api.ErrorBody{Error: api.ErrorDetail{Code: "x", Message: "m", Hint: "h"}}
	for path, want := range map[string]string{
		"/api/debug/s1/state?format=text":  "text/plain; charset=utf-8",
		"/api/debug/attach?format=text":    "text/plain; charset=utf-8",
		"/api/trace/list?format=text":      "text/plain; charset=utf-8",
		"/api/trace?id=s1&format=text":     "text/plain; charset=utf-8",
		"/api/trace/wait?format=text":      "text/plain; charset=utf-8",
		"/api/trace/evidence?format=text":  "text/plain; charset=utf-8",
		"/api/trace/status?format=text":    "application/json",
		"/api/trace/start?format=text":     "text/plain; charset=utf-8",
		"/api/trace/stop?format=text":      "application/json",
		"/api/trace/lists?format=text":     "application/json",
		"/api/debug/s1/state?format=json":  "application/json",
		"/api/debug/s1/state":              "application/json",
		"/api/trace/events?id=s1&after=0":  "application/json",
		"/api/trace/events?format=text":    "text/plain; charset=utf-8",
		"/api/debugger/s1/x?format=text":   "application/json",
		"/api/debug/s1/breakpoints/bp%231": "application/json",
	} {
		w := httptest.NewRecorder()
		render(w, httptest.NewRequest("GET", path, nil), 409, body)
		if got := w.Header().Get("Content-Type"); got != want {
			t.Errorf("%s: Content-Type %q, want %q", path, got, want)
		}
		if want != "application/json" && w.Body.String() != "error: m\nhint: h\n" {
			t.Errorf("%s: body %q", path, w.Body.String())
		}
	}
}

// TestDebugResponsesDeclareText: every response of every operation that speaks text (/api/debug,
// the trace reads) declares the text form next to JSON, so that a route added later cannot
// answer text the contract does not allow.
func TestDebugResponsesDeclareText(t *testing.T) {
	doc, err := LoadContract()
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for path, item := range doc.Paths.Map() {
		if !speaksText(path) {
			continue
		}
		for method, op := range item.Operations() {
			for status, resp := range op.Responses.Map() {
				n++
				content := resp.Value.Content
				if content.Get("application/json") != nil && content.Get("text/plain") == nil {
					t.Errorf("%s %s %s: JSON without text/plain (add $ref '#/components/schemas/TextForm')", method, path, status)
				}
			}
			if item.Parameters.GetByInAndName("query", "format") == nil && op.Parameters.GetByInAndName("query", "format") == nil {
				t.Errorf("%s %s: no format parameter (add $ref '#/components/parameters/Format')", method, path)
			}
		}
	}
	if n == 0 {
		t.Fatal("no debug operations in the contract")
	}
}
