package heapsnap

import (
	"strings"
	"testing"
)

// tinySnapshot is a heap snapshot in V8's layout: three LeakyThing objects, one string, one
// closure, and names with escapes.
const tinySnapshot = `{"snapshot":{"meta":{"node_fields":["type","name","id","self_size","edge_count","trace_node_id","detachedness"],
"node_types":[["hidden","array","string","object","code","closure","regexp","number","native","synthetic","concatenated string","sliced string","symbol","bigint","object shape"],"string","number","number","number","number","number"],
"edge_fields":["type","name_or_index","to_node"],"edge_types":[["context"],"string_or_number","node"]},"node_count":6,"edge_count":0,"trace_function_count":0},
"nodes":[9,0,1,0,0,0,0
,3,1,3,40,0,0,0
,3,1,5,40,0,0,0
,3,1,7,40,0,0,0
,2,2,9,24,0,0,0
,5,3,11,32,0,0,0],
"edges":[],
"trace_function_infos":[],"trace_tree":[],"samples":[],"locations":[],
"strings":["(GC roots)","LeakyThing","some \"text\"\n","f\u00e9\ud83d\ude00"]}`

func TestSummarizeHeapSnapshot(t *testing.T) {
	sum, err := Summarize(strings.NewReader(tinySnapshot))
	if err != nil {
		t.Fatal(err)
	}
	if sum.Nodes != 6 || sum.TotalSize != 176 {
		t.Fatalf("nodes %d size %d, want 6 and 176", sum.Nodes, sum.TotalSize)
	}
	first := sum.Classes[0]
	if first.Name != "LeakyThing" || first.Count != 3 || first.SelfSize != 120 || len(first.IDs) != 3 || first.IDs[0] != 3 {
		t.Fatalf("first class %+v, want LeakyThing x3 of 120 bytes with ids 3,5,7", first)
	}
	names := map[string]Class{}
	for _, c := range sum.Classes {
		names[c.Name] = c
	}
	for _, want := range []string{"(string)", "(closure)", "(GC roots)"} {
		if _, ok := names[want]; !ok {
			t.Errorf("no class %q in %+v", want, sum.Classes)
		}
	}
}

func TestSummarizeHeapSnapshotEscapedName(t *testing.T) {
	snap := strings.Replace(tinySnapshot, `,3,1,3,40`, `,3,3,3,40`, 1)
	sum, err := Summarize(strings.NewReader(snap))
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, c := range sum.Classes {
		if c.Name == "fé😀" {
			found = true
		}
	}
	if !found {
		t.Fatalf("no class named with the decoded surrogate pair: %+v", sum.Classes)
	}
}

func TestSummarizeHeapSnapshotRefusesGarbage(t *testing.T) {
	for _, in := range []string{
		"", "{}", `{"snapshot":{}}`, "not json at all",
		strings.Replace(tinySnapshot, `,2,2,9,24`, `,2,x,9,24`, 1),
		strings.Replace(tinySnapshot, `"nodes":[9,0,1,0,0,0,0`, `"nodes":[9,0,1,0,0,0`, 1),
		tinySnapshot[:len(tinySnapshot)/2],
	} {
		if _, err := Summarize(strings.NewReader(in)); err == nil {
			t.Errorf("no error for %.60q", in)
		}
	}
}

// FuzzSummarizeHeapSnapshot: any input ends in a summary or an error, never a panic or a hang.
func FuzzSummarizeHeapSnapshot(f *testing.F) {
	f.Add([]byte(tinySnapshot))
	f.Add([]byte(`{"snapshot":{"meta":{"node_fields":["type","name","id","self_size"],"node_types":[["object"]]}},"nodes":[0,0,1,8],"strings":["\ud800"]}`))
	f.Add([]byte(`{"snapshot":{"meta":{"node_fields":["type","name","id","self_size"]}},"nodes":[-1,-5,1,8],"strings":[]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		_, _ = Summarize(strings.NewReader(string(data)))
	})
}

func BenchmarkSummarizeHeapSnapshot(b *testing.B) {
	var sb strings.Builder
	head, rest, _ := strings.Cut(tinySnapshot, `"nodes":[`)
	nodes, tail, _ := strings.Cut(rest, `],`)
	sb.WriteString(head + `"nodes":[` + nodes)
	for i := 0; i < 200000; i++ {
		sb.WriteString(",\n3,1,13,40,2,0,0")
	}
	sb.WriteString("]," + tail)
	data := sb.String()
	b.SetBytes(int64(len(data)))
	b.ResetTimer()
	for range b.N {
		if _, err := Summarize(strings.NewReader(data)); err != nil {
			b.Fatal(err)
		}
	}
}
