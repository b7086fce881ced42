package engine

import (
	"fmt"
	"slices"
	"strings"
)

// Node flags a start may not pass. The inspector is traced's own: a second one, or a debug port,
// would leave the program waiting for a debugger that never comes or open it to anyone. The
// rest replace the program (eval, print, a REPL, a package script) or run none (check, version).
var (
	ownedFlagPrefixes = []string{"--inspect", "--debug"}
	noProgramFlags    = map[string]bool{"-e": true, "--eval": true, "-p": true, "--print": true, "-i": true,
		"--interactive": true, "-c": true, "--check": true, "-v": true, "--version": true, "-h": true,
		"--help": true, "--run": true, "--v8-options": true, "--": true, "-": true}
)

// checkNodeArgs refuses node flags traced owns or that replace the program, naming the field.
func checkNodeArgs(args []string) error {
	for i, a := range args {
		name, _, _ := strings.Cut(a, "=")
		field := fmt.Sprintf("nodeArgs.%d", i)
		switch {
		case a == "":
			return fmt.Errorf("%s: %w: an empty flag", field, ErrBadInput)
		case strings.ContainsRune(a, 0):
			return fmt.Errorf("%s: %w: a NUL byte", field, ErrBadInput)
		case slices.ContainsFunc(ownedFlagPrefixes, func(p string) bool { return strings.HasPrefix(name, p) }):
			return fmt.Errorf("%s: %w: %s is traced's own (the inspector it debugs through); start node with it yourself and attach to it instead", field, ErrBadInput, name)
		case noProgramFlags[name]:
			return fmt.Errorf("%s: %w: %s replaces the program or runs none; put the code in a file and give it as target", field, ErrBadInput, name)
		}
	}
	return nil
}

// runsTests says whether node runs its test runner (--test): the main process then runs no
// program of the user's, so it has no first-line break; each test file runs in a child.
func runsTests(nodeArgs []string) bool {
	return slices.ContainsFunc(nodeArgs, func(a string) bool { return a == "--test" || strings.HasPrefix(a, "--test=") })
}
