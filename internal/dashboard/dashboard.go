// Package dashboard serves traced's live dashboard: hand-written ES modules and CSS embedded in
// the binary (no build step, nothing fetched at run time), under a Content-Security-Policy that
// lets the page load only its own files and talk only to the service that served it.
package dashboard

import (
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"encoding/json"
	"io/fs"
	"net/http"
	"path"
	"strings"

	"traced/api"
)

//go:embed assets
var assets embed.FS

// Index is the page's own file; the other assets are the modules and styles it names.
const Index = "index.html"

// Policy is the Content-Security-Policy of every asset: scripts, styles and connections from this
// origin only (ws: and wss: to it included), no inline script or style, no plugin, no frame around
// the page (a frame could trick a click on Stop), forms that post nowhere (the page's forms are
// handled by script). The token the page holds can then reach no other origin.
const Policy = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; " +
	"connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"

type asset struct {
	body  []byte
	ctype string
	etag  string
}

// Handler serves the embedded assets by their base name: "" (the page's own URL) is the index.
type Handler struct{ files map[string]asset }

// New reads the embedded assets once; their ETags are content hashes, so a browser revalidates
// cheaply and never keeps an asset of an older binary.
func New() *Handler {
	h := &Handler{files: make(map[string]asset)}
	entries, err := fs.ReadDir(assets, "assets")
	if err != nil {
		panic("dashboard: embedded assets unreadable: " + err.Error()) // a build defect
	}
	for _, e := range entries {
		body, err := fs.ReadFile(assets, "assets/"+e.Name())
		if err != nil {
			panic("dashboard: embedded asset unreadable: " + err.Error())
		}
		sum := sha256.Sum256(body)
		h.files[e.Name()] = asset{body: body, ctype: contentType(e.Name()),
			etag: `"` + hex.EncodeToString(sum[:8]) + `"`}
	}
	return h
}

// ServeHTTP answers GET /ui (the page) and GET /ui/<asset>.
func (h *Handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	name := strings.TrimPrefix(strings.TrimPrefix(r.URL.Path, "/ui"), "/")
	if name == "" {
		name = Index
	}
	a, ok := h.files[name]
	if !ok {
		w.Header().Set("Content-Security-Policy", Policy)
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("X-Content-Type-Options", "nosniff")
		w.WriteHeader(http.StatusNotFound)
		json.NewEncoder(w).Encode(api.ErrorBody{Error: api.ErrorDetail{Code: "not_found",
			Message: "the dashboard has no file " + quote(name), Hint: "open GET /ui, the dashboard's page"}})
		return
	}
	hd := w.Header()
	hd.Set("Content-Security-Policy", Policy)
	hd.Set("X-Content-Type-Options", "nosniff")
	hd.Set("Referrer-Policy", "no-referrer")
	hd.Set("Cross-Origin-Opener-Policy", "same-origin")
	hd.Set("Cache-Control", "no-cache")
	hd.Set("ETag", a.etag)
	if r.Header.Get("If-None-Match") == a.etag {
		w.WriteHeader(http.StatusNotModified)
		return
	}
	hd.Set("Content-Type", a.ctype)
	w.Write(a.body)
}

// Secure sets Policy on every answer under /ui and at / (which sends a browser there),
// whoever writes it: a redirect, a 404, a refusal of the Host or Origin check. An answer
// without it would be a page of this origin that runs under no policy.
func Secure(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if p := r.URL.Path; p == "/" || p == "/ui" || strings.HasPrefix(p, "/ui/") {
			w.Header().Set("Content-Security-Policy", Policy)
			w.Header().Set("X-Content-Type-Options", "nosniff")
		}
		next.ServeHTTP(w, r)
	})
}

func contentType(name string) string {
	switch path.Ext(name) {
	case ".js":
		return "text/javascript; charset=utf-8"
	case ".html":
		return "text/html; charset=utf-8"
	case ".css":
		return "text/css; charset=utf-8"
	case ".svg":
		return "image/svg+xml"
	}
	return "application/octet-stream" // no other kind is embedded
}

// quote shows a client-supplied name in a message, capped: a long path is not echoed back whole.
func quote(s string) string {
	if len(s) > 100 {
		s = s[:100] + "…"
	}
	b, _ := json.Marshal(s)
	return string(b)
}
