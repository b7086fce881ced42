package sourcemap

import (
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"net/url"
	"os"
	"path"
	"strings"
)

// DefaultMaxBytes caps one source map, in bytes of JSON (after decoding a data: URL). Large
// bundles' maps run to tens of megabytes; the index built from one takes about as much again, so
// 32 MiB bounds a session's worst case while leaving room for real bundles.
const DefaultMaxBytes = 32 << 20

// Errors from loading a map. Each is wrapped with the specifics; a read error also wraps the
// file system's (errors.Is(err, fs.ErrNotExist) for a missing map file).
var (
	// ErrNoMap: the script names no source map (its sourceMappingURL is empty).
	ErrNoMap = errors.New("sourcemap: script has no source map")
	// ErrUnsupported: the map's location is not one this package reads: another scheme than
	// file: or data:, or a relative URL of a script that is not a file.
	ErrUnsupported = errors.New("sourcemap: unsupported source map location")
	// ErrTooLarge: the map is over the size cap; the error is a *TooLargeError.
	ErrTooLarge = errors.New("sourcemap: source map too large")
	// ErrInvalid: the map could not be parsed, or is not one this package can index faithfully.
	ErrInvalid = errors.New("sourcemap: invalid source map")
)

// TooLargeError says a map is over the cap. Size is its size in bytes, or -1 when only "over
// Limit" is known (a file that grew while read).
type TooLargeError struct {
	Size, Limit int64
}

func (e *TooLargeError) Error() string {
	if e.Size < 0 {
		return fmt.Sprintf("sourcemap: source map is over the %d byte cap", e.Limit)
	}
	return fmt.Sprintf("sourcemap: source map is %d bytes, over the %d byte cap", e.Size, e.Limit)
}

// Is makes errors.Is(err, ErrTooLarge) true.
func (e *TooLargeError) Is(target error) bool { return target == ErrTooLarge }

// Location is where a script's source map is: inline in the sourceMappingURL, or in a file.
type Location struct {
	Inline bool   `json:"inline"`         // a data: URL
	Path   string `json:"path,omitempty"` // the map file, when not inline
	// BaseURL is the URL the map's relative source names resolve against: the map file's
	// file:// URL, or the script's for an inline map ("" when the script is not a file).
	BaseURL string `json:"baseURL,omitempty"`
}

// Locate resolves a script's sourceMappingURL (as Debugger.scriptParsed reports it) against the
// script's URL (a file:// URL or an absolute path). It reads nothing.
func Locate(scriptURL, sourceMapURL string) (Location, error) {
	if sourceMapURL == "" {
		return Location{}, ErrNoMap
	}
	script := fileURL(scriptURL)
	if strings.HasPrefix(sourceMapURL, "data:") {
		loc := Location{Inline: true}
		if script != nil {
			loc.BaseURL = script.String()
		} else {
			loc.BaseURL = scriptURL
		}
		return loc, nil
	}
	ref, err := url.Parse(sourceMapURL)
	if err != nil {
		return Location{}, fmt.Errorf("%w: %q: %v", ErrUnsupported, sourceMapURL, err)
	}
	var p string
	switch {
	case ref.Scheme == "file":
		if ref.Host != "" && ref.Host != "localhost" {
			return Location{}, fmt.Errorf("%w: %q is on host %q", ErrUnsupported, sourceMapURL, ref.Host)
		}
		p = ref.Path
	case ref.Scheme != "":
		return Location{}, fmt.Errorf("%w: %q (only file: and data: maps are read)", ErrUnsupported, sourceMapURL)
	case script != nil:
		p = script.ResolveReference(ref).Path
	case path.IsAbs(ref.Path) && (scriptURL == "" || !strings.Contains(scriptURL, ":")):
		p = ref.Path
	default:
		return Location{}, fmt.Errorf("%w: %q is relative to %q, which is not a file", ErrUnsupported, sourceMapURL, scriptURL)
	}
	if p == "" || !path.IsAbs(p) {
		return Location{}, fmt.Errorf("%w: %q does not name a file", ErrUnsupported, sourceMapURL)
	}
	p = path.Clean(p)
	return Location{Path: p, BaseURL: (&url.URL{Scheme: "file", Path: p}).String()}, nil
}

// Loader loads source maps. The zero value reads files from the file system under
// DefaultMaxBytes.
type Loader struct {
	// MaxBytes caps one map, in bytes; 0 means DefaultMaxBytes.
	MaxBytes int64
	// ReadFile reads a map file, reading at most max+1 bytes so that an oversized file is seen
	// without reading it all; nil means the file system. Tests and sandboxes replace it.
	ReadFile func(path string, max int64) ([]byte, error)
}

// Load locates, reads and indexes the source map of a script. Any failure is an error saying
// why (see the Err variables); the caller then keeps generated positions.
func Load(ctx context.Context, scriptURL, sourceMapURL string) (*Map, error) {
	return Loader{}.Load(ctx, scriptURL, sourceMapURL)
}

// Load locates, reads and indexes the source map of a script; see [Load].
func (l Loader) Load(ctx context.Context, scriptURL, sourceMapURL string) (*Map, error) {
	loc, err := Locate(scriptURL, sourceMapURL)
	if err != nil {
		return nil, err
	}
	limit := l.MaxBytes
	if limit <= 0 {
		limit = DefaultMaxBytes
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	var data []byte
	if loc.Inline {
		data, err = decodeDataURL(sourceMapURL, limit)
	} else {
		read := l.ReadFile
		if read == nil {
			read = readFile
		}
		data, err = read(loc.Path, limit)
		if err == nil && int64(len(data)) > limit {
			err = &TooLargeError{Size: int64(len(data)), Limit: limit}
		}
		if err != nil && !errors.Is(err, ErrTooLarge) {
			err = fmt.Errorf("sourcemap: read %s: %w", loc.Path, err)
		}
	}
	if err != nil {
		return nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return Parse(loc.BaseURL, data)
}

// readFile reads at most max+1 bytes of a file, after refusing a file whose size is already
// over max.
func readFile(name string, max int64) ([]byte, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if fi, err := f.Stat(); err == nil && fi.Mode().IsRegular() && fi.Size() > max {
		return nil, &TooLargeError{Size: fi.Size(), Limit: max}
	}
	data, err := io.ReadAll(io.LimitReader(f, max+1))
	if err != nil {
		return nil, err
	}
	if int64(len(data)) > max {
		return nil, &TooLargeError{Size: -1, Limit: max}
	}
	return data, nil
}

// decodeDataURL returns the payload of a data: URL (RFC 2397): base64 when its media type ends
// in ";base64", else percent-encoded text. The cap applies to the decoded bytes.
func decodeDataURL(s string, max int64) ([]byte, error) {
	meta, payload, ok := strings.Cut(strings.TrimPrefix(s, "data:"), ",")
	if !ok {
		return nil, invalid("data: URL has no comma")
	}
	if strings.HasSuffix(strings.ToLower(meta), ";base64") {
		if n := int64(len(payload)) / 4 * 3; n > max {
			return nil, &TooLargeError{Size: n, Limit: max}
		}
		if strings.Contains(payload, "%") {
			p, err := url.PathUnescape(payload)
			if err != nil {
				return nil, invalid("data: URL: %v", err)
			}
			payload = p
		}
		payload = strings.TrimRight(payload, "=")
		enc := base64.RawStdEncoding
		if strings.ContainsAny(payload, "-_") {
			enc = base64.RawURLEncoding
		}
		data, err := enc.DecodeString(payload)
		if err != nil {
			return nil, invalid("data: URL: base64: %v", err)
		}
		return data, nil
	}
	text, err := url.PathUnescape(payload)
	if err != nil {
		return nil, invalid("data: URL: %v", err)
	}
	if int64(len(text)) > max {
		return nil, &TooLargeError{Size: int64(len(text)), Limit: max}
	}
	return []byte(text), nil
}
