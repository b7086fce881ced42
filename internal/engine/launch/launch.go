// Package launch spawns a session's node process, directly or under traced's shim
// (internal/shim), reads its output lines and reports its end. It knows nothing of sessions or
// the inspector: what node prints is handed on line by line, and its end as an Exit.
package launch

import (
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"sync"
	"syscall"

	"golang.org/x/sys/unix"

	"traced/internal/engine/proctree"
)

// Command is what to spawn.
type Command struct {
	Shim string   // the traced binary node runs under as a shim; "": node is the service's own child
	Node string   // node's path
	Args []string // node's arguments
	Dir  string
	Env  map[string]string // on top of the service's environment, as ChildEnv makes it
}

// Child is a spawned node process with its output pipes.
type Child struct {
	pid    int
	stdout *os.File // read ends
	stderr *os.File
	exited chan struct{} // closed once node's end is known; status is then set
	status *syscall.WaitStatus
	tag    string // the tree tag its environment carries (proctree)
	record string // its tree record's path (RecordTree), removed at Wait; "" when none
	shim   int    // the shim's pid (shimspawn.go), 0 when node is the service's own child
	// shimExited is closed once the shim has been waited for: its pid may then be another's.
	shimExited chan struct{}
	readers    sync.WaitGroup // its output's (ReadOutput), waited for at Wait
}

// Exit is how node ended: its exit code, or the signal that killed it; zero when unknown.
type Exit struct {
	Code   *int
	Signal string // e.g. "SIGKILL"
}

// Spawn starts node, through the shim when cmd.Shim is set (shimspawn.go), and returns once node
// exists. Without a shim node is the service's child, in its own process group, with Pdeathsig.
// Its environment carries a tree tag of its own, so that Kill finds every process it starts. An
// argument list past the kernel's limit is an error wrapping syscall.E2BIG.
func Spawn(cmd Command) (*Child, error) {
	outR, outW, err := os.Pipe()
	if err != nil {
		return nil, fmt.Errorf("stdout pipe: %w", err)
	}
	errR, errW, err := os.Pipe()
	if err != nil {
		outR.Close()
		outW.Close()
		return nil, fmt.Errorf("stderr pipe: %w", err)
	}
	tag := proctree.NewTag()
	env := append(ChildEnv(os.Environ(), cmd.Env), proctree.TagEnv+"="+tag)
	c := &Child{stdout: outR, stderr: errR, exited: make(chan struct{}), tag: tag}
	if cmd.Shim != "" {
		err = c.startShim(cmd.Shim, cmd.Node, cmd.Args, cmd.Dir, env, outW, errW)
	} else {
		err = c.start(exec.Command(cmd.Node, cmd.Args...), cmd.Dir, env, outW, errW, syscall.SIGKILL, nil)
	}
	if err != nil {
		outR.Close()
		errR.Close()
		return nil, fmt.Errorf("spawn %s: %w", cmd.Node, err)
	}
	return c, nil
}

// start starts cmd in its own process group with Pdeathsig deathSig and returns once the
// process exists; waited (when not nil) is called with its exit status after Wait, on nil the
// status is node's own. Start and Wait run on one locked OS thread: Linux sends Pdeathsig when
// the thread that forked dies, not the process (go.dev/issue/27505).
func (c *Child) start(cmd *exec.Cmd, dir string, env []string, outW, errW *os.File, deathSig syscall.Signal, waited func(*os.ProcessState)) error {
	cmd.Dir = dir
	cmd.Env = env
	cmd.Stdout = outW // *os.File: handed to the child as is, no copying goroutine
	cmd.Stderr = errW
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: deathSig}
	started := make(chan error, 1)
	go func() {
		runtime.LockOSThread()
		defer runtime.UnlockOSThread()
		err := proctree.Owned.Start(cmd)
		outW.Close() // the child holds its own copies now
		errW.Close()
		for _, f := range cmd.ExtraFiles {
			f.Close()
		}
		started <- err
		if err != nil {
			return
		}
		cmd.Wait() // the exit status is read from ProcessState
		proctree.Owned.Done(cmd.Process.Pid)
		if waited != nil {
			waited(cmd.ProcessState)
			return
		}
		c.setStatus(cmd.ProcessState)
	}()
	if err := <-started; err != nil {
		return err
	}
	c.pid = cmd.Process.Pid
	return nil
}

// setStatus records node's end from a process state (nil: unknown) and closes exited.
func (c *Child) setStatus(st *os.ProcessState) {
	if st != nil {
		if ws, ok := st.Sys().(syscall.WaitStatus); ok {
			c.status = &ws
		}
	}
	close(c.exited)
}

// PID is node's process id.
func (c *Child) PID() int { return c.pid }

// RecordTree writes the tree's record in dataDir, so that a service started after this one was
// killed can kill what it left (proctree.ReapLeftovers); Wait removes it.
func (c *Child) RecordTree(dataDir string) error {
	path, err := proctree.RecordTree(dataDir, c.tag, c.pid)
	c.record = path
	return err
}

// Exited is closed once node has ended.
func (c *Child) Exited() <-chan struct{} { return c.exited }

// Terminate asks node's process group to end (SIGTERM); Kill ends the whole tree.
func (c *Child) Terminate() {
	_ = syscall.Kill(-c.pid, syscall.SIGTERM)
}

// Kill ends the whole process tree: the group, and what left it (proctree); with a shim, the
// shim kills its tree too, which holds what left node's tree.
func (c *Child) Kill() {
	c.EndShim()
	proctree.KillTree(c.pid, c.tag)
}

// EndShim has the shim kill what is left of its tree (what outlived node) and exit.
func (c *Child) EndShim() {
	if c.shim == 0 {
		return
	}
	select {
	case <-c.shimExited:
	default:
		_ = syscall.Kill(c.shim, syscall.SIGTERM)
	}
}

// exit describes how node ended; call after exited is closed.
func (c *Child) exit() Exit {
	if c.status == nil {
		return Exit{}
	}
	if ws := *c.status; ws.Signaled() {
		return Exit{Signal: signalName(ws.Signal())}
	}
	code := c.status.ExitStatus()
	return Exit{Code: &code}
}

func signalName(s syscall.Signal) string {
	if name := unix.SignalName(s); name != "" {
		return name
	}
	return fmt.Sprintf("signal %d", int(s))
}
