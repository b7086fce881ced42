package cli

import (
	"fmt"
	"strings"
)

// cardHead and cardPatterns frame the generated command list of the --help-agent card.
const cardHead = `traced: debug Node.js from the shell, one command a step.
Loop: launch --break FILE:LINE -- app.js (answers the pause) > vars/eval/props > step|continue (each answers the new state) > stop.
Refs: v1 values, f0 frames (until the program moves on), o1 kept objects, bp1/lp1 breakpoints, hs1 snapshots.
Session: the newest one (live or ended; answers name it), or --session NAME|ID. Workers and children are targets (traced targets): a command acts in the one paused last, or --target tN; continue --all resumes every paused one. Text, or --json.
Exit: 0 ok, 1 refused or the program failed, 2 usage, 3 no service. A service starts on demand, rooted where it starts (programs outside are refused); traced service stop ends it.
`

const cardPatterns = `Patterns:
crash: trace -- app.js (output, exit, evidence: correlation, not cause) > launch --catch uncaught -- app.js (the pause at the throw) > eval
hunt: launch --break 'app.js:47:job.retries > 2' -- app.js > eval job > step > continue
tests: trace --node-arg --test -- x.test.js (failing tests, assertion line, expected/received)
caught: launch --catch caught -- app.js > (trigger it) > wait --kinds pause > eval --frame f1
leak: launch -- app.js > leak begin > (load it) > leak end (what was born and stays, the path holding it) > heap retainers HS --class C
More: traced help; traced CMD --help.
`

// HelpAgent is the compact card for an agent's context: the loop, refs, the core commands of
// the table by group, and three patterns.
func HelpAgent() string {
	var b strings.Builder
	b.WriteString(cardHead)
	for _, g := range groupOrder {
		var names []string
		for _, cmd := range commands() {
			if cmd.group == g && cmd.core {
				names = append(names, cardEntry(cmd))
			}
		}
		if len(names) > 0 {
			fmt.Fprintf(&b, "%s: %s\n", g, strings.Join(names, "; "))
		}
	}
	b.WriteString(cardPatterns)
	return b.String()
}

// cardEntry is a command on the card: its synopsis without optional flags, but for launch's
// --brk and --break, which the loop needs.
func cardEntry(cmd *command) string {
	if cmd.name == "launch" {
		return "launch [--brk] [--break F:L[:COND]]... [--node-arg --test] -- SCRIPT"
	}
	if cmd.name == "eval" {
		return "eval EXPR [--frame fN]"
	}
	var b strings.Builder
	depth, skip := 0, false
	for i := 0; i < len(cmd.usage); i++ {
		ch := cmd.usage[i]
		if ch == '[' {
			if depth == 0 {
				skip = strings.HasPrefix(cmd.usage[i:], "[--")
			}
			depth++
		}
		if !skip {
			b.WriteByte(ch)
		}
		if ch == ']' {
			if depth--; depth == 0 {
				skip = false
			}
		}
	}
	return strings.Join(strings.Fields(cmd.name+" "+b.String()), " ")
}

// Usage lists every command by group, for `traced help`.
func Usage() string {
	var b strings.Builder
	b.WriteString("traced <command> [args] [--session NAME|ID] [--target tN] [--json] [--addr HOST:PORT]\n")
	for _, g := range groupOrder {
		fmt.Fprintf(&b, "\n%s:\n", g)
		for _, cmd := range commands() {
			if cmd.group == g {
				if syn := cmd.synopsis(); len(syn) <= 28 {
					fmt.Fprintf(&b, "  %-28s %s\n", syn, cmd.help)
				} else {
					fmt.Fprintf(&b, "  %s\n  %-28s %s\n", syn, "", cmd.help)
				}
			}
		}
	}
	return b.String()
}
