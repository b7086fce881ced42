package tests

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"traced/api"
	"traced/internal/service"
)

// patchWorkspace copies patchme.js into a temp workspace and returns the harness rooted there.
func patchWorkspace(t *testing.T) (*harness, string) {
	t.Helper()
	dir := t.TempDir()
	src, err := os.ReadFile(filepath.Join("testdata", "patchme.js"))
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "patchme.js")
	if err := os.WriteFile(path, src, 0o644); err != nil {
		t.Fatal(err)
	}
	return newHarness(t, func(o *service.Options) { o.Engine.Root = dir }), path
}

// nextSum waits for the next "sum" console line after the cursor.
func (h *harness) nextSum(id string, after uint64) (string, uint64) {
	h.t.Helper()
	w := h.waitFor(id, after, "console")
	if w.Event == nil {
		h.t.Fatal("no console event")
	}
	return w.Event.Console.Text.Value, w.Event.Seq
}

func TestDebugHotpatch(t *testing.T) {
	t.Parallel()
	h, path := patchWorkspace(t)
	h.needLiveEdit()
	s := h.debug(api.StartRequest{Target: "patchme.js"})
	text, seq := h.nextSum(s.ID, 0)
	if text != "sum -1" {
		t.Fatalf("before the patch: %q", text)
	}
	fixed := strings.Replace(readFile(t, path), "a - b", "a + b", 1)
	os.WriteFile(path, []byte(fixed), 0o644)

	var res api.HotpatchResult
	if st := h.call("POST", "/api/debug/"+s.ID+"/hotpatch", api.HotpatchRequest{File: "patchme.js", DryRun: true}, &res); st != 200 || res.Status != "Ok" {
		t.Fatalf("dry run: %d %+v", st, res)
	}
	last := h.trace(s.ID, "").Session.LastSeq
	if text, _ = h.nextSum(s.ID, last); text != "sum -1" {
		t.Fatalf("after a dry run: %q, want the old behaviour", text)
	}

	if st := h.call("POST", "/api/debug/"+s.ID+"/hotpatch", api.HotpatchRequest{File: "patchme.js"}, &res); st != 200 || res.Status != "Ok" {
		t.Fatalf("patch: %d %+v", st, res)
	}
	last = h.trace(s.ID, "").Session.LastSeq
	if text, _ = h.nextSum(s.ID, last); text != "sum 5" {
		t.Fatalf("after the patch: %q, want sum 5", text)
	}
	_ = seq

	broken := strings.Replace(fixed, "return a + b;", "return a + ;", 1)
	os.WriteFile(path, []byte(broken), 0o644)
	if st := h.call("POST", "/api/debug/"+s.ID+"/hotpatch", api.HotpatchRequest{File: "patchme.js"}, &res); st != 200 || res.Status != "CompileError" ||
		res.CompileError == nil || res.CompileError.Line != 3 {
		t.Fatalf("compile error: %d %+v %+v", st, res, res.CompileError)
	}
	e := h.errorOf(h.request("POST", "/api/debug/"+s.ID+"/hotpatch", api.HotpatchRequest{File: "../outside.js"}), 400)
	if e.Code != "bad_file" {
		t.Fatalf("outside file: %+v", e)
	}
}

// needLiveEdit skips a hot-patch test on a node without live edit (26): there the answer is
// TestDebugHotpatchWithoutLiveEdit's.
func (h *harness) needLiveEdit() {
	h.t.Helper()
	if !h.nodeFeatures().LiveEdit {
		h.t.Skip("this node has no live edit (Debugger.setScriptSource)")
	}
}

func readFile(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestDebugHotpatchTopFrame: patching the function the program is paused in restarts it, so the
// pause is at its first line again and running on uses the new code.
func TestDebugHotpatchTopFrame(t *testing.T) {
	t.Parallel()
	h, path := patchWorkspace(t)
	h.needLiveEdit()
	s := h.debug(api.StartRequest{Target: "patchme.js", Breakpoints: api.BreakpointsAt("patchme.js:3")})
	st, _ := h.waitPaused(s.ID, 0)
	wantPausedIn(t, st, "patchme.js", "add", 3)
	fixed := strings.Replace(readFile(t, path), "a - b", "a + b", 1)
	if err := os.WriteFile(path, []byte(fixed), 0o644); err != nil {
		t.Fatal(err)
	}
	var res api.HotpatchResult
	if code := h.call("POST", "/api/debug/"+s.ID+"/hotpatch", api.HotpatchRequest{File: "patchme.js"}, &res); code != 200 || res.Status != "Ok" {
		t.Fatalf("patch while paused in add: %d %+v", code, res)
	}
	if !res.RestartedFrame || res.State == nil {
		t.Fatalf("patch of the top frame's function: %+v, want it restarted", res)
	}
	wantPausedIn(t, *res.State, "patchme.js", "add", 3)
	if src := res.State.Source; !slices.ContainsFunc(src, func(l api.SourceLine) bool { return l.Current && strings.Contains(l.Text, "a + b") }) {
		t.Fatalf("source after the patch: %+v", src)
	}
	h.call("DELETE", "/api/debug/"+s.ID+"/breakpoints/all", nil, nil)
	h.exec(s.ID, "continue", api.ContinueRequest{WaitMs: new(int64)})
	// The breakpoint stopped the first call: the first sum printed is the restarted call's.
	if text, _ := h.nextSum(s.ID, 0); text != "sum 5" {
		t.Fatalf("first sum %q, want the patched add's 5", text)
	}
}
