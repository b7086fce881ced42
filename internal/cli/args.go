package cli

import (
	"strconv"
	"strings"
)

// flagKind says whether a flag takes a value and whether it repeats.
type flagKind int

const (
	kindBool flagKind = iota
	kindString
	kindList // repeatable; each use adds a value
)

// flagDef is one flag of a command. Flags may come anywhere among the arguments (`break app.js:7
// --condition 'i > 2'`), unlike the flag package, which stops at the first argument.
type flagDef struct {
	name  string // long name, without dashes
	short string // one letter, or ""
	kind  flagKind
	help  string
}

// globals are the flags every command takes.
var globals = []flagDef{
	{name: "session", kind: kindString, help: "the session, by name or id (default: the newest one, live or ended)"},
	{name: "target", kind: kindString, help: "the worker or child process (t1, t2...: `traced targets`) a debugger command acts in (default: the one paused last)"},
	{name: "json", kind: kindBool, help: "answer JSON instead of the compact text form"},
	{name: "addr", kind: kindString, help: "the service's address (default: the one this user's CLI started, else 127.0.0.1:7777)"},
	{name: "root", kind: kindString, help: "workspace root of a service started on demand (default: the current directory)"},
	{name: "help", short: "h", kind: kindBool, help: "this command's usage"},
}

func globalFlag(arg string) *flagDef {
	name := strings.TrimLeft(arg, "-")
	if i := strings.IndexByte(name, '='); i >= 0 {
		name = name[:i]
	}
	for i := range globals {
		if globals[i].name == name || (globals[i].short != "" && globals[i].short == name) {
			return &globals[i]
		}
	}
	return nil
}

// parseArgs splits args (the command's words included) into flag values and positionals.
// After `--`, or after the first positional of a command that passes a program its arguments
// (launch, trace), everything is positional.
func parseArgs(args []string, cmd *command) (map[string][]string, []string, error) {
	opts := map[string][]string{}
	var pos []string
	words := len(strings.Fields(cmd.name))
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			pos = append(pos, args[i+1:]...)
			break
		}
		if !strings.HasPrefix(a, "-") || a == "-" || isNumber(a) {
			if words > 0 {
				words-- // the command's own name
				continue
			}
			if cmd.passThrough {
				pos = append(pos, args[i:]...)
				break
			}
			pos = append(pos, a)
			continue
		}
		name, value, hasValue := strings.Cut(strings.TrimLeft(a, "-"), "=")
		f := cmd.flagDef(name)
		if f == nil {
			return nil, nil, usageErr("%s: unknown flag %s", cmd.name, a)
		}
		if f.kind == kindBool {
			if hasValue {
				return nil, nil, usageErr("%s: --%s takes no value", cmd.name, f.name)
			}
			opts[f.name] = []string{"true"}
			continue
		}
		if !hasValue {
			if i+1 >= len(args) {
				return nil, nil, usageErr("%s: --%s needs a value", cmd.name, f.name)
			}
			i++
			value = args[i]
		}
		if f.kind == kindString {
			opts[f.name] = []string{value}
		} else {
			opts[f.name] = append(opts[f.name], value)
		}
	}
	return opts, pos, nil
}

// isNumber lets negative numbers through as arguments (`set x -1`).
func isNumber(s string) bool {
	_, err := strconv.ParseFloat(s, 64)
	return err == nil
}

// flagDef finds a command's flag or a global one by long or short name.
func (cmd *command) flagDef(name string) *flagDef {
	for i := range cmd.flags {
		f := &cmd.flags[i]
		if f.name == name || (f.short != "" && f.short == name) {
			return f
		}
	}
	return globalFlag(name)
}

// intArg parses a number given by the user, naming the flag or argument on failure.
func intArg(what, s string) (int, error) {
	n, err := strconv.Atoi(s)
	if err != nil || n < 0 {
		return 0, usageErr("%s: %q is not a number", what, s)
	}
	return n, nil
}

// frameArg accepts a frame as f1, @f1 or 1.
func frameArg(s string) (int, error) {
	return intArg("frame", strings.TrimPrefix(strings.TrimPrefix(s, "@"), "f"))
}

// refArg accepts a ref with or without the spec's @ (v1, @v1; bp1, BP#1).
func refArg(s string) string {
	s = strings.TrimPrefix(s, "@")
	if rest, ok := strings.CutPrefix(strings.ToUpper(s), "BP#"); ok {
		return "bp" + rest
	}
	if rest, ok := strings.CutPrefix(strings.ToUpper(s), "LP#"); ok {
		return "lp" + rest
	}
	if rest, ok := strings.CutPrefix(strings.ToUpper(s), "HS#"); ok {
		return "hs" + rest
	}
	return s
}
