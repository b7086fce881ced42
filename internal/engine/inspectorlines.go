package engine

import (
	"regexp"
	"strconv"
	"strings"
)

// Node's inspector speaks on stderr, as does node's test runner for its children (TAP comments
// on stdout): which of those lines the engine takes, drops or masks is decided here, not where
// the lines are read (internal/engine/launch hands on every line).

// inspectorURL matches the line node prints when its inspector listens, the whole line, so a URL
// elsewhere in it (or trailing text) is not taken. Only loopback is accepted: we pass 127.0.0.1
// ourselves, anything else means something moved the inspector.
var inspectorURL = regexp.MustCompile(`^Debugger listening on (ws://127\.0\.0\.1:([1-9][0-9]{0,4})/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\s*$`)

// ParseInspectorURL returns the inspector URL in one stderr line, or "".
func ParseInspectorURL(line string) string {
	m := inspectorURL.FindStringSubmatch(line)
	if m == nil {
		return ""
	}
	if port, err := strconv.Atoi(m[2]); err != nil || port > 65535 {
		return ""
	}
	return m[1]
}

// tapComment is a line without the "# " node's test runner puts before a child's stderr lines.
func tapComment(line string) string {
	return strings.TrimPrefix(strings.TrimLeft(line, " "), "# ")
}

// anyInspectorURL matches an inspector URL anywhere in a line.
var anyInspectorURL = regexp.MustCompile(`wss?://[^/\s]+/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}`)

// maskInspectorURLs hides inspector URLs in a line of output: whoever has one runs code in the
// process, and answers leave the service.
func maskInspectorURLs(line string) string {
	if !strings.Contains(line, "ws://") && !strings.Contains(line, "wss://") { // most lines: no regexp
		return line
	}
	return anyInspectorURL.ReplaceAllString(line, "ws://<inspector>")
}

// inspectorChatter reports stderr lines the inspector itself prints; they are not the program's.
func inspectorChatter(line string) bool {
	for _, p := range []string{"Debugger listening on ", "For help, see: https://nodejs.org/",
		"Debugger attached.", "Waiting for the debugger to disconnect...", "Debugger ending on "} {
		if strings.HasPrefix(line, p) {
			return true
		}
	}
	return false
}
