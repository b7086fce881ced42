package cli

import (
	"crypto/rand"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// DefaultIdleTimeout is how long a service started on demand outlives its last live session:
// long enough to read a session's events after it ends, short enough not to linger all day.
const DefaultIdleTimeout = 15 * time.Minute

// defaultAddr is where `traced serve` listens unless told otherwise.
const defaultAddr = "127.0.0.1:7777"

// service is where the CLI sends its requests.
type service struct {
	addr  string
	token string
	how   string // how it was found: "--addr", "started on demand", "service record", "default address"
	rec   *Record
	http  *http.Client
}

// Record is what the CLI writes when it starts a service on demand, so that later commands
// (from any shell of the same user) find it: $XDG_STATE_HOME/traced/service.json.
type Record struct {
	Addr        string    `json:"addr"`
	TokenFile   string    `json:"tokenFile,omitempty"` // empty when TRACED_TOKEN is the token
	PID         int       `json:"pid"`
	Root        string    `json:"root"`
	IdleTimeout string    `json:"idleTimeout"`
	Log         string    `json:"log"`
	Started     time.Time `json:"started"`
}

// StateDir is traced's state directory: $XDG_STATE_HOME/traced, else ~/.local/state/traced.
func StateDir(getenv func(string) string) string {
	dir := getenv("XDG_STATE_HOME")
	if dir == "" {
		dir = filepath.Join(getenv("HOME"), ".local", "state")
	}
	return filepath.Join(dir, "traced")
}

// RemoveRecord removes the service record at path when it names pid: a service started on
// demand calls it as it exits, and leaves a record a newer service wrote alone.
func RemoveRecord(path string, pid int) {
	if rec, err := readRecord(path); err == nil && rec.PID == pid {
		os.Remove(path)
	}
}

func readRecord(path string) (*Record, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var rec Record
	if err := json.Unmarshal(b, &rec); err != nil {
		return nil, fmt.Errorf("service record %s: %w", path, err)
	}
	return &rec, nil
}

func newHTTPClient() *http.Client {
	// No proxy: the service is on loopback, and a proxy from the environment must not see the token.
	return &http.Client{Transport: &http.Transport{Proxy: nil, MaxIdleConnsPerHost: 2}}
}

// service finds the service: --addr or TRACED_ADDR; else the record of one started on demand
// (proven ours before the token goes there: provenService); else the default address when a
// `traced serve` left its token file.
// With start, it starts one on demand (under a lock: two shells get one service).
func (c *call) service(start bool) (*service, error) {
	if c.svc != nil && !start {
		return c.svc, nil
	}
	tokenEnv := c.env.Getenv("TRACED_TOKEN")
	if addr := c.str("addr"); addr != "" || c.env.Getenv("TRACED_ADDR") != "" {
		if addr == "" {
			addr = c.env.Getenv("TRACED_ADDR")
		}
		tok := tokenEnv
		if tok == "" {
			tok = readToken(filepath.Join(StateDir(c.env.Getenv), "token"))
		}
		c.svc = &service{addr: addr, token: tok, how: "--addr", http: newHTTPClient()}
		return c.svc, nil
	}
	if start {
		svc, err := c.startService()
		if err != nil {
			return nil, err
		}
		c.svc = svc
		return svc, nil
	}
	dir := StateDir(c.env.Getenv)
	if rec, err := readRecord(filepath.Join(dir, "service.json")); err == nil && alive(rec.PID) {
		// The token goes only to a service proven ours; a stale record is started afresh.
		perr := provenService(rec, c.env.Self)
		if perr == nil {
			c.svc = recordService(rec, tokenEnv)
			return c.svc, nil
		}
		if c.cmd.autostart {
			fmt.Fprintf(c.env.Stderr, "traced: the service record is stale (%v): starting a service\n", perr)
			return c.service(true)
		}
		// Else as if there were no record: a traced serve at the default address, or none.
	}
	// A `traced serve` left its token file here (or the user gave one): try its default address.
	tok := tokenEnv
	if tok == "" {
		tok = readToken(filepath.Join(dir, "token"))
	}
	if tok == "" && c.cmd.autostart {
		return c.service(true) // nothing to try first: start one
	}
	if tok == "" {
		return nil, &cliError{code: ExitUnreachable, msg: "no traced service is running (none started on demand, no token of a traced serve in " + dir + ")",
			hint: "traced launch -- app.js starts one on demand (or run traced serve)"}
	}
	c.svc = &service{addr: defaultAddr, token: tok, how: "default address", http: newHTTPClient()}
	return c.svc, nil
}

func recordService(rec *Record, tokenEnv string) *service {
	tok := tokenEnv
	if rec.TokenFile != "" {
		tok = readToken(rec.TokenFile)
	}
	return &service{addr: rec.Addr, token: tok, how: "service record", rec: rec, http: newHTTPClient()}
}

func readToken(path string) string {
	b, _ := os.ReadFile(path)
	return strings.TrimSpace(string(b))
}

// alive reports whether a process exists (signal 0 checks without sending).
func alive(pid int) bool {
	return pid > 0 && syscall.Kill(pid, 0) == nil
}

// startService starts `traced serve` in the background on a loopback port the CLI binds itself
// and hands over (--listen-fd): the address is known before the service runs, and the first
// request waits in the listen backlog instead of racing the service's start. A lock file makes
// concurrent CLIs agree on one service; the record tells later ones where it is.
func (c *call) startService() (*service, error) {
	dir := StateDir(c.env.Getenv)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("state directory: %w", err)
	}
	lock, err := os.OpenFile(filepath.Join(dir, "service.lock"), os.O_CREATE|os.O_RDWR, 0o600)
	if err != nil {
		return nil, fmt.Errorf("service lock: %w", err)
	}
	defer lock.Close() // releases the lock too
	// Held for milliseconds by whoever starts a service: waiting on it needs no bound of its own.
	if err := unix.Flock(int(lock.Fd()), unix.LOCK_EX); err != nil {
		return nil, fmt.Errorf("service lock: %w", err)
	}
	tokenEnv := c.env.Getenv("TRACED_TOKEN")
	recPath := filepath.Join(dir, "service.json")
	if rec, err := readRecord(recPath); err == nil && provenService(rec, c.env.Self) == nil {
		return recordService(rec, tokenEnv), nil // another shell started it meanwhile
	}

	token, tokenFile := tokenEnv, ""
	if token == "" {
		token, tokenFile = rand.Text(), filepath.Join(dir, "service-token")
		if err := writePrivate(tokenFile, []byte(token+"\n")); err != nil {
			return nil, err
		}
	}
	root := c.str("root")
	if root == "" {
		root = c.env.Cwd
	}
	if root, err = filepath.Abs(root); err != nil {
		return nil, fmt.Errorf("--root: %w", err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, fmt.Errorf("bind a loopback port for the service: %w", err)
	}
	lnFile, err := ln.(*net.TCPListener).File() // a duplicate: the socket stays open for the child
	ln.Close()
	if err != nil {
		return nil, fmt.Errorf("hand the port over: %w", err)
	}
	defer lnFile.Close()
	logPath := filepath.Join(dir, "service.log")
	logFile, err := os.OpenFile(logPath, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
	if err != nil {
		return nil, fmt.Errorf("service log: %w", err)
	}
	defer logFile.Close()
	idle := DefaultIdleTimeout
	if s := c.env.Getenv("TRACED_IDLE_TIMEOUT"); s != "" {
		if idle, err = time.ParseDuration(s); err != nil || idle <= 0 {
			return nil, usageErr("TRACED_IDLE_TIMEOUT=%q is not a positive duration", s)
		}
	}
	cmd := exec.Command(c.env.Self, "serve", "--listen-fd", "3", "--root", root,
		"--idle-timeout", idle.String(), "--service-record", recPath)
	cmd.ExtraFiles = []*os.File{lnFile}
	cmd.Stdout, cmd.Stderr = logFile, logFile
	cmd.Env = append(os.Environ(), "TRACED_TOKEN="+token)
	cmd.Dir = root
	// Its own session: a Ctrl-C in this shell must not end the service other shells use.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("start traced serve: %w", err)
	}
	rec := &Record{Addr: ln.Addr().String(), TokenFile: tokenFile, PID: cmd.Process.Pid, Root: root,
		IdleTimeout: idle.String(), Log: logPath, Started: time.Now().UTC()}
	cmd.Process.Release() // it outlives this command by design
	b, _ := json.MarshalIndent(rec, "", "  ")
	if err := writePrivate(recPath, append(b, '\n')); err != nil {
		return nil, err
	}
	fmt.Fprintf(c.env.Stderr, "traced: started a service at %s (pid %d, root %s, idle timeout %s)\n", rec.Addr, rec.PID, root, idle)
	return &service{addr: rec.Addr, token: token, how: "started on demand", rec: rec, http: newHTTPClient()}, nil
}

// writePrivate replaces path atomically with a 0600 file.
func writePrivate(path string, b []byte) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+"-*")
	if err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(b); err != nil {
		tmp.Close()
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	return nil
}
