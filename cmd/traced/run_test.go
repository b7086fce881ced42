package main

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// The run command exits with the traced program's code and prints its events on stderr.
func TestRunExitCodes(t *testing.T) {
	requireNode(t)
	tests := []struct {
		script string
		code   int
		lines  []string // each must be part of a stderr line
	}{
		{script: "clean.js", code: 0, lines: []string{"all good"}},
		{script: "exit3.js", code: 3, lines: []string{"giving up", "code 3"}},
		{script: "throws.js", code: 1, lines: []string{"evidence:", "failure: ", "TypeError", "caveat: "}},
	}
	for _, tt := range tests {
		t.Run(tt.script, func(t *testing.T) {
			t.Parallel()
			res := runTraced(t, "run", "--root", testdata, tt.script)
			if res.code != tt.code {
				t.Errorf("exit code %d, want %d\nstderr:\n%s", res.code, tt.code, res.stderr)
			}
			for _, want := range tt.lines {
				if !strings.Contains(res.stderr, want) {
					t.Errorf("no stderr line contains %q\nstderr:\n%s", want, res.stderr)
				}
			}
			if res.stdout != "" {
				t.Errorf("stdout %q, want nothing without --json", res.stdout)
			}
			if strings.Contains(res.stderr, `"failure": {`) {
				t.Errorf("the evidence is a JSON dump, not its text form:\n%s", res.stderr)
			}
		})
	}
}

func TestRunJSON(t *testing.T) {
	requireNode(t)
	res := runTraced(t, "run", "--json", "--root", testdata, "throws.js")
	if res.code != 1 {
		t.Errorf("exit code %d, want 1\nstderr:\n%s", res.code, res.stderr)
	}
	var report struct {
		Session  *struct{ ExitCode *int }
		Events   []struct{ Kind string }
		Evidence json.RawMessage
	}
	var keys map[string]json.RawMessage
	if err := json.Unmarshal([]byte(res.stdout), &keys); err != nil {
		t.Fatalf("stdout is not a JSON object: %v\n%s", err, res.stdout)
	}
	for _, k := range []string{"session", "events", "evidence"} {
		if _, ok := keys[k]; !ok {
			t.Errorf("report has no %q key; keys: %v", k, mapKeys(keys))
		}
	}
	if err := json.Unmarshal([]byte(res.stdout), &report); err != nil {
		t.Fatal(err)
	}
	if report.Session == nil || report.Session.ExitCode == nil || *report.Session.ExitCode != 1 {
		t.Errorf("session %s, want exitCode 1", keys["session"])
	}
	kinds := map[string]bool{}
	for _, ev := range report.Events {
		kinds[ev.Kind] = true
	}
	if !kinds["exception"] || !kinds["exit"] {
		t.Errorf("event kinds %v, want an exception and an exit", kinds)
	}
	var ev map[string]json.RawMessage
	if err := json.Unmarshal(report.Evidence, &ev); err != nil || ev["failure"] == nil || ev["evidence"] != nil {
		t.Errorf("evidence %.300s, want the failure's evidence, not nested in another evidence", report.Evidence)
	}
	if strings.Contains(res.stderr, "TypeError") {
		t.Errorf("event lines on stderr with --json:\n%s", res.stderr)
	}
}

// Script events (every module loaded, node_modules included) are printed with --verbose only,
// as its help says.
func TestRunScriptsNeedVerbose(t *testing.T) {
	requireNode(t)
	root := t.TempDir()
	for name, src := range map[string]string{
		"main.js":                       "console.log('sum', require('dep').add(2, 3));\n",
		"node_modules/dep/index.js":     "exports.add = require('./add');\n",
		"node_modules/dep/add.js":       "module.exports = (a, b) => a + b;\n",
		"node_modules/dep/package.json": `{"name":"dep","main":"index.js"}`,
	} {
		if err := os.MkdirAll(filepath.Dir(filepath.Join(root, name)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(root, name), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	quiet := runTraced(t, "run", "--root", root, "main.js")
	if quiet.code != 0 || !strings.Contains(quiet.stderr, "sum 5") {
		t.Fatalf("exit code %d, want 0 and the console line\nstderr:\n%s", quiet.code, quiet.stderr)
	}
	if strings.Contains(quiet.stderr, " script ") || strings.Contains(quiet.stderr, "node_modules") {
		t.Errorf("script events printed without --verbose:\n%s", quiet.stderr)
	}
	loud := runTraced(t, "run", "--verbose", "--root", root, "main.js")
	if !strings.Contains(loud.stderr, "node_modules/dep/add.js") || !strings.Contains(loud.stderr, "main.js") {
		t.Errorf("--verbose does not print the script events:\n%s", loud.stderr)
	}
}

func TestRunRefuses(t *testing.T) {
	requireNode(t)
	tests := []struct {
		name   string
		args   []string
		stderr string // part of the message
	}{
		{"missing target", []string{"run", "--root", testdata, "no-such-script.js"}, "target not found"},
		{"outside the root", []string{"run", "--root", testdata, "../main_test.go"}, "outside the workspace root"},
		{"no script", []string{"run", "--root", testdata}, "Usage: traced run"},
		{"unknown flag", []string{"run", "--no-such-flag", "clean.js"}, "no-such-flag"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			res := runTraced(t, tt.args...)
			if res.code == 0 {
				t.Errorf("exit code 0, want a failure")
			}
			if !strings.Contains(res.stderr, tt.stderr) {
				t.Errorf("stderr does not mention %q:\n%s", tt.stderr, res.stderr)
			}
		})
	}
}

func TestHelp(t *testing.T) {
	tests := []struct {
		args           []string
		stdout, stderr string // part of each; "" when not checked
	}{
		{args: []string{"--help"}, stdout: "traced run [flags] <script>"},
		{args: []string{"help"}, stdout: "traced run [flags] <script>"},
		{args: []string{"run", "--help"}, stderr: "-json"},
		{args: []string{"serve", "--help"}, stderr: "-allow-remote"},
		{args: []string{"--version"}, stdout: "traced " + version + "\nnode"},
		{args: []string{"version"}, stdout: "live edit (hotpatch): "},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			t.Parallel()
			res := runTraced(t, tt.args...)
			if res.code != 0 {
				t.Errorf("exit code %d, want 0\nstderr:\n%s", res.code, res.stderr)
			}
			if !strings.Contains(res.stdout, tt.stdout) || !strings.Contains(res.stderr, tt.stderr) {
				t.Errorf("stdout %q, stderr %q; want %q and %q in them", res.stdout, res.stderr, tt.stdout, tt.stderr)
			}
		})
	}
}

func mapKeys(m map[string]json.RawMessage) []string {
	var keys []string
	for k := range m {
		keys = append(keys, k)
	}
	return keys
}

// TestRunLeavesNoBootDir: run removes the preload's traced-boot-* directory from $TMPDIR, on
// a clean exit and on a failing one.
func TestRunLeavesNoBootDir(t *testing.T) {
	requireNode(t)
	tmp := t.TempDir()
	for _, script := range []string{"clean.js", "throws.js"} {
		ctx, cancel := context.WithTimeout(t.Context(), exitBound)
		cmd := exec.CommandContext(ctx, tracedBin, "run", "--root", testdata, script)
		cmd.Env = tracedEnv("TMPDIR=" + tmp)
		out, err := cmd.CombinedOutput()
		timedOut := ctx.Err() != nil
		cancel()
		if timedOut {
			t.Fatalf("run %s: still running after %v: %s", script, exitBound, out)
		}
		var exit *exec.ExitError
		if err != nil && !errors.As(err, &exit) {
			t.Fatalf("run %s: %v", script, err)
		}
		left, _ := filepath.Glob(filepath.Join(tmp, "traced-boot-*"))
		if len(left) > 0 {
			t.Errorf("run %s left %q in $TMPDIR", script, left)
		}
	}
}
