// Package routepath reads the API's refusals as its clients (the CLI, the MCP tools) do: the
// message and hint of an error answer, and the routes a hint names, matched against the
// contract's paths with {placeholders} to turn them into the client's own names.
package routepath

import "strings"

// Match reports whether path fits pattern segment by segment, a {placeholder} fitting any one.
func Match(pattern, path string) bool {
	ps, xs := strings.Split(pattern, "/"), strings.Split(path, "/")
	if len(ps) != len(xs) {
		return false
	}
	for i := range ps {
		if !strings.HasPrefix(ps[i], "{") && ps[i] != xs[i] {
			return false
		}
	}
	return true
}
