package engine

import (
	"context"
	"slices"
	"strings"
)

// Test runners transform test files in place (babel-jest, vite-node): the script node runs has
// the file's own path as URL and an inline source map back to the file, so a breakpoint bound by
// URL and line stops at another line of the original. In a worker or child process, once such a
// script is parsed, each breakpoint on its file moves to the generated line the map gives (by
// exact URL, so every copy of the script the target loads has it). Code the script runs at once
// is missed; what runs later (a test body, the code under test) stops where it should.

// remapInPlace moves the breakpoints on a just-parsed script's own file to its map's lines; it
// runs on the dispatcher, so the calls go to a goroutine of their own.
func (t *Session) remapInPlace(scriptID, url string) {
	path := strings.TrimPrefix(url, "file://")
	t.mu.Lock()
	var bps []*breakpoint
	for _, bp := range t.breakpoints {
		if bp.everywhere() && bp.orig == nil && strings.HasPrefix(bp.at, path+":") && !slices.Contains(bp.remapped, t.ref) {
			bps = append(bps, bp)
		}
	}
	t.mu.Unlock()
	if len(bps) == 0 {
		return
	}
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), workerSetupTimeout)
		defer cancel()
		for _, bp := range bps {
			if err := t.remapOne(ctx, scriptID, url, path, bp); err != nil {
				t.log.Debug("breakpoint on a transformed script", "session", t.id, "target", t.ref, "err", err)
			}
		}
	}()
}

func (t *Session) remapOne(ctx context.Context, scriptID, url, path string, bp *breakpoint) error {
	m := t.maps.of(scriptID)
	c := t.liveConn()
	if m == nil || c == nil {
		return nil
	}
	_, line, _, err := splitLocation(bp.at)
	if err != nil {
		return err
	}
	var line0, col0 int
	found := false
	for _, src := range m.MatchSource(path) {
		if gens := m.Reverse(src, line); len(gens) > 0 {
			line0, col0 = gens[0].CDP()
			found = true
			break
		}
	}
	t.mu.Lock()
	params, id := bp.params, bp.v8ID
	if found && line0 != line-1 {
		bp.remapped = append(bp.remapped, t.ref)
	}
	t.mu.Unlock()
	if !found || line0 == line-1 {
		return nil // the map keeps the line: the URL binding is right
	}
	if err := c.Call(ctx, "Debugger.removeBreakpoint", map[string]any{"breakpointId": id}, nil); err != nil {
		return err
	}
	var res setBreakpointResult
	moved := map[string]any{"url": url, "lineNumber": line0, "columnNumber": col0, "condition": params["condition"]}
	if err := c.Call(ctx, "Debugger.setBreakpointByUrl", moved, &res); err != nil {
		return err
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	bp.aliases = append(bp.aliases, res.BreakpointID)
	bp.resolved = slices.DeleteFunc(bp.resolved, func(f Frame) bool { return f.Target == t.ref })
	for _, l := range res.Locations {
		bp.resolved = append(bp.resolved, t.resolvedAt(l))
	}
	return nil
}

// is reports whether a V8 breakpoint id is this breakpoint's, in any target.
func (bp *breakpoint) is(id string) bool {
	return bp.v8ID == id || slices.Contains(bp.aliases, id)
}
