package mcpserver

import "testing"

// TestToolHint: the routes a service hint names become the tools that reach them; a route no
// tool reaches is left as the service wrote it.
func TestToolHint(t *testing.T) {
	cases := []struct{ in, want string }{
		{"process is running; POST /api/debug/s1/pause", `process is running; the tool step {"action":"pause"}`},
		{`start a debug session: POST /api/trace/start {"target":...,"mode":"debug"}`, `start a debug session: the tool start {"mode":"debug"}`},
		{"GET /api/trace/list shows the retained sessions", "the tool sessions shows the retained sessions"},
		{"value refs last until the program moves on: GET /api/debug/s1/state gives fresh ones; GET /api/debug/s1/props?ref=v1 keeps a value as an o ref",
			"value refs last until the program moves on: the tool state gives fresh ones; the tool inspect keeps a value as an o ref"},
		{"DELETE /api/debug/hunt/breakpoints/{ref} first", `the tool breakpoints {"action":"remove"} first`},
		{"POST /api/debug/s1/cpu/start first", `the tool profile {"action":"cpu-start"} first`},
		{"POST /api/debug/s1/heap/leak/begin opens one: drive the load, then POST /api/debug/s1/heap/leak/end; POST /api/debug/s1/heap/leak with an expression opens and closes its own",
			`the tool heap {"action":"leak-begin"} opens one: drive the load, then the tool heap {"action":"leak-end"}; the tool heap {"action":"leak"} with an expression opens and closes its own`},
		{"the ids are in the answers of POST /api/debug/s1/heap/retainers (by class)", `the ids are in the answers of the tool heap {"action":"retainers"} (by class)`},
		{"GET /api/debug/s1/contexts lists them", "GET /api/debug/s1/contexts lists them"},
		{"see GET /api/openapi.yaml for the request schema", "see tools/list (each tool's input schema) for the request schema"},
	}
	for _, c := range cases {
		if got := toolHint(c.in); got != c.want {
			t.Errorf("toolHint(%q)\n got %q\nwant %q", c.in, got, c.want)
		}
	}
}
