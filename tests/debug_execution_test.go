package tests

import (
	"context"
	"encoding/json"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"traced/api"
)

// TestDebugRunTo: run-to stops at the line asked, or at a breakpoint met first, and leaves no
// breakpoint behind.
func TestDebugRunTo(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	s := h.debug(api.StartRequest{Target: "debugme.js", Breakpoints: api.BreakpointsAt("debugme.js:7")})
	h.waitPaused(s.ID, 0)
	base := "/api/debug/" + s.ID

	st := h.exec(s.ID, "run-to", api.RunToRequest{Location: "debugme.js:" + strconv.Itoa(lineLog)})
	wantPausedAt(t, st, "work", lineLog)
	if v := local(t, st, "value").Value; v != "1" || len(st.Hit) != 0 {
		t.Fatalf("after run-to: value = %s, hit %v; want 1 (the first call) and no breakpoint", v, st.Hit)
	}
	if refs := h.breakpointRefs(s.ID); refs != "bp1:1" {
		t.Fatalf("breakpoints after run-to: %s, want bp1 alone, paused once", refs)
	}

	// square runs next in the second call, but bp1 comes first on the way.
	square := api.RunToRequest{Location: "debugme.js:" + strconv.Itoa(lineSquare)}
	st = h.exec(s.ID, "run-to", square)
	wantPausedAt(t, st, "work", lineLabel)
	if i := local(t, st, "i").Value; i != "2" || strings.Join(st.Hit, ",") != "bp1" {
		t.Fatalf("run-to across bp1: i = %s, hit %v; want 2, bp1", i, st.Hit)
	}
	st = h.exec(s.ID, "run-to", square)
	wantPausedAt(t, st, "square", lineSquare)
	if n := local(t, st, "n").Value; n != "2" {
		t.Fatalf("run-to square: n = %s, want 2", n)
	}

	// Neither target stayed: continue stops at bp1 in the third call.
	st = h.exec(s.ID, "continue", api.ContinueRequest{})
	wantPausedAt(t, st, "work", lineLabel)
	if i := local(t, st, "i").Value; i != "3" {
		t.Fatalf("continue after run-to: i = %s, want 3", i)
	}
	if refs := h.breakpointRefs(s.ID); refs != "bp1:3" {
		t.Fatalf("breakpoints: %s, want bp1 alone, paused 3 times", refs)
	}

	for _, loc := range []string{"nosuch.js:1", "debugme.js:0"} {
		e := h.errorOf(h.request("POST", base+"/run-to", api.RunToRequest{Location: loc}), http.StatusBadRequest)
		if e.Code != "bad_request" || !strings.Contains(e.Hint, "kinds=script") {
			t.Fatalf("run-to %s: %+v, want bad_request naming the loaded scripts", loc, e)
		}
	}
	if st := h.state(s.ID, ""); st.Location == nil || st.Location.Line != lineLabel {
		t.Fatalf("a refused run-to moved the program: %+v", st)
	}
}

// waitSpinning waits until killme.js is in its loop. The console event of "spinning" is not
// enough: it comes as console.log starts, and a kill inside console.log's first write (which loads
// node's net module) breaks stdout for good. Evaluation runs between the loop's turns.
func (h *harness) waitSpinning(id string) {
	h.t.Helper()
	for end := time.Now().Add(deadline); time.Now().Before(end); {
		if res := h.eval(id, "globalThis.spins > 0", 0); res.Value == "true" {
			return
		}
	}
	h.t.Fatalf("killme.js did not spin within %s", deadline)
}

// TestDebugKillExecution: kill-execution ends a callback stuck in an infinite loop, running or
// paused in it; the process, its timers and the session go on.
func TestDebugKillExecution(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name  string
		where string // killme.js's argument: where it spins
		pause bool   // pause in the loop before the kill
	}{
		{"timeout", "timeout", false},
		{"io callback", "io", false},
		{"main script", "main", false},
		{"paused", "io", true},
	} {
		t.Run(c.name, func(t *testing.T) {
			h := newHarness(t)
			s := h.debug(api.StartRequest{Target: "killme.js", Args: []string{c.where}})
			base := "/api/debug/" + s.ID
			w := h.waitFor(s.ID, 0, "console")
			for w.Event != nil && w.Event.Console.Text.Value == "alive" { // an fs callback may come after the timer's first turn
				w = h.waitFor(s.ID, w.Event.Seq, "console")
			}
			if text := w.Event.Console.Text.Value; text != "spinning" {
				t.Fatalf("first console call %q, want spinning", text)
			}
			h.waitSpinning(s.ID)
			if c.pause {
				wantPausedIn(t, h.exec(s.ID, "pause", api.PauseRequest{}), "killme.js", "spin", lineSpin)
			} else {
				e := h.errorOf(h.request("POST", base+"/run-to", api.RunToRequest{Location: "killme.js:5"}), http.StatusConflict)
				if e.Code != "running" {
					t.Fatalf("run-to while running: %+v", e)
				}
			}

			// Bounded: an engine that never answers fails here rather than at the test timeout. The
			// answer comes at once, or after the default 5s wait when the kill resumes a pause.
			ctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
			defer cancel()
			status, raw := h.send(h.request("POST", base+"/kill-execution", api.KillExecutionRequest{}).WithContext(ctx))
			var st api.State
			if err := json.Unmarshal(raw, &st); status != http.StatusOK || err != nil || st.Status != api.StatusRunning || st.Location != nil {
				t.Fatalf("kill-execution answered %d %s, want a running state", status, raw)
			}
			// The loop is over: the interval, starved until now, says alive.
			alive := h.waitFor(s.ID, w.Event.Seq, "console")
			if alive.Event == nil || alive.Event.Console.Text.Value != "alive" {
				t.Fatalf("after kill-execution: %+v, want an alive console event", alive)
			}
			if res := h.eval(s.ID, "6 * 7", 0); res.Exception != "" || res.Value != "42" {
				t.Fatalf("eval after kill-execution: %+v", res)
			}
			// The debugger still works: a pause lands in the program again.
			if st := h.exec(s.ID, "pause", api.PauseRequest{}); st.Location == nil {
				t.Fatalf("pause after kill-execution: %+v", st)
			}
			h.exec(s.ID, "continue", api.ContinueRequest{WaitMs: new(int64)})
			if sum := h.trace(s.ID, "").Session; sum.Status.Finished() {
				t.Fatalf("session after kill-execution: %+v, want it live", sum)
			}
		})
	}
}
