package cli

import (
	"strings"
	"sync"

	"traced/internal/routepath"
)

// command is one CLI command: its words, what it takes, the routes it calls and how it runs.
type command struct {
	name    string   // one to three words: "state", "heap diff", "heap sample start"
	usage   string   // what follows the name
	routes  []string // "METHOD /path" as the contract spells them
	help    string   // one line
	group   string   // the card's section
	core    bool     // on the --help-agent card
	flags   []flagDef
	minArgs int
	maxArgs int // -1: no bound
	// passThrough: after the first positional every word is the program's (launch, trace).
	passThrough bool
	autostart   bool // starts the service when none answers (launch, trace, attach)
	run         func(*call) error
}

func (cmd *command) synopsis() string {
	return strings.TrimSpace(cmd.name + " " + cmd.usage)
}

func (cmd *command) flagHelp() string {
	var b strings.Builder
	for _, f := range append(append([]flagDef(nil), cmd.flags...), globals...) {
		b.WriteString("  --" + f.name)
		if f.short != "" {
			b.WriteString(", -" + f.short)
		}
		b.WriteString("  " + f.help + "\n")
	}
	return b.String()
}

// Groups of the card and of `traced help`, in their order.
const (
	gSession = "session"
	gBreak   = "breakpoints"
	gExec    = "execution (each answers the state at the next pause)"
	gInspect = "inspect"
	gMutate  = "mutate"
	gProfile = "profile"
	gEvents  = "events"
	gService = "service"
)

var groupOrder = []string{gSession, gBreak, gExec, gInspect, gMutate, gProfile, gEvents, gService}

// Flags shared by several commands.
var (
	waitFlag = flagDef{name: "wait", kind: kindString, help: "how long to wait for the next pause, e.g. 10s (default 5s)"}
	condFlag = flagDef{name: "condition", kind: kindString, help: "pause only when this expression is truthy"}
	hitFlag  = flagDef{name: "hit-count", kind: kindString, help: "pause only on the Nth hit"}
	topFlag  = flagDef{name: "top", kind: kindString, help: "rows to show"}
	outFlag  = flagDef{name: "out", short: "o", kind: kindString, help: "write to this file instead of stdout"}
)

// dbg is the route of a debug operation on the chosen session.
func dbg(method, path string) string { return method + " /api/debug/{session}/" + path }

var (
	tableOnce sync.Once
	table     []*command
)

// commands is the table, built on first use so that no command costs anything at init.
func commands() []*command {
	tableOnce.Do(func() {
		table = append(append(append(sessionCommands(), debugCommands()...), inspectCommands()...), profileCommands()...)
		table = append(append(table, eventCommands()...), serviceCommands()...)
	})
	return table
}

// lookup finds the command whose words start args (the longest match: "heap sample start").
func lookup(args []string) (*command, bool) {
	var best *command
	for _, cmd := range commands() {
		words := strings.Fields(cmd.name)
		if len(words) > len(args) || (best != nil && len(words) <= len(strings.Fields(best.name))) {
			continue
		}
		match := true
		for i, w := range words {
			if args[i] != w {
				match = false
				break
			}
		}
		if match {
			best = cmd
		}
	}
	return best, best != nil
}

// lookupAfterGlobals skips global flags placed before the command (`traced --json state`).
func lookupAfterGlobals(args []string) (*command, bool) {
	for i := 0; i < len(args); i++ {
		a := args[i]
		if !strings.HasPrefix(a, "-") {
			return lookup(args[i:])
		}
		if g := globalFlag(a); g != nil && g.kind != kindBool && !strings.Contains(a, "=") {
			i++
		}
	}
	return nil, false
}

// Routes lists every route some command calls, "METHOD /path", for the contract test.
func Routes() map[string]string {
	out := map[string]string{}
	for _, cmd := range commands() {
		for _, r := range cmd.routes {
			if _, ok := out[r]; !ok {
				out[r] = cmd.name
			}
		}
	}
	return out
}

// routeCommand is the command that calls a route, how a hint names it in CLI words: the one
// whose first route it is (state, not launch, for GET state), else any that calls it.
func routeCommand(method, path string) *command {
	for _, primary := range []bool{true, false} {
		for _, cmd := range commands() {
			for i, r := range cmd.routes {
				m, p, _ := strings.Cut(r, " ")
				if m == method && routepath.Match(p, path) && (i == 0 || !primary) {
					return cmd
				}
			}
		}
	}
	return nil
}
