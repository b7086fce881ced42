// Package proctab reads the process table of /proc: a process's parent, state and start time,
// and the live descendants of a process.
package proctab

import (
	"bytes"
	"os"
	"strconv"
	"strings"
)

// Info is what /proc/PID/stat says of a process.
type Info struct {
	PPID  int
	State byte   // R, S, D, T, t, Z...
	Start uint64 // clock ticks after boot
}

// Stat parses /proc/PID/stat; ok is false when the process is gone.
func Stat(pid int) (Info, bool) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return Info{}, false
	}
	i := bytes.LastIndexByte(b, ')') // the command name may hold anything, ')' included
	if i < 0 {
		return Info{}, false
	}
	f := strings.Fields(string(b[i+1:]))
	if len(f) < 20 || len(f[0]) == 0 {
		return Info{}, false
	}
	ppid, _ := strconv.Atoi(f[1])
	start, _ := strconv.ParseUint(f[19], 10, 64)
	return Info{PPID: ppid, State: f[0][0], Start: start}, true
}

// Parents maps every process in /proc to its parent, and reports which are zombies.
func Parents() (parent map[int]int, zombie map[int]bool) {
	entries, _ := os.ReadDir("/proc")
	parent = make(map[int]int, len(entries))
	zombie = map[int]bool{}
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		st, ok := Stat(pid)
		if !ok {
			continue
		}
		parent[pid] = st.PPID
		if st.State == 'Z' || st.State == 'X' {
			zombie[pid] = true
		}
	}
	return parent, zombie
}

// maxDepth bounds a walk up the parent links; a tree deeper than this is not a real one.
const maxDepth = 256

// Descendants lists root's live descendants (zombies left out), by parent links.
func Descendants(root int) []int {
	parent, zombie := Parents()
	var out []int
	for pid := range parent {
		if pid == root || zombie[pid] {
			continue
		}
		for p, n := parent[pid], 0; p > 1 && n < maxDepth; p, n = parent[p], n+1 {
			if p == root {
				out = append(out, pid)
				break
			}
		}
	}
	return out
}
