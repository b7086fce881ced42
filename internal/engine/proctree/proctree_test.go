package proctree

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"
)

// sleeper starts `sleep 60` with env and returns it; it is killed and waited for at cleanup.
func sleeper(t *testing.T, env ...string) *exec.Cmd {
	t.Helper()
	cmd := exec.Command("sleep", "60")
	cmd.Env = append(os.Environ(), env...)
	if err := cmd.Start(); err != nil {
		t.Skip("no sleep:", err)
	}
	t.Cleanup(func() {
		cmd.Process.Kill()
		cmd.Wait()
	})
	return cmd
}

// deadService is the pid and start time of a process that has exited.
func deadService(t *testing.T) (int, uint64) {
	t.Helper()
	cmd := exec.Command("true")
	if err := cmd.Start(); err != nil {
		t.Skip("no true:", err)
	}
	st, _ := readStat(cmd.Process.Pid)
	cmd.Wait()
	return cmd.Process.Pid, st.start
}

func writeRecord(t *testing.T, dataDir string, rec treeRecord) {
	t.Helper()
	b, _ := json.Marshal(rec)
	dir := recordsDir(dataDir)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, rec.Tag+".json"), b, 0o600); err != nil {
		t.Fatal(err)
	}
}

// alive reports whether pid runs (a zombie does not).
func alive(pid int) bool {
	st, ok := readStat(pid)
	return ok && st.state != 'Z'
}

// TestReapLeftoversOnlyProvablyOwn: a restarted service kills what a dead service's record
// proves was its (the tag in the environment, or pid and start time), and nothing else: not a
// process whose start time differs, not the sessions of a service still running.
func TestReapLeftoversOnlyProvablyOwn(t *testing.T) {
	data := t.TempDir()
	svc, svcStart := deadService(t)
	self, _ := readStat(os.Getpid())

	tagged := sleeper(t, TagEnv+"=aaaa")
	reused := sleeper(t)                 // a pid the record names, with another start time
	byPid := sleeper(t)                  // named by pid and start time
	ofLive := sleeper(t, TagEnv+"=cccc") // of a service that still runs
	rs, _ := readStat(reused.Process.Pid)
	bs, _ := readStat(byPid.Process.Pid)
	writeRecord(t, data, treeRecord{Service: svc, ServiceStart: svcStart, Tag: "aaaa", PID: reused.Process.Pid, Start: rs.start + 1})
	writeRecord(t, data, treeRecord{Service: svc, ServiceStart: svcStart, Tag: "bbbb", PID: byPid.Process.Pid, Start: bs.start})
	writeRecord(t, data, treeRecord{Service: os.Getpid(), ServiceStart: self.start, Tag: "cccc", PID: ofLive.Process.Pid, Start: 0})

	if _, err := ReapLeftovers(data); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name string
		cmd  *exec.Cmd
		want bool
	}{{"tagged", tagged, false}, {"pid reused", reused, true}, {"pid and start", byPid, false}, {"of a live service", ofLive, true}} {
		end := time.Now().Add(5 * time.Second)
		for alive(c.cmd.Process.Pid) != c.want && time.Now().Before(end) {
			time.Sleep(10 * time.Millisecond) // the process table has no event to wait on
		}
		if got := alive(c.cmd.Process.Pid); got != c.want {
			t.Errorf("%s: alive %v, want %v", c.name, got, c.want)
		}
	}
	left, _ := os.ReadDir(recordsDir(data))
	if len(left) != 1 {
		t.Errorf("records left: %d, want the live service's one", len(left))
	}
}
