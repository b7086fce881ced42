package main

import (
	"context"
	"flag"
	"fmt"
	"net"
	"os"
	"os/signal"
	"strconv"
	"syscall"

	"traced/internal/cli"
	"traced/internal/dap"
)

// dapServe runs `traced dap`: the Debug Adapter Protocol on stdio, what an editor launches. It
// talks to the service the CLI finds (TRACED_ADDR, the on-demand service's record, or one it
// starts), whose token it sends unless launch or attach arguments give one.
func dapServe(args []string) int {
	fs := flag.NewFlagSet("traced dap", flag.ContinueOnError)
	logLevel := fs.String("log-level", "warn", "debug, info, warn or error (written to stderr)")
	if err := fs.Parse(args); err != nil {
		return exitUsage(err)
	}
	log, err := newLogger(*logLevel)
	if err != nil {
		fmt.Fprintln(os.Stderr, "traced dap:", err)
		return 2
	}
	env := cli.OSEnv()
	env.Stdout = os.Stderr // stdout carries the protocol: nothing else may be written there
	addr, token, err := cli.Discover(env)
	if err != nil {
		fmt.Fprintln(os.Stderr, "traced dap:", err)
		return cli.ExitUnreachable
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := dap.New(dap.Config{Addr: addr, Token: token, Log: log}).Serve(ctx, os.Stdin, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "traced dap:", err)
		return 1
	}
	return 0
}

// dapListen starts the service's DAP listener on 127.0.0.1:port, talking to the service at
// apiAddr; port 0 means none.
func dapListen(ctx context.Context, port int, apiAddr net.Addr, cfg dap.Config) (*dap.Listener, error) {
	if port == 0 {
		return nil, nil
	}
	_, p, _ := net.SplitHostPort(apiAddr.String())
	cfg.Addr = net.JoinHostPort("127.0.0.1", p) // the API on loopback, whatever else it binds
	l, err := dap.Listen(net.JoinHostPort("127.0.0.1", strconv.Itoa(port)), cfg)
	if err != nil {
		return nil, err
	}
	go l.Serve(ctx)
	return l, nil
}
