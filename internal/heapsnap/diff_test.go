package heapsnap

import (
	"reflect"
	"testing"
)

// TestCompare: classes that changed come first by the size of the change, unchanged ones are
// left out, and counts and sizes are the later snapshot's.
func TestCompare(t *testing.T) {
	a := &Summary{TotalSize: 300, Classes: []Class{{Name: "Leak", Count: 1, SelfSize: 100}, {Name: "Same", Count: 2, SelfSize: 200}}}
	b := &Summary{TotalSize: 560, Classes: []Class{{Name: "Leak", Count: 4, SelfSize: 400}, {Name: "Same", Count: 2, SelfSize: 200}, {Name: "New", Count: 1, SelfSize: -40}}}
	got := Compare("hs1", a, "hs2", b, 10)
	want := Diff{From: "hs1", To: "hs2", SizeDelta: 260, Classes: []ClassDelta{
		{Name: "Leak", CountDelta: 3, SizeDelta: 300, Count: 4, Size: 400},
		{Name: "New", CountDelta: 1, SizeDelta: -40, Count: 1, Size: -40},
	}}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("got %+v\nwant %+v", got, want)
	}
	if top := Compare("hs1", a, "hs2", b, 1); len(top.Classes) != 1 || top.Classes[0].Name != "Leak" {
		t.Fatalf("top 1: %+v", top.Classes)
	}
	if none := Compare("hs1", a, "hs1", a, 10); none.Classes == nil || len(none.Classes) != 0 {
		t.Fatalf("same snapshot: %#v, want an empty list", none.Classes)
	}
}
