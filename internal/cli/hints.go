package cli

import (
	"encoding/json"
	"fmt"
	"net/url"
	"regexp"
	"strings"
	"sync"
)

// apiError turns a refused request into a cliError whose hint names CLI commands. The answer is
// either the text form ("error: ...\nhint: ...") or the JSON envelope.
func apiError(r *reply) error {
	msg, hint := "", ""
	var env struct {
		Error struct {
			Code, Message, Hint string
		} `json:"error"`
	}
	if json.Unmarshal(r.body, &env) == nil && env.Error.Message != "" {
		msg, hint = env.Error.Message, env.Error.Hint
	} else {
		for line := range strings.Lines(string(r.body)) {
			line = strings.TrimRight(line, "\n")
			if m, ok := strings.CutPrefix(line, "error: "); ok {
				msg = m
			} else if h, ok := strings.CutPrefix(line, "hint: "); ok {
				hint = h
			}
		}
	}
	if msg == "" {
		msg = fmt.Sprintf("the service answered %d: %.200s", r.status, r.body)
	}
	return &cliError{code: ExitRefused, msg: msg, hint: cliHint(hint)}
}

// routeInHint finds a route the service names in a hint: "POST /api/debug/s1/pause",
// "GET /api/debug/s1/props?ref=v1", "POST /api/trace/stop {"id":...}".
var routeInHint = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(GET|POST|DELETE) (/api/[^\s?;,)]+)(\?[^\s;,)]*)?( \{[^}]*\})?`)
})

// cliHint rewrites the routes a service hint names as the commands that call them, so an agent
// is told `traced pause`, not an HTTP call. A route no command calls is left as it is.
func cliHint(hint string) string {
	return routeInHint().ReplaceAllStringFunc(hint, func(m string) string {
		sub := routeInHint().FindStringSubmatch(m)
		cmd := routeCommand(sub[1], sub[2])
		if cmd == nil {
			return m
		}
		out := "traced " + cmd.name
		if q, err := url.ParseQuery(strings.TrimPrefix(sub[3], "?")); err == nil && q.Get("ref") != "" {
			out += " " + q.Get("ref")
		}
		if strings.Contains(sub[2], "{ref}") {
			out += " REF"
		}
		return out
	})
}
