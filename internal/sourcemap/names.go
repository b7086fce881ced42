package sourcemap

import (
	"net/url"
	"path"
	"strings"
)

// libRoot is the URL go-sourcemap resolves relative source names against, computed as its
// (unexported) parse does: an absolute-URL sourceRoot wins; any other sourceRoot disables the
// map's URL altogether (names are then only joined to the sourceRoot, and stay relative); with no
// sourceRoot, the directory of an absolute map URL.
func libRoot(sourceRoot, mapURL string) *url.URL {
	if sourceRoot != "" {
		if u, err := url.Parse(sourceRoot); err == nil && u.IsAbs() {
			return u
		}
		return nil
	}
	if mapURL == "" {
		return nil
	}
	u, err := url.Parse(mapURL)
	if err != nil || !u.IsAbs() {
		return nil
	}
	u.Path = path.Dir(u.Path)
	return u
}

// libSourceName is the name go-sourcemap's lookups return for one entry of "sources", mirroring
// its absSource: an absolute path or absolute URL is kept, otherwise the name is joined to the
// root URL's path, or else to the sourceRoot as a plain path. Keep it in step with the library:
// the reverse index finds the forward lookup's answers through these names.
func libSourceName(root *url.URL, sourceRoot, source string) string {
	if path.IsAbs(source) {
		return source
	}
	if u, err := url.Parse(source); err == nil && u.IsAbs() {
		return source
	}
	if root != nil {
		u := *root
		u.Path = path.Join(u.Path, source)
		return u.String()
	}
	if sourceRoot != "" {
		return path.Join(sourceRoot, source)
	}
	return source
}

// publicName is the name this package shows for a library source name: a file:// URL becomes
// its path, a relative name is resolved against the directory of base (the map's own file URL,
// when it has one), and any other URL is kept. It depends on the library name alone (and the
// map's location), so two sources the library names alike are never told apart here.
func publicName(lib string, base *url.URL) string {
	if u, err := url.Parse(lib); err == nil && u.Scheme != "" {
		if u.Scheme == "file" && u.Path != "" {
			return path.Clean(u.Path)
		}
		return lib
	}
	if path.IsAbs(lib) {
		return path.Clean(lib)
	}
	if base != nil && base.Scheme == "file" {
		return path.Join(path.Dir(base.Path), lib)
	}
	return lib
}

// fileURL returns s as a file:// URL when it names a file: a file:// URL or an absolute path.
// Otherwise (node:internal names, eval'd scripts, http URLs) it returns nil.
func fileURL(s string) *url.URL {
	switch {
	case strings.HasPrefix(s, "file:"):
		u, err := url.Parse(s)
		if err != nil || u.Path == "" || (u.Host != "" && u.Host != "localhost") {
			return nil
		}
		return &url.URL{Scheme: "file", Path: u.Path}
	case path.IsAbs(s):
		return &url.URL{Scheme: "file", Path: s}
	}
	return nil
}
