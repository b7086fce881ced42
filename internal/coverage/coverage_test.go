package coverage

import (
	"encoding/json"
	"os"
	"reflect"
	"testing"
)

// TestCoverageOf maps V8's ranges of coverlib.js (as node 20 reports them) to functions and
// uncovered lines, and keeps only what never ran with uncoveredOnly.
func TestCoverageOf(t *testing.T) {
	src, err := os.ReadFile("../../tests/testdata/coverlib.js")
	if err != nil {
		t.Fatal(err)
	}
	var sc RawScript
	if err := json.Unmarshal([]byte(`{"scriptId":"9","url":"file:///w/coverlib.js","functions":[
		{"functionName":"","ranges":[{"startOffset":0,"endOffset":`+itoa(len(src))+`,"count":1}]},
		{"functionName":"used","ranges":[{"startOffset":86,"endOffset":122,"count":1}]},
		{"functionName":"neverCalled","ranges":[{"startOffset":123,"endOffset":185,"count":0}]}]}`), &sc); err != nil {
		t.Fatal(err)
	}
	got := Of(sc, "coverlib.js", string(src), false)
	if want := []Function{{"used", 2, 1}, {"neverCalled", 5, 0}}; !reflect.DeepEqual(got.Functions, want) {
		t.Errorf("functions %+v, want %+v", got.Functions, want)
	}
	if want := []LineRange{{5, 8}}; !reflect.DeepEqual(got.Uncovered, want) {
		t.Errorf("uncovered %+v, want %+v", got.Uncovered, want)
	}
	if only := Of(sc, "coverlib.js", string(src), true); len(only.Functions) != 1 || only.Functions[0].Function != "neverCalled" {
		t.Errorf("uncovered only: %+v", only.Functions)
	}
}

func itoa(n int) string { b, _ := json.Marshal(n); return string(b) }

// TestFunctionsOnly: a block-mode take cut to each function's own range.
func TestFunctionsOnly(t *testing.T) {
	scripts := []RawScript{{Functions: []RawFunction{
		{Name: "f", Ranges: []Range{{0, 10, 1}, {2, 4, 0}}},
		{Name: "g"},
	}}}
	FunctionsOnly(scripts)
	if got := scripts[0].Functions; len(got[0].Ranges) != 1 || got[0].Ranges[0] != (Range{0, 10, 1}) || len(got[1].Ranges) != 0 {
		t.Fatalf("got %+v", got)
	}
}
