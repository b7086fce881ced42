package main

import (
	"crypto/rand"
	"fmt"
	"os"
	"path/filepath"
)

// tokenPath is where a generated token is kept: $XDG_STATE_HOME/traced/token, else
// ~/.local/state/traced/token.
func tokenPath() (string, error) {
	dir := os.Getenv("XDG_STATE_HOME")
	if dir == "" {
		home, err := os.UserHomeDir()
		if err != nil {
			return "", fmt.Errorf("token directory: %w", err)
		}
		dir = filepath.Join(home, ".local", "state")
	}
	return filepath.Join(dir, "traced", "token"), nil
}

// loadToken returns TRACED_TOKEN when set; otherwise it generates a token (128+ bits) and writes
// it to a 0600 file in a 0700 directory, replacing the previous one, as a notebook server does.
func loadToken() (token, file string, err error) {
	if t := os.Getenv("TRACED_TOKEN"); t != "" {
		return t, "", nil
	}
	file, err = tokenPath()
	if err != nil {
		return "", "", err
	}
	if err := os.MkdirAll(filepath.Dir(file), 0o700); err != nil {
		return "", "", fmt.Errorf("token directory: %w", err)
	}
	if err := os.Chmod(filepath.Dir(file), 0o700); err != nil {
		return "", "", fmt.Errorf("token directory: %w", err)
	}
	token = rand.Text()
	tmp, err := os.CreateTemp(filepath.Dir(file), ".token-*")
	if err != nil {
		return "", "", fmt.Errorf("write token: %w", err)
	}
	defer os.Remove(tmp.Name())
	if err := tmp.Chmod(0o600); err != nil {
		tmp.Close()
		return "", "", fmt.Errorf("write token: %w", err)
	}
	if _, err := tmp.WriteString(token + "\n"); err != nil {
		tmp.Close()
		return "", "", fmt.Errorf("write token: %w", err)
	}
	if err := tmp.Close(); err != nil {
		return "", "", fmt.Errorf("write token: %w", err)
	}
	if err := os.Rename(tmp.Name(), file); err != nil {
		return "", "", fmt.Errorf("write token: %w", err)
	}
	return token, file, nil
}
