package engine

import (
	_ "embed"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"golang.org/x/sys/unix"
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
		removeAbandonedBoots(m.cfg.DataDir)
		dir, err := os.MkdirTemp(m.cfg.DataDir, bootPrefix)
		if err != nil {
			m.preloadErr = fmt.Errorf("preload: %w", err)
			return
		}
		if m.bootLock, err = lockBoot(dir); err != nil {
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
	if m.bootLock != nil {
		m.bootLock.Close()
	}
}

// bootPrefix names the preload's directories in the data dir; bootLockName the file in each
// that its service holds locked while it lives.
const (
	bootPrefix   = "traced-boot-"
	bootLockName = "lock"
)

// lockBoot creates dir's lock file and holds an exclusive flock on it. The kernel lets the lock
// go when the process ends, however it ends, so a directory whose lock can be taken belongs to
// no live service. The file is locked under another name and then renamed: a sweep never sees
// it unlocked.
func lockBoot(dir string) (*os.File, error) {
	tmp := filepath.Join(dir, bootLockName+".new")
	f, err := os.OpenFile(tmp, os.O_CREATE|os.O_RDONLY, 0o400)
	if err != nil {
		return nil, err
	}
	if err := unix.Flock(int(f.Fd()), unix.LOCK_EX|unix.LOCK_NB); err != nil {
		f.Close()
		return nil, fmt.Errorf("lock %s: %w", tmp, err)
	}
	if err := os.Rename(tmp, filepath.Join(dir, bootLockName)); err != nil {
		f.Close()
		return nil, err
	}
	return f, nil
}

// removeAbandonedBoots deletes the preload directories services killed without a shutdown
// (SIGKILL, a crash) left in dataDir: those whose lock no process holds. Others' directories,
// and ones without a lock file (made before there was one), are left alone.
func removeAbandonedBoots(dataDir string) {
	if dataDir == "" {
		dataDir = os.TempDir()
	}
	dirs, _ := filepath.Glob(filepath.Join(dataDir, bootPrefix+"*"))
	for _, dir := range dirs {
		f, err := os.Open(filepath.Join(dir, bootLockName))
		if err != nil {
			continue
		}
		if unix.Flock(int(f.Fd()), unix.LOCK_EX|unix.LOCK_NB) == nil {
			os.RemoveAll(dir) // the lock is ours now: no service can be using the directory
		}
		f.Close()
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
