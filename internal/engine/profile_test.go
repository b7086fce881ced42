package engine

import (
	"context"
	"encoding/json"
	"testing"

	"traced/internal/cpuprofile"
)

// TestSummarizeProfile: self time from each node's samples, total time from its subtree, a
// recursive function counted once per path, and the profiler's own nodes left out.
func TestSummarizeProfile(t *testing.T) {
	p, err := cpuprofile.Parse([]byte(`{"startTime":0,"endTime":10000,"samples":[1,2,3,3,4,4,4,4,5,5],"nodes":[
		{"id":1,"callFrame":{"functionName":"(root)","url":""},"hitCount":1,"children":[2,5]},
		{"id":2,"callFrame":{"functionName":"walk","url":"file:///w/a.js","lineNumber":3},"hitCount":1,"children":[3]},
		{"id":3,"callFrame":{"functionName":"walk","url":"file:///w/a.js","lineNumber":3},"hitCount":2,"children":[4]},
		{"id":4,"callFrame":{"functionName":"leaf","url":"file:///w/a.js","lineNumber":9},"hitCount":4,"deoptReason":"wrong map"},
		{"id":5,"callFrame":{"functionName":"(idle)","url":""},"hitCount":2}]}`))
	if err != nil {
		t.Fatal(err)
	}
	s := &Target{s: &Session{}}
	dir := "/w"
	s.s.cwd.Store(&dir)
	out := s.Profiler().summarizeProfile(context.Background(), nil, p, 5)
	if out.Samples != 10 || out.DurationMs != 10 {
		t.Fatalf("profile %+v", out)
	}
	if len(out.Self) != 2 || out.Self[0].Function != "leaf" || out.Self[0].SelfMs != 4 || out.Self[0].SelfPct != 40 ||
		out.Self[0].Deopt != "wrong map" || out.Self[0].File != "a.js" || out.Self[0].Line != 10 {
		t.Fatalf("by self %+v", out.Self)
	}
	if w := out.Self[1]; w.Function != "walk" || w.SelfMs != 3 || w.TotalMs != 7 {
		t.Fatalf("walk %+v, want self 3 and total 7 (its recursion counted once)", w)
	}
	if out.Total[0].Function != "walk" {
		t.Fatalf("by total %+v", out.Total)
	}
}

func jsonUnmarshal(s string, v any) error { return json.Unmarshal([]byte(s), v) }
