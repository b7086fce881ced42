package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"syscall"

	"traced/internal/engine/proctree"
	"traced/internal/mcpserver"
	"traced/internal/service"
)

// mcpServe serves traced's MCP tools on stdin/stdout with an engine of its own: what an MCP
// client launches. The workspace root is the working directory unless --root says otherwise.
// Nothing listens on a port: the tools reach the API in process.
func mcpServe(args []string) int {
	fs := newFlagSet("mcp", "traced mcp [--root DIR] [--tools all|core] [flags]")
	var ef engineFlags
	ef.register(fs)
	tools := fs.String("tools", "all", "the tool set: all, or core (start, stop, step, state, eval, breakpoints, wait, events, evidence)")
	dataDir := fs.String("data-dir", "", "parent of each session's directory of heap snapshots and profiles (default: the system temp dir)")
	logLevel := fs.String("log-level", "warn", "debug, info, warn or error (the log goes to stderr)")
	if err := fs.Parse(args); err != nil {
		return exitUsage(err)
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(os.Stderr, "traced mcp: unexpected argument %q (traced mcp --help)\n", fs.Arg(0))
		return 2
	}
	// Checked before the engine is made (service.New checks it too, but after): making it
	// creates the data dir and reaps what a killed service left, not for a refused flag.
	if err := mcpserver.CheckTools(*tools); err != nil {
		fmt.Fprintln(os.Stderr, "traced mcp: --tools:", err)
		return 2
	}
	log, err := newLogger(*logLevel)
	if err != nil {
		fmt.Fprintln(os.Stderr, "traced mcp:", err)
		return 2
	}
	if err := ef.validate(); err != nil {
		fmt.Fprintln(os.Stderr, "traced:", err)
		return 2
	}
	cfg, err := ef.config()
	if err != nil {
		log.Warn("node not found; the tool start will refuse until it is installed", "err", err)
	}
	cfg.DataDir = *dataDir
	if err := proctree.EnableSubreaper(); err != nil {
		log.Warn("not a child subreaper: a stop may miss processes that left a session's tree", "err", err)
	}
	// No token: nothing listens, and the only caller is this process's MCP server.
	svc, err := service.New(service.Options{Engine: cfg, Version: version, Logger: log, MCPTools: *tools})
	if err != nil {
		fmt.Fprintln(os.Stderr, "traced mcp:", err)
		return 2
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	// The line transport answers a malformed line instead of ending the session.
	runErr := svc.MCP.Run(ctx, &mcpserver.LineTransport{In: os.Stdin, Out: os.Stdout})
	sctx, cancel := context.WithTimeout(context.Background(), shutdownGrace)
	defer cancel()
	if err := svc.Shutdown(sctx); err != nil {
		log.Warn("shutdown", "err", err)
	}
	if runErr != nil && ctx.Err() == nil {
		log.Error("mcp", "err", runErr)
		return 1
	}
	return 0
}
