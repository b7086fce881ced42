// Command traced runs Node.js programs under the V8 inspector and serves what they do over a
// REST + WebSocket API (traced serve), or traces one program in-process (traced run).
package main

import (
	"fmt"
	"os"
)

// version is the service version reported by /api/trace/status.
const version = "0.1.0"

const usage = `traced runs Node.js programs under the V8 inspector and tells what they did.

Usage:
  traced [serve] [flags]          serve the REST + WebSocket API on loopback
  traced run [flags] <script> [args...]
                                  trace one program here, print its events, exit with its code
  traced --version [--node path]  traced's version, the node it runs and that node's features
  traced <command> --help         flags of a command
`

func main() {
	args := os.Args[1:]
	cmd := "serve"
	if len(args) > 0 && (args[0] == "serve" || args[0] == "run") {
		cmd, args = args[0], args[1:]
	} else if len(args) > 0 && isVersion(args[0]) {
		os.Exit(printVersion(args[1:], os.Stdout))
	} else if len(args) > 0 && (args[0] == "help" || args[0] == "-h" || args[0] == "--help" || args[0] == "-help") {
		fmt.Print(usage)
		return
	}
	var code int
	switch cmd {
	case "serve":
		code = serve(args)
	case "run":
		code = run(args)
	}
	os.Exit(code)
}
