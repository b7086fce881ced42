package engine

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// testWorkspace lays out, under a temporary directory:
//
//	root/app.js, root/sub/lib.js, root/sub/dir/
//	root/link-in -> sub/lib.js            (inside)
//	root/link-out -> ../outside.js        (outside, exists)
//	root/link-gone -> ../missing.js       (outside, dangling)
//	root/link-outdir -> ../outdir         (an outside directory)
//	root/link-loop -> link-loop
//	outside.js, outdir/secret.js
//	root-evil/x.js                        (a sibling sharing root's prefix)
//
// and returns the workspace and the resolved temporary directory.
func testWorkspace(tb testing.TB) (Workspace, string) {
	tb.Helper()
	tmp, err := filepath.EvalSymlinks(tb.TempDir())
	if err != nil {
		tb.Fatal(err)
	}
	root := filepath.Join(tmp, "root")
	for _, d := range []string{"root/sub/dir", "outdir", "root-evil"} {
		if err := os.MkdirAll(filepath.Join(tmp, d), 0o755); err != nil {
			tb.Fatal(err)
		}
	}
	for _, f := range []string{"root/app.js", "root/sub/lib.js", "outside.js", "outdir/secret.js", "root-evil/x.js"} {
		if err := os.WriteFile(filepath.Join(tmp, f), []byte("// "+f+"\n"), 0o644); err != nil {
			tb.Fatal(err)
		}
	}
	for link, target := range map[string]string{
		"link-in": "sub/lib.js", "link-out": "../outside.js", "link-gone": "../missing.js",
		"link-outdir": "../outdir", "link-loop": "link-loop",
	} {
		if err := os.Symlink(target, filepath.Join(root, link)); err != nil {
			tb.Fatal(err)
		}
	}
	ws, err := NewWorkspace(root)
	if err != nil {
		tb.Fatal(err)
	}
	if ws.Root() != root {
		tb.Fatalf("root %q, want %q", ws.Root(), root)
	}
	return ws, tmp
}

func TestResolve(t *testing.T) {
	ws, tmp := testWorkspace(t)
	root := ws.Root()
	sub := filepath.Join(root, "sub")
	cases := []struct {
		name    string
		base, p string
		want    string // the resolved path, when err is nil
		err     error
	}{
		{"relative", root, "app.js", filepath.Join(root, "app.js"), nil},
		{"relative in a subdirectory", root, "sub/lib.js", filepath.Join(sub, "lib.js"), nil},
		{"relative to a base", sub, "lib.js", filepath.Join(sub, "lib.js"), nil},
		{"dot-dot staying inside", sub, "../app.js", filepath.Join(root, "app.js"), nil},
		{"absolute inside", root, filepath.Join(sub, "lib.js"), filepath.Join(sub, "lib.js"), nil},
		{"the root itself", root, ".", root, nil},
		{"a directory", root, "sub/dir/", filepath.Join(sub, "dir"), nil},
		{"a link inside to inside", root, "link-in", filepath.Join(sub, "lib.js"), nil},
		{"missing inside", root, "nope.js", "", ErrTargetAbsent},
		{"missing inside a missing directory", root, "a/b/c.js", "", ErrTargetAbsent},
		{"dot-dot out", root, "../outside.js", "", ErrOutsideRoot},
		{"dot-dot out, missing", root, "../missing.js", "", ErrOutsideRoot},
		{"absolute outside", root, "/etc/passwd", "", ErrOutsideRoot},
		{"absolute outside, missing", root, "/etc/no-such-file", "", ErrOutsideRoot},
		{"through a subdirectory and out", root, "sub/../../outside.js", "", ErrOutsideRoot},
		{"through a subdirectory and out, missing", root, "sub/../../missing.js", "", ErrOutsideRoot},
		{"a link to an outside file", root, "link-out", "", ErrOutsideRoot},
		{"a dangling link to outside", root, "link-gone", "", ErrOutsideRoot},
		{"a link to an outside directory", root, "link-outdir/secret.js", "", ErrOutsideRoot},
		{"a link to an outside directory, missing name", root, "link-outdir/missing.js", "", ErrOutsideRoot},
		{"a link to an outside file used as a directory", root, "link-out/x", "", ErrOutsideRoot},
		{"a sibling sharing the prefix", root, "../root-evil/x.js", "", ErrOutsideRoot},
		{"a sibling sharing the prefix, absolute", root, filepath.Join(tmp, "root-evil", "x.js"), "", ErrOutsideRoot},
		{"a sibling sharing the prefix, missing", root, filepath.Join(tmp, "root-evil", "y.js"), "", ErrOutsideRoot},
		{"a base outside", tmp, "outside.js", "", ErrOutsideRoot},
		{"a NUL byte", root, "app.js\x00.png", "", ErrBadInput},
		{"a NUL byte outside", root, "/etc/passwd\x00", "", ErrBadInput},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := ws.Resolve(c.base, c.p)
			if c.err == nil {
				if err != nil || got != c.want {
					t.Fatalf("Resolve(%q, %q) = %q, %v; want %q", c.base, c.p, got, err, c.want)
				}
				return
			}
			if !errors.Is(err, c.err) || got != "" {
				t.Fatalf("Resolve(%q, %q) = %q, %v; want %v", c.base, c.p, got, err, c.err)
			}
		})
	}
}

// TestResolveOutsideSameErrorWhetherOrNotItExists: the error class for an outside path must not
// tell a caller whether that path exists.
func TestResolveOutsideSameErrorWhetherOrNotItExists(t *testing.T) {
	ws, tmp := testWorkspace(t)
	pairs := [][2]string{ // {exists, does not}
		{"../outside.js", "../missing.js"},
		{filepath.Join(tmp, "outside.js"), filepath.Join(tmp, "missing.js")},
		{"link-out", "link-gone"},
		{"link-outdir/secret.js", "link-outdir/missing.js"},
		{"link-outdir/secret.js", "link-outdir/a/b/c/missing.js"},
		{"../root-evil/x.js", "../root-evil/y.js"},
	}
	for _, pair := range pairs {
		_, errExists := ws.Resolve(ws.Root(), pair[0])
		_, errMissing := ws.Resolve(ws.Root(), pair[1])
		if !errors.Is(errExists, ErrOutsideRoot) || !errors.Is(errMissing, ErrOutsideRoot) {
			t.Errorf("%q: %v; %q: %v; want both %v", pair[0], errExists, pair[1], errMissing, ErrOutsideRoot)
		}
	}
}

func TestResolveLinkLoopEnds(t *testing.T) {
	ws, _ := testWorkspace(t)
	_, err := ws.Resolve(ws.Root(), "link-loop")
	if !errors.Is(err, ErrLinkLoop) || !errors.Is(err, ErrBadInput) || errors.Is(err, ErrOutsideRoot) {
		t.Fatalf("a link loop inside: %v, want %v (bad input), not %v", err, ErrLinkLoop, ErrOutsideRoot)
	}
}

func TestNewWorkspace(t *testing.T) {
	tmp, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	real := filepath.Join(tmp, "real")
	if err := os.Mkdir(real, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("real", filepath.Join(tmp, "alias")); err != nil {
		t.Fatal(err)
	}
	t.Chdir(tmp)
	for _, root := range []string{real, filepath.Join(tmp, "alias"), "real", "./alias/", "alias/../real"} {
		ws, err := NewWorkspace(root)
		if err != nil || ws.Root() != real {
			t.Errorf("NewWorkspace(%q) = %q, %v; want %q", root, ws.Root(), err, real)
		}
	}
	if _, err := NewWorkspace(filepath.Join(tmp, "missing")); err == nil {
		t.Errorf("NewWorkspace of a missing directory: no error")
	}
}

// FuzzWorkspacePath: whatever Resolve accepts lies inside the root.
func FuzzWorkspacePath(f *testing.F) {
	ws, tmp := testWorkspace(f)
	root := ws.Root()
	for _, p := range []string{"app.js", "sub/lib.js", ".", "", "/", "..", "../outside.js", "/etc/passwd",
		"sub/../../outside.js", "app.js\x00", "link-in", "link-out", "link-gone", "link-outdir/secret.js",
		"link-loop", "../root-evil/x.js", filepath.Join(tmp, "root-evil/x.js"), filepath.Join(root, "sub/lib.js"),
		"sub//dir/../lib.js", "./././app.js", "sub/dir/../../link-outdir/../outside.js"} {
		f.Add(p)
	}
	f.Fuzz(func(t *testing.T, p string) {
		got, err := ws.Resolve(root, p)
		if err != nil {
			if got != "" {
				t.Fatalf("Resolve(%q) = %q with error %v", p, got, err)
			}
			return
		}
		rel, err := filepath.Rel(root, got)
		if err != nil || (rel != "." && !filepath.IsLocal(rel)) {
			t.Fatalf("Resolve(%q) = %q: outside the root %q (rel %q, %v)", p, got, root, rel, err)
		}
		if real, err := filepath.EvalSymlinks(got); err != nil || real != got {
			t.Fatalf("Resolve(%q) = %q, not a real path (%q, %v)", p, got, real, err)
		}
	})
}

func TestFileOf(t *testing.T) {
	cases := []struct {
		url, cwd, want string
	}{
		{"file:///work/app/main.js", "/work/app", "main.js"},
		{"file:///work/app/lib/a.js", "/work/app", "lib/a.js"},
		{"file:///work/other/a.js", "/work/app", "/work/other/a.js"},
		{"file:///work/app-evil/a.js", "/work/app", "/work/app-evil/a.js"},
		{"file:///work/app/main.js", "", "/work/app/main.js"},
		{"file:///work/app/my%20file.js", "/work/app", "my file.js"},
		{"file:///work/app/%E6%97%A5.js", "/work/app", "日.js"},
		{"file://%zz", "/work/app", ""},
		{"/work/app/main.js", "/work/app", "main.js"},
		{"/elsewhere/x.js", "/work/app", "/elsewhere/x.js"},
		{"node:internal/modules/cjs/loader", "/work/app", ""},
		{"node:fs", "/work/app", ""},
		{"internal/bootstrap/node", "/work/app", ""},
		{"https://example.com/a.js", "/work/app", ""},
		{"evalmachine.<anonymous>", "/work/app", ""},
		{"", "/work/app", ""},
	}
	for _, c := range cases {
		if got := fileOf(c.url, c.cwd); got != c.want {
			t.Errorf("fileOf(%q, %q) = %q, want %q", c.url, c.cwd, got, c.want)
		}
	}
}

func TestInternalURL(t *testing.T) {
	cases := []struct {
		url  string
		want bool
	}{
		{"", true},
		{"node:internal/main/run_main_module", true},
		{"node:events", true},
		{"internal/process/task_queues", true},
		{"file:///work/app/main.js", false},
		{"/work/app/main.js", false},
		{"/work/app/node:x.js", false},
		{"file:///work/node_modules/internal/x.js", false},
	}
	for _, c := range cases {
		if got := InternalURL(c.url); got != c.want {
			t.Errorf("InternalURL(%q) = %v, want %v", c.url, got, c.want)
		}
	}
}

func TestIsDir(t *testing.T) {
	ws, _ := testWorkspace(t)
	cases := map[string]bool{"sub": true, "sub/dir": true, "app.js": false, "missing": false, "link-outdir": true}
	for p, want := range cases {
		if got := isDir(filepath.Join(ws.Root(), p)); got != want {
			t.Errorf("isDir(%q) = %v, want %v", p, got, want)
		}
	}
}
