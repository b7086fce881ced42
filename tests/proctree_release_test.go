package tests

import (
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"traced/api"
)

// Released must mean running: whatever happens while traced sets up a worker or a child (its
// set-up times out, it waits for a debugger of its own, it wedges the announce FIFO), every
// process and thread of the tree runs to its end.

// TestManyWorkersFrozenMain: 100 workers start while the main thread is frozen for 2 s, so
// their set-up calls (which travel through the main thread) wait; a worker whose set-up runs
// out of time is released, and each one still runs: the program ends with all 100 counted.
func TestManyWorkersFrozenMain(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	s := h.start(api.StartRequest{Target: "manyworkers.js", Args: []string{"100", "2000"}})
	// 100 workers take half a minute on a loaded 2-core machine without traced: a longer bound.
	sum := h.waitExitWithin(s.ID, 4*time.Minute)
	if sum.ExitCode == nil || *sum.ExitCode != 0 {
		t.Fatalf("exit %+v, want 0", sum)
	}
	if out := h.printed(s.ID); !strings.Contains(out, "ran 100 of 100") {
		t.Fatalf("not every worker ran: %q", out)
	}
}

// TestChildOwnInspectBrk: a child the program gives NODE_OPTIONS=--inspect-brk (replacing
// traced's) waits for a debugger before its first line; traced sees its banner on the shared
// stderr and lets it run, so the program ends. The --inspect variant runs alike.
func TestChildOwnInspectBrk(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	for _, opts := range []string{"--inspect-brk=127.0.0.1:0", "--inspect=127.0.0.1:0"} {
		t.Run(opts, func(t *testing.T) {
			h := h.with(t)
			s := h.start(api.StartRequest{Target: "inspectbrk.js", Args: []string{opts}})
			sum := h.waitExit(s.ID)
			if sum.ExitCode == nil || *sum.ExitCode != 0 {
				t.Fatalf("exit %+v, want 0", sum)
			}
			out := h.printed(s.ID)
			if !strings.Contains(out, "brk child: ran") || !strings.Contains(out, "main: child exited 0") {
				t.Fatalf("the child did not run to its end: %q", out)
			}
			if strings.Contains(out, "ws://") {
				t.Fatalf("an inspector URL leaked into the output: %q", out)
			}
		})
	}
}

// TestAnnounceFIFOWedged: the program writes a 100 KiB line without a newline to the announce
// FIFO, then half an announcement, then puts a regular file in the FIFO's place, forking a child
// after each: every child runs; the first two are still followed (their lines captured as
// theirs), the last runs untraced.
func TestAnnounceFIFOWedged(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	s := h.start(api.StartRequest{Target: "announcewedge.js"})
	sum := h.waitExit(s.ID)
	if sum.ExitCode == nil || *sum.ExitCode != 0 {
		t.Fatalf("exit %+v, want 0", sum)
	}
	out := h.printed(s.ID)
	for _, want := range []string{"child: ran long", "child: ran half", "child: ran file", "main: all ran"} {
		if !strings.Contains(out, want) {
			t.Fatalf("output lacks %q: %q", want, out)
		}
	}
	followed := map[string]string{}
	for _, ev := range h.trace(s.ID, "console").Events {
		followed[ev.Console.Text.Value] = ev.Target
	}
	for _, line := range []string{"child: ran long", "child: ran half"} {
		if followed[line] == "" {
			t.Errorf("%q was not captured from a child target: %q", line, followed)
		}
	}
}

// waitExitWithin waits for the session's exit event up to d, for a program slower than deadline.
func (h *harness) waitExitWithin(id string, d time.Duration) api.Summary {
	h.t.Helper()
	var after uint64
	for end := time.Now().Add(d); time.Now().Before(end); {
		var w api.WaitResponse
		path := fmt.Sprintf("/api/trace/wait?id=%s&after=%d&kinds=exit&timeoutMs=10000", id, after)
		if st := h.call("GET", path, nil, &w); st != http.StatusOK {
			h.t.Fatalf("wait: status %d", st)
		}
		if w.Event != nil || w.Finished {
			var tr api.TraceResponse
			h.call("GET", "/api/trace?id="+id+"&kinds=exit", nil, &tr)
			return tr.Session
		}
		after = w.Next
	}
	h.t.Fatalf("no exit in session %s within %s", id, d)
	return api.Summary{}
}

// TestChildInspectorUnreachable: a child announces an inspector traced cannot connect to (a
// port nobody listens on); it waits in traced's preload all the same. traced releases it
// without its inspector and says so on the child's target, and the child runs to its end.
func TestChildInspectorUnreachable(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	s := h.start(api.StartRequest{Target: "deafchild/main.js"})
	sum := h.waitExit(s.ID)
	if sum.ExitCode == nil || *sum.ExitCode != 0 {
		t.Fatalf("exit %+v, want 0", sum)
	}
	out := h.printed(s.ID)
	if !strings.Contains(out, "deaf child: ran") || !strings.Contains(out, "main: child exited 0") {
		t.Fatalf("the child did not run to its end: %q", out)
	}
	var reason string
	for _, ev := range h.trace(s.ID, "target").Events {
		if ev.TargetInfo != nil && ev.TargetInfo.Kind == "process" && ev.TargetInfo.Status == "released" {
			reason = ev.TargetInfo.Reason
		}
	}
	if !strings.Contains(reason, "set-up failed") || !strings.Contains(reason, "untraced") {
		t.Fatalf("the child's target was not recorded released untraced: reason %q", reason)
	}
}
