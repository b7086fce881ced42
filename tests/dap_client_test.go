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
// loads), conditions and logpoints, stepping, variables, async stacks, a worker and a child
// process as threads, exceptions (uncaught, and narrowed to a class by a launch option),
// creation stacks, pause, shared control with REST, and termination.
func TestDAPClient(t *testing.T) {
	t.Parallel()
	if _, err := os.Stat(filepath.Join(dapClientDir, "node_modules", ".package-lock.json")); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("the DAP client fixture is not installed (make test runs npm ci in %s): %v", dapClientDir, err)
		}
		t.Skipf("the DAP client fixture is not installed: make %s/node_modules (make test does it)", dapClientDir)
	}
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
		{"options", []string{"exceptionClasses", "creationStacks"}},
	} {
		t.Run(sc.name, func(t *testing.T) {
			steps := runDAPClient(t, node, c, sc.name)
			if len(steps) != len(sc.steps) {
				t.Fatalf("client.js reported %d steps, want %v: %+v", len(steps), sc.steps, steps)
			}
			for i, s := range steps {
				if s.Step != sc.steps[i] {
					t.Fatalf("step %d: %s, want %s", i, s.Step, sc.steps[i])
				}
			}
		})
	}
}

// runDAPClient runs one scenario of client.js with the CLI's environment (the service's address
// and token), so that `traced dap` finds the service as the CLI does.
func runDAPClient(t *testing.T, node string, c *cli, scenario string) []dapStep {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), 2*deadline)
	defer cancel()
	cmd := exec.CommandContext(ctx, node, "client.js", c.bin, scenario)
	cmd.Dir = dapClientDir
	cmd.Env = c.env
	cmd.WaitDelay = time.Second
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("client.js %s: %v\nstdout:\n%s\nstderr:\n%s", scenario, err, stdout.String(), stderr.String())
	}
	var steps []dapStep
	for line := range strings.Lines(stdout.String()) {
		if !strings.HasPrefix(line, "{") {
			continue // the adapter's stderr, which DebugClient echoes
		}
		var s dapStep
		if err := json.Unmarshal([]byte(line), &s); err != nil {
			t.Fatalf("client.js printed %q: %v", line, err)
		}
		steps = append(steps, s)
	}
	t.Logf("client.js %s:\n%s", scenario, stdout.String())
	return steps
}

// TestDAPServer: the same client connects to the DAP listener of `traced serve --dap-port`,
// giving the token in its launch arguments, and runs the basic scenario.
func TestDAPServer(t *testing.T) {
	t.Parallel()
	if _, err := os.Stat(filepath.Join(dapClientDir, "node_modules", ".package-lock.json")); err != nil {
		t.Skipf("the DAP client fixture is not installed: make %s/node_modules", dapClientDir)
	}
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
	listening := false
	for sc := bufio.NewScanner(stderr); !listening && sc.Scan(); {
		listening = strings.HasPrefix(sc.Text(), want)
	}
	go io.Copy(io.Discard, stderr) // the service logs on; nobody reads it
	if !listening {
		t.Fatalf("traced serve never said %q", want)
	}
	run := &cli{t: t, bin: c.bin, dir: c.dir, env: append(c.env, "DAP_PORT="+strconv.Itoa(port), "DAP_TOKEN="+testToken)}
	steps := runDAPClient(t, node, run, "basics")
	if len(steps) == 0 || steps[len(steps)-1].Step != "terminated" {
		t.Fatalf("client.js over the listener: %+v", steps)
	}
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
