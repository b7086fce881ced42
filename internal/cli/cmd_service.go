package cli

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// stopGrace is how long `traced service stop` waits for the service to end its sessions and
// exit after SIGTERM (its own shutdown is bounded well within it) before it kills it.
const stopGrace = 10 * time.Second

func serviceCommands() []*command {
	return []*command{
		{name: "service status", routes: []string{"GET /api/trace/status", "GET /api/trace/list"},
			help: "what service runs where (its root, pid, log), its node and live sessions", group: gService,
			run: runStatus},
		{name: "service stop", help: "stop the service started on demand (its sessions end); the next launch starts one",
			group: gService, run: runServiceStop},
	}
}

// runServiceStop ends the service this user's CLI started on demand: SIGTERM, then SIGKILL
// when it has not exited within stopGrace. A service started by hand (traced serve, --addr) is
// not the CLI's to stop.
func runServiceStop(c *call) error {
	if c.str("addr") != "" || c.env.Getenv("TRACED_ADDR") != "" {
		return &cliError{code: ExitRefused, msg: "the service at --addr/TRACED_ADDR was not started by the CLI",
			hint: "stop it where it runs (Ctrl-C in its terminal); traced service stop stops only a service started on demand"}
	}
	recPath := filepath.Join(StateDir(c.env.Getenv), "service.json")
	rec, err := readRecord(recPath)
	if errors.Is(err, os.ErrNotExist) || (err == nil && !alive(rec.PID)) {
		fmt.Fprintln(c.env.Stdout, "no service started on demand runs")
		return nil
	}
	if err != nil {
		return err
	}
	if perr := runsBinary(rec.PID, c.env.Self); perr != nil { // a reused pid, or another traced: never signal a stranger
		return &cliError{code: ExitRefused, msg: fmt.Sprintf("the recorded service pid %d is not this traced's server: %v", rec.PID, perr),
			hint: fmt.Sprintf("if it is a traced serve, stop it with kill %d; else remove %s", rec.PID, recPath)}
	}
	var live []string // the sessions the stop ends, said in its answer
	if ss, err := c.sessions(); err == nil {
		for _, s := range ss {
			if !s.Status.Finished() {
				live = append(live, s.ID)
			}
		}
	}
	how, err := endProcess(rec.PID, stopGrace)
	if err != nil {
		return err
	}
	RemoveRecord(recPath, rec.PID) // the service removes it as it exits; a killed one cannot
	ended := "no live session"
	if len(live) > 0 {
		ended = "ended live sessions " + strings.Join(live, ", ")
	}
	fmt.Fprintf(c.env.Stdout, "stopped the service at %s (pid %d, root %s) with %s; %s; the next launch starts one\n",
		rec.Addr, rec.PID, rec.Root, how, ended)
	return nil
}

// endProcess sends pid SIGTERM and waits for it to exit, SIGKILL after grace; it answers which
// signal ended it. The wait is on a pidfd, which becomes readable when the process exits.
func endProcess(pid int, grace time.Duration) (string, error) {
	fd, err := unix.PidfdOpen(pid, 0)
	if errors.Is(err, unix.ESRCH) {
		return "nothing (it had exited)", nil
	}
	if err != nil {
		return "", fmt.Errorf("open pid %d: %w", pid, err)
	}
	defer unix.Close(fd)
	for _, step := range []struct {
		sig  syscall.Signal
		name string
		wait time.Duration
	}{{unix.SIGTERM, "SIGTERM", grace}, {unix.SIGKILL, "SIGKILL", grace}} {
		if err := unix.PidfdSendSignal(fd, step.sig, nil, 0); errors.Is(err, unix.ESRCH) {
			return "nothing (it had exited)", nil
		} else if err != nil {
			return "", fmt.Errorf("signal pid %d: %w", pid, err)
		}
		exited, err := pidfdWait(fd, step.wait)
		if err != nil {
			return "", err
		}
		if exited {
			return step.name, nil
		}
	}
	return "", fmt.Errorf("pid %d did not exit after SIGKILL within %s", pid, grace)
}

// pidfdWait waits up to d for the process of fd to exit.
func pidfdWait(fd int, d time.Duration) (bool, error) {
	deadline := time.Now().Add(d)
	for {
		left := time.Until(deadline)
		if left <= 0 {
			return false, nil
		}
		fds := []unix.PollFd{{Fd: int32(fd), Events: unix.POLLIN}}
		n, err := unix.Poll(fds, int(left.Milliseconds())+1)
		if errors.Is(err, unix.EINTR) {
			continue
		}
		if err != nil {
			return false, fmt.Errorf("wait for the service to exit: %w", err)
		}
		if n > 0 {
			return true, nil
		}
	}
}

// rootRefused refuses --root when a service already runs: its root is fixed at its start, so
// the flag would be silently ignored.
func rootRefused(root string, svc *service, cwd string) error {
	if root == "" {
		return nil
	}
	abs := root
	if !filepath.IsAbs(abs) {
		abs = filepath.Join(cwd, root)
	}
	if svc.rec != nil && filepath.Clean(abs) == svc.rec.Root {
		return nil // the root it has: nothing ignored
	}
	where := "the service at " + svc.addr
	if svc.rec != nil {
		where += " (root " + svc.rec.Root + ")"
	}
	hint := "traced service stop ends it; then the command with --root starts one with that root"
	if svc.rec == nil {
		hint = "--root applies only to a service the CLI starts on demand: restart your traced serve with --root " + abs
	}
	return &cliError{code: ExitUsage, msg: "--root " + root + " is ignored by " + where + ", which runs already", hint: hint}
}

// outsideRootHint says what to do when the service refuses a target outside its root.
func outsideRootHint(svc *service) string {
	if svc.rec != nil {
		return "the service started on demand serves " + svc.rec.Root + ": traced service stop, then launch again from the project's directory (or with --root DIR)"
	}
	return "the service at " + svc.addr + " serves another root: start it again with traced serve --root DIR, or name a file under its root (traced status shows it)"
}

// isOutsideRoot reports whether a refusal is the service's outside_workspace one.
func isOutsideRoot(msg string) bool { return strings.Contains(msg, "outside the workspace root") }
