package engine

import (
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"syscall"
)

// Workspace confines targets and working directories to one root directory.
type Workspace struct {
	root string // absolute, symlinks resolved
}

// NewWorkspace resolves root (symlinks included) once.
func NewWorkspace(root string) (Workspace, error) {
	abs, err := filepath.Abs(root)
	if err != nil {
		return Workspace{}, fmt.Errorf("workspace root %q: %w", root, err)
	}
	real, err := filepath.EvalSymlinks(abs)
	if err != nil {
		return Workspace{}, fmt.Errorf("workspace root %q: %w", root, err)
	}
	return Workspace{root: real}, nil
}

// Root is the resolved root directory.
func (w Workspace) Root() string { return w.root }

// ErrLinkLoop: a path's symlinks form a loop (or chain more than the kernel follows).
var ErrLinkLoop = fmt.Errorf("%w: symlinks in a loop", ErrBadInput)

// Resolve turns p (absolute, or relative to base) into a real path inside the root. The outside
// check runs before the existence check and again after symlinks, so the answer for an outside
// path is the same whether or not it exists.
func (w Workspace) Resolve(base, p string) (string, error) {
	if strings.ContainsRune(p, 0) {
		return "", fmt.Errorf("%w: path contains a NUL byte", ErrBadInput)
	}
	if !filepath.IsAbs(p) {
		p = filepath.Join(base, p)
	}
	p = filepath.Clean(p)
	if !w.contains(p) {
		return "", fmt.Errorf("%w: %s", ErrOutsideRoot, p)
	}
	real, err := filepath.EvalSymlinks(p)
	if err != nil {
		// A path that leads outside is outside whatever else went wrong: a dangling link, or a
		// link to an outside directory followed by a missing name, must not tell what exists there.
		hops := maxLinkHops
		if where, werr := resolvePartial(p, &hops); werr == nil && !w.contains(where) {
			return "", fmt.Errorf("%w: %s", ErrOutsideRoot, p)
		}
		// Classified by what stat says, which follows the links as the kernel does.
		_, serr := os.Stat(p)
		switch {
		case errors.Is(err, fs.ErrNotExist) || errors.Is(serr, syscall.ENOTDIR):
			return "", fmt.Errorf("%w: %s", ErrTargetAbsent, p)
		case errors.Is(serr, syscall.ELOOP) || strings.Contains(err.Error(), "too many links"):
			return "", fmt.Errorf("%w: %s", ErrLinkLoop, p)
		case errors.Is(serr, fs.ErrPermission):
			return "", fmt.Errorf("%w: %s: permission denied", ErrBadInput, p)
		}
		return "", fmt.Errorf("resolve %s: %w", p, err)
	}
	if !w.contains(real) {
		return "", fmt.Errorf("%w: %s", ErrOutsideRoot, p)
	}
	return real, nil
}

// maxLinkHops bounds how many dangling symlinks one resolvePartial follows in all, so a loop of
// links ends quickly. It matches Linux's own limit (MAXSYMLINKS, 40).
const maxLinkHops = 40

// resolvePartial resolves the symlinks of a clean absolute path p as far as the file system allows:
// the longest prefix EvalSymlinks can resolve, then a dangling link by its target, and names that
// do not exist kept as they are. The result is where p leads, whether or not it exists.
// hops is the budget of links left, shared by the whole resolution.
func resolvePartial(p string, hops *int) (string, error) {
	real, err := filepath.EvalSymlinks(p)
	if err == nil {
		return real, nil
	}
	dir, name := filepath.Split(p)
	dir = filepath.Clean(dir)
	if dir == p {
		return "", err
	}
	rdir, err := resolvePartial(dir, hops)
	if err != nil {
		return "", err
	}
	q := filepath.Join(rdir, name)
	target, err := os.Readlink(q)
	if err != nil { // missing, or not a link: it stays a plain name
		return q, nil
	}
	if *hops <= 0 {
		return "", fmt.Errorf("resolve %s: too many links", p)
	}
	*hops--
	if !filepath.IsAbs(target) {
		target = filepath.Join(rdir, target)
	}
	return resolvePartial(filepath.Clean(target), hops)
}

// contains compares by path components, so a sibling "root-evil" is not inside "root".
func (w Workspace) contains(p string) bool {
	rel, err := filepath.Rel(w.root, p)
	return err == nil && (rel == "." || filepath.IsLocal(rel))
}

// fileOf returns the local path a script URL names ("" for node: and other schemes), relative to
// cwd when it lies inside it.
func fileOf(rawURL, cwd string) string {
	var p string
	switch {
	case strings.HasPrefix(rawURL, "file://"):
		u, err := url.Parse(rawURL)
		if err != nil {
			return ""
		}
		p = u.Path
	case filepath.IsAbs(rawURL):
		p = rawURL
	default:
		return ""
	}
	if cwd != "" {
		if rel, err := filepath.Rel(cwd, p); err == nil && filepath.IsLocal(rel) {
			return rel
		}
	}
	return p
}

// InternalURL reports whether a script URL is node's own code rather than the user's.
func InternalURL(u string) bool {
	return u == "" || strings.HasPrefix(u, "node:") || strings.HasPrefix(u, "internal/")
}

// isDir reports whether p is an existing directory.
func isDir(p string) bool {
	st, err := os.Stat(p)
	return err == nil && st.IsDir()
}
