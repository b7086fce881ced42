package routes

import (
	"io"
	"mime"
	"net/http"
	"strconv"
	"strings"

	"traced/internal/textform"
)

// Text form: every answer under /api/debug/ and of the trace reads, errors included, can be
// rendered as compact text (package textform) for a reader that pays per token (an agent) or a
// terminal. JSON stays the default; text is chosen by ?format=text or an Accept header that
// prefers text/plain.

// textPrefix is the path prefix of the debug routes, which all speak text.
const textPrefix = "/api/debug/"

// traceTextRoutes are the trace routes that speak text besides those under textPrefix: the reads
// an agent makes in a loop. Start speaks text too: its answer is
// the session's first state or output. The others (status, stop) answer JSON only.
var traceTextRoutes = map[string]bool{
	"/api/trace": true, "/api/trace/list": true, "/api/trace/events": true,
	"/api/trace/wait": true, "/api/trace/evidence": true, "/api/trace/start": true,
}

// speaksText reports whether the route of path has a text form.
func speaksText(path string) bool {
	return strings.HasPrefix(path, textPrefix) || traceTextRoutes[path]
}

// render writes v with status, as text when the request asks for it on a route with a text form
// (speaksText) and as JSON otherwise. Handlers of those routes render through here (onSession,
// execute, writeError, the trace reads).
func render(w http.ResponseWriter, r *http.Request, status int, v any) {
	if !speaksText(r.URL.Path) {
		writeJSON(w, status, v)
		return
	}
	w.Header().Add("Vary", "Accept")
	if !wantsText(r) {
		writeJSON(w, status, v)
		return
	}
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.Header().Set("X-Content-Type-Options", "nosniff")
	w.WriteHeader(status)
	_, _ = io.WriteString(w, textform.Answer(v))
}

// wantsText reports whether the request asks for text: ?format=text, or (without format) an Accept
// header that rates text/plain above application/json. Wildcards ask for neither.
func wantsText(r *http.Request) bool {
	switch r.URL.Query().Get("format") {
	case "text":
		return true
	case "json":
		return false
	}
	var text, json float64
	for _, part := range strings.Split(strings.Join(r.Header.Values("Accept"), ","), ",") {
		mt, params, err := mime.ParseMediaType(strings.TrimSpace(part))
		if err != nil {
			continue
		}
		q := 1.0
		if s, ok := params["q"]; ok {
			if q, err = strconv.ParseFloat(s, 64); err != nil {
				continue
			}
		}
		switch mt {
		case "text/plain":
			text = max(text, q)
		case "application/json":
			json = max(json, q)
		}
	}
	return text > 0 && text > json
}
