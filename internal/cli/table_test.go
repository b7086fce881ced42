package cli

import (
	"sort"
	"strings"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"

	"traced/api"
)

// TestEveryRouteHasACommand walks the contract: a route no command calls fails, and so does a
// command naming a route the contract lacks (a typo, or a route removed).
func TestEveryRouteHasACommand(t *testing.T) {
	doc, err := openapi3.NewLoader().LoadFromData(api.Spec)
	if err != nil {
		t.Fatal(err)
	}
	covered := Routes()
	contract := map[string]bool{}
	for path, item := range doc.Paths.Map() {
		for method := range item.Operations() {
			route := method + " " + path
			contract[route] = true
			if _, ok := covered[route]; !ok {
				t.Errorf("%s has no command: add one to the table (internal/cli)", route)
			}
		}
	}
	var extra []string
	for route, cmd := range covered {
		if !contract[route] {
			extra = append(extra, route+" (command "+cmd+")")
		}
	}
	sort.Strings(extra)
	for _, e := range extra {
		t.Errorf("the table names %s, which the contract lacks", e)
	}
	if len(contract) < 70 {
		t.Fatalf("only %d routes in the contract: the walk is broken", len(contract))
	}
}

// TestTable: names are unique, each command has help and runs something, and usage strings
// are what `traced CMD --help` shows.
func TestTable(t *testing.T) {
	seen := map[string]bool{}
	for _, cmd := range commands() {
		if seen[cmd.name] {
			t.Errorf("command %q twice", cmd.name)
		}
		seen[cmd.name] = true
		if cmd.help == "" || cmd.run == nil || cmd.group == "" {
			t.Errorf("command %q lacks help, run or group", cmd.name)
		}
		if got, ok := lookup(strings.Fields(cmd.name + " x")); !ok || got != cmd {
			t.Errorf("lookup(%q) finds %v", cmd.name, got)
		}
	}
}

// TestHelpAgentCard: the card fits an agent's context and holds the loop, refs and patterns.
func TestHelpAgentCard(t *testing.T) {
	card := HelpAgent()
	if len(card) > 2000 {
		t.Errorf("card is %d bytes, want at most 2000", len(card))
	}
	for _, want := range []string{"launch [--brk]", "continue", "step [over|into|out]", "eval EXPR", "v1", "bp1",
		"crash:", "hunt:", "leak:", "heap diff"} {
		if !strings.Contains(card, want) {
			t.Errorf("card lacks %q:\n%s", want, card)
		}
	}
}

// TestCLIHint: the routes a service hint names become the commands that call them.
func TestCLIHint(t *testing.T) {
	tests := []struct{ in, want string }{
		{"process is running; POST /api/debug/s1/pause", "process is running; traced pause"},
		{"value refs last until the program moves on: GET /api/debug/s1/state gives fresh ones; GET /api/debug/s1/props?ref=v1 keeps a value as an o ref",
			"value refs last until the program moves on: traced state gives fresh ones; traced props v1 keeps a value as an o ref"},
		{`start a debug session: POST /api/trace/start {"target":...,"mode":"debug"}`, "start a debug session: traced launch"},
		{"DELETE /api/debug/s1/breakpoints/{ref} first", "traced break-rm REF first"},
		{"POST /api/debug/dbg/cpu/start first", "traced cpu start first"},
		{"no route here", "no route here"},
	}
	for _, tt := range tests {
		if got := cliHint(tt.in); got != tt.want {
			t.Errorf("cliHint(%q)\n = %q\nwant %q", tt.in, got, tt.want)
		}
	}
}

func TestIsCommand(t *testing.T) {
	tests := []struct {
		args []string
		want bool
	}{
		{[]string{"state"}, true},
		{[]string{"--json", "state"}, true},
		{[]string{"--session", "dbg", "step", "into"}, true},
		{[]string{"heap", "diff", "hs1", "hs2"}, true},
		{[]string{"--help-agent"}, true},
		{nil, false},
		{[]string{"--addr", "127.0.0.1:0"}, false}, // serve's flags
		{[]string{"--allow-remote", "--addr", "0.0.0.0:1"}, false},
		{[]string{"serve"}, false},
		{[]string{"frobnicate"}, false},
	}
	for _, tt := range tests {
		if got := IsCommand(tt.args); got != tt.want {
			t.Errorf("IsCommand(%q) = %v, want %v", tt.args, got, tt.want)
		}
	}
}

func TestParseArgs(t *testing.T) {
	launch, _ := lookup([]string{"launch"})
	opts, pos, err := parseArgs([]string{"launch", "--brk", "-b", "a.js:3:x > 1", "--name=n", "app.js", "--port", "1"}, launch)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.EqualFold(strings.Join(pos, " "), "app.js --port 1") || opts["name"][0] != "n" || opts["break"][0] != "a.js:3:x > 1" || opts["brk"] == nil {
		t.Errorf("opts %v pos %q", opts, pos)
	}
	set, _ := lookup([]string{"set"})
	if _, pos, err := parseArgs([]string{"set", "x", "-1"}, set); err != nil || len(pos) != 2 || pos[1] != "-1" {
		t.Errorf("set x -1: %q %v", pos, err)
	}
	if _, _, err := parseArgs([]string{"state", "--bogus"}, set); err == nil {
		t.Error("an unknown flag was accepted")
	}
}
