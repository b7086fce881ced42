package tests

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// cliRun is how one CLI invocation ended.
type cliRun struct {
	code           int
	stdout, stderr string
	wall           time.Duration
}

// cli runs the traced binary as a shell would: in tests/testdata, with an environment of its
// own (no TRACED_* or XDG_STATE_HOME of the machine's).
type cli struct {
	t   testing.TB
	bin string
	dir string
	env []string
}

// newCLI builds traced as make build does (the light entry as traced, the server beside it as
// traced-server) into the test's temp dir and returns a runner whose state directory is fresh;
// extra are added to its environment (TRACED_ADDR, TRACED_TOKEN...).
func newCLI(t testing.TB, extra ...string) *cli {
	t.Helper()
	nodeOrSkip(t)
	dir0 := t.TempDir()
	bin := filepath.Join(dir0, "traced")
	for out, pkg := range map[string]string{bin: "../cmd/traced-cli", filepath.Join(dir0, "traced-server"): "../cmd/traced"} {
		build := exec.Command("go", "build", "-o", out, pkg)
		if msg, err := build.CombinedOutput(); err != nil {
			t.Fatalf("go build %s: %v\n%s", pkg, err, msg)
		}
	}
	dir, err := filepath.Abs("testdata")
	if err != nil {
		t.Fatal(err)
	}
	var env []string
	for _, kv := range os.Environ() {
		if strings.HasPrefix(kv, "TRACED_") || strings.HasPrefix(kv, "XDG_STATE_HOME=") {
			continue
		}
		env = append(env, kv)
	}
	env = append(env, "XDG_STATE_HOME="+t.TempDir())
	return &cli{t: t, bin: bin, dir: dir, env: append(env, extra...)}
}

// against points the runner at an in-process service.
func (c *cli) against(h *harness) *cli {
	c.env = append(c.env, "TRACED_ADDR="+h.addr, "TRACED_TOKEN="+testToken)
	return c
}

// run runs one command to completion within the test deadline.
func (c *cli) run(args ...string) cliRun {
	c.t.Helper()
	ctx, cancel := context.WithTimeout(c.t.Context(), deadline)
	defer cancel()
	cmd := exec.CommandContext(ctx, c.bin, args...)
	cmd.Dir, cmd.Env = c.dir, c.env
	cmd.WaitDelay = time.Second
	var stdout, stderr strings.Builder
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	start := time.Now()
	err := cmd.Run()
	res := cliRun{stdout: stdout.String(), stderr: stderr.String(), wall: time.Since(start)}
	var exit *exec.ExitError
	switch {
	case ctx.Err() != nil:
		c.t.Fatalf("traced %s: still running after %v\nstderr:\n%s", strings.Join(args, " "), deadline, res.stderr)
	case errors.As(err, &exit):
		res.code = exit.ExitCode()
	case err != nil:
		c.t.Fatalf("traced %s: %v", strings.Join(args, " "), err)
	}
	c.t.Logf("$ traced %s  -> %d (%v)\n%s%s", strings.Join(args, " "), res.code, res.wall.Round(time.Millisecond), res.stdout, res.stderr)
	return res
}

// ok runs a command that must succeed and print each of want on stdout.
func (c *cli) ok(args []string, want ...string) cliRun {
	c.t.Helper()
	res := c.run(args...)
	if res.code != 0 {
		c.t.Fatalf("traced %s: exit %d, want 0\nstderr: %s", strings.Join(args, " "), res.code, res.stderr)
	}
	for _, w := range want {
		if !strings.Contains(res.stdout, w) {
			c.t.Fatalf("traced %s: stdout lacks %q:\n%s", strings.Join(args, " "), w, res.stdout)
		}
	}
	return res
}

// fails runs a command that must end with code and say each of want on stderr, as
// `error: ...` then `hint: ...`, with nothing on stdout.
func (c *cli) fails(code int, args []string, want ...string) cliRun {
	c.t.Helper()
	res := c.run(args...)
	if res.code != code {
		c.t.Fatalf("traced %s: exit %d, want %d\nstdout: %s\nstderr: %s", strings.Join(args, " "), res.code, code, res.stdout, res.stderr)
	}
	if !strings.HasPrefix(res.stderr, "error: ") || res.stdout != "" {
		c.t.Fatalf("traced %s: want only `error: ...` on stderr; stdout %q, stderr %q", strings.Join(args, " "), res.stdout, res.stderr)
	}
	for _, w := range want {
		if !strings.Contains(res.stderr, w) {
			c.t.Fatalf("traced %s: stderr lacks %q:\n%s", strings.Join(args, " "), w, res.stderr)
		}
	}
	if strings.Contains(res.stderr, "/api/") {
		c.t.Errorf("traced %s: the hint names an HTTP route, not a command:\n%s", strings.Join(args, " "), res.stderr)
	}
	return res
}
