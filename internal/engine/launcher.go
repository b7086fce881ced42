package engine

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"runtime"
	"strings"
	"syscall"
	"time"
	"unicode/utf8"

	"golang.org/x/sys/unix"

	"traced/internal/engine/proctree"
)

// stderrTail is how much of node's stderr a start error quotes.
const stderrTail = 4000

// maxLine caps one line read from the child's stdout or stderr; longer lines are split, on a
// rune boundary.
const maxLine = 1 << 20

// drainWait bounds how long output readers may run after the child exits; a grandchild that
// inherited the pipes could otherwise hold them open forever.
const drainWait = 2 * time.Second

// child is a spawned node process with its output pipes.
type child struct {
	pid    int
	stdout *os.File // read ends
	stderr *os.File
	exited chan struct{} // closed once node's end is known; status is then set
	status *syscall.WaitStatus
	tag    string // the tree tag its environment carries (proctree.go)
	record string // its tree record's path, removed once it has exited; "" when none
	shim   int    // the shim's pid (shimspawn.go), 0 when node is the service's own child
	// shimExited is closed once the shim has been waited for: its pid may then be another's.
	shimExited chan struct{}
}

// spawn starts node, through the shim when shimPath is set (shimspawn.go), and returns once node
// exists. Without a shim node is the service's child, in its own process group, with Pdeathsig.
func spawn(shimPath, nodePath string, args []string, dir string, env []string) (*child, error) {
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
	c := &child{stdout: outR, stderr: errR, exited: make(chan struct{})}
	if shimPath != "" {
		err = c.startShim(shimPath, nodePath, args, dir, env, outW, errW)
	} else {
		err = c.start(exec.Command(nodePath, args...), dir, env, outW, errW, syscall.SIGKILL, nil)
	}
	if err != nil {
		outR.Close()
		errR.Close()
		return nil, fmt.Errorf("spawn %s: %w", nodePath, err)
	}
	return c, nil
}

// start starts cmd in its own process group with Pdeathsig deathSig and returns once the
// process exists; waited (when not nil) is called with its exit status after Wait, on nil the
// status is node's own. Start and Wait run on one locked OS thread: Linux sends Pdeathsig when
// the thread that forked dies, not the process (go.dev/issue/27505).
func (c *child) start(cmd *exec.Cmd, dir string, env []string, outW, errW *os.File, deathSig syscall.Signal, waited func(*os.ProcessState)) error {
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
func (c *child) setStatus(st *os.ProcessState) {
	if st != nil {
		if ws, ok := st.Sys().(syscall.WaitStatus); ok {
			c.status = &ws
		}
	}
	close(c.exited)
}

// kill ends the whole process tree: the group, and what left it (proctree.go); with a shim, the
// shim kills its tree too, which holds what left node's tree.
func (c *child) kill() {
	c.endShim()
	proctree.KillTree(c.pid, c.tag)
}

// endShim has the shim kill what is left of its tree (what outlived node) and exit.
func (c *child) endShim() {
	if c.shim == 0 {
		return
	}
	select {
	case <-c.shimExited:
	default:
		_ = syscall.Kill(c.shim, syscall.SIGTERM)
	}
}

// exitInfo describes how the child ended; call after exited is closed.
func (c *child) exitInfo() ExitInfo {
	if c.status == nil {
		return ExitInfo{}
	}
	if ws := *c.status; ws.Signaled() {
		return ExitInfo{Signal: signalName(ws.Signal())}
	}
	code := c.status.ExitStatus()
	return ExitInfo{Code: &code}
}

func signalName(s syscall.Signal) string {
	if name := unix.SignalName(s); name != "" {
		return name
	}
	return fmt.Sprintf("signal %d", int(s))
}

// readLines calls fn for each line of r, without its "\n" or "\r\n", until EOF or a read error
// (a deadline included); a last line without a newline is reported too. A line longer than maxLine
// is reported in maxLine pieces, so memory stays bounded and nothing is lost.
func readLines(r io.Reader, fn func(string)) {
	br := bufio.NewReaderSize(r, 64<<10)
	var line []byte // a line that did not fit the reader's buffer
	for {
		frag, err := br.ReadSlice('\n')
		whole := err == nil
		if whole && len(line) == 0 { // the common case: the line is in the buffer, no copy
			fn(validText(dropEOL(frag)))
			continue
		}
		line = append(line, frag...)
		more := errors.Is(err, bufio.ErrBufferFull) // this line goes on
		if !more {
			line = dropEOL(line)
		}
		for len(line) > maxLine {
			cut := runeCut(line, maxLine)
			fn(validText(line[:cut]))
			line = line[:copy(line, line[cut:])]
		}
		if more {
			continue
		}
		if whole || len(line) > 0 {
			fn(validText(line))
		}
		line = line[:0]
		if err != nil {
			return
		}
	}
}

// validText is a program's raw output as text: each run of bytes that is not UTF-8 becomes
// U+FFFD, so that every form (JSON, the text form, the stream, OTLP's protobuf strings) holds
// valid UTF-8.
func validText(b []byte) string {
	if utf8.Valid(b) {
		return string(b)
	}
	return string(bytes.ToValidUTF8(b, []byte("\uFFFD")))
}

func dropEOL(b []byte) []byte {
	b = bytes.TrimSuffix(b, []byte{'\n'})
	return bytes.TrimSuffix(b, []byte{'\r'})
}

// maxArgStrlen is Linux's MAX_ARG_STRLEN: execve refuses (E2BIG) one argument or environment
// string longer than this, its terminating NUL included.
const maxArgStrlen = 32 * 4096

// checkArgv refuses what execve cannot take, naming the field: a NUL byte (Go's exec answers
// EINVAL, naming nothing) or a string past the kernel's limit for one.
func checkArgv(args []string, env map[string]string) error {
	for i, a := range args {
		if strings.IndexByte(a, 0) >= 0 {
			return fmt.Errorf("%w: args[%d] contains a NUL byte, which no process argument can hold", ErrBadInput, i)
		}
		if len(a)+1 > maxArgStrlen {
			return fmt.Errorf("%w: args[%d] is %d bytes, past the kernel's %d for one argument", ErrBadInput, i, len(a), maxArgStrlen-1)
		}
	}
	for k, v := range env {
		if strings.IndexByte(k, 0) >= 0 || strings.IndexByte(v, 0) >= 0 {
			return fmt.Errorf("%w: env.%s contains a NUL byte, which no environment variable can hold", ErrBadInput, strings.ReplaceAll(k, "\x00", ""))
		}
		if n := len(k) + 1 + len(v) + 1; n > maxArgStrlen {
			return fmt.Errorf("%w: env.%s is %d bytes as NAME=value, past the kernel's %d for one variable", ErrBadInput, k, n-1, maxArgStrlen-1)
		}
	}
	return nil
}

// spawnError classifies a failed spawn: an argument list past the kernel's total limit is the
// request's (args and env together), anything else the service's.
func spawnError(err error) error {
	if errors.Is(err, syscall.E2BIG) {
		return fmt.Errorf("%w: args and env together are past the kernel's argument list limit: %w", ErrBadInput, err)
	}
	return &StartError{Stage: "spawn", Err: err}
}

// tailBuffer keeps the last n bytes written to it.
type tailBuffer struct {
	n   int
	buf []byte
}

func (t *tailBuffer) add(line string) {
	t.buf = append(t.buf, line...)
	t.buf = append(t.buf, '\n')
	if len(t.buf) > t.n {
		keep := t.buf[len(t.buf)-t.n:]
		// It starts on a whole character: a start error quotes it.
		for i := 0; i < utf8.UTFMax-1 && len(keep) > 0 && !utf8.RuneStart(keep[0]); i++ {
			keep = keep[1:]
		}
		t.buf = append(t.buf[:0], keep...)
	}
}

func (t *tailBuffer) String() string { return string(t.buf) }

// childEnv is the service's environment without what could hijack or leak into the child, then
// the request's own variables. NODE_OPTIONS could --require code or move the inspector; the token
// is ours alone. A request may set NODE_OPTIONS itself.
func childEnv(base []string, extra map[string]string) []string {
	env := make([]string, 0, len(base)+len(extra))
	for _, kv := range base {
		k, _, _ := strings.Cut(kv, "=")
		if k == "NODE_OPTIONS" || k == "TRACED_TOKEN" {
			continue
		}
		if _, override := extra[k]; override {
			continue
		}
		env = append(env, kv)
	}
	for k, v := range extra {
		env = append(env, k+"="+v)
	}
	return env
}

// withChildEnv adds what Config.ChildEnv gives a session's child to the request's env, which wins.
func withChildEnv(req map[string]string, add func(string) map[string]string, session string) map[string]string {
	if add == nil {
		return req
	}
	env := add(session)
	for k, v := range req {
		if env == nil {
			env = make(map[string]string, len(req))
		}
		env[k] = v
	}
	return env
}
