// Package proctree finds and kills the whole process tree of a session: every process that
// carries the session's tag in its environment or descends from its root, including those that
// left its process group; and, with the service a child subreaper, reaps orphans of the tree
// without taking the status of a process os/exec waits for.
package proctree

import (
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	ossignal "os/signal"
	"path/filepath"
	"strconv"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"golang.org/x/sys/unix"

	"traced/internal/proctab"
)

// A session's program may start processes that leave its process group (detached children,
// setsid) and ignore SIGTERM. Each one inherits TagEnv, a random tag per session, so that a stop
// finds the whole tree by that tag and by parent links, and kills it. With the service a child
// subreaper (EnableSubreaper), orphans of the tree become the service's children: it reaps them.
// A record per session in the data dir lets a restarted service kill what a killed one left.

// TagEnv names the variable that marks every process of a session's tree.
const TagEnv = "TRACED_SESSION_TAG"

// NewTag is a session's tree tag: 128 random bits, so that a process carrying it is provably
// the session's.
func NewTag() string {
	b := make([]byte, 16)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

// procInfo is what /proc/PID/stat says of a process.
type procInfo struct {
	ppid  int
	state byte
	start uint64 // clock ticks after boot
}

// readStat parses /proc/PID/stat; ok is false when the process is gone.
func readStat(pid int) (procInfo, bool) {
	st, ok := proctab.Stat(pid)
	return procInfo{ppid: st.PPID, state: st.State, start: st.Start}, ok
}

// hasTag reports whether a process's initial environment carries TagEnv=tag.
func hasTag(pid int, tag string) bool {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/environ")
	if err != nil {
		return false
	}
	return bytes.Contains(append([]byte{0}, b...), []byte("\x00"+TagEnv+"="+tag+"\x00"))
}

// TreeOf lists the live processes of a tree: root's descendants by parent links, and every
// process carrying the tag (orphans whose parent link is gone).
func TreeOf(root int, tag string) []int {
	all, zombie := proctab.Parents()
	parent := make(map[int]int, len(all))
	var tagged []int
	for pid, ppid := range all {
		if zombie[pid] {
			continue
		}
		parent[pid] = ppid
		if tag != "" && pid != root && hasTag(pid, tag) {
			tagged = append(tagged, pid)
		}
	}
	in := map[int]bool{}
	for pid := range parent {
		for p, n := pid, 0; p > 1 && n < 64; p, n = parent[p], n+1 {
			if p == root && pid != root {
				in[pid] = true
				break
			}
		}
	}
	for _, pid := range tagged {
		in[pid] = true
	}
	out := make([]int, 0, len(in))
	for pid := range in {
		out = append(out, pid)
	}
	return out
}

// KillTree kills root's process group and every process of its tree, again until a pass finds
// none alive (a process may fork while the first pass runs), and reaps those that became the
// service's children.
func KillTree(root int, tag string) {
	tree := TreeOf(root, tag) // before the root dies: its children's parent links go with it
	_ = syscall.Kill(-root, syscall.SIGKILL)
	var killed []int
	for i := 0; i < 10 && len(tree) > 0; i, tree = i+1, TreeOf(root, tag) {
		for _, pid := range tree {
			_ = syscall.Kill(pid, syscall.SIGKILL)
		}
		killed = append(killed, tree...)
	}
	if len(killed) > 0 && subreaping.Load() { // otherwise orphans are init's to reap
		go reapPids(killed)
	}
}

// reapPids waits for killed orphans that are, or become, the service's children; the session's
// own child is never among them (os/exec waits for it).
func reapPids(pids []int) {
	end := time.Now().Add(10 * time.Second)
	for len(pids) > 0 && time.Now().Before(end) {
		left := pids[:0]
		for _, pid := range pids {
			st, ok := readStat(pid)
			if !ok {
				continue // gone: someone reaped it
			}
			if st.ppid == os.Getpid() && st.state == 'Z' && !Owned.has(pid) {
				var ws unix.WaitStatus
				_, _ = unix.Wait4(pid, &ws, unix.WNOHANG, nil)
				continue
			}
			left = append(left, pid)
		}
		pids = left
		time.Sleep(20 * time.Millisecond) // the process table has no event to wait on
	}
}

// subreaping is set once the service is a child subreaper.
var subreaping atomic.Bool

// Owned are the pids os/exec started and waits for; a reaper never takes their status.
var Owned = &ownedPids{pids: map[int]bool{}}

type ownedPids struct {
	mu   sync.Mutex
	pids map[int]bool
}

func (o *ownedPids) has(pid int) bool {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.pids[pid]
}

// Start starts cmd with its pid marked Owned before any reaper can look (the reaper holds mu
// while it reaps).
func (o *ownedPids) Start(cmd *exec.Cmd) error {
	o.mu.Lock()
	defer o.mu.Unlock()
	if err := cmd.Start(); err != nil {
		return err
	}
	o.pids[cmd.Process.Pid] = true
	return nil
}

// Run starts cmd Owned and waits for it: exec.Cmd.Run for a service that may be a subreaper.
func (o *ownedPids) Run(cmd *exec.Cmd) error {
	if err := o.Start(cmd); err != nil {
		return err
	}
	defer o.Done(cmd.Process.Pid)
	return cmd.Wait()
}

// Done forgets a pid once its Wait returned.
func (o *ownedPids) Done(pid int) {
	o.mu.Lock()
	defer o.mu.Unlock()
	delete(o.pids, pid)
}

// EnableSubreaper makes the service a child subreaper (Linux): orphans of a session's tree
// become its children instead of init's, so a stop can still find them, and it reaps every
// orphan that ends (zombies the service did not start itself).
func EnableSubreaper() error {
	if err := unix.Prctl(unix.PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0); err != nil {
		return err
	}
	subreaping.Store(true)
	ch := make(chan os.Signal, 1)
	ossignal.Notify(ch, syscall.SIGCHLD)
	go func() {
		for range ch {
			reapOrphans()
		}
	}()
	return nil
}

// reapOrphans reaps the service's zombie children that os/exec does not wait for.
func reapOrphans() {
	Owned.mu.Lock()
	defer Owned.mu.Unlock()
	entries, _ := os.ReadDir("/proc")
	self := os.Getpid()
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil || Owned.pids[pid] {
			continue
		}
		if st, ok := readStat(pid); ok && st.ppid == self && st.state == 'Z' {
			var ws unix.WaitStatus
			_, _ = unix.Wait4(pid, &ws, unix.WNOHANG, nil)
		}
	}
}

// treeRecord is what the data dir keeps of a live session's tree, for a restarted service.
type treeRecord struct {
	Service      int    `json:"service"` // the service's pid and start time: alive, the record is its
	ServiceStart uint64 `json:"serviceStart"`
	Tag          string `json:"tag"`
	PID          int    `json:"pid"` // the session's node, with its start time
	Start        uint64 `json:"start"`
}

// recordsDir is where tree records are kept.
func recordsDir(dataDir string) string { return filepath.Join(dataDir, "traced-trees") }

// RecordTree writes a session's record; the path is returned for its removal at the end.
func RecordTree(dataDir, tag string, pid int) (string, error) {
	self, _ := readStat(os.Getpid())
	node, _ := readStat(pid)
	rec := treeRecord{Service: os.Getpid(), ServiceStart: self.start, Tag: tag, PID: pid, Start: node.start}
	b, err := json.Marshal(rec)
	if err != nil {
		return "", err
	}
	dir := recordsDir(dataDir)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return "", err
	}
	path := filepath.Join(dir, tag+".json")
	return path, os.WriteFile(path, b, 0o600)
}

// ReapLeftovers kills what sessions of a service that is no longer running left behind (it was
// killed before it could stop them): processes carrying a recorded tag, and a recorded node
// whose pid and start time both match. A record of a live service is left alone. It returns
// how many processes it killed.
func ReapLeftovers(dataDir string) (int, error) {
	dir := recordsDir(dataDir)
	entries, err := os.ReadDir(dir)
	if errors.Is(err, os.ErrNotExist) {
		return 0, nil
	} else if err != nil {
		return 0, err
	}
	n := 0
	for _, e := range entries {
		path := filepath.Join(dir, e.Name())
		b, err := os.ReadFile(path)
		if err != nil {
			continue
		}
		var rec treeRecord
		if json.Unmarshal(b, &rec) != nil || rec.Tag == "" {
			os.Remove(path)
			continue
		}
		if st, ok := readStat(rec.Service); ok && st.start == rec.ServiceStart && st.state != 'Z' {
			continue // its service runs: the sessions are its own
		}
		root := 0
		if st, ok := readStat(rec.PID); ok && st.start == rec.Start {
			root = rec.PID
			_ = syscall.Kill(rec.PID, syscall.SIGKILL)
			n++
		}
		for _, pid := range TreeOf(root, rec.Tag) {
			_ = syscall.Kill(pid, syscall.SIGKILL)
			n++
		}
		os.Remove(path)
	}
	return n, nil
}
