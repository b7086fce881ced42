package engine

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"slices"
	"strings"
	"sync"

	"traced/internal/engine/bpspec"
	"traced/internal/sourcemap"
)

// Generated is the position in the code node runs, kept beside a Frame that a source map moved
// to its original position.
type Generated struct {
	URL    string
	File   string
	Line   int
	Column int
}

// scriptMap is one script's source map, loaded on first use.
type scriptMap struct {
	once      sync.Once
	url       string // the script's URL
	mapURL    string // the whole sourceMappingURL (ScriptInfo keeps a capped copy)
	hash      string
	m         *sourcemap.Map
	err       error
	mapLoader func(ctx context.Context, scriptURL, sourceMapURL, hash string) (*sourcemap.Map, error)
}

func (sm *scriptMap) get() (*sourcemap.Map, error) {
	sm.once.Do(func() {
		ctx, cancel := context.WithTimeout(context.Background(), callTimeout)
		defer cancel()
		sm.m, sm.err = sm.mapLoader(ctx, sm.url, sm.mapURL, sm.hash)
	})
	return sm.m, sm.err
}

// sessionMaps is a session's source maps by script id; a nil one maps nothing. It has its own lock, never held while
// loading, so positions can be mapped from code that holds the session's.
type sessionMaps struct {
	mu       sync.Mutex
	off      bool
	byScript map[string]*scriptMap
	load     func(ctx context.Context, scriptURL, sourceMapURL, hash string) (*sourcemap.Map, error)
}

// noteScript remembers a parsed user script that names a source map; nothing is read yet.
func (sm *sessionMaps) noteScript(id, url, mapURL, hash string) {
	if sm == nil || mapURL == "" || InternalURL(url) || sm.load == nil {
		return
	}
	sm.mu.Lock()
	sm.byScript[id] = &scriptMap{url: url, mapURL: mapURL, hash: hash, mapLoader: sm.load}
	sm.mu.Unlock()
}

// entry returns a script's map entry, nil when it names none.
func (sm *sessionMaps) entry(id string) *scriptMap {
	if sm == nil {
		return nil
	}
	sm.mu.Lock()
	defer sm.mu.Unlock()
	return sm.byScript[id]
}

// of returns a script's map, loading it on first use; nil when mapping is off, the script has
// no map or it could not be loaded (the sourcemap status says why).
func (sm *sessionMaps) of(id string) *sourcemap.Map {
	if sm == nil {
		return nil
	}
	sm.mu.Lock()
	e, off := sm.byScript[id], sm.off
	sm.mu.Unlock()
	if e == nil || off {
		return nil
	}
	m, _ := e.get()
	return m
}

func (sm *sessionMaps) enabled() bool {
	if sm == nil {
		return false
	}
	sm.mu.Lock()
	defer sm.mu.Unlock()
	return !sm.off
}

// place builds the frame a user sees for a generated CDP position (0-based): the original
// position where the script has a source map, with the generated one kept beside it.
func (sm SourceMapping) place(function, scriptID, url string, line0, col0 int) Frame {
	fr := frameAt(function, url, line0, col0, sm.t.s.dir())
	fr.Internal = fr.Internal || sm.t.s.isPreload(url)
	if scriptID == "" || fr.Internal {
		return fr
	}
	m := sm.t.maps.of(scriptID)
	if m == nil {
		return fr
	}
	o, ok := m.Forward(sourcemap.FromCDP(line0, col0))
	if !ok {
		return fr
	}
	fr.Generated = &Generated{URL: fr.URL, File: fr.File, Line: fr.Line, Column: fr.Column}
	fr.URL = sourceURL(o.Source)
	fr.File = fileOf(fr.URL, sm.t.s.dir())
	fr.Line, fr.Column = o.Line, o.Column
	return fr
}

// sourceURL is the URL of an original source as the sourcemap package names it: an absolute
// path becomes a file:// URL, anything else (webpack://..., a bare name) stays as it is.
func sourceURL(source string) string {
	if strings.HasPrefix(source, "/") {
		return "file://" + source
	}
	return source
}

// framesOf converts a CDP stack trace, innermost first, capped at maxFrames, to source-mapped
// frames.
func (sm SourceMapping) framesOf(st *stackTrace) []Frame {
	if st == nil {
		return nil
	}
	frames := make([]Frame, 0, min(len(st.CallFrames), maxFrames))
	for _, f := range st.CallFrames {
		if len(frames) == maxFrames {
			break
		}
		frames = append(frames, sm.place(f.FunctionName, f.ScriptID, f.URL, f.LineNumber, f.ColumnNumber))
	}
	return frames
}

// newMapCache reads maps for every session, cached per script (hash, URL and sourceMappingURL)
// so a program run again does not read its maps again: map files only inside the workspace (a
// script could name any file as its map), each capped in size.
func newMapCache(ws Workspace, maxBytes int64) *sourcemap.Cache {
	l := sourcemap.Loader{MaxBytes: maxBytes, ReadFile: func(p string, max int64) ([]byte, error) {
		real, err := ws.Resolve("/", p)
		if errors.Is(err, ErrTargetAbsent) {
			return nil, fs.ErrNotExist
		}
		if err != nil {
			return nil, err
		}
		return readCapped(real, max)
	}}
	return sourcemap.NewCache(l, sourcemap.DefaultCacheBudget)
}

// loadFrom adapts the cache to a session's loader. A failure is forgotten at once: the session
// keeps it (one load per script), and the next run reads again, since a missing or broken map
// is often fixed without the script changing.
func loadFrom(c *sourcemap.Cache) func(ctx context.Context, scriptURL, sourceMapURL, hash string) (*sourcemap.Map, error) {
	return func(ctx context.Context, scriptURL, sourceMapURL, hash string) (*sourcemap.Map, error) {
		key := sourcemap.Key{ScriptHash: hash, ScriptURL: scriptURL, SourceMapURL: sourceMapURL}
		m, err := c.Get(ctx, key)
		if err != nil {
			c.Forget(key)
		}
		return m, err
	}
}

// readCapped reads at most max+1 bytes of a file, so an oversized one is seen without reading it all.
func readCapped(name string, max int64) ([]byte, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return io.ReadAll(io.LimitReader(f, max+1))
}

// SourceMapStatus says what source map a script has and whether it is in use.
type SourceMapStatus struct {
	ScriptID     string
	URL          string
	File         string
	SourceMapURL string // capped; inline maps show their start
	Inline       bool
	MapFile      string
	Status       string // loaded, failed, off
	Reason       string
	Sources      []string // the original sources, relative to cwd when inside it
	Bytes        int64    // memory the loaded map takes, estimated
}

// SourceMaps describes a session's source maps: every user script that names one, or those
// whose generated file or one of whose original sources is file.
type SourceMaps struct {
	Enabled bool
	Scripts []SourceMapStatus
}

// Of reports the session's source maps, loading those not loaded yet.
func (sm SourceMapping) Of(file string) (SourceMaps, error) {
	if err := sm.t.s.debugOnly(); err != nil {
		return SourceMaps{}, err
	}
	sm.t.mu.Lock()
	var ids []string
	for id := range sm.t.scripts {
		ids = append(ids, id)
	}
	scripts := make(map[string]ScriptInfo, len(ids))
	for _, id := range ids {
		scripts[id] = sm.t.scripts[id]
	}
	sm.t.mu.Unlock()
	slices.SortFunc(ids, func(a, b string) int { return scriptOrder(a) - scriptOrder(b) })
	out := SourceMaps{Enabled: sm.t.maps.enabled(), Scripts: []SourceMapStatus{}}
	want := ""
	if file != "" {
		want = sm.t.s.absPath(file)
	}
	for _, id := range ids {
		e := sm.t.maps.entry(id)
		if e == nil {
			continue
		}
		st := sm.mapStatus(id, scripts[id], e)
		if want != "" && !sm.mapNames(st, e, want) {
			continue
		}
		out.Scripts = append(out.Scripts, st)
	}
	if file != "" && len(out.Scripts) == 0 {
		if id, ok := sm.t.Inspector().scriptFor(file); ok {
			return out, fmt.Errorf("%w: %s (script %s) names no source map", ErrNoRef, file, id)
		}
		return out, fmt.Errorf("%w: no loaded script is %s or maps to it", ErrNoRef, file)
	}
	return out, nil
}

func (sm SourceMapping) mapStatus(id string, sc ScriptInfo, e *scriptMap) SourceMapStatus {
	st := SourceMapStatus{ScriptID: id, URL: sc.URL, File: sc.File, SourceMapURL: sc.SourceMapURL}
	if loc, err := sourcemap.Locate(e.url, e.mapURL); err == nil {
		st.Inline = loc.Inline
		st.MapFile = fileOf(loc.Path, sm.t.s.dir())
	}
	m, err := e.get()
	switch {
	case err != nil:
		st.Status, st.Reason = "failed", err.Error()
	case !sm.t.maps.enabled():
		st.Status, st.Reason = "off", "source mapping is switched off for this session (POST sourcemap)"
	default:
		st.Status = "loaded"
	}
	if m != nil {
		st.Bytes = m.Size()
		for _, src := range m.Sources() {
			st.Sources = append(st.Sources, sm.t.s.sourceName(src))
		}
	}
	return st
}

// sourceName shows an original source as a user names it: relative to cwd when inside it.
func (s *Session) sourceName(source string) string {
	if f := fileOf(sourceURL(source), s.dir()); f != "" {
		return f
	}
	return source
}

// mapNames reports whether a script's map status concerns the absolute path want: the
// generated file or one of its sources.
func (sm SourceMapping) mapNames(st SourceMapStatus, e *scriptMap, want string) bool {
	if st.URL == want || st.URL == "file://"+want {
		return true
	}
	if e.m == nil {
		return false
	}
	return len(e.m.MatchSource(want)) > 0
}

// absPath makes a user's path absolute against the session's cwd.
func (s *Session) absPath(p string) string {
	if strings.HasPrefix(p, "/") || strings.Contains(p, "://") {
		return strings.TrimPrefix(p, "file://")
	}
	return s.dir() + "/" + p
}

// SetEnabled switches source mapping on or off for what the session shows from now on;
// events already captured keep the positions they had.
func (sm SourceMapping) SetEnabled(enabled bool) error {
	if err := sm.t.s.debugOnly(); err != nil {
		return err
	}
	defer sm.t.maps.mu.Unlock()
	sm.t.maps.mu.Lock()
	sm.t.maps.off = !enabled
	return nil
}

// mappedTarget is a generated position an original file:line binds to.
type mappedTarget struct {
	scriptID, url string
	gen           sourcemap.Pos
}

// originalTarget finds where an original source line is in the generated code of the newest
// loaded script whose source map has the source at path. ok is false when no such map has
// it; when one has but the line has no mapping, err is a NotBreakableError naming the nearest
// mapped lines.
func (sm SourceMapping) originalTarget(location, path string, line int) (_ mappedTarget, ok bool, err error) {
	if !sm.t.maps.enabled() {
		return mappedTarget{}, false, nil
	}
	var nearest []int
	for _, sc := range sm.mappedScripts() {
		m := sm.t.maps.of(sc.id)
		if m == nil {
			continue
		}
		for _, src := range m.MatchSource(path) {
			ok = true
			if gens := m.Reverse(src, line); len(gens) > 0 {
				return mappedTarget{scriptID: sc.id, url: sc.url, gen: gens[0]}, true, nil
			}
			if nearest == nil {
				nearest = m.NearestMapped(src, line)
			}
		}
	}
	if ok {
		err = &NotBreakableError{Location: location, File: bpspec.File(location), Nearest: append([]int{}, nearest...), Unmapped: true}
	}
	return mappedTarget{}, ok, err
}

// mapsOriginal reports whether path looks like a compiled language's file (TypeScript and
// others): a breakpoint on it waits for a source map that names it, or for node to run the
// file itself (native TypeScript, nativets.go).
func mapsOriginal(path string) bool {
	for _, ext := range []string{".ts", ".tsx", ".mts", ".cts", ".jsx", ".coffee", ".vue", ".svelte"} {
		if strings.HasSuffix(path, ext) {
			return true
		}
	}
	return false
}

// originalSource returns the lines of an original source: from its map's sourcesContent, else
// read from disk inside the workspace.
func (sm SourceMapping) originalSource(scriptID, source string) ([]string, error) {
	key := "map:" + scriptID + ":" + source
	sm.t.mu.Lock()
	lines, ok := sm.t.sources[key]
	sm.t.mu.Unlock()
	if ok {
		return lines, nil
	}
	m := sm.t.maps.of(scriptID)
	if m == nil {
		return nil, fmt.Errorf("script %s has no source map", scriptID)
	}
	text, ok := m.SourceContent(source)
	if !ok {
		real, err := sm.t.s.ws.Resolve("/", source)
		if err != nil {
			return nil, fmt.Errorf("read %s: %w", source, err)
		}
		data, err := readCapped(real, maxSourceBytes)
		if err != nil {
			return nil, fmt.Errorf("read %s: %w", source, err)
		}
		text = string(data)
	}
	return sm.t.Inspector().keepLines(key, text), nil
}

// frameSource returns the source a paused frame shows, with its 0-based current line and file:
// the original source where the frame maps to one, else the script's own.
func (sm SourceMapping) frameSource(ctx context.Context, c clientCaller, f pausedFrame) (lines []string, cur int, file string, err error) {
	if fr := sm.t.Inspector().pausedFrame(f); fr.Generated != nil {
		if lines, err := sm.originalSource(f.Location.ScriptID, strings.TrimPrefix(fr.URL, "file://")); err == nil {
			return lines, fr.Line - 1, fr.File, nil
		}
		// an unreadable original: the generated code is better than nothing
	}
	lines, err = sm.t.Inspector().source(ctx, c, f.Location.ScriptID)
	if err != nil {
		return nil, 0, "", err
	}
	sm.t.mu.Lock()
	file = fileOf(sm.t.scripts[f.Location.ScriptID].URL, sm.t.s.dir())
	sm.t.mu.Unlock()
	return lines, f.Location.LineNumber, file, nil
}

// mapped reports whether a paused frame shows an original position.
func (sm SourceMapping) mapped(f pausedFrame) bool {
	return sm.t.Inspector().pausedFrame(f).Generated != nil
}

// scriptWithSource finds the newest loaded script whose source map has the original source at
// the absolute path p, and the name the map gives it.
func (sm SourceMapping) scriptWithSource(p string) (scriptID, source string, ok bool) {
	for _, sc := range sm.mappedScripts() {
		if m := sm.t.maps.of(sc.id); m != nil {
			if srcs := m.MatchSource(p); len(srcs) > 0 {
				return sc.id, srcs[0], true
			}
		}
	}
	return "", "", false
}

// mappedScript is a loaded user script that names a source map.
type mappedScript struct{ id, url string }

// mappedScripts lists the loaded user scripts that name a source map, newest first: a file
// loaded again is found in its latest version.
func (sm SourceMapping) mappedScripts() []mappedScript {
	sm.t.mu.Lock()
	var out []mappedScript
	for id, sc := range sm.t.scripts {
		if !sc.Internal && sc.SourceMapURL != "" {
			out = append(out, mappedScript{id, sc.URL})
		}
	}
	sm.t.mu.Unlock()
	slices.SortFunc(out, func(a, b mappedScript) int { return scriptOrder(b.id) - scriptOrder(a.id) })
	return out
}
