package mcpserver

import (
	"crypto/rand"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"

	"golang.org/x/sys/unix"
)

// errExists refuses to replace an existing entry the caller did not ask to replace.
var errExists = errors.New("exists")

// errOutside refuses a path that leads outside the workspace root.
var errOutside = errors.New("outside the workspace root")

// rootFile is a file being written inside the workspace root on a client's behalf. Its
// directory is resolved (symlinks included) and opened once; the file is created and named
// relative to that open directory, so neither a symlink in the path nor one swapped in while
// it is written can send the bytes outside the root.
type rootFile struct {
	*os.File
	dir  *os.File
	tmp  string
	name string
	Path string // where it lands, symlinks resolved
}

// createInRoot starts writing path (absolute, or relative to root) under root, a resolved
// directory.
func createInRoot(root, path string) (*rootFile, error) {
	abs := path
	if !filepath.IsAbs(abs) {
		abs = filepath.Join(root, abs)
	}
	abs = filepath.Clean(abs)
	dir, name := filepath.Split(abs)
	if !within(root, abs) || name == "" {
		return nil, errOutside
	}
	realDir, err := filepath.EvalSymlinks(dir)
	if err != nil {
		return nil, fmt.Errorf("directory %s: %w", dir, err)
	}
	if !within(root, realDir) {
		return nil, errOutside
	}
	d, err := os.OpenFile(realDir, os.O_RDONLY|unix.O_DIRECTORY, 0)
	if err != nil {
		return nil, fmt.Errorf("directory %s: %w", realDir, err)
	}
	// What was opened, not what the path names now: a directory swapped for a link between the
	// check and the open is caught here.
	opened, err := os.Readlink("/proc/self/fd/" + strconv.Itoa(int(d.Fd())))
	if err != nil || !within(root, opened) {
		d.Close()
		return nil, errOutside
	}
	tmp := "." + name + "." + rand.Text()[:10]
	fd, err := unix.Openat(int(d.Fd()), tmp, unix.O_WRONLY|unix.O_CREAT|unix.O_EXCL|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0o644)
	if err != nil {
		d.Close()
		return nil, fmt.Errorf("create in %s: %w", opened, err)
	}
	return &rootFile{File: os.NewFile(uintptr(fd), filepath.Join(opened, tmp)), dir: d, tmp: tmp, name: name,
		Path: filepath.Join(opened, name)}, nil
}

// commit gives the written file its name: it replaces an existing entry (the entry itself,
// never a link's target) only with replace, else it fails with errExists.
func (f *rootFile) commit(replace bool) error {
	dfd := int(f.dir.Fd())
	if replace {
		if err := unix.Renameat(dfd, f.tmp, dfd, f.name); err != nil {
			return fmt.Errorf("save %s: %w", f.Path, err)
		}
		return nil
	}
	// A hard link fails when the name exists, whatever it is: no replacing by a race either.
	if err := unix.Linkat(dfd, f.tmp, dfd, f.name, 0); err != nil {
		if errors.Is(err, unix.EEXIST) {
			return errExists
		}
		return fmt.Errorf("save %s: %w", f.Path, err)
	}
	return nil
}

// cleanup removes the temporary name (the saved file keeps its own) and closes the directory.
func (f *rootFile) cleanup() {
	f.File.Close() // a second close (after save's own) is harmless
	unix.Unlinkat(int(f.dir.Fd()), f.tmp, 0)
	f.dir.Close()
}

// within compares by path components, so a sibling "root-evil" is not inside "root".
func within(root, p string) bool {
	rel, err := filepath.Rel(root, p)
	return err == nil && (rel == "." || filepath.IsLocal(rel))
}
