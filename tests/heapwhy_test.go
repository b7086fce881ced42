package tests

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"traced/api"
)

// TestLeakReport: one call (begin, 300 requests, end) names the leak: the first cluster is the
// listener closures (or the sessions they hold), accumulating in the bus's settings listeners,
// and the report stays within ~2 KB; the retainers of the Session class say the same path; a
// load that keeps nothing reports no cluster near its iteration count.
func TestLeakReport(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	s := h.start(api.StartRequest{Target: "leaks/bus.js", Mode: "debug"})
	h.waitFor(s.ID, 0, "console")
	var rep api.LeakReport
	if st := h.call("POST", "/api/debug/"+s.ID+"/heap/leak", api.LeakEndRequest{Expression: "handle()", Iterations: 300}, &rep); st != http.StatusOK {
		t.Fatalf("leak: status %d", st)
	}
	if len(rep.Clusters) == 0 {
		t.Fatalf("no clusters: %+v", rep)
	}
	c := rep.Clusters[0]
	if c.Count < 300 || !strings.Contains(c.Pinch+c.Path, "settings") || c.PerIteration < 1 {
		t.Fatalf("first cluster %+v, want >= 300 objects accumulating in the bus's settings listeners\n%s", c, rep.Text)
	}
	if len(c.Allocated) == 0 || c.Allocated[0].Function != "handle" || c.Allocated[0].File != "leaks/bus.js" || c.Allocated[0].Line != 18 {
		t.Errorf("first cluster allocated in %+v, want handle at leaks/bus.js:18", c.Allocated)
	}
	if len(rep.Text) > 2200 || !strings.Contains(rep.Text, "settings") {
		t.Fatalf("text (%d bytes):\n%s", len(rep.Text), rep.Text)
	}
	t.Logf("report (%d bytes):\n%s", len(rep.Text), rep.Text)

	var an api.HeapAnalysis
	if st := h.call("POST", "/api/debug/"+s.ID+"/heap/retainers", api.HeapRetainersRequest{Snapshot: rep.End, Class: "Session"}, &an); st != http.StatusOK {
		t.Fatalf("retainers: status %d", st)
	}
	if !strings.Contains(an.Text, "settings") || !strings.Contains(an.Text, "Session") {
		t.Fatalf("retainers of Session:\n%s", an.Text)
	}
	t.Logf("retainers (%d bytes):\n%s", len(an.Text), an.Text)

	// traced's own refs are counted apart in the heap usage, and let go with DELETE refs.
	var usage api.HeapUsage
	defer func() {
		h.call("DELETE", "/api/debug/"+s.ID+"/refs", nil, nil)
		h.call("GET", "/api/debug/"+s.ID+"/heap/usage", nil, &usage)
		if usage.HeldByTraced != 0 {
			t.Errorf("after DELETE refs, heldByTraced %d, want 0", usage.HeldByTraced)
		}
	}()
	// A live value's retainers: the ref an eval gave, in a snapshot taken for the question.
	var fn api.EvalResult
	h.call("POST", "/api/debug/"+s.ID+"/eval", api.EvalRequest{Expression: "handle"}, &fn)
	var live api.HeapAnalysis
	if st := h.call("POST", "/api/debug/"+s.ID+"/heap/retainers", api.HeapRetainersRequest{Ref: fn.Ref}, &live); st != http.StatusOK ||
		!strings.Contains(live.Text, ".handle") { // global.handle; node 26 names the global object otherwise
		t.Fatalf("retainers of %s (%q): status %d\n%s", fn.Ref, fn.Value, st, live.Text)
	}
	if h.call("GET", "/api/debug/"+s.ID+"/heap/usage", nil, &usage); usage.HeldByTraced < 1 || usage.BackingStore == 0 && usage.Used == 0 {
		t.Fatalf("heap usage %+v, want the o ref counted as held by traced", usage)
	}

	var control api.LeakReport
	if st := h.call("POST", "/api/debug/"+s.ID+"/heap/leak", api.LeakEndRequest{Expression: "noleak()", Iterations: 300}, &control); st != http.StatusOK {
		t.Fatalf("control: status %d", st)
	}
	for _, c := range control.Clusters {
		if c.Count >= 100 {
			t.Fatalf("control program: cluster %+v, want nothing near its 300 iterations\n%s", c, control.Text)
		}
	}
	var bad api.ErrorBody
	if st := h.call("POST", "/api/debug/"+s.ID+"/heap/leak/end", api.LeakEndRequest{}, &bad); st != http.StatusConflict && st != http.StatusBadRequest {
		t.Fatalf("end without begin: status %d %+v", st, bad)
	}
}

// TestLeakKinds: each kind of leak is named by the report's first cluster, with the path through
// the collection that accumulates it and, under the cluster, the leaking function's own line
// (each is one line of leaks/kinds.js); the control program, doing the same work and undoing
// it, reports nothing above noise. Each answer is one call; its bytes are logged.
func TestLeakKinds(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	sessions := map[string]string{}
	for _, program := range []string{"kinds", "control"} {
		s := h.start(api.StartRequest{Target: "leaks/" + program + ".js", Mode: "debug"})
		h.waitFor(s.ID, 0, "console")
		sessions[program] = s.ID
	}
	const iterations = 400 // enough sampled bytes (1 KiB apart) under the smallest kind's constructor
	cases := []struct {
		program, fn string
		path        []string // what the first cluster's path and pinch say, in this order
		line        int      // the leaking function's line in kinds.js; 0: the control
	}{
		{"kinds", "leakEmitter", []string{".context.bus → EventEmitter._events.change[i] → (closure anonymous leaks/kinds.js:24:"}, 24},
		{"kinds", "leakMap", []string{".context.cache → Map[entry] → CacheEntry"}, 25},
		{"kinds", "leakInterval", []string{"timerListMap[i] → TimersList", "Timeout"}, 26},
		{"kinds", "leakArray", []string{"global.logLines[i] → LogLine"}, 27},
		{"kinds", "leakContext", []string{".context.never → Promise.reactions_or_result"}, 28},
		{"kinds", "leakBuffers", []string{".context.frames[i] → Frame"}, 29},
		{"control", "control", nil, 0},
	}
	for _, c := range cases {
		t.Run(c.fn, func(t *testing.T) {
			var rep api.LeakReport
			req := api.LeakEndRequest{Expression: c.fn + "()", Iterations: iterations}
			if st := h.call("POST", "/api/debug/"+sessions[c.program]+"/heap/leak", req, &rep); st != http.StatusOK {
				t.Fatalf("leak: status %d", st)
			}
			t.Logf("%s: 1 call, %d bytes of report:\n%s", c.fn, len(rep.Text), rep.Text)
			if len(rep.Text) > 2048 {
				t.Errorf("report is %d bytes, want at most 2048", len(rep.Text))
			}
			if c.line == 0 {
				for _, cl := range rep.Clusters {
					if cl.Count >= iterations/10 {
						t.Errorf("control: %d × %s held by %s, want nothing near its %d calls", cl.Count, cl.Label, cl.Path, iterations)
					}
				}
				return
			}
			if len(rep.Clusters) == 0 {
				t.Fatal("no clusters")
			}
			first := rep.Clusters[0]
			if first.Count < iterations || !inOrder(first.Path+" | "+first.Pinch, c.path...) {
				t.Errorf("first cluster %d × %s\n  path %s\n  pinch %s\nwant >= %d held through %q", first.Count, first.Label, first.Path, first.Pinch, iterations, c.path)
			}
			own := fmt.Sprintf("leaks/kinds.js:%d", c.line)
			if len(first.Allocated) == 0 || fmt.Sprintf("%s:%d", first.Allocated[0].File, first.Allocated[0].Line) != own {
				t.Errorf("first cluster allocated in %+v, want %s first", first.Allocated, own)
			}
			if block := clusterBlock(rep.Text, 1); !strings.Contains(block, "allocated in: ") || !strings.Contains(block, own) {
				t.Errorf("the first cluster's text does not name %s:\n%s", own, block)
			}
		})
	}
}

// inOrder reports whether s contains each of parts, each after the one before.
func inOrder(s string, parts ...string) bool {
	for _, p := range parts {
		i := strings.Index(s, p)
		if i < 0 {
			return false
		}
		s = s[i+len(p):]
	}
	return true
}

// clusterBlock is the text of cluster n (1-based) of a leak report: its numbered line and the
// indented lines under it.
func clusterBlock(text string, n int) string {
	lines := strings.Split(text, "\n")
	var b strings.Builder
	in := false
	for _, l := range lines {
		switch {
		case strings.HasPrefix(l, fmt.Sprintf("%d. ", n)):
			in = true
		case in && !strings.HasPrefix(l, "   "):
			return b.String()
		}
		if in {
			b.WriteString(l + "\n")
		}
	}
	return b.String()
}
