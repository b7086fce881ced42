package mcpserver

import (
	"strings"

	"traced/internal/routepath"
)

// routeTools names, for each route a service hint may name, the tool call that reaches it. The
// path is the contract's, with the session as {session} and other parameters as {x}.
var routeTools = []struct{ method, path, tool string }{
	{"POST", "/api/trace/start", `start`},
	{"POST", "/api/trace/stop", `stop`},
	{"GET", "/api/trace/list", `sessions`},
	{"GET", "/api/trace/status", `sessions`},
	{"GET", "/api/trace", `events`},
	{"GET", "/api/trace/events", `events`},
	{"GET", "/api/trace/wait", `wait`},
	{"GET", "/api/trace/evidence", `evidence`},
	{"POST", "/api/debug/attach", `attach`},
	{"GET", "/api/debug/{session}/state", `state`},
	{"GET", "/api/debug/{session}/vars", `state`},
	{"GET", "/api/debug/{session}/stack", `state`},
	{"GET", "/api/debug/{session}/targets", `state`},
	{"GET", "/api/debug/{session}/source", `state`},
	{"POST", "/api/debug/{session}/eval", `eval`},
	{"GET", "/api/debug/{session}/props", `inspect`},
	{"POST", "/api/debug/{session}/continue", `step {"action":"continue"}`},
	{"POST", "/api/debug/{session}/step", `step {"action":"over"}`},
	{"POST", "/api/debug/{session}/run-to", `step {"action":"to"}`},
	{"POST", "/api/debug/{session}/pause", `step {"action":"pause"}`},
	{"POST", "/api/debug/{session}/kill-execution", `step {"action":"kill"}`},
	{"POST", "/api/debug/{session}/restart-frame", `step {"action":"restart-frame"}`},
	{"POST", "/api/debug/{session}/breakpoints", `breakpoints {"action":"set"}`},
	{"GET", "/api/debug/{session}/breakpoints", `breakpoints {"action":"list"}`},
	{"DELETE", "/api/debug/{session}/breakpoints/{ref}", `breakpoints {"action":"remove"}`},
	{"GET", "/api/debug/{session}/logpoints", `breakpoints {"action":"list"}`},
	{"POST", "/api/debug/{session}/logpoints", `breakpoints {"action":"logpoint"}`},
	{"POST", "/api/debug/{session}/pause-on-exceptions", `breakpoints {"action":"catch"}`},
	{"POST", "/api/debug/{session}/slow", `profile {"action":"slow"}`},
	{"GET", "/api/debug/{session}/alive", `profile {"action":"alive"}`},
	{"POST", "/api/debug/{session}/cpu/start", `profile {"action":"cpu-start"}`},
	{"POST", "/api/debug/{session}/cpu/stop", `profile {"action":"cpu-stop"}`},
	{"POST", "/api/debug/{session}/coverage/start", `profile {"action":"coverage-start"}`},
	{"POST", "/api/debug/{session}/heap/snapshot", `heap {"action":"snapshot"}`},
	{"POST", "/api/debug/{session}/heap/sampling/start", `heap {"action":"sample-start"}`},
	{"POST", "/api/debug/{session}/heap/tracking/start", `heap {"action":"snapshot"}`},
	{"GET", "/api/debug/{session}/jobs/{job}", `heap {"action":"job"}`},
	{"POST", "/api/debug/{session}/heap/retainers", `heap {"action":"retainers"}`},
	{"POST", "/api/debug/{session}/heap/leak/begin", `heap {"action":"leak-begin"}`},
	{"POST", "/api/debug/{session}/heap/leak/end", `heap {"action":"leak-end"}`},
	{"POST", "/api/debug/{session}/heap/leak", `heap {"action":"leak"}`},
	{"POST", "/api/debug/{session}/hotpatch", `patch {"action":"hotpatch"}`},
	{"POST", "/api/debug/{session}/restart", `patch {"action":"restart"}`},
}

// toolHint rewrites the routes a service hint names as the tools that reach them, so an agent
// is told which tool to call next, not an HTTP request.
func toolHint(hint string) string {
	hint = strings.ReplaceAll(hint, "GET /api/openapi.yaml", "tools/list (each tool's input schema)")
	return routepath.RewriteRoutes(hint, func(r routepath.Route) (string, bool) {
		for _, rt := range routeTools {
			if rt.method == r.Method && routepath.Match(rt.path, r.Path) {
				tool := rt.tool
				if strings.Contains(r.Body, `"mode":"debug"`) {
					tool += ` {"mode":"debug"}`
				}
				return "the tool " + tool, true
			}
		}
		return "", false
	})
}
