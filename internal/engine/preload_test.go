package engine

import "testing"

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
