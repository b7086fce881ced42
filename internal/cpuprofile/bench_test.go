package cpuprofile

import (
	"testing"

	"traced/internal/sourcemap"
)

// BenchmarkSummarizeBundle: a bundle-sized profile (10,000 nodes, every one with hot lines) over
// a script of 5,000 functions.
func BenchmarkSummarizeBundle(b *testing.B) {
	const nodes, funcs = 10000, 5000
	ranges := make([]FunctionRange, funcs)
	for i := range ranges {
		ranges[i] = FunctionRange{Name: "f", Start: sourcemap.Pos{Line: 10*i + 1, Column: 1}, End: sourcemap.Pos{Line: 10*i + 9, Column: 2}}
	}
	ns := []Node{fn(1, nameRoot, "", 0)}
	var samples []int
	var us []float64
	for i := 2; i <= nodes; i++ {
		parent := i / 2
		ns[parent-1].Children = append(ns[parent-1].Children, i)
		n := fn(i, "f", appURL, (i%funcs)*10)
		n.PositionTicks = []PositionTick{{Line: (i%funcs)*10 + 3, Ticks: 2}, {Line: ((i*7)%funcs)*10 + 5, Ticks: 1}}
		ns = append(ns, n)
		samples = append(samples, i)
		us = append(us, 1000)
	}
	p := profile(ns, samples, us)
	opt := Options{Ranges: func(string, string) []FunctionRange { return ranges }}
	b.ResetTimer()
	for range b.N {
		Summarize(p, opt)
	}
}
