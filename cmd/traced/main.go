// Command traced runs Node.js programs under the V8 inspector and serves what they do over a
// REST + WebSocket API (traced serve), traces one program in-process (traced run), or drives a
// service from the shell, one command a debugging step (traced launch, state, step...).
package main

import (
	"fmt"
	"os"

	"traced/internal/cli"
	"traced/internal/shim"
)

// version is the service version reported by /api/trace/status.
const version = "0.1.0"

const usage = `traced runs Node.js programs under the V8 inspector and tells what they did.

Usage:
  traced [serve] [flags]          serve the REST + WebSocket API on loopback
  traced run [flags] <script> [args...]
                                  trace one program here, print its events, exit with its code
  traced mcp [--root DIR] [--tools all|core]
                                  serve MCP tools on stdio (what an MCP client launches)
  traced dap                      serve the Debug Adapter Protocol on stdio (what an editor launches)
  traced --version [--node path]  traced's version, the node it runs and that node's features
  traced <command> [args]         a debugger command, a thin client of the service (below)
  traced --help-agent             the compact card for an agent
  traced <command> --help         flags of a command
`

func main() {
	args := os.Args[1:]
	if len(args) > 0 && args[0] == shim.Arg { // a session's shim, started by the service
		os.Exit(shim.Main(args[1:]))
	}
	cmd := "serve"
	if len(args) > 0 && (args[0] == "serve" || args[0] == "run" || args[0] == "mcp" || args[0] == "dap") {
		cmd, args = args[0], args[1:]
	} else if len(args) > 0 && isVersion(args[0]) {
		os.Exit(printVersion(args[1:], os.Stdout))
	} else if len(args) > 0 && (args[0] == "help" || args[0] == "-h" || args[0] == "--help" || args[0] == "-help") {
		if len(args) > 1 && cli.IsCommand(args[1:]) {
			os.Exit(cli.Main(append(args[1:], "--help"), cli.OSEnv()))
		}
		fmt.Print(usage, "\nCommands of the client:\n", cli.Usage())
		return
	} else if cli.ClientCall(args) {
		// The client path: nothing of the service is set up here. bin/traced is the light entry
		// (cmd/traced-cli), which does not even link the service; this binary is its server.
		os.Exit(cli.Main(args, cli.OSEnv()))
	}
	var code int
	switch cmd {
	case "serve":
		code = serve(args)
	case "run":
		code = run(args)
	case "mcp":
		code = mcpServe(args)
	case "dap":
		code = dapServe(args)
	}
	os.Exit(code)
}
