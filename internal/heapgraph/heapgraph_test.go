package heapgraph

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// runNode runs a fixture program to its end.
func runNode(t *testing.T, args ...string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	out, err := exec.CommandContext(ctx, "node", args...).CombinedOutput()
	if err != nil {
		t.Fatalf("node %s: %v\n%s", strings.Join(args, " "), err, out)
	}
}

func readFile(t *testing.T, path string) *Graph {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	g, err := Read(f)
	if err != nil {
		t.Fatalf("read %s: %v", path, err)
	}
	return g
}

// leakWindow runs a scenario of testdata/leaks.js and answers its watermark and the graph of
// the snapshot after the window.
func leakWindow(t *testing.T, scenario string) (uint32, *Graph) {
	t.Helper()
	w, g, _, _ := sampledWindow(t, scenario)
	return w, g
}

// leaked is the fixture's iteration count (N in leaks.js).
const leaked = 400

func TestLeakReportNamesTheOwningCollection(t *testing.T) {
	cases := []struct {
		scenario, label, path, pinch string
		minRetained                  uint64
		made                         string // the function that allocated them (the sampled sites)
	}{
		{"emitter", "(closure onSettings", "global.bus → EventEmitter._events.settings[i] → (closure onSettings", "EventEmitter._events.settings[i]", 0, "emitterStep"},
		{"mapcache", "CacheEntry", ".context.cache → Map[entry] → CacheEntry", ".cache → Map[entry]", 0, "handle"},
		{"interval", "Timeout", "timerListMap[i] → TimersList.", "TimersList.", 0, "intervalStep"},
		{"newinterval", "Timeout", "timerListMap[i] → TimersList.", "TimersList.", 0, "newintervalStep"},
		{"globalarray", "LogEntry", "global.requestLog[i] → LogEntry", "global.requestLog[i]", 0, "globalarrayStep"},
		// The reactions' Promise, closure and (node 24+) AsyncContextFrame clusters share the
		// pinch; the callback run in the context makes the promises, its caller the context.
		{"als", "", "global.shutdown → Promise.reactions_or_result", "global.shutdown → Promise.reactions_or_result", 0, "als"},
		// The typed arrays' backing stores are counted: megabytes, not 400 small objects.
		{"typedarrays", "Frame", "global.frames[i] → Frame", "global.frames[i]", leaked * 32 << 10, "typedarraysStep"},
	}
	for _, tc := range cases {
		t.Run(tc.scenario, func(t *testing.T) {
			t.Parallel()
			w, g, samples, scripts := sampledWindow(t, tc.scenario)
			rep := g.Leaks(w, 5, scripts)
			rep.Attribute(samples)
			text := rep.Text(2048)
			if len(text) > 2048 {
				t.Errorf("text is %d bytes", len(text))
			}
			if len(rep.Clusters) == 0 {
				t.Fatalf("no clusters:\n%s", text)
			}
			c := rep.Clusters[0]
			if !strings.HasPrefix(c.Label, tc.label) || c.Count < leaked || !strings.Contains(c.Path, tc.path) || !strings.Contains(c.Pinch, tc.pinch) {
				t.Errorf("first cluster: %d × %s\n  path %s\n  pinch %s\nwant %d × %s via %q, pinch %q\n%s", c.Count, c.Label, c.Path, c.Pinch, leaked, tc.label, tc.path, tc.pinch, text)
			}
			if c.RetainedSize < tc.minRetained {
				t.Errorf("retained %d bytes, want >= %d", c.RetainedSize, tc.minRetained)
			}
			if len(c.Allocated) == 0 || !strings.HasPrefix(c.Allocated[0].Function, tc.made) || !strings.HasSuffix(c.Allocated[0].File, "leaks.js") {
				t.Errorf("first cluster allocated in %+v, want %s… in leaks.js\n%s", c.Allocated, tc.made, text)
			}
			t.Logf("%d × %s allocated in %+v", c.Count, c.Label, c.Allocated)
		})
	}
}

func TestLeakReportOfControlIsQuiet(t *testing.T) {
	w, g := leakWindow(t, "control")
	rep := g.Leaks(w, 5, nil)
	for _, c := range rep.Clusters {
		if c.Count >= leaked/10 {
			t.Errorf("control reports %d × %s: %s\n%s", c.Count, c.Label, c.Path, rep.Text(2048))
		}
	}
}

func TestInstancesGroupsRetainers(t *testing.T) {
	_, g := leakWindow(t, "mapcache")
	in := g.Instances("CacheEntry", 3, nil)
	if in.Count < leaked || len(in.Shapes) == 0 || in.Shapes[0].Count < leaked || !strings.Contains(in.Shapes[0].Path, "cache → Map[entry] → CacheEntry") {
		t.Fatalf("instances:\n%s", in.Text(2048))
	}
	if len(in.Objects) != 3 || in.Objects[0].Path == "" || in.Objects[0].RetainedSize < uint64(in.Objects[0].SelfSize) {
		t.Errorf("objects: %+v", in.Objects)
	}
	rs := g.Retainers(in.Objects[0].node, 5)
	if len(rs) == 0 || g.edgeTo[rs[0].Edge] != in.Objects[0].node {
		t.Errorf("retainers of @%d: %+v", in.Objects[0].ID, rs)
	}
	if in.RetainedSize < in.SelfSize {
		t.Errorf("retained %d < self %d", in.RetainedSize, in.SelfSize)
	}

	sum := g.Summary(0)
	var found bool
	for _, c := range sum.Classes {
		if c.Name == "CacheEntry" {
			found = true
			if c.Count != in.Count || c.RetainedSize != in.RetainedSize {
				t.Errorf("summary %+v, instances count %d retained %d", c, in.Count, in.RetainedSize)
			}
		}
	}
	if !found || sum.Nodes != g.NodeCount() || g.RetainedSize(0) < sum.TotalSize/2 {
		t.Errorf("summary: found %v, %d nodes, root retains %d of %d", found, sum.Nodes, g.RetainedSize(0), sum.TotalSize)
	}
	if text := g.NodeText(in.Objects[0].node, nil, 2048); !strings.Contains(text, "held by @") || !strings.Contains(text, "Map[entry] → CacheEntry") {
		t.Errorf("node text:\n%s", text)
	}
	if text := sum.Text(300); len(text) > 300 || !strings.Contains(text, " more: ask for a larger top)") {
		t.Errorf("summary text of %d bytes:\n%s", len(text), text)
	}
	top := g.Largest(5, nil)
	if len(top) != 5 || top[0].RetainedSize < top[4].RetainedSize || top[0].Path == "" {
		t.Errorf("largest:\n%s", HoldersText(top, 2048))
	}
}

// The inspector's handles (traced's remote objects) do not retain: an object only they hold
// is unreachable, and nothing counts it.
func TestInspectorHandlesDoNotRetain(t *testing.T) {
	file := filepath.Join(t.TempDir(), "pinned.heapsnapshot")
	runNode(t, filepath.Join("testdata", "pinned.js"), file)
	g := readFile(t, file)
	in := g.Instances("PinnedByInspector", 3, nil)
	if in.Count != 1 || len(in.Shapes) != 0 || in.RetainedSize != 0 {
		t.Fatalf("pinned object looks retained:\n%s", in.Text(2048))
	}
	if rep := g.Leaks(0, 50, nil); strings.Contains(rep.Text(0), "PinnedByInspector") {
		t.Errorf("leak report shows the pinned object:\n%s", rep.Text(0))
	}
}

func TestReadRejectsBrokenSnapshots(t *testing.T) {
	for name, text := range map[string]string{
		"not json":       "hello",
		"no nodes":       `{"snapshot":{"meta":{"node_fields":["type"]},"node_count":1,"edge_count":0}}`,
		"short nodes":    tinyHeader + `"nodes":[0,0,1,0,0],"edges":[],"strings":["a"]}`,
		"edge past end":  tinyHeader + `"nodes":[0,0,1,0,1],"edges":[0,0,5],"strings":["a"]}`,
		"edge count off": tinyHeader + `"nodes":[0,0,1,0,2],"edges":[0,0,0],"strings":["a"]}`,
		"truncated":      tinyHeader + `"nodes":[0,0,1,0,0`,
	} {
		if _, err := Read(strings.NewReader(text)); !errors.Is(err, ErrFormat) {
			t.Errorf("%s: err %v, want ErrFormat", name, err)
		}
	}
}

// TestLeaksTextCount: the report's head counts its clusters in good English.
func TestLeaksTextCount(t *testing.T) {
	one := Leaks{Objects: 3, Clusters: []Cluster{{}}}
	if got := one.Text(0); !strings.Contains(got, "; 1 cluster:\n") {
		t.Errorf("one cluster: %q", got)
	}
	two := Leaks{Objects: 3, Clusters: []Cluster{{}, {}}}
	if got := two.Text(0); !strings.Contains(got, "; 2 clusters:\n") {
		t.Errorf("two clusters: %q", got)
	}
}
