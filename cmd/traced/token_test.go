package main

import (
	"os"
	"path/filepath"
	"testing"
)

// unsetToken makes TRACED_TOKEN unset for this test (t.Setenv restores it afterwards).
func unsetToken(t *testing.T) {
	t.Setenv("TRACED_TOKEN", "")
	os.Unsetenv("TRACED_TOKEN")
}

func TestLoadTokenGenerates(t *testing.T) {
	state := t.TempDir()
	t.Setenv("XDG_STATE_HOME", state)
	unsetToken(t)

	token, file, err := loadToken()
	if err != nil {
		t.Fatal(err)
	}
	if want := filepath.Join(state, "traced", "token"); file != want {
		t.Errorf("token file %s, want %s", file, want)
	}
	if len(token) < 26 { // 26 base32 characters carry 128 bits
		t.Errorf("token %q: %d characters, want 26 or more", token, len(token))
	}
	assertMode(t, file, 0o600)
	assertMode(t, filepath.Dir(file), 0o700)
	if b, err := os.ReadFile(file); err != nil || string(b) != token+"\n" {
		t.Errorf("token file holds %q (%v), want %q", b, err, token+"\n")
	}
	assertOnlyToken(t, filepath.Dir(file))
}

// Each start replaces the token, and tightens a directory someone made too open.
func TestLoadTokenReplaces(t *testing.T) {
	state := t.TempDir()
	t.Setenv("XDG_STATE_HOME", state)
	unsetToken(t)
	dir := filepath.Join(state, "traced")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "token"), []byte("old\n"), 0o644); err != nil {
		t.Fatal(err)
	}

	token, file, err := loadToken()
	if err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(file); string(b) != token+"\n" || token == "old" {
		t.Errorf("token file holds %q after loadToken returned %q", b, token)
	}
	assertMode(t, file, 0o600)
	assertMode(t, dir, 0o700)
	again, _, err := loadToken()
	if err != nil || again == token {
		t.Errorf("second loadToken = %q, %v; want a new token", again, err)
	}
	assertOnlyToken(t, dir)
}

func TestLoadTokenFromEnv(t *testing.T) {
	state := t.TempDir()
	t.Setenv("XDG_STATE_HOME", state)
	t.Setenv("TRACED_TOKEN", "chosen-by-me")

	token, file, err := loadToken()
	if err != nil || token != "chosen-by-me" || file != "" {
		t.Fatalf("loadToken = %q, %q, %v; want the TRACED_TOKEN value and no file", token, file, err)
	}
	if entries, _ := os.ReadDir(state); len(entries) != 0 {
		t.Errorf("XDG_STATE_HOME has %d entries, want none written", len(entries))
	}
}

func assertMode(t *testing.T, path string, want os.FileMode) {
	t.Helper()
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if got := fi.Mode().Perm(); got != want {
		t.Errorf("%s: mode %#o, want %#o", path, got, want)
	}
}

// assertOnlyToken checks that no temporary file was left beside the token.
func assertOnlyToken(t *testing.T, dir string) {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) != 1 || entries[0].Name() != "token" {
		var names []string
		for _, e := range entries {
			names = append(names, e.Name())
		}
		t.Errorf("%s holds %v, want only token", dir, names)
	}
}
