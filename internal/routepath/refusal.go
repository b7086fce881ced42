package routepath

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
	"sync"

	"traced/api"
)

// Refusal reads a 4xx or 5xx answer of the API, its JSON envelope (api.ErrorBody) or its text
// form ("error: ...\nhint: ..."), as its message and hint. An answer of neither form is named by
// its status and first bytes, so that a refusal never reads as empty.
func Refusal(status int, body []byte) (msg, hint string) {
	var env api.ErrorBody
	if json.Unmarshal(body, &env) == nil && env.Error.Message != "" {
		return env.Error.Message, env.Error.Hint
	}
	for line := range strings.Lines(string(body)) {
		line = strings.TrimRight(line, "\n")
		if m, ok := strings.CutPrefix(line, "error: "); ok {
			msg = m
		} else if h, ok := strings.CutPrefix(line, "hint: "); ok {
			hint = h
		}
	}
	if msg == "" {
		msg = fmt.Sprintf("the service answered %d: %.200s", status, body)
	}
	return msg, hint
}

// Route is a route a service hint names, as written there.
type Route struct {
	Method, Path string
	Query        string // "?ref=v1", or ""
	Body         string // ` {"id":...}`, or ""
}

// routeInHint finds a route a hint names: "POST /api/debug/s1/pause",
// "GET /api/debug/s1/props?ref=v1", `POST /api/trace/start {"target":...,"mode":"debug"}`.
// Compiled on first use: the CLI shares its binary with the service and does no work at init.
var routeInHint = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(GET|POST|DELETE) (/api/[^\s?;,)]+)(\?[^\s;,)]*)?( \{[^}]*\})?`)
})

// RewriteRoutes replaces each route hint names with what name makes of it, so that a client
// tells its user its own next step (a command, a tool), not an HTTP request. A route name has
// no word for (ok false) is left as written.
func RewriteRoutes(hint string, name func(Route) (string, bool)) string {
	re := routeInHint()
	return re.ReplaceAllStringFunc(hint, func(m string) string {
		sub := re.FindStringSubmatch(m)
		if s, ok := name(Route{Method: sub[1], Path: sub[2], Query: sub[3], Body: sub[4]}); ok {
			return s
		}
		return m
	})
}
