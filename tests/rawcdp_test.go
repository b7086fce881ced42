package tests

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os/exec"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/coder/websocket"

	"traced/internal/quickack"
)

// The baseline of BenchmarkRawVsTraced: node started with --inspect-brk and a CDP client of the
// benchmark's own, a websocket and an id→reply table, no service in between. It shares no code
// with internal/cdp on purpose, so that work on traced's client never moves the baseline; only
// the socket option both need (internal/quickack) is one piece.

// rawProc is node --inspect-brk=127.0.0.1:0 on a fixture of testdata.
type rawProc struct {
	cmd    *exec.Cmd
	url    string
	stdout *lineSink
	exited chan struct{} // closed once Wait returned (the output copies are done then)
}

// end waits until node waits for its debugger to leave (ending) or exits, hangs up and waits
// for the exit.
func (p *rawProc) end(ctx context.Context, b *testing.B, c *rawConn, ending <-chan struct{}) {
	b.Helper()
	select {
	case <-ending:
	case <-p.exited:
	case <-ctx.Done():
		b.Fatalf("raw: node %v did not end: %v", p.cmd.Args[1:], ctx.Err())
	}
	c.close()
	<-p.exited
}

// startRaw starts node on args under --inspect-brk and returns once it printed its ws:// URL.
// Cleanup kills it if the benchmark has not seen it end.
func startRaw(ctx context.Context, b *testing.B, args ...string) *rawProc {
	b.Helper()
	return startRawWith(ctx, b, "--inspect-brk=127.0.0.1:0", args...)
}

// startRawWith is startRaw with another inspector flag (--inspect-wait: no first-line break).
func startRawWith(ctx context.Context, b *testing.B, flag string, args ...string) *rawProc {
	b.Helper()
	urls := &urlSink{found: make(chan string, 1)}
	p := &rawProc{stdout: &lineSink{}, exited: make(chan struct{})}
	p.cmd = exec.Command(nodeOrSkip(b), append([]string{flag}, args...)...)
	p.cmd.Dir = "testdata"
	p.cmd.Stdout, p.cmd.Stderr = p.stdout, urls
	if err := p.cmd.Start(); err != nil {
		b.Fatal(err)
	}
	go func() { p.cmd.Wait(); close(p.exited) }()
	b.Cleanup(p.kill)
	select {
	case p.url = <-urls.found:
		return p
	case <-p.exited:
		b.Fatalf("node %v exited before printing its inspector URL", args)
	case <-ctx.Done():
		b.Fatalf("node %v: no inspector URL: %v", args, ctx.Err())
	}
	return nil
}

func (p *rawProc) kill() {
	p.cmd.Process.Kill()
	<-p.exited
}

// urlSink is node's stderr: it hands over the first ws:// URL and drops the rest.
type urlSink struct {
	buf   []byte
	found chan string
	done  bool
}

func (u *urlSink) Write(p []byte) (int, error) { // one writer: exec's copying goroutine
	if !u.done {
		u.buf = append(u.buf, p...)
		if i := bytes.LastIndexByte(u.buf, '\n'); i >= 0 {
			if url := wsURLRE.Find(u.buf[:i]); url != nil {
				u.found <- string(url)
				u.done, u.buf = true, nil
			}
		}
	}
	return len(p), nil
}

// lineSink is node's stdout: it counts lines and keeps the first.
type lineSink struct {
	mu    sync.Mutex
	lines int
	first []byte
	done  bool // first is complete
}

func (l *lineSink) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.lines += bytes.Count(p, []byte{'\n'})
	if !l.done {
		line, _, found := bytes.Cut(p, []byte{'\n'})
		l.first = append(l.first, line...)
		l.done = found
	}
	return len(p), nil
}

func (l *lineSink) counts() (int, string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.lines, string(l.first)
}

// rawConn is a bare CDP connection. Events go to onEvent on the reader goroutine, in order.
type rawConn struct {
	ws      *websocket.Conn
	onEvent func(method string, params json.RawMessage)
	nextID  atomic.Int64

	mu      sync.Mutex // guards waiting and err
	waiting map[int64]chan rawReply
	err     error

	readDone chan struct{}
}

type rawReply struct {
	result json.RawMessage
	err    error
}

// dialRaw attaches to an inspector URL over a TCP connection that re-arms TCP_QUICKACK after
// every read (internal/quickack): without it a second message the inspector writes back
// to back waits ~40 ms for a delayed ACK (shared/reference/cdp-limits.md).
func dialRaw(ctx context.Context, b *testing.B, url string, onEvent func(string, json.RawMessage)) *rawConn {
	b.Helper()
	dial := func(ctx context.Context, network, addr string) (net.Conn, error) {
		var d net.Dialer
		conn, err := d.DialContext(ctx, network, addr)
		if err != nil {
			return nil, err
		}
		return quickack.Wrap(conn), nil
	}
	ws, _, err := websocket.Dial(ctx, url, &websocket.DialOptions{HTTPClient: &http.Client{
		Transport: &http.Transport{DialContext: dial, DisableKeepAlives: true}}})
	if err != nil {
		b.Fatalf("attach %s: %v", url, err)
	}
	ws.SetReadLimit(64 << 20)
	c := &rawConn{ws: ws, onEvent: onEvent, waiting: map[int64]chan rawReply{}, readDone: make(chan struct{})}
	go c.read()
	b.Cleanup(c.close)
	return c
}

func (c *rawConn) read() {
	defer close(c.readDone)
	for {
		_, data, err := c.ws.Read(context.Background())
		if err != nil {
			c.mu.Lock()
			c.err = err
			for id, ch := range c.waiting {
				ch <- rawReply{err: err}
				delete(c.waiting, id)
			}
			c.mu.Unlock()
			return
		}
		var m struct {
			ID     int64           `json:"id"`
			Method string          `json:"method"`
			Params json.RawMessage `json:"params"`
			Result json.RawMessage `json:"result"`
			Error  *struct {
				Message string `json:"message"`
			} `json:"error"`
		}
		if err := json.Unmarshal(data, &m); err != nil {
			continue
		}
		if m.ID == 0 {
			if c.onEvent != nil {
				c.onEvent(m.Method, m.Params)
			}
			continue
		}
		r := rawReply{result: m.Result}
		if m.Error != nil {
			r.err = errors.New(m.Error.Message)
		}
		c.mu.Lock()
		if ch, ok := c.waiting[m.ID]; ok {
			ch <- r
			delete(c.waiting, m.ID)
		}
		c.mu.Unlock()
	}
}

// call sends method and waits for its reply; result (may be nil) receives the reply's result.
func (c *rawConn) call(ctx context.Context, method string, params, result any) error {
	ch, err := c.send(ctx, method, params)
	if err != nil {
		return err
	}
	select {
	case r := <-ch:
		if r.err != nil {
			return fmt.Errorf("%s: %w", method, r.err)
		}
		if result != nil {
			return json.Unmarshal(r.result, result)
		}
		return nil
	case <-ctx.Done():
		return fmt.Errorf("%s: %w", method, ctx.Err())
	}
}

// send writes a call and returns where its reply will come, without waiting for it: calls sent
// one after another reach the inspector in that order.
func (c *rawConn) send(ctx context.Context, method string, params any) (<-chan rawReply, error) {
	if params == nil {
		params = struct{}{}
	}
	id := c.nextID.Add(1)
	msg, err := json.Marshal(struct {
		ID     int64  `json:"id"`
		Method string `json:"method"`
		Params any    `json:"params"`
	}{id, method, params})
	if err != nil {
		return nil, fmt.Errorf("%s: %w", method, err)
	}
	ch := make(chan rawReply, 1)
	c.mu.Lock()
	if c.err != nil {
		c.mu.Unlock()
		return nil, fmt.Errorf("%s: %w", method, c.err)
	}
	c.waiting[id] = ch
	c.mu.Unlock()
	if err := c.ws.Write(ctx, websocket.MessageText, msg); err != nil {
		return nil, fmt.Errorf("%s: %w", method, err)
	}
	return ch, nil
}

// rawParams are the parameters of the set-up calls that take some.
var rawParams = map[string]any{
	"NodeRuntime.notifyWhenWaitingForDisconnect": map[string]any{"enabled": true},
	"Debugger.setSkipAllPauses":                  map[string]any{"skip": true},
	"Debugger.setPauseOnExceptions":              map[string]any{"state": "all"},
}

// must makes the set-up calls in order and fails the benchmark at the first error.
func (c *rawConn) must(ctx context.Context, b *testing.B, methods ...string) {
	b.Helper()
	for _, m := range methods {
		if err := c.call(ctx, m, rawParams[m], nil); err != nil {
			b.Fatal(err)
		}
	}
}

// close hangs up and waits for the reader; node, waiting for its debugger to leave, then exits.
func (c *rawConn) close() {
	c.ws.CloseNow()
	<-c.readDone
}

// rawPauses decodes each Debugger.paused into its top frame's id, for a benchmark waiting on it.
// The send gives up once done is closed, so the reader never outlives the benchmark.
func rawPauses(pauses chan<- string, done <-chan struct{}) func(string, json.RawMessage) {
	return func(method string, params json.RawMessage) {
		if method != "Debugger.paused" {
			return
		}
		var p struct {
			CallFrames []struct {
				CallFrameID string `json:"callFrameId"`
			} `json:"callFrames"`
		}
		if json.Unmarshal(params, &p) != nil || len(p.CallFrames) == 0 {
			return
		}
		select {
		case pauses <- p.CallFrames[0].CallFrameID:
		case <-done:
		}
	}
}
