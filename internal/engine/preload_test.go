package engine

import (
	"os"
	"path/filepath"
	"testing"
)

func TestPreloadEnv(t *testing.T) {
	env := preloadEnv(`/data/a "b"\c/preload.cjs`, "/data/s1.announce", map[string]string{"NODE_OPTIONS": " --max-old-space-size=64 ", "A": "1"})
	want := `--require "/data/a \"b\"\\c/preload.cjs" --inspect-publish-uid=stderr --max-old-space-size=64`
	if env["NODE_OPTIONS"] != want || env[announceEnv] != "/data/s1.announce" || env["A"] != "1" {
		t.Fatalf("env %q, want NODE_OPTIONS %q, the FIFO and the request's own", env, want)
	}
	if env := preloadEnv("/p.cjs", "", nil); env[announceEnv] != "" || len(env) != 1 {
		t.Fatalf("without a FIFO (children not followed): %q", env)
	}
}

// TestRemoveAbandonedBoots: a preload directory whose service is gone (its lock free) is removed
// at the next start; one a live service holds, and one without a lock file, stay.
func TestRemoveAbandonedBoots(t *testing.T) {
	data := t.TempDir()
	mk := func() string {
		dir, err := os.MkdirTemp(data, bootPrefix)
		if err != nil {
			t.Fatal(err)
		}
		return dir
	}
	live, dead, old := mk(), mk(), mk()
	held, err := lockBoot(live)
	if err != nil {
		t.Fatal(err)
	}
	defer held.Close()
	gone, err := lockBoot(dead)
	if err != nil {
		t.Fatal(err)
	}
	gone.Close() // as a SIGKILL would

	removeAbandonedBoots(data)
	for dir, want := range map[string]bool{live: true, dead: false, old: true} {
		if _, err := os.Stat(dir); (err == nil) != want {
			t.Errorf("%s: exists %t, want %t", filepath.Base(dir), err == nil, want)
		}
	}
}
