// Package locspec reads the short breakpoint and logpoint forms the CLI's flags and the MCP
// tools take: "file:line[:col][:condition or template]".
package locspec

import (
	"strings"

	"traced/api"
)

// Breakpoint reads "file:line[:col][:condition]" as a breakpoint of a start request: a bare
// location, or a location and its condition. ok is false without a line.
func Breakpoint(s string) (bp api.StartBreakpoint, ok bool) {
	loc, cond, ok := cut(s)
	return api.StartBreakpoint{Location: loc, Condition: cond}, ok
}

// Logpoint reads "file:line[:col]:template" as a logpoint of a start request. ok is false
// without a line or a template.
func Logpoint(s string) (lp api.LogpointRequest, ok bool) {
	loc, tmpl, ok := cut(s)
	return api.LogpointRequest{Location: loc, Template: tmpl}, ok && tmpl != ""
}

// cut splits "file:line[:col][:rest]" at the first ":<digits>" that ends the line (the
// file may hold colons, the rest too: a condition `a ? b : c`).
func cut(s string) (loc, rest string, ok bool) {
	for i := 1; i < len(s); i++ {
		if s[i] != ':' {
			continue
		}
		j := i + 1
		for j < len(s) && s[j] >= '0' && s[j] <= '9' {
			j++
		}
		if j == i+1 || (j < len(s) && s[j] != ':') {
			continue
		}
		loc = s[:j]
		if j < len(s) { // a column, then maybe the rest
			k := j + 1
			for k < len(s) && s[k] >= '0' && s[k] <= '9' {
				k++
			}
			if k > j+1 && (k == len(s) || s[k] == ':') {
				loc = s[:k]
				j = k
			}
		}
		return loc, strings.TrimPrefix(s[j:], ":"), true
	}
	return "", "", false
}
