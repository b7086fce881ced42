// Command traced-cli is traced's light entry, installed as `traced`: a client command (launch,
// state, step...) runs here without linking the service's packages, whose initialisation (the
// OpenAPI schema, the validator, the OTLP exporter) would cost every command tens of
// milliseconds; everything else (serve, run, mcp, dap, --version, help) is the server binary,
// traced-server beside it (cmd/traced), exec'd in this process's place so that its pid, its
// stdio and the socket the CLI hands a service it starts stay as they are.
package main

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"

	"traced/internal/cli"
)

// serverName is the server binary's name, looked for beside this one first, then on PATH.
const serverName = "traced-server"

func main() {
	args := os.Args[1:]
	server, serr := serverPath()
	if cli.ClientCall(args) {
		env := cli.OSEnv()
		if serr == nil {
			env.Self = server // the service it starts on demand runs as the server binary itself
		}
		os.Exit(cli.Main(args, env))
	}
	if serr != nil {
		fmt.Fprintf(os.Stderr, "traced: %v\n", serr)
		os.Exit(127)
	}
	err := syscall.Exec(server, append([]string{server}, args...), os.Environ())
	fmt.Fprintf(os.Stderr, "traced: run %s: %v\n", server, err)
	os.Exit(127)
}

// serverPath finds traced-server: beside this binary (make build puts both in bin/), else on PATH.
func serverPath() (string, error) {
	if self, err := os.Executable(); err == nil {
		if real, err := filepath.EvalSymlinks(self); err == nil {
			self = real
		}
		p := filepath.Join(filepath.Dir(self), serverName)
		if fi, err := os.Stat(p); err == nil && !fi.IsDir() {
			return p, nil
		}
	}
	p, err := exec.LookPath(serverName)
	if err != nil {
		if errors.Is(err, exec.ErrNotFound) {
			return "", fmt.Errorf("%s is neither beside this binary nor on PATH: make build builds both (or go build -o traced-server ./cmd/traced)", serverName)
		}
		return "", fmt.Errorf("find %s: %w", serverName, err)
	}
	return p, nil
}
