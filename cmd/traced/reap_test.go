package main

import (
	"encoding/json"
	"net/http"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"traced/internal/leakcheck"
	"traced/internal/proctab"
)

// treePids starts target (spawntree.js, deathtree.js) and returns node's pid and the pids of
// the tree it prints; they are killed at cleanup should the test fail.
func (s *server) treePids(t *testing.T, target string) (int, []int) {
	t.Helper()
	code, body := s.request(t, "POST", "/api/trace/start", s.token, map[string]any{"target": target})
	if code != http.StatusCreated {
		t.Fatalf("start: %d %s", code, body)
	}
	var started struct {
		Session struct {
			ID  string `json:"id"`
			PID int    `json:"pid"`
		} `json:"session"`
	}
	if err := json.Unmarshal(body, &started); err != nil {
		t.Fatal(err)
	}
	code, body = s.request(t, "GET", "/api/trace/wait?kinds=console&after=0&timeoutMs=10000&id="+started.Session.ID, s.token, nil)
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
	fields := strings.Fields(w.Event.Console.Text.Value)
	if len(fields) < 3 || fields[0] != "tree" {
		t.Fatalf("console %q, want \"tree\" and pids", w.Event.Console.Text.Value)
	}
	for _, f := range fields[1:] {
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
	return started.Session.PID, pids
}

// deathBound is how soon every process of a session is gone after the service is SIGKILLed.
const deathBound = time.Second

// A traced that is SIGKILLed takes every process of its sessions with it, within a second: its
// shim kills the tree, forks in node's group that ignore SIGTERM and setsid grandchildren too.
func TestServeKilledTakesTheTree(t *testing.T) {
	requireNode(t)
	s := withToken(t, testdata)
	node, pids := s.treePids(t, "deathtree.js")
	shim := ppidOf(node)
	if shim == s.proc.cmd.Process.Pid || shim <= 1 {
		t.Fatalf("node %d's parent is %d, want a shim between it and traced %d", node, shim, s.proc.cmd.Process.Pid)
	}
	all := append([]int{shim, node}, pids...)
	s.signal(t, syscall.SIGKILL)
	killed := time.Now()
	if !leakcheck.WaitUntil(deathBound, func() bool { return allDead(all) }) {
		var alive []int
		for _, pid := range all {
			if !processDead(pid) {
				alive = append(alive, pid)
			}
		}
		t.Fatalf("%v of %v still alive %s after traced was SIGKILLed", alive, all, time.Since(killed))
	}
	s.exit(t, exitBound)
}

// A tree whose shim and traced are both SIGKILLed keeps what left node's tree (Pdeathsig ends
// only node): the next traced on the same data dir kills it, as its own.
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
	node, pids := s.treePids(t, "spawntree.js")
	// traced stopped first: once node dies with its shim, a running traced would finish the
	// session and remove the tree's record before its own SIGKILL (a CI run on node 24 lost it so).
	s.signal(t, syscall.SIGSTOP)
	syscall.Kill(ppidOf(node), syscall.SIGKILL) // the shim next: nothing kills the tree then
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

// ppidOf is pid's parent, 0 when it is gone.
func ppidOf(pid int) int {
	st, _ := proctab.Stat(pid)
	return st.PPID
}

func allDead(pids []int) bool {
	for _, pid := range pids {
		if !processDead(pid) {
			return false
		}
	}
	return true
}

// A stop kills the whole tree of the program, also what left its process group: with traced a
// child subreaper, the orphans are its children, and it reaps them (no zombie is left).
func TestServeStopKillsAndReapsTheTree(t *testing.T) {
	requireNode(t)
	s := withToken(t, testdata)
	_, pids := s.treePids(t, "spawntree.js")
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
