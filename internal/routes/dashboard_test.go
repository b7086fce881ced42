package routes

import (
	"net/http"
	"net/http/httptest"
	"testing"

	"traced/internal/dashboard"
)

// TestDashboardRoutes: the page and its files need no token (the page asks for it), but the Host
// and Origin checks hold for them as for the API; / sends a browser to the page.
func TestDashboardRoutes(t *testing.T) {
	page := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.Write([]byte("page " + r.URL.Path)) })
	f := newFixture(t, func(c *Config) { c.Dashboard = page })
	bare := func(target string) *http.Request {
		r := httptest.NewRequest("GET", target, nil)
		r.Host = testHost
		return r
	}
	for _, p := range []string{"/", "/ui/"} {
		if w := f.serve(bare(p)); w.Code != http.StatusFound || w.Header().Get("Location") != "/ui" {
			t.Errorf("GET %s: %d Location %q, want 302 /ui", p, w.Code, w.Header().Get("Location"))
		}
	}
	for _, p := range []string{"/ui", "/ui/app.js"} {
		if w := f.serve(bare(p)); w.Code != http.StatusOK || w.Body.String() != "page "+p {
			t.Errorf("GET %s without a token: %d %q", p, w.Code, w.Body)
		}
	}
	rebound := bare("/ui")
	rebound.Host = "attacker.example:8080"
	if w := f.serve(rebound); w.Code != http.StatusForbidden {
		t.Errorf("GET /ui with a foreign Host: %d, want 403", w.Code)
	}
	cross := bare("/ui/app.js")
	cross.Header.Set("Sec-Fetch-Site", "cross-site")
	if w := f.serve(cross); w.Code != http.StatusForbidden {
		t.Errorf("GET /ui/app.js cross-site: %d, want 403", w.Code)
	}
	// The API behind the page still wants the token.
	if w := f.serve(bare("/api/trace/list")); w.Code != http.StatusUnauthorized {
		t.Errorf("GET /api/trace/list without a token: %d, want 401", w.Code)
	}
	none := newFixture(t)
	if w := none.serve(bare("/ui")); w.Code != http.StatusNotFound {
		t.Errorf("GET /ui with no dashboard: %d, want 404", w.Code)
	}
}

// TestDashboardPolicyEverywhere: every answer under /ui and at / carries the dashboard's
// Content-Security-Policy: redirects, 404s, 405s and refusals as well as the files.
func TestDashboardPolicyEverywhere(t *testing.T) {
	f := newFixture(t, func(c *Config) { c.Dashboard = dashboard.New() })
	cases := []struct {
		method, target, host string
		status               int
	}{
		{"GET", "/", testHost, http.StatusFound},
		{"GET", "/ui/", testHost, http.StatusFound},
		{"GET", "/ui", testHost, http.StatusOK},
		{"GET", "/ui/nope.js", testHost, http.StatusNotFound},
		{"GET", "/ui/a/b", testHost, http.StatusNotFound},
		{"POST", "/ui", testHost, http.StatusMethodNotAllowed},
		{"GET", "/ui", "attacker.example:8080", http.StatusForbidden},
	}
	for _, tc := range cases {
		r := httptest.NewRequest(tc.method, tc.target, nil)
		r.Host = tc.host
		w := f.serve(r)
		if w.Code != tc.status || w.Header().Get("Content-Security-Policy") != dashboard.Policy {
			t.Errorf("%s %s (Host %s): %d, CSP %q; want %d with the policy", tc.method, tc.target, tc.host, w.Code, w.Header().Get("Content-Security-Policy"), tc.status)
		}
	}
}
