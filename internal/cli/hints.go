package cli

import (
	"net/url"
	"strings"

	"traced/internal/routepath"
)

// cliHint rewrites the routes a service hint names as the commands that call them, so an agent
// is told `traced pause`, not an HTTP call. A route no command calls is left as it is.
func cliHint(hint string) string {
	return routepath.RewriteRoutes(hint, func(rt routepath.Route) (string, bool) {
		cmd := routeCommand(rt.Method, rt.Path)
		if cmd == nil {
			return "", false
		}
		out := "traced " + cmd.name
		if q, err := url.ParseQuery(strings.TrimPrefix(rt.Query, "?")); err == nil && q.Get("ref") != "" {
			out += " " + q.Get("ref")
		}
		if strings.Contains(rt.Path, "{ref}") {
			out += " REF"
		}
		return out, true
	})
}
