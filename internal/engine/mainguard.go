package engine

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"os"
	"strconv"

	"golang.org/x/sys/unix"
)

// mainGuardJS checks, in the main process before the program runs, that node loads the very
// file a start checked inside the root (boot/mainguard.cjs); the preload requires it.
//
//go:embed boot/mainguard.cjs
var mainGuardJS []byte

// mainHooksJS are the guard's module hooks: node resolves and reads the main after the guard's
// check, and they make it read the checked file (boot/mainhooks.cjs).
//
//go:embed boot/mainhooks.cjs
var mainHooksJS []byte

// mainCheckEnv carries the checked file to the guard; the guard removes it from the environment.
const mainCheckEnv = "TRACED_MAIN_CHECK"

// mainCheck pins the script a start resolved: it opens real and asks the kernel where the open
// file is (a directory swapped for a symlink since the check would lead elsewhere), and answers
// what the guard compares node's main module with: that path and the file's device and inode.
func (w Workspace) mainCheck(real string) (string, error) {
	f, err := os.Open(real)
	if err != nil {
		return "", fmt.Errorf("%w: %s: %w", ErrTargetAbsent, real, err)
	}
	defer f.Close()
	where, err := os.Readlink("/proc/self/fd/" + strconv.Itoa(int(f.Fd())))
	if err != nil {
		return "", fmt.Errorf("pin %s: %w", real, err)
	}
	if where != real || !w.contains(where) {
		return "", fmt.Errorf("%w: %s now leads to %s (a directory of its path changed since it was checked)", ErrOutsideRoot, real, where)
	}
	var st unix.Stat_t
	if err := unix.Fstat(int(f.Fd()), &st); err != nil {
		return "", fmt.Errorf("pin %s: %w", real, err)
	}
	b, err := json.Marshal(map[string]string{"file": real, "dev": strconv.FormatUint(st.Dev, 10), "ino": strconv.FormatUint(st.Ino, 10)})
	return string(b), err
}
