package tests

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"traced/api"
	"traced/internal/service"
)

// Behaviour that differs between node lines (20, 22, 24, 26): each test holds on every line.

// workspaceWith writes files (path -> content) under a temp workspace and returns the harness
// rooted there.
func workspaceWith(t *testing.T, files map[string]string) (*harness, string) {
	t.Helper()
	dir := t.TempDir()
	for name, content := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return newHarness(t, func(o *service.Options) { o.Engine.Root = dir }), dir
}

// TestSyntaxErrorNamesItsFile: a CommonJS syntax error points at the user's file, line and
// column on every line. Node 24+ no longer puts "file:line" in the exception's description, and
// the path here is too long for the preview of the error's stack: scriptFailedToParse names the
// file, node's arrow on stderr gives the line.
func TestSyntaxErrorNamesItsFile(t *testing.T) {
	t.Parallel()
	deep := "a-directory-deep-enough/to-outgrow-the-fifty-characters-of-a-v8-preview/"
	h, dir := workspaceWith(t, map[string]string{
		deep + "bad.js": "// A syntax error on line 3.\nconst a = 1;\nconst b = a +* 2;\n",
	})
	s := h.start(api.StartRequest{Target: deep + "bad.js"})
	h.waitExit(s.ID)
	exc := h.trace(s.ID, "exception").Events
	if len(exc) != 1 {
		t.Fatalf("%d exception events, want 1", len(exc))
	}
	x := exc[0].Exception
	wantURL := "file://" + filepath.Join(dir, deep, "bad.js")
	if x.Class != "SyntaxError" || x.URL != wantURL || x.File != deep+"bad.js" || x.Line != 3 || x.Column != 14 {
		t.Fatalf("exception at %s (%s) %d:%d, class %s; want %s 3:14", x.URL, x.File, x.Line, x.Column, x.Class, wantURL)
	}
	var failed []string
	for _, e := range h.trace(s.ID, "script").Events {
		if e.Script.FailedToParse {
			failed = append(failed, e.Script.URL)
		}
	}
	if len(failed) != 1 || failed[0] != wantURL {
		t.Fatalf("scripts that failed to parse: %v, want [%s] once", failed, wantURL)
	}
	var ev api.EvidenceResponse
	h.call("GET", "/api/trace/evidence?id="+s.ID, nil, &ev)
	if ev.Evidence == nil || ev.Evidence.Failure.Location == nil || ev.Evidence.Failure.Location.File != deep+"bad.js" ||
		ev.Evidence.Confidence == "low" {
		t.Fatalf("evidence %+v", ev.Evidence)
	}
}

// TestExceptionPlaceAgreesWithStack: an uncaught exception's url, line and column are those of
// its stack's top frame (node reports the script by its bare path, one column earlier).
func TestExceptionPlaceAgreesWithStack(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	s := h.start(api.StartRequest{Target: "throws.js"})
	h.waitExit(s.ID)
	exc := h.trace(s.ID, "exception").Events
	if len(exc) != 1 || len(exc[0].Exception.Stack) == 0 {
		t.Fatalf("exception events %+v", exc)
	}
	x, top := exc[0].Exception, exc[0].Exception.Stack[0]
	if !strings.HasPrefix(x.URL, "file://") || x.URL != top.URL || x.Line != top.Line || x.Column != top.Column {
		t.Fatalf("exception at %s %d:%d, its top frame at %s %d:%d", x.URL, x.Line, x.Column, top.URL, top.Line, top.Column)
	}
}

// TestNativeTypeScript: node 22.18+ runs a .ts file itself (types erased, no source map). A
// breakpoint on it set before it loads binds by its URL and stops there, and the source shown
// is the file as written, not the erased text node runs.
func TestNativeTypeScript(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	if h.nodeFeatures().TypeScript == "" {
		t.Skip("this node does not run TypeScript itself")
	}
	s := h.debug(api.StartRequest{Target: "native/order.ts", Breakpoints: api.BreakpointsAt("native/order.ts:5")})
	st, _ := h.waitPaused(s.ID, 0)
	wantPausedIn(t, st, "native/order.ts", "total", 5)
	own := strings.Split(readFile(t, filepath.Join("testdata", "native", "order.ts")), "\n")
	for _, l := range st.Source {
		if l.Text != own[l.Line-1] {
			t.Fatalf("source line %d %q, want the file's %q", l.Line, l.Text, own[l.Line-1])
		}
	}
	var bps api.BreakpointsResponse
	h.get(s.ID, "breakpoints", &bps)
	if len(bps.Breakpoints) != 1 || bps.Breakpoints[0].Pending || len(bps.Breakpoints[0].Resolved) == 0 ||
		bps.Breakpoints[0].Resolved[0].File != "native/order.ts" || bps.Breakpoints[0].Resolved[0].Line != 5 {
		t.Fatalf("breakpoints %+v, want bound at native/order.ts:5", bps.Breakpoints)
	}
	if v := h.eval(s.ID, "sum", 0); v.Value != "6" {
		t.Fatalf("sum = %+v, want 6", v)
	}
}
