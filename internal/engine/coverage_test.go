package engine

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
	var sc scriptCoverage
	if err := json.Unmarshal([]byte(`{"scriptId":"9","url":"file:///w/coverlib.js","functions":[
		{"functionName":"","ranges":[{"startOffset":0,"endOffset":`+itoa(len(src))+`,"count":1}]},
		{"functionName":"used","ranges":[{"startOffset":86,"endOffset":122,"count":1}]},
		{"functionName":"neverCalled","ranges":[{"startOffset":123,"endOffset":185,"count":0}]}]}`), &sc); err != nil {
		t.Fatal(err)
	}
	got := coverageOf(sc, "coverlib.js", string(src), false)
	if want := []FunctionCoverage{{"used", 2, 1}, {"neverCalled", 5, 0}}; !reflect.DeepEqual(got.Functions, want) {
		t.Errorf("functions %+v, want %+v", got.Functions, want)
	}
	if want := []LineRange{{5, 8}}; !reflect.DeepEqual(got.Uncovered, want) {
		t.Errorf("uncovered %+v, want %+v", got.Uncovered, want)
	}
	if only := coverageOf(sc, "coverlib.js", string(src), true); len(only.Functions) != 1 || only.Functions[0].Function != "neverCalled" {
		t.Errorf("uncovered only: %+v", only.Functions)
	}
}

func itoa(n int) string { b, _ := json.Marshal(n); return string(b) }
