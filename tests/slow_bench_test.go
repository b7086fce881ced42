package tests

import (
	"os/exec"
	"path/filepath"
	"testing"
)

// BenchmarkSlowSampling: the wall time of a fixed CPU-bound program untraced, and sampled by
// V8's CPU profiler at 1 ms as POST slow samples it (the bound: at most 10 % more).
// Compare the two ns/op; nothing is asserted.
func BenchmarkSlowSampling(b *testing.B) {
	node := nodeOrSkip(b)
	script := filepath.Join("testdata", "slow", "fixed.js")
	for _, c := range []struct {
		name string
		args func(dir string) []string
	}{
		{"untraced", func(string) []string { return []string{script} }},
		{"sampled-1ms", func(dir string) []string {
			return []string{"--cpu-prof", "--cpu-prof-interval", "1000", "--cpu-prof-dir", dir, script}
		}},
	} {
		b.Run(c.name, func(b *testing.B) {
			dir := b.TempDir()
			for range b.N {
				if out, err := exec.Command(node, c.args(dir)...).CombinedOutput(); err != nil {
					b.Fatalf("%s: %v\n%s", c.name, err, out)
				}
			}
		})
	}
}
