package main

import (
	"context"
	"flag"
	"fmt"
	"io"

	"traced/internal/engine"
)

// printVersion writes traced's version, then the node it would run and what that node line
// can do (live edit is gone on 26; native TypeScript from 22.18). Node missing is not an error:
// the service still starts and says so.
func printVersion(args []string, w io.Writer) int {
	fs := flag.NewFlagSet("version", flag.ContinueOnError)
	nodeFlag := fs.String("node", "", "node binary (default: node on PATH)")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	fmt.Fprintf(w, "traced %s\n", version)
	node, err := engine.FindNode(*nodeFlag)
	if err != nil {
		fmt.Fprintf(w, "node: not found (%v); traced supports node 20, 22, 24 and 26\n", err)
		return 0
	}
	f, err := engine.ProbeNode(context.Background(), node)
	if err != nil {
		fmt.Fprintf(w, "node: %s: %v\n", node, err)
		return 0
	}
	ts := f.TypeScript
	if ts == "" {
		ts = "no"
	}
	fmt.Fprintf(w, "node %s (%s)\n  live edit (hotpatch): %s\n  native TypeScript: %s\n", f.Version, node, yesNo(f.LiveEdit), ts)
	return 0
}

func yesNo(b bool) string {
	if b {
		return "yes"
	}
	return "no (use POST /api/debug/{session}/restart)"
}

// isVersion reports whether the first argument asks for the version.
func isVersion(arg string) bool {
	return arg == "version" || arg == "--version" || arg == "-version"
}
