package tests

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// dapClientDir holds Microsoft's DebugClient (@vscode/debugadapter-testsupport, package-lock.json
// pinned; make test installs it with npm ci), the script that drives `traced dap` with it, and
// its programs.
const dapClientDir = "testdata/dapclient"

// dapStep is one line of client.js's report.
type dapStep struct {
	Step string `json:"step"`
}

// TestDAPClient: a DAP client nobody here wrote drives `traced dap` over stdio against a running
// service: launch, breakpoints in JS and in TypeScript originals (one pending until its script
// loads), conditions, hit conditions and logpoints, function breakpoints, stepping, variables,
// async stacks, a worker and a child process as threads (a worker's refs outliving the main
// thread's stops), exceptions (uncaught, caught, narrowed to a class) with traced's evidence,
// creation stacks, pause, shared control with REST, and termination.
func TestDAPClient(t *testing.T) {
	t.Parallel()
	dapFixture(t, dapClientDir)
	node := nodeOrSkip(t)
	h := newHarness(t)
	c := newCLI(t).against(h)
	for _, sc := range []struct {
		name  string
		steps []string
	}{
		{"basics", []string{"breakpoint", "variables", "evaluate", "setVariable", "next", "replaced", "expand", "terminated"}},
		{"typescript", []string{"typescript"}},
		{"pending", []string{"pending"}},
		{"threads", []string{"worker", "child"}},
		{"exceptions", []string{"exception"}},
		{"features", []string{"condition", "logpoint", "breakpointLocations", "loadedSources", "stepping", "source", "setExpression"}},
		{"shared", []string{"restBreakpoint", "restContinue", "restRemoved"}},
		{"async", []string{"async"}},
		{"pause", []string{"pause", "terminate"}},
		{"attach", []string{"attach", "detach"}},
		{"inspector", []string{"inspector"}},
		{"functions", []string{"functionBreakpoint", "hitCondition"}},
		{"caught", []string{"caught", "evidence", "evidenceAtStop"}},
		{"options", []string{"exceptionClasses", "creationStacks"}},
		{"refs", []string{"otherThread", "ownThread"}},
	} {
		// Not parallel: the scenarios share one service, and one at a time leaves the cores to the
		// program, the adapter and the client of each (the pause and threads scenarios wait on them).
		t.Run(sc.name, func(t *testing.T) {
			wantSteps(t, "client.js "+sc.name, runDAPClient(t, node, c, sc.name), sc.steps)
		})
	}
}

// dapFixture skips a test whose npm fixture in dir is not installed (make test installs it with
// npm ci), or fails it in CI, where it must be.
func dapFixture(t *testing.T, dir string) {
	t.Helper()
	if _, err := os.Stat(filepath.Join(dir, "node_modules", ".package-lock.json")); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("the DAP client fixture is not installed (make test runs npm ci in %s): %v", dir, err)
		}
		t.Skipf("the DAP client fixture is not installed: make %s/node_modules (make test does it)", dir)
	}
}

// runDAPClient runs one scenario of client.js.
func runDAPClient(t *testing.T, node string, c *cli, scenario string) []dapStep {
	t.Helper()
	return runDAPScript(t, node, c, dapClientDir, "client.js", scenario)
}

// runDAPScript runs a DAP client's script in dir with the traced binary and args, in the CLI's
// environment (the service's address and token), so that `traced dap` finds the service as the
// CLI does; it answers the steps the script reported.
func runDAPScript(t *testing.T, node string, c *cli, dir, script string, args ...string) []dapStep {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), 2*deadline)
	defer cancel()
	cmd := exec.CommandContext(ctx, node, append([]string{script, c.bin}, args...)...)
	cmd.Dir = dir
	cmd.Env = c.env
	cmd.WaitDelay = time.Second
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("%s %s: %v\nstdout:\n%s\nstderr:\n%s", script, strings.Join(args, " "), err, stdout.String(), stderr.String())
	}
	var steps []dapStep
	for line := range strings.Lines(stdout.String()) {
		if !strings.HasPrefix(line, "{") {
			continue // the adapter's stderr, which DebugClient echoes
		}
		var s dapStep
		if err := json.Unmarshal([]byte(line), &s); err != nil {
			t.Fatalf("%s printed %q: %v", script, line, err)
		}
		steps = append(steps, s)
	}
	t.Logf("%s %s:\n%s", script, strings.Join(args, " "), stdout.String())
	return steps
}

// dapClient2Dir holds a second DAP client nobody here wrote, node-debugprotocol-client
// (package-lock.json pinned; make test installs it with npm ci), and session.js, which scripts a
// session with it.
const dapClient2Dir = "testdata/dapclient2"

// TestDAPSecondClient: another client than DebugClient, with its own reading of the protocol,
// scripts a session of `traced dap` on stdio: a breakpoint, the stop (one thread of several
// possible), threads, the stack, scopes, a local's value, evaluate, continue to the program's
// exit, and a disconnect that ends the adapter.
func TestDAPSecondClient(t *testing.T) {
	t.Parallel()
	dapFixture(t, dapClient2Dir)
	node := nodeOrSkip(t)
	c := newCLI(t).against(newHarness(t))
	wantSteps(t, "session.js", runDAPScript(t, node, c, dapClient2Dir, "session.js"),
		[]string{"setBreakpoints", "stopped", "threads", "stackTrace", "variables", "evaluate", "terminated", "disconnected"})
}

// wantSteps fails the test unless a script reported exactly these steps, in this order.
func wantSteps(t *testing.T, script string, got []dapStep, want []string) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%s reported %d steps, want %v: %+v", script, len(got), want, got)
	}
	for i, s := range got {
		if s.Step != want[i] {
			t.Fatalf("%s: step %d is %s, want %s", script, i, s.Step, want[i])
		}
	}
}

// TestDAPServer: the same client connects to the DAP listener of `traced serve --dap-port`,
// giving the token in its launch arguments, and runs the basic scenario; a client giving a
// wrong token, or none, is refused.
func TestDAPServer(t *testing.T) {
	t.Parallel()
	dapFixture(t, dapClientDir)
	node := nodeOrSkip(t)
	c := newCLI(t, "TRACED_TOKEN="+testToken)
	port := freePort(t)
	ctx, cancel := context.WithTimeout(t.Context(), 2*deadline)
	defer cancel()
	serve := exec.CommandContext(ctx, c.bin, "serve", "--addr", "127.0.0.1:0", "--dap-port", strconv.Itoa(port), "--root", c.dir)
	serve.Env = c.env
	serve.Cancel = func() error { return serve.Process.Signal(syscall.SIGTERM) }
	serve.WaitDelay = deadline
	stderr, err := serve.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := serve.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		serve.Process.Signal(syscall.SIGTERM)
		serve.Wait()
	})
	want := fmt.Sprintf("dap: 127.0.0.1:%d", port)
	listening, listenAddr := false, ""
	for sc := bufio.NewScanner(stderr); !listening && sc.Scan(); {
		listening = strings.HasPrefix(sc.Text(), want)
		if _, after, ok := strings.Cut(sc.Text(), " listening on http://"); ok {
			listenAddr = after // the REST API, where refused looks
		}
	}
	go io.Copy(io.Discard, stderr) // the service logs on; nobody reads it
	if !listening || listenAddr == "" {
		t.Fatalf("traced serve never said %q and where its API listens", want)
	}
	run := &cli{t: t, bin: c.bin, dir: c.dir, env: append(c.env, "DAP_PORT="+strconv.Itoa(port), "DAP_TOKEN="+testToken)}
	steps := runDAPClient(t, node, run, "basics")
	if len(steps) == 0 || steps[len(steps)-1].Step != "terminated" {
		t.Fatalf("client.js over the listener: %+v", steps)
	}
	run.env = append(run.env, "TRACED_ADDR="+listenAddr) // refused checks through REST that nothing started
	wantSteps(t, "client.js refused", runDAPClient(t, node, run, "refused"), []string{"refused"})
}

// freePort is a loopback port free a moment ago.
func freePort(t *testing.T) int {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port
}
