package tests

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// mcpClientDir holds the official MCP TypeScript SDK client (package-lock.json pinned; make test
// installs it with npm ci) and the script that drives traced with it.
const mcpClientDir = "testdata/mcpclient"

// clientStep is one line of client.mjs's report.
type clientStep struct {
	Step    string `json:"step"`
	IsError bool   `json:"isError"`
	Text    string `json:"text"`
	Bytes   int    `json:"bytes"`
}

// TestMCPClientTypeScript: a client nobody here wrote, the official TypeScript SDK's, drives
// `traced mcp` over stdio and /mcp of a running service over Streamable HTTP: it lists the tools
// and runs start, wait, state, eval and stop, each answer checked here.
func TestMCPClientTypeScript(t *testing.T) {
	t.Parallel()
	if os.Getenv("TRACED_CI_REPEAT") != "" {
		t.Skip("does not depend on the node line: runs on the first CI pass only")
	}
	if _, err := os.Stat(filepath.Join(mcpClientDir, "node_modules", ".package-lock.json")); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("the MCP client fixture is not installed (make test runs npm ci in %s): %v", mcpClientDir, err)
		}
		t.Skipf("the MCP client fixture is not installed: make %s/node_modules (make test does it)", mcpClientDir)
	}
	node := nodeOrSkip(t)
	bin := newCLI(t).bin

	t.Run("stdio", func(t *testing.T) {
		steps := runClient(t, node, "stdio", bin, "mcp")
		checkClientSteps(t, steps, "e2e-stdio")
	})
	t.Run("http", func(t *testing.T) {
		h := newHarness(t)
		steps := runClient(t, node, "http", h.base+"/mcp", testToken)
		checkClientSteps(t, steps, "e2e-http")
	})
}

// runClient runs client.mjs in tests/testdata (the workspace root of `traced mcp` there).
func runClient(t *testing.T, node string, args ...string) []clientStep {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), deadline)
	defer cancel()
	cmd := exec.CommandContext(ctx, node, append([]string{"mcpclient/client.mjs"}, args...)...)
	cmd.Dir = "testdata"
	cmd.WaitDelay = time.Second
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("client.mjs %v: %v\nstdout:\n%s\nstderr:\n%s", args, err, stdout.String(), stderr.String())
	}
	var steps []clientStep
	for line := range strings.Lines(stdout.String()) {
		var s clientStep
		if err := json.Unmarshal([]byte(line), &s); err != nil {
			t.Fatalf("client.mjs printed %q: %v", line, err)
		}
		steps = append(steps, s)
	}
	return steps
}

func checkClientSteps(t *testing.T, steps []clientStep, name string) {
	t.Helper()
	want := []struct {
		step string
		has  []string
	}{
		{"tools", []string{"start", "wait", "state", "eval", "stop", "evidence", "heap"}},
		{"instructions", []string{"start -> wait -> state -> step/eval -> evidence", "correlation"}},
		{"start", []string{name + "  debug  paused", "paused at retry.js:"}},
		{"wait", []string{"pause"}},
		{"state", []string{"paused at retry.js:", "stack:"}},
		{"eval", []string{"function"}},
		{"stop", []string{name + "  debug  stopped"}},
	}
	if len(steps) != len(want) {
		t.Fatalf("client.mjs reported %d steps, want %d: %+v", len(steps), len(want), steps)
	}
	calls, bytes := 0, 0
	for i, w := range want {
		s := steps[i]
		if s.Step != w.step || s.IsError {
			t.Fatalf("step %d: %s (isError %v), want %s succeeding:\n%s", i, s.Step, s.IsError, w.step, s.Text)
		}
		for _, h := range w.has {
			if !strings.Contains(s.Text, h) {
				t.Fatalf("%s: want %q in:\n%s", s.Step, h, s.Text)
			}
		}
		if i >= 2 {
			calls, bytes = calls+1, bytes+s.Bytes
		}
	}
	t.Logf("TypeScript SDK client: tools/list %d bytes; start, wait, state, eval, stop: %d calls, %d bytes of results", steps[0].Bytes, calls, bytes)
}
