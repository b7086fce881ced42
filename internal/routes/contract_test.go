package routes

import (
	"io"
	"net/http"
	"net/http/httptest"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/go-chi/chi/v5"
)

// TestRoutesMatchContract holds the router and openapi.yaml to the same route table: a route
// served but not documented, or documented but not served, fails.
func TestRoutesMatchContract(t *testing.T) {
	var served []string
	err := chi.Walk(newFixture(t).router.(chi.Routes), func(method, route string, _ http.Handler, _ ...func(http.Handler) http.Handler) error {
		served = append(served, method+" "+route)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	doc, err := LoadContract()
	if err != nil {
		t.Fatal(err)
	}
	var documented []string
	for path, item := range doc.Paths.Map() {
		for method := range item.Operations() {
			documented = append(documented, method+" "+path)
		}
	}
	if len(served) == 0 || len(documented) == 0 {
		t.Fatalf("%d routes served, %d documented", len(served), len(documented))
	}
	for _, d := range diffRoutes(served, documented) {
		t.Error(d)
	}

	// The validator's own router must find every served route, or validateRequest answers 404
	// for a route chi did match.
	c, err := newContract()
	if err != nil {
		t.Fatal(err)
	}
	for _, route := range served {
		method, path, _ := strings.Cut(route, " ")
		req := httptest.NewRequest(method, pathParam.ReplaceAllString(path, "x"), nil)
		req.Host = testHost
		found, _, err := c.router.FindRoute(req)
		if err != nil {
			t.Errorf("%s: the contract router finds no operation: %v", route, err)
			continue
		}
		if found.Method != method || found.Path != path {
			t.Errorf("%s: the contract router finds %s %s", route, found.Method, found.Path)
		}
		// validateRequest finds it by chi's pattern first, with no global security.
		if op := c.routes[route]; op == nil || op.Operation != nil && op.Operation.OperationID != found.Operation.OperationID || len(op.Spec.Security) != 0 {
			t.Errorf("%s: the route table has %+v", route, op)
		}
	}
}

// pathParam is a path parameter, spelled {name} by both chi and OpenAPI.
var pathParam = regexp.MustCompile(`\{[^}/]+\}`)

// diffRoutes lists every "METHOD /path" on one side only.
func diffRoutes(served, documented []string) []string {
	var out []string
	for _, s := range served {
		if !slices.Contains(documented, s) {
			out = append(out, "served but not in openapi.yaml: "+s)
		}
	}
	for _, d := range documented {
		if !slices.Contains(served, d) {
			out = append(out, "in openapi.yaml but not served: "+d)
		}
	}
	slices.Sort(out)
	return out
}

// TestDiffRoutes shows that the comparison above fails on an extra route on either side, so the
// contract test cannot pass vacuously.
func TestDiffRoutes(t *testing.T) {
	base := []string{"GET /healthz", "POST /api/trace/start"}
	for _, c := range []struct {
		name               string
		served, documented []string
		want               int
	}{
		{"same", base, base, 0},
		{"extra served", append(slices.Clone(base), "GET /debug"), base, 1},
		{"extra documented", base, append(slices.Clone(base), "DELETE /api/trace"), 1},
		{"same path, other method", []string{"GET /x"}, []string{"POST /x"}, 2},
		{"other parameter name", []string{"GET /s/{id}"}, []string{"GET /s/{sid}"}, 2},
	} {
		if got := diffRoutes(c.served, c.documented); len(got) != c.want {
			t.Errorf("%s: %d differences %q, want %d", c.name, len(got), got, c.want)
		}
	}
}

// TestGuardStatusesAreDeclared: every contract operation declares the statuses the guards in
// front of its handler answer (a `default` response would otherwise hide a missing one): 403 for
// a foreign Host or Origin, 401 without the token where one is needed, 413 and 415 where there is
// a body.
func TestGuardStatusesAreDeclared(t *testing.T) {
	const limit = 64
	f := newFixture(t, func(c *Config) { c.MaxBodyBytes = limit })
	c, err := newContract()
	if err != nil {
		t.Fatal(err)
	}
	for path, item := range c.doc.Paths.Map() {
		for method, op := range item.Operations() {
			body := ""
			if op.RequestBody != nil {
				body = "{}"
			}
			type refusal struct {
				name   string
				status int
				code   string
				change func(*http.Request)
			}
			refusals := []refusal{
				{"foreign host", http.StatusForbidden, "host_refused", func(r *http.Request) { r.Host = "attacker.example" }},
				{"foreign origin", http.StatusForbidden, "origin_refused", func(r *http.Request) { r.Header.Set("Origin", "http://attacker.example") }},
			}
			if op.Security == nil || len(*op.Security) > 0 {
				refusals = append(refusals, refusal{"no token", http.StatusUnauthorized, "unauthorized",
					func(r *http.Request) { r.Header.Del("Authorization") }})
			}
			if op.RequestBody != nil {
				refusals = append(refusals,
					refusal{"not json", http.StatusUnsupportedMediaType, "unsupported_media_type",
						func(r *http.Request) { r.Header.Set("Content-Type", "text/plain") }},
					refusal{"too large", http.StatusRequestEntityTooLarge, "payload_too_large", func(r *http.Request) {
						big := `{"x":"` + strings.Repeat("a", limit) + `"}`
						r.Body, r.ContentLength = io.NopCloser(strings.NewReader(big)), int64(len(big))
					}})
			}
			for _, rf := range refusals {
				t.Run(method+" "+path+" "+rf.name, func(t *testing.T) {
					r := request(method, pathParam.ReplaceAllString(path, "x"), body)
					rf.change(r)
					w := f.serve(r)
					wantError(t, w, rf.status, rf.code)
					checkContractResponse(t, c, r, body, w)
				})
			}
		}
	}
}
