package heapgraph

import (
	"cmp"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"testing"
)

// profileNode is a node of a sampling heap profile (HeapProfiler.stopSampling).
type profileNode struct {
	CallFrame struct {
		FunctionName string `json:"functionName"`
		ScriptID     string `json:"scriptId"`
		URL          string `json:"url"`
		LineNumber   int    `json:"lineNumber"`
	} `json:"callFrame"`
	SelfSize int64         `json:"selfSize"`
	Children []profileNode `json:"children"`
}

// readProfile reads a window's sampling heap profile (written by leaks.js) into its samples,
// innermost frame first, and names the scripts by their URLs, as traced does from the
// inspector's scripts.
func readProfile(t *testing.T, file string) ([]Sample, ScriptNamer) {
	t.Helper()
	raw, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var p struct {
		Head profileNode `json:"head"`
	}
	if err := json.Unmarshal(raw, &p); err != nil {
		t.Fatalf("%s: %v", file, err)
	}
	urls := map[int]string{}
	var samples []Sample
	var walk func(n *profileNode, stack []Frame)
	walk = func(n *profileNode, stack []Frame) {
		f := n.CallFrame
		if id, err := strconv.Atoi(f.ScriptID); err == nil && f.URL != "" {
			urls[id] = f.URL
		}
		fr := Frame{Function: cmp.Or(f.FunctionName, "(anonymous)"), File: f.URL, Line: f.LineNumber + 1}
		stack = append([]Frame{fr}, stack...)
		if n.SelfSize > 0 {
			samples = append(samples, Sample{Stack: stack, Bytes: n.SelfSize})
		}
		for i := range n.Children {
			walk(&n.Children[i], stack)
		}
	}
	walk(&p.Head, nil)
	return samples, func(id int) string { return urls[id] }
}

// sampledWindow is leakWindow with the window's samples and script names.
func sampledWindow(t *testing.T, scenario string) (uint32, *Graph, []Sample, ScriptNamer) {
	t.Helper()
	dir := t.TempDir()
	runNode(t, filepath.Join("testdata", "leaks.js"), scenario, dir)
	before := readFile(t, filepath.Join(dir, "before.heapsnapshot"))
	samples, scripts := readProfile(t, filepath.Join(dir, "window.heapprofile"))
	return before.MaxID(), readFile(t, filepath.Join(dir, "after.heapsnapshot")), samples, scripts
}

// TestAttributeNamesTheCaller: a sample under a class's constructor counts for the program's
// function that said new, past node's own frames and builtins; one made where a closure of
// the cluster is counts for the function around it; other samples count for nothing.
func TestAttributeNamesTheCaller(t *testing.T) {
	m := madeBy{classes: []string{"Timeout", "Promise", "then"}, closures: []Frame{{File: "/app/a.js", Line: 30}}}
	samples := []Sample{
		{Bytes: 100, Stack: []Frame{{Function: "init"}, {Function: "Timeout"}, {Function: "setInterval"}, {Function: "poll", File: "/app/a.js", Line: 12}, {Function: "main", File: "/app/a.js", Line: 2}}},
		{Bytes: 50, Stack: []Frame{{Function: "then"}, {Function: "request", File: "/app/b.js", Line: 7}}},
		{Bytes: 70, Stack: []Frame{{Function: "handle", File: "/app/a.js", Line: 28}}},                      // around the closure at 30
		{Bytes: 900, Stack: []Frame{{Function: "before", File: "/app/a.js", Line: 20}}},                     // an earlier function
		{Bytes: 900, Stack: []Frame{{Function: "after", File: "/app/a.js", Line: 31}}},                      // past the closure
		{Bytes: 900, Stack: []Frame{{Function: "push"}, {Function: "handle", File: "/app/a.js", Line: 28}}}, // a builtin's
		{Bytes: 900, Stack: []Frame{{Function: "Timeout"}, {Function: "listOnTimeout"}}},                    // no program frame
	}
	got := attribute(m, samples)
	want := []Site{{Function: "poll", File: "/app/a.js", Line: 12, Bytes: 100}, {Function: "handle", File: "/app/a.js", Line: 28, Bytes: 70}}
	if !slices.Equal(got, want) {
		t.Errorf("attribute:\n got %+v\nwant %+v", got, want)
	}
	if got := attribute(madeBy{}, samples); got != nil {
		t.Errorf("a cluster with no classes or closures: %+v", got)
	}
}
