package tests

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// planted copies a published package's folder (dir, under testdata) to a sibling folder with one
// bug planted: old replaced by bug in file, where old must stand exactly once. The copy sits
// beside the original so that node resolves the same node_modules above it; it is removed when
// the test ends. It returns the copy's path under testdata.
func planted(t *testing.T, dir, file, old, bug string) string {
	t.Helper()
	src := filepath.Join("testdata", dir)
	dst, err := os.MkdirTemp(filepath.Dir(src), "planted-") // ignored by git (testdata/.gitignore)
	if err != nil {
		t.Fatalf("planted: %v", err)
	}
	t.Cleanup(func() { os.RemoveAll(dst) })
	found := false
	err = filepath.WalkDir(src, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, path)
		if d.IsDir() {
			if d.Name() == "node_modules" { // a runner's cache, not the package
				return filepath.SkipDir
			}
			return os.MkdirAll(filepath.Join(dst, rel), 0o755)
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		if rel == file {
			if n := strings.Count(string(data), old); n != 1 {
				t.Fatalf("planted: %q stands %d times in %s, want once", old, n, path)
			}
			data, found = []byte(strings.Replace(string(data), old, bug, 1)), true
		}
		return os.WriteFile(filepath.Join(dst, rel), data, 0o644)
	})
	if err != nil || !found {
		t.Fatalf("planted: copying %s (found %s: %t): %v", src, file, found, err)
	}
	rel, _ := filepath.Rel("testdata", dst)
	return filepath.ToSlash(rel)
}
