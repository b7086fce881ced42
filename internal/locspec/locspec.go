// Package locspec reads the short breakpoint and logpoint forms the CLI's flags and the MCP
// tools take: "file:line[:col][:condition or template]".
package locspec

import "strings"

// Cut splits "file:line[:col][:rest]" at the first ":<digits>" that ends the line (the
// file may hold colons, the rest too: a condition `a ? b : c`).
func Cut(s string) (loc, rest string, ok bool) {
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
