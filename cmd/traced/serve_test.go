package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"
)

// httpClient talks to the servers under test; no keep-alive, so no idle connection (and its
// goroutines) outlives a request.
var httpClient = &http.Client{Transport: &http.Transport{DisableKeepAlives: true}}

// requestBound bounds one request to a server under test.
const requestBound = 10 * time.Second

var (
	listeningRE = regexp.MustCompile(`listening on (http://\S+)`)
	tokenFileRE = regexp.MustCompile(`^token file: (\S+) `)
)

// server is a `traced serve` process listening on a loopback port of its choosing.
type server struct {
	*proc
	url   string
	token string // "" when the test reads it from the token file
}

// startServer runs traced serve on 127.0.0.1:0 over root with env, and waits for it to say
// where it listens.
func startServer(t *testing.T, root, token string, env []string) *server {
	t.Helper()
	p := startTraced(t, env, "serve", "--addr", "127.0.0.1:0", "--root", root)
	line, err := p.stderr.waitFor(listeningRE.MatchString, startBound)
	if err != nil {
		t.Fatalf("listening line: %v\nstderr:\n%s", err, p.stderr)
	}
	return &server{proc: p, url: listeningRE.FindStringSubmatch(line)[1], token: token}
}

// testToken is the TRACED_TOKEN of servers started with one.
const testToken = "test-token-0123456789abcdef"

// withToken starts a server over root whose token is TRACED_TOKEN.
func withToken(t *testing.T, root string) *server {
	t.Helper()
	return startServer(t, root, testToken, tracedEnv("TRACED_TOKEN="+testToken, "XDG_STATE_HOME="+t.TempDir()))
}

// foreverScripts are the never-ending targets the stop tests run, each in its own root.
// forever.js prints every 50ms, so once traced is gone it dies of EPIPE on its own; quiet.js
// never writes, so only a signal from traced or the kernel (Pdeathsig) can end it.
func foreverScripts(t *testing.T) []struct{ root, target string } {
	t.Helper()
	quiet := t.TempDir()
	const src = "// Never exits and never writes: a closed stdout cannot end it.\nsetInterval(() => {}, 1000);\n"
	if err := os.WriteFile(filepath.Join(quiet, "quiet.js"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	return []struct{ root, target string }{{testdata, "forever.js"}, {quiet, "quiet.js"}}
}

// request sends method path with an optional bearer token and JSON body; it returns the
// status and body.
func (s *server) request(t *testing.T, method, path, token string, body any) (int, []byte) {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), requestBound)
	defer cancel()
	var rd io.Reader
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			t.Fatal(err)
		}
		rd = bytes.NewReader(b)
	}
	req, err := http.NewRequestWithContext(ctx, method, s.url+path, rd)
	if err != nil {
		t.Fatal(err)
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := httpClient.Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", method, path, err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatalf("%s %s: body: %v", method, path, err)
	}
	return resp.StatusCode, b
}

// startTarget starts target and returns its pid. Should the test fail with the child alive,
// its process group is killed at cleanup so that nothing leaks.
func (s *server) startTarget(t *testing.T, target string) int {
	t.Helper()
	code, body := s.request(t, "POST", "/api/trace/start", s.token, map[string]any{"target": target})
	if code != http.StatusCreated {
		t.Fatalf("start: %d %s", code, body)
	}
	var resp struct {
		Session struct {
			ID  string `json:"id"`
			PID int    `json:"pid"`
		} `json:"session"`
	}
	if err := json.Unmarshal(body, &resp); err != nil || resp.Session.PID <= 0 {
		t.Fatalf("start: no pid in %s (%v)", body, err)
	}
	pid := resp.Session.PID
	t.Cleanup(func() {
		if t.Failed() && !processDead(pid) {
			syscall.Kill(-pid, syscall.SIGKILL)
		}
	})
	if groupGone(pid) {
		t.Fatalf("process group %d is gone right after the start", pid)
	}
	return pid
}

func TestServeAuth(t *testing.T) {
	t.Parallel()
	state := t.TempDir()
	s := startServer(t, testdata, testToken, tracedEnv("TRACED_TOKEN="+testToken, "XDG_STATE_HOME="+state))

	tests := []struct {
		path, token string
		want        int
	}{
		{"/healthz", "", http.StatusOK},
		{"/api/trace/status", "", http.StatusUnauthorized},
		{"/api/trace/status", "not-" + testToken, http.StatusUnauthorized},
		{"/api/trace/status", testToken, http.StatusOK},
	}
	for _, tt := range tests {
		if code, body := s.request(t, "GET", tt.path, tt.token, nil); code != tt.want {
			t.Errorf("GET %s with token %q: %d %s, want %d", tt.path, tt.token, code, body, tt.want)
		}
	}
	if _, err := s.stderr.waitFor(func(l string) bool { return strings.Contains(l, "token: from TRACED_TOKEN") }, startBound); err != nil {
		t.Errorf("no line telling where the token came from: %v\nstderr:\n%s", err, s.stderr)
	}
	if entries, _ := os.ReadDir(state); len(entries) != 0 {
		t.Errorf("a token file was written although TRACED_TOKEN is set")
	}
}

// Without TRACED_TOKEN, serve writes a token under XDG_STATE_HOME and says where.
func TestServeGeneratedToken(t *testing.T) {
	t.Parallel()
	state := t.TempDir()
	s := startServer(t, testdata, "", tracedEnv("XDG_STATE_HOME="+state))

	line, err := s.stderr.waitFor(tokenFileRE.MatchString, startBound)
	if err != nil {
		t.Fatalf("token file line: %v\nstderr:\n%s", err, s.stderr)
	}
	file := tokenFileRE.FindStringSubmatch(line)[1]
	if want := filepath.Join(state, "traced", "token"); file != want {
		t.Errorf("token file %s, want %s", file, want)
	}
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	token := strings.TrimSuffix(string(b), "\n")
	if code, body := s.request(t, "GET", "/api/trace/status", token, nil); code != http.StatusOK {
		t.Errorf("status with the file's token: %d %s", code, body)
	}
	if code, _ := s.request(t, "GET", "/api/trace/status", "", nil); code != http.StatusUnauthorized {
		t.Errorf("status without a token: %d, want 401", code)
	}
}

// --data-dir is made at start-up and --max-heap-disk is the cap the status reports.
func TestServeHeapFlags(t *testing.T) {
	t.Parallel()
	data := filepath.Join(t.TempDir(), "not", "yet")
	p := startTraced(t, tracedEnv("TRACED_TOKEN="+testToken, "XDG_STATE_HOME="+t.TempDir()),
		"serve", "--addr", "127.0.0.1:0", "--root", testdata, "--data-dir", data, "--max-heap-disk", "12345")
	line, err := p.stderr.waitFor(listeningRE.MatchString, startBound)
	if err != nil {
		t.Fatalf("listening line: %v\nstderr:\n%s", err, p.stderr)
	}
	s := &server{proc: p, url: listeningRE.FindStringSubmatch(line)[1], token: testToken}
	if fi, err := os.Stat(data); err != nil || !fi.IsDir() {
		t.Fatalf("--data-dir %s was not made: %v", data, err)
	}
	code, body := s.request(t, "GET", "/api/trace/status", testToken, nil)
	var st struct {
		Limits struct {
			MaxHeapDiskBytes int64 `json:"maxHeapDiskBytes"`
		} `json:"limits"`
	}
	if err := json.Unmarshal(body, &st); code != http.StatusOK || err != nil || st.Limits.MaxHeapDiskBytes != 12345 {
		t.Fatalf("status %d %s: want limits.maxHeapDiskBytes 12345", code, body)
	}
}

// SIGTERM is a graceful stop: traced kills its children's process groups and exits 0.
func TestServeSIGTERMStopsChildren(t *testing.T) {
	requireNode(t)
	for _, tt := range foreverScripts(t) {
		t.Run(tt.target, func(t *testing.T) {
			t.Parallel()
			s := withToken(t, tt.root)
			pid := s.startTarget(t, tt.target)

			s.signal(t, syscall.SIGTERM)
			if code := s.exit(t, exitBound); code != 0 {
				t.Errorf("exit code %d after SIGTERM, want 0\nstderr:\n%s", code, s.stderr)
			}
			// Pdeathsig would end the child anyway once traced is gone: what shows that the
			// graceful stop killed it is a shutdown that finished in time, without a warning.
			if out := s.stderr.String(); strings.Contains(out, "level=WARN") || strings.Contains(out, "level=ERROR") {
				t.Errorf("the stop was not clean:\n%s", out)
			}
			if !waitGone(pid, goneBound, groupGone) {
				t.Errorf("process group %d still exists %v after traced exited", pid, goneBound)
			}
		})
	}
}

// A traced that is SIGKILLed cannot clean up: Pdeathsig must end its children.
func TestServeSIGKILLChildDies(t *testing.T) {
	requireNode(t)
	for _, tt := range foreverScripts(t) {
		t.Run(tt.target, func(t *testing.T) {
			t.Parallel()
			s := withToken(t, tt.root)
			pid := s.startTarget(t, tt.target)

			s.signal(t, syscall.SIGKILL)
			if code := s.exit(t, exitBound); code != -1 {
				t.Errorf("exit code %d after SIGKILL, want -1 (killed by a signal)", code)
			}
			// The child is someone else's now, so it cannot be waited for: watch the process table.
			if !waitGone(pid, goneBound, processDead) {
				t.Errorf("node pid %d still alive %v after traced was killed", pid, goneBound)
			}
		})
	}
}

// Refusals at start: exit 2 with the reason, and never listen.
func TestServeRefuses(t *testing.T) {
	tests := []struct {
		name   string
		args   []string
		stderr string // part of the message
	}{
		{"remote addr", []string{"serve", "--addr", "0.0.0.0:0"}, "--allow-remote"},
		{"host name", []string{"serve", "--addr", "example.com:0"}, "IP address or localhost"},
		{"log level", []string{"serve", "--addr", "127.0.0.1:0", "--log-level", "loud"}, "--log-level"},
		{"serve: mcp tool set", []string{"serve", "--addr", "127.0.0.1:0", "--mcp-tools", "most"}, `--mcp-tools: tool set "most"`},
		{"mcp: tool set", []string{"mcp", "--tools", "most"}, `--tools: tool set "most": want all or core`},
		{"mcp: log level", []string{"mcp", "--log-level", "loud"}, "--log-level"},
		{"stray argument", []string{"serve", "--addr", "127.0.0.1:0", "extra"}, `"extra"`},
		{"misspelt command", []string{"rnu", "--addr", "127.0.0.1:0"}, `"rnu"`},
		{"heap disk cap", []string{"serve", "--addr", "127.0.0.1:0", "--max-heap-disk", "0"}, "--max-heap-disk"},
		{"redact", []string{"serve", "--addr", "127.0.0.1:0", "--redact", "maybe"}, `--redact "maybe": on or off`},
		{"remote without auth", []string{"serve", "--addr", "0.0.0.0:0", "--allow-remote", "--no-auth"}, "--no-auth cannot go with --allow-remote"},
		{"remote allowed, auth off", []string{"serve", "--addr", "127.0.0.1:0", "--no-auth", "--allow-remote"}, "--no-auth cannot go with --allow-remote"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			p := startTraced(t, tracedEnv("TRACED_TOKEN=unused", "XDG_STATE_HOME="+t.TempDir()), tt.args...)
			if code := p.exit(t, exitBound); code != 2 {
				t.Errorf("exit code %d, want 2\nstderr:\n%s", code, p.stderr)
			}
			out := p.stderr.String()
			if !strings.Contains(out, tt.stderr) {
				t.Errorf("stderr does not mention %q:\n%s", tt.stderr, out)
			}
			if strings.Contains(out, "listening") {
				t.Errorf("it listened:\n%s", out)
			}
		})
	}
}

// TestServeRefusesOTLPEndpoint: an endpoint that is no OTLP/HTTP receiver is refused at start
// alike through --otlp-endpoint and the standard variables (the SDK would take ftp:// as
// https and the startup line would name another destination).
func TestServeRefusesOTLPEndpoint(t *testing.T) {
	tests := []struct {
		name string
		env  string
		args []string
	}{
		{"flag", "", []string{"--otlp-endpoint", "ftp://127.0.0.1:4318"}},
		{"endpoint variable", "OTEL_EXPORTER_OTLP_ENDPOINT=ftp://127.0.0.1:4318", nil},
		{"traces endpoint variable", "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT=ftp://127.0.0.1:4318/v1/traces", nil},
		{"run: endpoint variable", "OTEL_EXPORTER_OTLP_ENDPOINT=ftp://127.0.0.1:4318", []string{"run", "clean.js"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			env := tracedEnv("TRACED_TOKEN=unused", "XDG_STATE_HOME="+t.TempDir())
			if tt.env != "" {
				env = append(env, tt.env)
			}
			args := append([]string{"serve", "--addr", "127.0.0.1:0"}, tt.args...)
			if len(tt.args) > 0 && tt.args[0] == "run" {
				args = append([]string{"run", "--root", testdata}, tt.args[1:]...)
			}
			p := startTraced(t, env, args...)
			if code := p.exit(t, exitBound); code != 2 {
				t.Errorf("exit code %d, want 2\nstderr:\n%s", code, p.stderr)
			}
			if out := p.stderr.String(); !strings.Contains(out, "want http://host:port") || strings.Contains(out, "listening") {
				t.Errorf("not refused as the flag is:\n%s", out)
			}
		})
	}
}
