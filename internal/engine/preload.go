package engine

import (
	_ "embed"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// preloadJS drops traced's inspector flags from what node hands its children, and announces
// each child process to traced (boot/preload.cjs).
//
//go:embed boot/preload.cjs
var preloadJS []byte

// preloadFile writes the preload once, into a directory of the data dir only this user can
// write (the data dir may be a shared /tmp: a file others could replace would run their code in
// every session), and returns its path.
func (m *Manager) preloadFile() (string, error) {
	m.preloadOnce.Do(func() {
		dir, err := os.MkdirTemp(m.cfg.DataDir, "traced-boot-")
		if err != nil {
			m.preloadErr = fmt.Errorf("preload: %w", err)
			return
		}
		p := filepath.Join(dir, "preload.cjs")
		if err := os.WriteFile(p, preloadJS, 0o400); err != nil {
			m.preloadErr = fmt.Errorf("preload: %w", err)
			return
		}
		for name, src := range map[string][]byte{"mainguard.cjs": mainGuardJS, "mainhooks.cjs": mainHooksJS} {
			if err := os.WriteFile(filepath.Join(dir, name), src, 0o400); err != nil {
				m.preloadErr = fmt.Errorf("preload: %w", err)
				return
			}
		}
		m.preloadPath = p
	})
	return m.preloadPath, m.preloadErr
}

// removePreload deletes the preload's directory at shutdown.
func (m *Manager) removePreload() {
	if m.preloadPath != "" {
		os.RemoveAll(filepath.Dir(m.preloadPath))
	}
}

// preloadEnv is the environment a launch adds for the preload: NODE_OPTIONS loads it in every
// node process of the tree (before the user's own NODE_OPTIONS, which stay), with the inspector
// a child opens kept out of /json/list (its banner on stderr is dropped: the FIFO announces it),
// and TRACED_ANNOUNCE names the FIFO.
func preloadEnv(preload, fifo string, extra map[string]string) map[string]string {
	env := make(map[string]string, len(extra)+2)
	for k, v := range extra {
		env[k] = v
	}
	quoted := strings.NewReplacer(`\`, `\\`, `"`, `\"`).Replace(preload) // NODE_OPTIONS' own quoting
	opts := `--require "` + quoted + `" --inspect-publish-uid=stderr`
	if user := strings.TrimSpace(extra["NODE_OPTIONS"]); user != "" {
		opts += " " + user
	}
	env["NODE_OPTIONS"] = opts
	if fifo != "" {
		env[announceEnv] = fifo
	}
	return env
}

// isPreload says whether a script URL is traced's: the preload or a file beside it in the boot
// directory (the main guard it requires, the guard's module hooks), shown as node's own, never
// the program's. It takes no lock: frames are placed under mu.
func (s *Session) isPreload(url string) bool {
	dir := s.bootDir.Load()
	return dir != nil && url != "" && filepath.Dir(strings.TrimPrefix(url, "file://")) == *dir
}
