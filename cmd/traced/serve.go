package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"net"
	"net/netip"
	"os"
	"os/signal"
	"syscall"
	"time"

	"traced/internal/cli"
	"traced/internal/dap"
	"traced/internal/engine"
	"traced/internal/engine/proctree"
	"traced/internal/mcpserver"
	"traced/internal/routes"
	"traced/internal/service"
)

// shutdownGrace bounds a graceful stop: children are killed, streams closed with 1001.
const shutdownGrace = 5 * time.Second

func serve(args []string) int {
	fs := newFlagSet("serve", "traced [serve] [flags]")
	var ef engineFlags
	ef.register(fs)
	var of otlpFlags
	of.register(fs)
	addr := fs.String("addr", "127.0.0.1:7777", "listen address; non-loopback needs --allow-remote too")
	allowRemote := fs.Bool("allow-remote", false, "allow a non-loopback --addr (the API runs code: refused with --no-auth)")
	noAuth := fs.Bool("no-auth", false, "serve without the bearer token (any local process can then run code); loopback only")
	var origins listFlag
	fs.Var(&origins, "allow-origin", "an exact browser Origin allowed to call the API (repeatable)")
	maxBody := fs.Int64("max-body", routes.DefaultMaxBodyBytes, "request body cap in bytes")
	logLevel := fs.String("log-level", "info", "debug, info, warn or error")
	dataDir := fs.String("data-dir", "", "parent of each session's directory of heap snapshots and profiles (default: the system temp dir)")
	maxHeapDisk := fs.Int64("max-heap-disk", engine.DefaultMaxHeapDiskBytes, "bytes of heap snapshots one session may keep; a snapshot past it is refused (409)")
	inspectorTimeout := fs.Duration("inspector-timeout", engine.DefaultInspectorTimeout, "bound on one debugger call to node that sets none of its own; past it 504 inspector_timeout")
	listenFD := fs.Int("listen-fd", -1, "serve on this inherited listening socket instead of binding --addr (the CLI starts the service this way)")
	idleTimeout := fs.Duration("idle-timeout", 0, "exit once no session has been live for this long (0: never)")
	record := fs.String("service-record", "", "a service record (written by the CLI) to remove at exit when it names this process")
	mcpTools := fs.String("mcp-tools", "all", "the MCP tools served at /mcp: all, or core")
	dapPort := fs.Int("dap-port", 0, "also serve the Debug Adapter Protocol on 127.0.0.1:PORT (an editor's debugServer); clients give the token in launch or attach arguments")
	if err := fs.Parse(args); err != nil {
		return exitUsage(err)
	}
	// serve takes no arguments: one here is most likely a misspelt command ("traced rnu x.js"),
	// which must not start a server, let alone on the default address (parsing stopped there).
	if fs.NArg() > 0 {
		fmt.Fprintf(os.Stderr, "traced: unexpected argument %q: the commands are serve and run (traced --help)\n", fs.Arg(0))
		return 2
	}
	// Checked before the token is written (service.New checks it too, but after): a refused
	// flag must not replace the token file another service's clients read.
	if err := mcpserver.CheckTools(*mcpTools); err != nil {
		fmt.Fprintln(os.Stderr, "traced: --mcp-tools:", err)
		return 2
	}
	if err := of.check(); err != nil {
		fmt.Fprintln(os.Stderr, "traced:", err)
		return 2
	}
	if *inspectorTimeout <= 0 {
		fmt.Fprintln(os.Stderr, "traced: --inspector-timeout must be a positive duration")
		return 2
	}
	if *maxHeapDisk <= 0 {
		fmt.Fprintln(os.Stderr, "traced: --max-heap-disk must be a positive number of bytes")
		return 2
	}
	log, err := newLogger(*logLevel)
	if err != nil {
		fmt.Fprintln(os.Stderr, "traced:", err)
		return 2
	}
	// Orphans of a session's tree (detached, setsid) become ours, so a stop still finds them.
	if err := proctree.EnableSubreaper(); err != nil {
		log.Warn("not a child subreaper: a stop may miss processes that left a session's tree", "err", err)
	}

	// A remote listener without a token runs code for anyone who reaches the port.
	if *allowRemote && *noAuth {
		fmt.Fprintln(os.Stderr, "traced: --no-auth cannot go with --allow-remote: anyone who reaches a remote listener could run code, so it needs the token; drop --no-auth (clients send Authorization: Bearer <token>)")
		return 2
	}
	var ln net.Listener
	if *listenFD >= 0 {
		// Bound by the parent: take it first, so the address checked is the one served.
		if ln, err = inheritedListener(*listenFD); err != nil {
			fmt.Fprintln(os.Stderr, "traced:", err)
			return 2
		}
		defer ln.Close() // on the early returns; Serve closes it otherwise
		*addr = ln.Addr().String()
	}
	if *record != "" {
		defer cli.RemoveRecord(*record, os.Getpid())
	}
	bound, err := checkAddr(*addr, *allowRemote)
	if err != nil {
		fmt.Fprintln(os.Stderr, "traced:", err)
		return 2
	}
	if err := ef.validate(); err != nil {
		fmt.Fprintln(os.Stderr, "traced:", err)
		return 2
	}
	cfg, err := ef.config()
	if err != nil {
		log.Warn("node not found; /api/trace/start will refuse until it is installed", "err", err)
	}
	cfg.DataDir, cfg.MaxHeapDiskBytes = *dataDir, *maxHeapDisk
	cfg.InspectorTimeout = *inspectorTimeout
	token, tokenFile := "", ""
	if *noAuth {
		log.Warn("auth is off (--no-auth): any local process or user can run code through this service")
	} else if token, tokenFile, err = loadToken(); err != nil {
		fmt.Fprintln(os.Stderr, "traced:", err)
		return 1
	}

	svc, err := service.New(service.Options{Engine: cfg, Token: token, TokenFile: tokenFile,
		AllowOrigins: origins, BoundAddr: bound, MaxBodyBytes: *maxBody, Version: version, Logger: log,
		MCPTools: *mcpTools, OTLP: of.options(log, false)})
	if err != nil {
		fmt.Fprintln(os.Stderr, "traced:", err)
		return 1
	}
	if ln == nil {
		if ln, err = net.Listen("tcp", *addr); err != nil {
			fmt.Fprintln(os.Stderr, "traced:", err)
			return 1
		}
	}
	fmt.Fprintf(os.Stderr, "traced %s listening on http://%s\n", version, ln.Addr())
	fmt.Fprintf(os.Stderr, "dashboard: http://%s/ui\n", ln.Addr())
	if tokenFile != "" {
		fmt.Fprintf(os.Stderr, "token file: %s (send Authorization: Bearer <token>)\n", tokenFile)
	} else if token != "" {
		fmt.Fprintln(os.Stderr, "token: from TRACED_TOKEN")
	}
	if svc.Export != nil {
		fmt.Fprintf(os.Stderr, "otlp: exporting every session to %s\n", svc.Export.Status().Endpoint)
	}

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if *idleTimeout > 0 {
		go watchIdle(ctx, *idleTimeout, func() bool { return anyLive(svc.Engine) }, func() {
			log.Info("no live session: exiting", "idle-timeout", *idleTimeout)
			stop()
		})
	}
	dapLn, err := dapListen(ctx, *dapPort, ln.Addr(), dap.Config{Log: log})
	if err != nil {
		fmt.Fprintln(os.Stderr, "traced:", err)
		return 1
	}
	if dapLn != nil {
		defer dapLn.Close() // after the shutdown: its clients' sessions ended with the service
		fmt.Fprintf(os.Stderr, "dap: %s (debugServer)\n", dapLn.Addr())
	}
	errc := make(chan error, 1)
	go func() { errc <- svc.Serve(ln) }()
	select {
	case err := <-errc:
		log.Error("serve", "err", err)
		return 1
	case <-ctx.Done():
	}
	sctx, cancel := context.WithTimeout(context.Background(), shutdownGrace)
	defer cancel()
	if err := svc.Shutdown(sctx); err != nil {
		log.Warn("shutdown", "err", err)
	}
	if err := <-errc; err != nil {
		log.Error("serve", "err", err)
		return 1
	}
	return 0
}

// checkAddr refuses a non-loopback listen address unless --allow-remote says so too.
func checkAddr(addr string, allowRemote bool) (netip.Addr, error) {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return netip.Addr{}, fmt.Errorf("--addr %q: %w", addr, err)
	}
	if host == "localhost" {
		return netip.MustParseAddr("127.0.0.1"), nil
	}
	ip, err := netip.ParseAddr(host)
	if err != nil {
		return netip.Addr{}, fmt.Errorf("--addr %q: the host must be an IP address or localhost", addr)
	}
	if !ip.IsLoopback() && !allowRemote {
		return netip.Addr{}, fmt.Errorf("--addr %s is not loopback: anyone who reaches it can run code; add --allow-remote to mean it", addr)
	}
	return ip, nil
}

func exitUsage(err error) int {
	if errors.Is(err, flag.ErrHelp) {
		return 0
	}
	return 2
}
