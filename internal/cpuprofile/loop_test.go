package cpuprofile

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// measureLoop runs a slow fixture under the loop harness and node's profiler: the event-loop
// figures the snippets answer, and the profile of the same run.
// Without profile, node runs without its profiler, and the profile is nil.
func measureLoop(t *testing.T, node, dir, script string, window time.Duration, profile bool) (LoopStats, *Profile) {
	t.Helper()
	snippets, err := json.Marshal(map[string]string{"start": LoopMonitorStartJS, "read": LoopMonitorReadJS})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	profDir := t.TempDir()
	args := []string{"loopharness.js", script, strconv.FormatInt(window.Milliseconds(), 10)}
	if profile {
		args = append([]string{"--cpu-prof", "--cpu-prof-dir=" + profDir}, args...)
	}
	cmd := exec.CommandContext(ctx, node, args...)
	cmd.Dir = dir
	cmd.Env = append(cmd.Environ(), "TRACED_SNIPPETS="+string(snippets))
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("%s: %v\n%s", script, err, stderr.String())
	}
	stats, err := ParseLoopStats(out)
	if err != nil {
		t.Fatalf("%s: %v: %s", script, err, out)
	}
	if !profile {
		return stats, nil
	}
	found, _ := filepath.Glob(filepath.Join(profDir, "*.cpuprofile"))
	if len(found) != 1 {
		t.Fatalf("%d profiles", len(found))
	}
	data, err := os.ReadFile(found[0])
	if err != nil {
		t.Fatal(err)
	}
	p, err := Parse(data)
	if err != nil {
		t.Fatal(err)
	}
	return stats, p
}

// TestLoopSnippets: on every installed node, the snippets measure the 200 ms stalls of the
// interval fixture (and the diagnosis shows them), and next to nothing on the idle one (run
// without the profiler, which inflates utilisation).
func TestLoopSnippets(t *testing.T) {
	for version, node := range nodeBinaries(t) {
		t.Run(version, func(t *testing.T) {
			dir := fixtureDir(t)
			stall, p := measureLoop(t, node, dir, "stall.js", 2200*time.Millisecond, true)
			d := DiagnoseAll([]TargetProfile{{Name: "main", Profile: p, Loop: &stall}})[0]
			text := RenderDiagnoses([]Diagnosis{d}, 0)
			t.Logf("stall: %+v\n%s", stall, text)
			if stall.DelayMaxMs < 180 || stall.DelayP99Ms < 150 || stall.Utilization < 0.2 || stall.WindowMs < 2000 {
				t.Errorf("stall figures: %+v", stall)
			}
			// The category is blocked on a quiet machine; on a loaded one V8 can charge the
			// stall's busy time to the collector (gc), but the stall is named either way.
			if (d.Category != CategoryBlocked && d.Category != CategoryGC) || !strings.Contains(text, "loop delay p50") ||
				!strings.Contains(text, "ms at +") || !strings.Contains(text, "blockFor") {
				t.Errorf("stall diagnosis:\n%s", text)
			}
			idle, _ := measureLoop(t, node, dir, "idle.js", 1000*time.Millisecond, false)
			t.Logf("idle: %+v", idle)
			if idle.DelayP99Ms >= stall.DelayP99Ms/2 || // scheduling on a loaded machine alone can delay 60 ms
				idle.Utilization > 0.2 {
				t.Errorf("idle figures: %+v", idle)
			}
		})
	}
}

// TestParseLoopStats: the read-back answer when the monitor was never started is an error.
func TestParseLoopStats(t *testing.T) {
	if _, err := ParseLoopStats([]byte(`{"error":"the event-loop monitor was not started"}`)); err == nil || !strings.Contains(err.Error(), "not started") {
		t.Errorf("got %v", err)
	}
	if _, err := ParseLoopStats([]byte(`nope`)); err == nil {
		t.Error("broken answer accepted")
	}
}
