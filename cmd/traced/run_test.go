package main

import (
	"encoding/json"
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
		{script: "throws.js", code: 1, lines: []string{"evidence:", "TypeError"}},
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
	if len(report.Evidence) == 0 || string(report.Evidence) == "null" {
		t.Errorf("evidence %s, want the failure's evidence", report.Evidence)
	}
	if strings.Contains(res.stderr, "TypeError") {
		t.Errorf("event lines on stderr with --json:\n%s", res.stderr)
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
