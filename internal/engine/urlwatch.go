package engine

import (
	"context"
	"regexp"
	"slices"
	"strings"

	"traced/internal/cdp/proto"
)

// A urlRegex breakpoint is matched here, not by V8: V8 runs a breakpoint's urlRegex with its
// backtracking engine on the program's main thread, against every script URL, and a regex such
// as (a+)+$ against a long path never ends, freezing the program and every later call. Go's
// RE2 is linear. V8 gets an alternation of the exact URLs matched, which it matches in linear
// time, and the source map gate (mapbind.go) stops each file script as it loads, so that one
// the regex matches is added before it runs.

// neverURL is a JavaScript regex that matches no URL: V8's breakpoint before any script matches.
const neverURL = `(?!)`

// exactURLs is a V8 urlRegex matching exactly urls.
func exactURLs(urls []string) string {
	if len(urls) == 0 {
		return neverURL
	}
	quoted := make([]string, len(urls))
	for i, u := range urls {
		quoted[i] = regexp.QuoteMeta(u)
	}
	return "^(?:" + strings.Join(quoted, "|") + ")$"
}

// urlsMatching lists the URLs of the loaded scripts re matches, sorted.
func (dp dispatcher) urlsMatching(re *regexp.Regexp) []string {
	dp.t.mu.Lock()
	defer dp.t.mu.Unlock()
	var urls []string
	for _, sc := range dp.t.scripts {
		if sc.URL != "" && re.MatchString(sc.URL) && !slices.Contains(urls, sc.URL) {
			urls = append(urls, sc.URL)
		}
	}
	slices.Sort(urls)
	return urls
}

// rewatch adds url to each urlRegex breakpoint whose regex matches it, binding the breakpoint
// again in V8 with the longer list (a disabled one keeps the list for when it is enabled). It
// returns the V8 ids of those that bound right where the program stands.
func (dp dispatcher) rewatch(ctx context.Context, c clientCaller, url, scriptID string, line0, col0 int) (here []string) {
	if url == "" {
		return nil
	}
	dp.t.lock()
	var grow []*breakpoint
	for _, bp := range dp.t.s.breakpoints {
		if bp.watch != nil && bp.watch.MatchString(url) && !slices.Contains(bp.watched, url) {
			grow = append(grow, bp)
		}
	}
	dp.t.unlock()
	for _, bp := range grow {
		dp.t.lock()
		watched := append(slices.Clone(bp.watched), url)
		call, _ := bp.byURL() // a copy: bindings under way keep the call they read
		call.URLRegex = exactURLs(watched)
		old := dp.t.Breakpoints().v8IDOf(bp)
		bp.watched, bp.call = watched, call
		dp.t.unlock()
		if old == "" {
			continue // disabled: enabling binds it with the new list
		}
		if err := proto.Do(ctx, c, proto.DebuggerRemoveBreakpoint{BreakpointID: old}, nil); err != nil {
			dp.t.s.log.Debug("rebind url regex breakpoint", "session", dp.t.s.id, "bp", bp.ref(), "err", err)
			continue
		}
		var res setBreakpointResult
		if err := proto.Do(ctx, c, call, &res); err != nil {
			dp.t.lock()
			dp.t.Breakpoints().bindingOf(bp).v8ID = ""
			dp.t.unlock()
			dp.t.s.log.Debug("rebind url regex breakpoint", "session", dp.t.s.id, "bp", bp.ref(), "err", err)
			continue
		}
		var bound []BreakpointInfo
		dp.t.lock()
		b := dp.t.Breakpoints().bindingOf(bp)
		b.v8ID, b.resolved = res.BreakpointID, []Frame{}
		for _, l := range res.Locations {
			fr := dp.t.Breakpoints().resolvedAt(l)
			b.resolved = append(b.resolved, fr)
			if dp.t.scripts[l.ScriptID].URL == url {
				bound = append(bound, BreakpointInfo{Ref: bp.ref(), Location: fr})
			}
			if l.ScriptID == scriptID && l.LineNumber == line0 && l.ColumnNumber == col0 {
				here = append(here, res.BreakpointID)
			}
		}
		dp.t.unlock()
		for i := range bound {
			dp.t.record(Event{Kind: KindBreakpoint, Breakpoint: &bound[i]})
		}
	}
	return here
}
