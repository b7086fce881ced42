// Package routepath matches concrete request paths against the contract's paths with
// {placeholders}, as the CLI and the MCP tools do to turn a hint's route into their own names.
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
