package tests

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"traced/internal/cpuprofile"
)

// BenchmarkCreationStacks: the wall time of a promise-heavy and a timer-heavy program untraced,
// and with the creation hook traced installs for creationStacks (here loaded with --require:
// the same code, without traced's own costs). Compare the ns/op; nothing is asserted. The
// figures are why creationStacks is a start option, off by default.
func BenchmarkCreationStacks(b *testing.B) {
	node := nodeOrSkip(b)
	hook := filepath.Join(b.TempDir(), "creation.js")
	if err := os.WriteFile(hook, []byte(cpuprofile.CreationHookJS+";\n"), 0o600); err != nil {
		b.Fatal(err)
	}
	for _, program := range []string{"promises", "timers"} {
		script := filepath.Join("testdata", "alive", program+".js")
		for _, c := range []struct {
			name string
			args []string
		}{
			{"untraced", []string{script}},
			{"hooked", []string{"--require", hook, script}},
		} {
			b.Run(program+"/"+c.name, func(b *testing.B) {
				for range b.N {
					if out, err := exec.Command(node, c.args...).CombinedOutput(); err != nil {
						b.Fatalf("%s: %v\n%s", c.name, err, out)
					}
				}
			})
		}
	}
}
