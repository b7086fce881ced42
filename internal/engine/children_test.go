package engine

import (
	"slices"
	"strings"
	"testing"
	"testing/iotest"
)

// TestReadAnnouncements: whatever else a process of the tree writes on the FIFO, each
// announcement after it is read: past a line of any length, after half a line, and among lines
// that are not announcements.
func TestReadAnnouncements(t *testing.T) {
	ann := func(pid string) string {
		return `{"pid":` + pid + `,"ppid":1,"url":"ws://127.0.0.1:9229/0f0e0d0c-0b0a-4908-8706-050403020100","argv":["a.js"]}` + "\n"
	}
	in := ann("1") +
		strings.Repeat("x", 100<<10) + ann("2") + // a long line without its newline, then one
		`{"pid":9,"url":"ws://127.0.0.1:1/` + ann("3") + // half an announcement, then one
		"not json\n" + `{"pid":4,"url":"ws://10.0.0.1:9229/0f0e0d0c-0b0a-4908-8706-050403020100"}` + "\n" + // not loopback
		strings.Repeat("y", 1<<20) + "\n" + ann("5")
	var pids []int
	readAnnouncements(iotest.HalfReader(strings.NewReader(in)), func(a announcement) { pids = append(pids, a.PID) })
	want := []int{1, 2, 3, 5}
	if !slices.Equal(pids, want) {
		t.Fatalf("announced %v, want %v", pids, want)
	}
}
