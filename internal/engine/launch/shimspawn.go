package launch

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"os/exec"
	"syscall"
	"time"

	"traced/internal/shim"
)

// shimStartBound bounds the wait for the shim to say node runs; it forks at once.
const shimStartBound = 10 * time.Second

// startShim starts node under a shim (internal/shim): the shim is the service's child, with
// Pdeathsig SIGTERM so that it kills the whole tree when the service dies, and node is the
// shim's. It returns once node exists; c.pid is node's, c.shim the shim's. exited closes when
// the shim reports node's end, or, should the shim die first, when the shim has exited.
func (c *Child) startShim(shimPath, nodePath string, args []string, dir string, env []string, outW, errW *os.File) error {
	statusR, statusW, err := os.Pipe()
	if err != nil {
		outW.Close()
		errW.Close()
		return fmt.Errorf("status pipe: %w", err)
	}
	defer func() {
		if err != nil {
			statusR.Close()
		}
	}()
	cmd := exec.Command(shimPath, append([]string{shim.Arg, nodePath}, args...)...)
	cmd.ExtraFiles = []*os.File{statusW} // fd 3
	shimDone := make(chan *os.ProcessState, 1)
	c.shimExited = make(chan struct{})
	waited := func(st *os.ProcessState) {
		shimDone <- st
		close(c.shimExited)
	}
	if err = c.start(cmd, dir, env, outW, errW, syscall.SIGTERM, waited); err != nil {
		return err
	}
	c.shim, c.pid = c.pid, 0
	lines := bufio.NewReader(statusR)
	statusR.SetReadDeadline(time.Now().Add(shimStartBound))
	line, rerr := lines.ReadString('\n')
	word, n, rest := shim.ParseLine(line)
	switch {
	case word == "pid" && n > 0:
		c.pid = n
	case word == "error" && n > 0:
		err = fmt.Errorf("exec %s: %s: %w", nodePath, rest, syscall.Errno(n))
	case word == "error":
		err = fmt.Errorf("exec %s: %s", nodePath, rest)
	default:
		if rerr == nil {
			rerr = io.ErrUnexpectedEOF
		}
		err = fmt.Errorf("the shim did not start node (%q): %w", line, rerr)
	}
	if err != nil {
		c.EndShim()                // it has not started node, or could not say so
		go func() { <-shimDone }() // the waiting goroutine ends with the shim
		return err
	}
	statusR.SetReadDeadline(time.Time{})
	go c.followShim(lines, statusR, shimDone)
	return nil
}

// followShim reads the shim's status pipe for node's end; the shim may outlive node while
// descendants that left node's tree run.
func (c *Child) followShim(lines *bufio.Reader, statusR *os.File, shimDone <-chan *os.ProcessState) {
	defer statusR.Close()
	for {
		line, err := lines.ReadString('\n')
		if word, n, _ := shim.ParseLine(line); word == "exit" {
			ws := syscall.WaitStatus(n)
			c.status = &ws
			close(c.exited)
			return
		}
		if err != nil { // the shim is gone without a word of node: its own end is all we know
			c.setStatus(<-shimDone)
			return
		}
	}
}
