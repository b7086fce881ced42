package tests

import (
	"net/http"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"traced/api"
	"traced/internal/leakcheck"
	"traced/internal/service"
)

// TestStartErrorHidesInspectorURL: a debug start that fails after node printed its inspector URL
// quotes node's stderr, never the URL (anyone holding it could run code in the program).
func TestStartErrorHidesInspectorURL(t *testing.T) {
	t.Parallel()
	h := newHarness(t, func(o *service.Options) { o.Engine.StartTimeout = 2 * time.Second })
	req := api.StartRequest{Target: "clean.js", Mode: api.ModeDebug,
		Env: map[string]string{"NODE_OPTIONS": "--require ./hang_preload.js"}}
	status, raw := h.send(h.request("POST", "/api/trace/start", req))
	if status < 400 {
		t.Fatalf("start with a preload that never returns answered %d: %s", status, raw)
	}
	if strings.Contains(string(raw), "ws://") || strings.Contains(string(raw), "Debugger listening") {
		t.Fatalf("start error quotes the inspector URL: %s", raw)
	}
}

// TestStartRefusesUnspawnableArgv: a NUL byte in an argument, or an argument or variable past
// the kernel's limit for one string, is the caller's: 400 naming the field, not a 500.
func TestStartRefusesUnspawnableArgv(t *testing.T) {
	t.Parallel()
	h := newHarness(t, func(o *service.Options) { o.MaxBodyBytes = 8 << 20 })
	big := strings.Repeat("x", 200<<10) // past MAX_ARG_STRLEN (128 KiB)
	many := map[string]string{}         // each fits, together past the kernel's total (stack/4)
	for i := range 40 {
		many["V"+strconv.Itoa(i)] = strings.Repeat("y", 100<<10)
	}
	for _, c := range []struct {
		name  string
		req   api.StartRequest
		field string
	}{
		{"nul in args", api.StartRequest{Target: "clean.js", Args: []string{"ok", "a\x00b"}}, "args[1]"},
		{"long env", api.StartRequest{Target: "clean.js", Env: map[string]string{"BIG": big}}, "env.BIG"},
		{"env past the total", api.StartRequest{Target: "clean.js", Env: many}, "env"},
	} {
		t.Run(c.name, func(t *testing.T) {
			h := h.with(t)
			e := h.errorOf(h.request("POST", "/api/trace/start", c.req), http.StatusBadRequest)
			if !strings.Contains(e.Message, c.field) || e.Hint == "" {
				t.Fatalf("error %+v, want the message to name %s, and a hint", e, c.field)
			}
		})
	}
}

// TestStopKillsTheWholeTree: a stop kills what the program started, also the processes that
// left its process group (a detached child, a setsid grandchild that ignores SIGTERM).
func TestStopKillsTheWholeTree(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	s := h.start(api.StartRequest{Target: "spawntree.js"})
	w := h.waitFor(s.ID, 0, "console")
	for w.Event.Target != "" { // the child's own line (a followed target) may come first
		w = h.waitFor(s.ID, w.Event.Seq, "console")
	}
	var pids []int
	for _, f := range strings.Fields(w.Event.Console.Text.Value)[1:] {
		pid, err := strconv.Atoi(f)
		if err != nil {
			t.Fatalf("console %q: %v", w.Event.Console.Text.Value, err)
		}
		pids = append(pids, pid)
	}
	if len(pids) != 2 {
		t.Fatalf("console %q, want a child and a grandchild pid", w.Event.Console.Text.Value)
	}
	t.Cleanup(func() {
		for _, pid := range pids {
			syscall.Kill(pid, syscall.SIGKILL) // a failed test leaves nothing behind
		}
	})
	if st := h.call("POST", "/api/trace/stop", api.StopRequest{ID: s.ID}, nil); st != http.StatusOK {
		t.Fatalf("stop: %d", st)
	}
	alive := func() []int {
		var out []int
		for _, pid := range pids {
			if st := procStateOf(pid); st != 0 && st != 'Z' {
				out = append(out, pid)
			}
		}
		return out
	}
	if !leakcheck.WaitUntil(5*time.Second, func() bool { return len(alive()) == 0 }) {
		t.Fatalf("after stop, %v of the program's tree %v still run", alive(), pids)
	}
}
