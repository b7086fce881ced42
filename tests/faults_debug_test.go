package tests

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"traced/api"
	"traced/internal/leakcheck"
	"traced/internal/service"
)

// inspectorTimeout is the engine's bound on one inspector call in these tests: short, so a
// program that never answers costs little.
const inspectorTimeout = 2 * time.Second

func withInspectorTimeout(o *service.Options) { o.Engine.InspectorTimeout = inspectorTimeout }

// bounded sends req, checked against the contract, and fails unless the answer comes within bound.
func (h *harness) bounded(req *http.Request, bound time.Duration) (int, []byte) {
	h.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), bound)
	defer cancel()
	return h.send(req.WithContext(ctx))
}

// wantTimeout fails unless an answer is the declared 504 inspector_timeout with a hint.
func wantTimeout(t *testing.T, what string, status int, raw []byte) {
	t.Helper()
	var e api.ErrorBody
	if status != http.StatusGatewayTimeout || json.Unmarshal(raw, &e) != nil || e.Error.Code != "inspector_timeout" || e.Error.Hint == "" {
		t.Fatalf("%s answered %d %s, want 504 inspector_timeout with a hint", what, status, raw)
	}
}

// TestDebugFrozenProgramAnswersInTime: eval and state in a paused program whose process is frozen
// (SIGSTOP) answer 409 frozen at once, and the session works again once it thaws.
func TestDebugFrozenProgramAnswersInTime(t *testing.T) {
	// Not parallel: it asserts answers within bounds over a 2 s inspector timeout, which load could break.
	h := newHarness(t, withInspectorTimeout)
	s := h.debug(api.StartRequest{Target: "debugme.js", Breakpoints: api.BreakpointsAt("debugme.js:7")})
	h.waitPaused(s.ID, 0)
	if err := syscall.Kill(s.PID, syscall.SIGSTOP); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { syscall.Kill(s.PID, syscall.SIGCONT) })
	base := "/api/debug/" + s.ID
	req := h.request("POST", base+"/eval", api.EvalRequest{Expression: "1 + 1", TimeoutMs: 500})
	status, raw := h.bounded(req, 10*time.Second)
	wantFrozen(t, "eval in a frozen program", status, raw)
	status, raw = h.bounded(h.request("GET", base+"/state", nil), 10*time.Second)
	wantFrozen(t, "state of a frozen program", status, raw)

	if err := syscall.Kill(s.PID, syscall.SIGCONT); err != nil {
		t.Fatal(err)
	}
	if res := h.eval(s.ID, "6 * 7", 0); res.Value != "42" {
		t.Fatalf("eval after SIGCONT: %+v", res)
	}
}

// TestDebugCatastrophicURLRegex: a urlRegex V8's backtracking would run on for ever against a
// long script path is matched by traced (RE2, linear): the breakpoint is set at once, binds
// nowhere, and the program and the session go on.
func TestDebugCatastrophicURLRegex(t *testing.T) {
	// Not parallel: a 2 s inspector timeout and bounded answers, which load could break.
	root := t.TempDir()
	name := strings.Repeat("a", 40) + "!.js" // (a+)+$ backtracks 2^40 times on this path
	copyFile(t, filepath.Join("testdata", "debugme.js"), filepath.Join(root, name))
	h := newHarness(t, withInspectorTimeout, func(o *service.Options) { o.Engine.Root = root })
	s := h.debug(api.StartRequest{Target: name, PauseOnStart: true})
	h.waitPaused(s.ID, 0)
	base := "/api/debug/" + s.ID
	status, raw := h.bounded(h.request("POST", base+"/breakpoints", api.BreakpointRequest{URLRegex: `(a+)+$`, Line: lineLabel}), 10*time.Second)
	var bp api.BreakpointResponse
	if status != http.StatusCreated || json.Unmarshal(raw, &bp) != nil || len(bp.Breakpoint.Resolved) != 0 {
		t.Fatalf("a catastrophic urlRegex answered %d %s, want 201 bound nowhere", status, raw)
	}
	status, raw = h.bounded(h.request("GET", base+"/state", nil), 10*time.Second)
	if status != http.StatusOK {
		t.Fatalf("state after a catastrophic urlRegex: %d %s", status, raw)
	}
	// A regex RE2 cannot take is refused before V8 sees it.
	e := h.errorOf(h.request("POST", base+"/breakpoints", api.BreakpointRequest{URLRegex: `(a)\1`, Line: lineLabel}), http.StatusBadRequest)
	if !strings.Contains(e.Message, "urlRegex") {
		t.Fatalf("a backreference: %+v, want a 400 naming urlRegex", e)
	}
	// The program runs to its end: nothing in it is left matching.
	h.exec(s.ID, "continue", api.ContinueRequest{WaitMs: new(int64)})
	if sum := h.waitExit(s.ID); sum.ExitCode == nil || *sum.ExitCode != 0 {
		t.Fatalf("after continue: %+v, want exit 0", sum)
	}
}

// TestDebugTightLoopAnswersInTime: pause and kill-execution against a hot tight loop answer
// within their bound: paused and killed, or 504 inspector_timeout where node does not interrupt
// an optimised loop (node 22: run this test with node 22 on PATH to see that side).
func TestDebugTightLoopAnswersInTime(t *testing.T) {
	// Not parallel: a 2 s inspector timeout and bounded answers, which load could break.
	h := newHarness(t, withInspectorTimeout)
	s := h.debug(api.StartRequest{Target: "hotloop.js"})
	base := "/api/debug/" + s.ID
	h.waitFor(s.ID, 0, "console")
	// Evaluate until the loop has run hot (long enough for V8 to optimise it), or until node
	// stops answering, which is the optimised loop already.
	for end := time.Now().Add(deadline); ; {
		status, raw := h.bounded(h.request("POST", base+"/eval", api.EvalRequest{Expression: "globalThis.spins > 5e6"}), 10*time.Second)
		if status != http.StatusOK {
			wantTimeout(t, "eval in a tight loop", status, raw)
			break
		}
		var res api.EvalResult
		if json.Unmarshal(raw, &res) == nil && res.Value == "true" {
			break
		}
		if time.Now().After(end) {
			t.Fatalf("hotloop.js did not spin within %s", deadline)
		}
	}
	status, raw := h.bounded(h.request("POST", base+"/pause", api.PauseRequest{}), 15*time.Second)
	if status != http.StatusOK {
		wantTimeout(t, "pause in a tight loop", status, raw)
	}
	paused := status
	status, raw = h.bounded(h.request("POST", base+"/kill-execution", api.KillExecutionRequest{}), 15*time.Second)
	if status != http.StatusOK {
		wantTimeout(t, "kill-execution of a tight loop", status, raw)
	}
	t.Logf("pause answered %d, kill-execution %d", paused, status)
	if sum := h.trace(s.ID, "").Session; sum.Status == "failed" {
		t.Fatalf("session after a pause in a tight loop: %+v", sum)
	}
}

// TestDebugLostInspector: a program that closes its own inspector runs on; the session says the
// inspector is lost (in its summary, on the stream) and debugger calls answer 409 inspector_lost.
func TestDebugLostInspector(t *testing.T) {
	// Not parallel: a 2 s inspector timeout, which load could break.
	h := newHarness(t, withInspectorTimeout)
	s := h.debug(api.StartRequest{Target: "closeinspector.js", PauseOnStart: true})
	h.waitPaused(s.ID, 0)
	base := "/api/debug/" + s.ID
	ctx, cancel := context.WithTimeout(context.Background(), deadline)
	defer cancel()
	conn, _ := h.dialStream(ctx, "session="+s.ID)
	h.exec(s.ID, "continue", api.ContinueRequest{WaitMs: new(int64)})
	for {
		m := readMessage(ctx, t, conn)
		if m.Type == api.MsgSession && m.Summary != nil && m.Summary.InspectorLost {
			if m.Summary.Status.Finished() {
				t.Fatalf("announced %+v, want a live session", m.Summary)
			}
			break
		}
	}
	if sum := h.trace(s.ID, "").Session; !sum.InspectorLost || sum.Status.Finished() {
		t.Fatalf("summary after the program closed its inspector: %+v, want inspectorLost and live", sum)
	}
	for _, c := range []struct{ method, op string }{{"POST", "eval"}, {"POST", "pause"}, {"GET", "state"}} {
		var body any
		if c.op == "eval" {
			body = api.EvalRequest{Expression: "1"}
		} else if c.method == "POST" {
			body = map[string]any{}
		}
		status, raw := h.bounded(h.request(c.method, base+"/"+c.op, body), 10*time.Second)
		var e api.ErrorBody
		if c.op == "state" && status == http.StatusOK {
			continue // a running program's state needs no call
		}
		if status != http.StatusConflict || json.Unmarshal(raw, &e) != nil || e.Error.Code != "inspector_lost" || e.Error.Hint == "" {
			t.Fatalf("%s after the inspector closed: %d %s, want 409 inspector_lost", c.op, status, raw)
		}
	}
}

// TestDebugSelfStoppedProgram: a running program that stops itself (SIGSTOP) stays a live
// session; eval and pause answer the declared 409 frozen naming the stopped process, not a 500.
func TestDebugSelfStoppedProgram(t *testing.T) {
	// Not parallel: a 2 s inspector timeout and bounded answers, which load could break.
	h := newHarness(t, withInspectorTimeout)
	s := h.debug(api.StartRequest{Target: "selfstop.js"})
	t.Cleanup(func() { syscall.Kill(s.PID, syscall.SIGCONT) })
	h.waitFor(s.ID, 0, "console")
	if !leakcheck.WaitUntil(deadline, func() bool { return procStateOf(s.PID) == 'T' }) {
		t.Fatalf("selfstop.js did not stop itself within %s", deadline)
	}
	base := "/api/debug/" + s.ID
	for _, c := range []struct {
		op   string
		body any
	}{{"eval", api.EvalRequest{Expression: "1", TimeoutMs: 500}}, {"pause", api.PauseRequest{}}} {
		// node may hang up its inspector as it stops (the session then says it is lost), or
		// keep it open and not answer: a declared error either way.
		status, raw := h.bounded(h.request("POST", base+"/"+c.op, c.body), 10*time.Second)
		var e api.ErrorBody
		if status == http.StatusConflict && json.Unmarshal(raw, &e) == nil && e.Error.Code == "inspector_lost" {
			continue
		}
		wantFrozen(t, c.op+" in a self-stopped program", status, raw)
		if !strings.Contains(string(raw), "stopped") {
			t.Fatalf("%s: %s, want the message to say the process is stopped", c.op, raw)
		}
	}
	if sum := h.trace(s.ID, "").Session; sum.Status.Finished() || (sum.Status != "running" && !sum.InspectorLost) {
		t.Fatalf("session of a stopped program: %+v, want it live", sum)
	}
}

// wantFrozen fails unless an answer is the declared 409 frozen whose hint says to continue it.
func wantFrozen(t *testing.T, what string, status int, raw []byte) {
	t.Helper()
	var e api.ErrorBody
	if status != http.StatusConflict || json.Unmarshal(raw, &e) != nil || e.Error.Code != "frozen" || !strings.Contains(e.Error.Hint, "SIGCONT") {
		t.Fatalf("%s answered %d %s, want 409 frozen with a SIGCONT hint", what, status, raw)
	}
}

// procStateOf is the state letter of /proc/PID/stat, or 0.
func procStateOf(pid int) byte {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if i := bytes.LastIndexByte(b, ')'); err == nil && i >= 0 && i+2 < len(b) {
		return b[i+2]
	}
	return 0
}
