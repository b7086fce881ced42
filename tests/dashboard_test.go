package tests

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"traced/internal/service"
)

// chromiumPath is Debian's chromium, which .ci/run installs; TRACED_CHROMIUM overrides it.
func chromiumPath() string {
	if p := os.Getenv("TRACED_CHROMIUM"); p != "" {
		return p
	}
	return "/usr/bin/chromium"
}

// browserDir holds the browser test's script and its locked npm packages (playwright-core,
// axe-core), installed by `make e2e-deps`, a prerequisite of `make test`.
const browserDir = "browser"

// needBrowser skips the test when chromium or the npm packages are missing, except under CI,
// where a missing tool is a failure: CI must install what its tests need.
func needBrowser(t *testing.T) string {
	t.Helper()
	missing := ""
	chromium := chromiumPath()
	if _, err := os.Stat(chromium); err != nil {
		missing = chromium + " (apt-get install chromium; .ci/run installs it)"
	} else if _, err := os.Stat(filepath.Join(browserDir, "node_modules", "playwright-core")); err != nil {
		missing = "tests/browser/node_modules (make e2e-deps)"
	}
	if missing == "" {
		return chromium
	}
	if os.Getenv("CI") != "" {
		t.Fatalf("the dashboard test needs %s", missing)
	}
	t.Skipf("the dashboard test needs %s", missing)
	return ""
}

// dashboardService runs a service on addr (127.0.0.1:0 for any port) rooted at the repository,
// so the page starts examples/crash.js as a user would.
func dashboardService(t *testing.T, addr string) *harness {
	t.Helper()
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	return newHarnessAt(t, addr, func(o *service.Options) {
		o.Engine.Root, o.Engine.MaxEvents, o.Engine.MaxSessions = root, 10000, 16
	})
}

// step is one line the browser script prints.
type step struct {
	Step    string          `json:"step"`
	Done    bool            `json:"done"`
	Failed  string          `json:"failed"`
	Figures json.RawMessage `json:"figures"`
}

// TestDashboard drives the dashboard in headless chromium against a real service: sign-in (the
// token from the form and from the URL fragment), a trace of an example that throws (events
// live on the stream, the evidence panel), a debug session paused at a breakpoint and stepped
// from the page, CPU and heap profiles, 10,000 events in the virtualised timeline, and a service
// restart (the gap banner, then a new run followed live). Every view passes axe-core without a
// serious violation. Screenshots go to TRACED_SCREENSHOTS (docs/screenshots to refresh the
// committed ones) or the test's temp dir.
func TestDashboard(t *testing.T) {
	// Not parallel: it restarts the service on the same address, and drives a browser.
	if os.Getenv("TRACED_CI_REPEAT") != "" {
		t.Skip("the browser does not depend on the node line: the dashboard test runs on CI's first pass only")
	}
	chromium := needBrowser(t)
	node := nodeOrSkip(t)
	h := dashboardService(t, "127.0.0.1:0")
	addr := h.addr

	shots := os.Getenv("TRACED_SCREENSHOTS")
	if shots == "" {
		shots = t.TempDir()
	}
	ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, node, "dashboard.mjs")
	cmd.Dir = browserDir
	cmd.Env = append(os.Environ(), "TRACED_URL=http://"+addr, "TRACED_TOKEN="+testToken,
		"CHROMIUM="+chromium, "SHOTS="+shots, "PROFILE_DIR="+t.TempDir())
	// Playwright starts chromium in a process group of its own and closes it when node gets
	// SIGTERM: a test that gives up asks that first, then kills what is left. Pdeathsig covers
	// the test process dying.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
	cmd.Cancel = func() error { return cmd.Process.Signal(syscall.SIGTERM) }
	cmd.WaitDelay = 15 * time.Second
	cmd.Stderr = &stderrLog{t: t}
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	waited := false
	defer func() {
		if !waited { // a Fatal on the way: end the script, and wait so its stderr logs no more
			cancel()
			cmd.Wait()
		}
		syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) // stragglers of node's group, if any
	}()

	done := false
	sc := bufio.NewScanner(stdout)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		var s step
		if err := json.Unmarshal([]byte(line), &s); err != nil {
			t.Logf("browser: %s", line)
			continue
		}
		switch {
		case s.Failed != "":
			t.Errorf("browser: %s", s.Failed)
		case s.Done:
			done = true
			t.Logf("browser figures: %s", s.Figures)
		case s.Step == "restart":
			h.stop() // ends the sessions and closes the page's streams with 1001
			h = dashboardService(t, addr)
			fmt.Fprintln(stdin, "restarted")
			t.Log("browser: restarted the service on", addr)
		default:
			t.Logf("browser: %s", line)
		}
	}
	stdin.Close()
	err = cmd.Wait()
	waited = true
	if ctx.Err() != nil {
		t.Fatalf("the browser script did not finish in time: %v", err)
	}
	if err != nil || !done {
		t.Fatalf("the browser script failed (%v); screenshots in %s", err, shots)
	}
	t.Logf("screenshots in %s", shots)
}

// stderrLog logs the script's stderr line by line.
type stderrLog struct{ t *testing.T }

func (w *stderrLog) Write(p []byte) (int, error) {
	for l := range strings.SplitSeq(strings.TrimRight(string(p), "\n"), "\n") {
		w.t.Logf("browser stderr: %s", l)
	}
	return len(p), nil
}
