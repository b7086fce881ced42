// Package cli is traced's command-line client: one short command per debugging step, each a thin
// call of the REST API, answered in the API's compact text form.
//
// Every command is an entry of one table (table.go) that names the routes it calls; the
// contract test fails when a route has none, and --help-agent is generated from the same table.
// The package does no work at init: the CLI shares its binary with the service, and a command
// must cost little more than its request.
package cli

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
)

// Exit codes of a command.
const (
	ExitOK          = 0 // done
	ExitRefused     = 1 // the API refused, or the program under test failed
	ExitUsage       = 2 // the command line is wrong
	ExitUnreachable = 3 // no service answered
)

// Env is what a command reads from outside: its output streams, environment and directory.
type Env struct {
	Stdout, Stderr io.Writer
	Getenv         func(string) string
	Cwd            string
	Self           string // this binary, to start the service with
}

// OSEnv is the process's own environment.
func OSEnv() Env {
	cwd, _ := os.Getwd()
	self, err := os.Executable()
	if err != nil {
		self = os.Args[0]
	}
	return Env{Stdout: os.Stdout, Stderr: os.Stderr, Getenv: os.Getenv, Cwd: cwd, Self: self}
}

// cliError ends a command with an exit code, a message and the next command to try.
type cliError struct {
	code int
	msg  string
	hint string
	err  error // the cause, when there is one
}

func (e *cliError) Error() string { return e.msg }
func (e *cliError) Unwrap() error { return e.err }

func usageErr(format string, a ...any) error {
	return &cliError{code: ExitUsage, msg: fmt.Sprintf(format, a...)}
}

// IsCommand reports whether name starts a CLI command (not serve or run), so that main can
// dispatch: `traced state` is the CLI, `traced --addr X` still serves.
func IsCommand(args []string) bool {
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			return false
		}
		if a == "--help-agent" {
			return true
		}
		if !strings.HasPrefix(a, "-") {
			_, ok := lookup(args[i:])
			return ok
		}
		if g := globalFlag(a); g != nil && g.kind != kindBool && !strings.Contains(a, "=") {
			i++ // its value
		} else if g == nil {
			return false // a serve flag
		}
	}
	return false
}

// Main runs one command and returns its exit code.
func Main(args []string, env Env) int {
	if len(args) > 0 && args[0] == "--help-agent" {
		io.WriteString(env.Stdout, HelpAgent())
		return ExitOK
	}
	c, err := parseCall(args, env)
	if err == nil {
		err = c.cmd.run(c)
		c.close()
	}
	if err == nil {
		return ExitOK
	}
	var ce *cliError
	if !errors.As(err, &ce) {
		ce = &cliError{code: ExitRefused, msg: err.Error()}
	}
	if ce.msg != "" {
		fmt.Fprintf(env.Stderr, "error: %s\n", ce.msg)
	}
	if ce.hint != "" {
		fmt.Fprintf(env.Stderr, "hint: %s\n", ce.hint)
	} else if ce.code == ExitUsage && c != nil {
		fmt.Fprintf(env.Stderr, "usage: traced %s\n", c.cmd.synopsis())
	} else if ce.code == ExitUsage {
		fmt.Fprintln(env.Stderr, "hint: traced help lists the commands; traced --help-agent is the card")
	}
	return ce.code
}

// parseCall finds the command and parses its arguments and the global flags.
func parseCall(args []string, env Env) (*call, error) {
	cmd, ok := lookupAfterGlobals(args)
	if !ok {
		name := firstWord(args)
		if name == "" {
			return nil, usageErr("no command")
		}
		return nil, usageErr("unknown command %q", name)
	}
	c := &call{cmd: cmd, env: env}
	opts, pos, err := parseArgs(args, cmd)
	if err != nil {
		return c, err
	}
	c.opts, c.pos = opts, pos
	c.json = c.flag("json")
	if c.flag("help") {
		fmt.Fprintf(env.Stdout, "usage: traced %s\n  %s\n%s", cmd.synopsis(), cmd.help, cmd.flagHelp())
		c.cmd = &command{run: func(*call) error { return nil }}
		return c, nil
	}
	if n := len(c.pos); n < cmd.minArgs || (cmd.maxArgs >= 0 && n > cmd.maxArgs) {
		return c, usageErr("%s takes %s", cmd.name, argCount(cmd.minArgs, cmd.maxArgs))
	}
	return c, nil
}

func argCount(lo, hi int) string {
	switch {
	case hi < 0:
		return fmt.Sprintf("at least %d argument(s)", lo)
	case lo == hi && lo == 0:
		return "no argument"
	case lo == hi:
		return fmt.Sprintf("%d argument(s)", lo)
	}
	return fmt.Sprintf("%d to %d arguments", lo, hi)
}

func firstWord(args []string) string {
	for _, a := range args {
		if !strings.HasPrefix(a, "-") {
			return a
		}
	}
	return ""
}
