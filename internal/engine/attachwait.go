package engine

import (
	"context"
	"os"
	"strconv"
	"strings"

	"traced/internal/cdp"
	"traced/internal/cdp/proto"
)

// waitsForDebugger says whether the process waits for a debugger (--inspect-brk, --inspect-wait,
// inspector.waitForDebugger()). Node says so in answer to NodeRuntime.enable, in an event the
// reply overtakes: Drained lets it be handled first. An inspector without the domain does not.
func (s *Session) waitsForDebugger(ctx context.Context, c *cdp.Client) bool {
	ctx, cancel := context.WithTimeout(ctx, probeTimeout)
	defer cancel()
	if proto.Do(ctx, c, proto.NodeRuntimeEnable{}, nil) != nil || c.Drained(ctx) != nil {
		return false
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.attached.waiting
}

// probeWaiting learns the pid and cwd of a process that waits for a debugger, and whether it
// breaks at its first line once it runs (node started with --inspect-brk, in its flags or
// NODE_OPTIONS). Its process object is not set up yet, so they are read from /proc, by the pid
// its main context is named after ("/usr/bin/node[1234]").
func (t *Target) probeWaiting(ctx context.Context, c *cdp.Client) (breaks bool) {
	ctx, cancel := context.WithTimeout(ctx, probeTimeout)
	defer cancel()
	if proto.Do(ctx, c, proto.RuntimeEnable{}, nil) != nil || c.Drained(ctx) != nil {
		return false
	}
	t.lock()
	name := t.contexts[t.mainContext].Name
	t.unlock()
	pid, err := strconv.Atoi(strings.TrimSuffix(name[strings.LastIndexByte(name, '[')+1:], "]"))
	if err != nil || pid <= 0 {
		return false
	}
	proc := "/proc/" + strconv.Itoa(pid)
	cwd, _ := os.Readlink(proc + "/cwd")
	t.lock()
	t.s.attached.pid = pid
	if strings.HasPrefix(cwd, "/") {
		t.s.cwd.Store(&cwd)
	}
	t.unlock()
	args, _ := os.ReadFile(proc + "/cmdline")
	for _, a := range strings.Split(string(args), "\x00") {
		if a == "--inspect-brk" || strings.HasPrefix(a, "--inspect-brk=") {
			return true
		}
	}
	env, _ := os.ReadFile(proc + "/environ")
	for _, kv := range strings.Split(string(env), "\x00") {
		if opts, ok := strings.CutPrefix(kv, "NODE_OPTIONS="); ok && strings.Contains(opts, "--inspect-brk") {
			return true
		}
	}
	return false
}
