package cli

import "strings"

// ClientCall reports whether args run a client command, not the service, its version or its
// usage: the one dispatch rule of both entries (cmd/traced, which holds everything, and
// cmd/traced-cli, the light one). A word that is no command ("traced rnu x.js") is the client's
// usage error, never a server.
func ClientCall(args []string) bool {
	if len(args) == 0 {
		return false // plain traced serves
	}
	switch args[0] {
	case "serve", "run", "mcp", "dap", "version", "--version", "-version", "help", "-h", "--help", "-help":
		return false
	}
	return IsCommand(args) || !strings.HasPrefix(args[0], "-")
}
