package dashboard

import (
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"
)

func get(t *testing.T, h http.Handler, path string, hdr ...string) *httptest.ResponseRecorder {
	t.Helper()
	r := httptest.NewRequest("GET", path, nil)
	for i := 0; i+1 < len(hdr); i += 2 {
		r.Header.Set(hdr[i], hdr[i+1])
	}
	w := httptest.NewRecorder()
	h.ServeHTTP(w, r)
	return w
}

func TestServesAssetsUnderPolicy(t *testing.T) {
	h := New()
	cases := []struct{ path, ctype string }{
		{"/ui", "text/html; charset=utf-8"},
		{"/ui/", "text/html; charset=utf-8"},
		{"/ui/app.js", "text/javascript; charset=utf-8"},
		{"/ui/style.css", "text/css; charset=utf-8"},
	}
	for _, c := range cases {
		w := get(t, h, c.path)
		if w.Code != http.StatusOK || w.Header().Get("Content-Type") != c.ctype {
			t.Errorf("%s: %d %q, want 200 %q", c.path, w.Code, w.Header().Get("Content-Type"), c.ctype)
		}
		if got := w.Header().Get("Content-Security-Policy"); got != Policy {
			t.Errorf("%s: CSP %q", c.path, got)
		}
		if w.Header().Get("X-Content-Type-Options") != "nosniff" || w.Header().Get("ETag") == "" {
			t.Errorf("%s: headers %v", c.path, w.Header())
		}
	}
	if w := get(t, h, "/ui/nope.js"); w.Code != http.StatusNotFound || !strings.Contains(w.Body.String(), `"not_found"`) {
		t.Errorf("unknown asset: %d %s", w.Code, w.Body)
	}
	etag := get(t, h, "/ui/app.js").Header().Get("ETag")
	if w := get(t, h, "/ui/app.js", "If-None-Match", etag); w.Code != http.StatusNotModified || w.Body.Len() != 0 {
		t.Errorf("revalidation: %d, %d bytes", w.Code, w.Body.Len())
	}
}

// TestPageNeedsNoInlineCode holds the assets to what the policy allows: no inline script or
// style, no event handler attributes, nothing from another origin, and every local file the page
// or a module names exists.
func TestPageNeedsNoInlineCode(t *testing.T) {
	h := New()
	inline := regexp.MustCompile(`(?i)<script(?:\s+type="module")?\s*>|<style|\sstyle=|\son[a-z]+=|javascript:`)
	foreign := regexp.MustCompile(`(?i)(?:src|href)="(?:https?:)?//`)
	named := regexp.MustCompile(`(?:src|href)="/ui/([^"]+)"|from "\./([^"]+)"`)
	for name := range h.files {
		body := string(h.files[name].body)
		if strings.HasSuffix(name, ".html") {
			if m := inline.FindString(body); m != "" {
				t.Errorf("%s: inline code %q", name, m)
			}
			if m := foreign.FindString(body); m != "" {
				t.Errorf("%s: a foreign origin %q", name, m)
			}
		}
		for _, m := range named.FindAllStringSubmatch(body, -1) {
			ref := m[1] + m[2]
			if _, ok := h.files[ref]; !ok {
				t.Errorf("%s names %s, which is not embedded", name, ref)
			}
		}
	}
}
