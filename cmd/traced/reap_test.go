package main

import (
	"encoding/json"
	"net/http"
	"strconv"
	"strings"
	"syscall"
	"testing"
)

// treePids starts spawntree.js and returns the pids of the detached child and the setsid
// grandchild it prints; they are killed at cleanup should the test fail.
func (s *server) treePids(t *testing.T) []int {
	t.Helper()
	code, body := s.request(t, "POST", "/api/trace/start", s.token, map[string]any{"target": "spawntree.js"})
	if code != http.StatusCreated {
		t.Fatalf("start: %d %s", code, body)
	}
	var started struct {
		Session struct {
			ID string `json:"id"`
		} `json:"session"`
	}
	if err := json.Unmarshal(body, &started); err != nil {
		t.Fatal(err)
	}
	code, body = s.request(t, "GET", "/api/trace/wait?kinds=console&timeoutMs=10000&id="+started.Session.ID, s.token, nil)
	var w struct {
		Event *struct {
			Console struct {
				Text struct {
					Value string `json:"value"`
				} `json:"text"`
			} `json:"console"`
		} `json:"event"`
	}
	if err := json.Unmarshal(body, &w); code != http.StatusOK || err != nil || w.Event == nil {
		t.Fatalf("wait: %d %s", code, body)
	}
	var pids []int
	for _, f := range strings.Fields(w.Event.Console.Text.Value)[1:] {
		pid, err := strconv.Atoi(f)
		if err != nil {
			t.Fatalf("console %q: %v", w.Event.Console.Text.Value, err)
		}
		pids = append(pids, pid)
	}
	t.Cleanup(func() {
		for _, pid := range pids {
			syscall.Kill(pid, syscall.SIGKILL)
		}
	})
	return pids
}

// A traced that is SIGKILLed leaves the descendants that left the child's process group (Pdeathsig
// ends only the child): the next traced on the same data dir kills them, as its own.
func TestServeRestartReapsLeftovers(t *testing.T) {
	requireNode(t)
	data := t.TempDir()
	env := tracedEnv("TRACED_TOKEN="+testToken, "XDG_STATE_HOME="+t.TempDir())
	first := startTraced(t, env, "serve", "--addr", "127.0.0.1:0", "--root", testdata, "--data-dir", data)
	line, err := first.stderr.waitFor(listeningRE.MatchString, startBound)
	if err != nil {
		t.Fatalf("listening line: %v\nstderr:\n%s", err, first.stderr)
	}
	s := &server{proc: first, url: listeningRE.FindStringSubmatch(line)[1], token: testToken}
	pids := s.treePids(t)
	s.signal(t, syscall.SIGKILL)
	s.exit(t, exitBound)
	for _, pid := range pids {
		if processDead(pid) {
			t.Fatalf("pid %d of the tree died with traced: nothing left to reap", pid)
		}
	}

	second := startTraced(t, env, "serve", "--addr", "127.0.0.1:0", "--root", testdata, "--data-dir", data)
	if _, err := second.stderr.waitFor(listeningRE.MatchString, startBound); err != nil {
		t.Fatalf("listening line: %v\nstderr:\n%s", err, second.stderr)
	}
	for _, pid := range pids {
		if !waitGone(pid, goneBound, processDead) {
			t.Errorf("pid %d left by the killed traced still alive after a restart", pid)
		}
	}
}

// A stop kills the whole tree of the program, also what left its process group: with traced a
// child subreaper, the orphans are its children, and it reaps them (no zombie is left).
func TestServeStopKillsAndReapsTheTree(t *testing.T) {
	requireNode(t)
	s := withToken(t, testdata)
	pids := s.treePids(t)
	code, body := s.request(t, "POST", "/api/trace/stop", s.token, map[string]any{"id": "s1"})
	if code != http.StatusOK {
		t.Fatalf("stop: %d %s", code, body)
	}
	for _, pid := range pids {
		if !waitGone(pid, goneBound, func(pid int) bool { return syscall.Kill(pid, 0) != nil }) {
			t.Errorf("pid %d of the stopped tree still exists (alive or an unreaped zombie)", pid)
		}
	}
}
