package engine

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/netip"
	"net/url"
	"strconv"
	"strings"
	"time"

	"traced/internal/cdp"
	"traced/internal/cdp/proto"
)

// ErrNotLoopback refuses an inspector that is not on this machine's loopback: attaching runs
// arbitrary code in the peer, and a remote inspector is someone else's process.
var ErrNotLoopback = errors.New("the inspector is not on loopback")

// AttachRequest asks for a debug session on a node process already running with --inspect.
// Exactly one of WSURL and Port is given.
type AttachRequest struct {
	WSURL             string // ws://127.0.0.1:9229/<uuid>; host 127.0.0.1, ::1 or localhost
	Port              int    // the inspector's port on 127.0.0.1; its URL is read from /json/list
	Name              string
	PauseOnExceptions string // none (default), uncaught, caught or all
}

// attachment is what an attached session has instead of a child: the inspector it was given and
// what the process said about itself.
type attachment struct {
	wsURL string
	pid   int // 0 when the process did not say
	// waiting: it waited for a debugger (NodeRuntime.waitingForDebugger) as traced attached.
	waiting bool
}

// Caps of attaching. discoverTimeout bounds the /json/list request: the inspector answers it from
// its own thread, in microseconds. maxTargetList caps that answer: one entry per inspector target,
// a few hundred bytes each. probeTimeout bounds asking the process for its pid and cwd; a process
// that does not answer in time is attached anyway, with the workspace root as its cwd.
// detachTimeout bounds the calls that let the program run on before traced hangs up.
const (
	discoverTimeout = 5 * time.Second
	maxTargetList   = 1 << 20
	probeTimeout    = 2 * time.Second
	detachTimeout   = 2 * time.Second
)

// Attach connects to a running node's inspector and returns a debug session on it once capture
// is enabled. The session owns no process: stopping it detaches and the process runs on; when the
// process exits (or its inspector hangs up) the session finishes as exited.
//
// Goroutines: the CDP reader and dispatcher (package cdp) and attachLoop, which makes the calls
// the dispatcher must not wait for and records the end; all end when the socket has closed.
func (m *Manager) Attach(ctx context.Context, req AttachRequest) (*Session, error) {
	sreq := StartRequest{Name: req.Name, Mode: ModeDebug, PauseOnExceptions: req.PauseOnExceptions, Args: []string{}}
	if err := checkMode(&sreq); err != nil {
		return nil, err
	}
	ctx, cancel := context.WithTimeout(ctx, m.cfg.StartTimeout)
	defer cancel()
	wsURL, err := inspectorURLOf(ctx, req)
	if err != nil {
		return nil, err
	}
	s, err := m.reserve(sreq, wsURL, m.ws.Root(), m.cfg.MaxEvents)
	t := s.main
	if err != nil {
		return nil, err
	}
	t.lock()
	s.attached = &attachment{wsURL: wsURL}
	// Whatever break the process is in, it is the user's: "Break on start" (node started with
	// --inspect-brk) shows as a pause, not as the launcher's first-line break to run past.
	t.startSeen = true
	close(t.startPause)
	stopped := s.stopped
	t.unlock()
	if stopped { // a stop came before there was anything to detach
		s.abandon("stopped while attaching")
		m.remove(s)
		return nil, fmt.Errorf("%w (%s)", ErrStoppedStarting, s.id)
	}

	client, err := cdp.Dial(ctx, wsURL, cdp.Options{OnEvent: t.dispatcher().onEvent})
	if err != nil {
		s.abandon("attach: " + err.Error())
		m.remove(s)
		return nil, &StartError{Stage: "attach", Err: err}
	}
	// Before Debugger.enable, so no event reads cwd while it is set.
	waiting, breaks := s.waitsForDebugger(ctx, client), false
	if waiting {
		breaks = t.probeWaiting(ctx, client)
	} else {
		s.probe(ctx, client, true)
	}
	t.lock()
	t.conn = client
	t.unlock()
	go t.attachLoop(client)

	fail := func(stage string, err error) (*Session, error) {
		s.mu.Lock()
		wasStopped := s.stopped
		if !wasStopped {
			s.status = StatusFailed
			if s.reason == "" {
				s.reason = stage + ": " + err.Error()
			}
		}
		s.mu.Unlock()
		signal(s.detach)
		<-s.done
		m.remove(s)
		if wasStopped {
			return nil, fmt.Errorf("%w (%s)", ErrStoppedStarting, s.id)
		}
		return nil, &StartError{Stage: stage, Err: err}
	}
	for _, cmd := range []proto.Command{proto.RuntimeEnable{}, proto.DebuggerEnable{}} {
		if err := proto.Do(ctx, client, cmd, nil); err != nil {
			return fail("enable", err)
		}
	}
	if err := proto.Do(ctx, client, proto.NodeWorkerEnable{WaitForDebuggerOnStart: true}, nil); err != nil {
		s.log.Debug("attach: no NodeWorker domain", "session", s.id, "err", err) // not node: no workers
	}
	if err := t.prepare(ctx, client, sreq); err != nil {
		return fail("prepare", err)
	}
	t.mu.Lock()
	next := t.nextPause
	t.mu.Unlock()
	// A process started with --inspect-brk or --inspect-wait waits for a debugger; it now has one.
	if err := proto.Do(ctx, client, proto.RuntimeRunIfWaitingForDebugger{}, nil); err != nil {
		return fail("run", err)
	}
	if breaks { // answer at the break: a continue right after must find it
		select {
		case <-next:
		case <-s.done:
		case <-ctx.Done():
			return fail("run", fmt.Errorf("no break at the first line: %w", ctx.Err()))
		}
	}
	if waiting {
		s.probe(ctx, client, false) // the main script's path, now that process is set up
	}
	s.mu.Lock()
	if s.status == StatusStarting { // running; paused too if a pause came meanwhile (statusNow)
		s.status = StatusRunning
	}
	s.mu.Unlock()
	s.pub.PublishStatus(s.Summary())
	return s, nil
}

// inspectorURLOf checks the request's inspector URL, or finds it from the port.
func inspectorURLOf(ctx context.Context, req AttachRequest) (string, error) {
	switch {
	case (req.WSURL == "") == (req.Port == 0):
		return "", fmt.Errorf("%w: give exactly one of wsUrl and port", ErrBadInput)
	case req.WSURL != "":
		return checkInspectorURL(req.WSURL)
	case req.Port < 1 || req.Port > 65535:
		return "", fmt.Errorf("%w: port %d is not 1-65535", ErrBadInput, req.Port)
	}
	return discoverURL(ctx, req.Port)
}

// checkInspectorURL accepts ws://host:port/path with host 127.0.0.1, ::1 or localhost, and returns
// it normalised.
func checkInspectorURL(raw string) (string, error) {
	u, err := url.Parse(raw)
	if err != nil || u.Scheme != "ws" || u.Host == "" || u.User != nil || u.Fragment != "" || u.Opaque != "" {
		return "", fmt.Errorf("%w: wsUrl %q is not ws://127.0.0.1:<port>/<id>", ErrBadInput, raw)
	}
	if !LoopbackHost(u.Hostname()) {
		return "", fmt.Errorf("%w: wsUrl host %q is not 127.0.0.1, ::1 or localhost", ErrNotLoopback, u.Hostname())
	}
	if p, err := strconv.Atoi(u.Port()); err != nil || p < 1 || p > 65535 {
		return "", fmt.Errorf("%w: wsUrl %q has no port 1-65535", ErrBadInput, raw)
	}
	return u.String(), nil
}

// LoopbackHost reports whether host names this machine's loopback as an inspector may: the
// literals 127.0.0.1 and ::1 (no zone, no other spelling) or localhost.
func LoopbackHost(host string) bool {
	if strings.EqualFold(host, "localhost") {
		return true
	}
	a, err := netip.ParseAddr(host)
	return err == nil && (a == netip.MustParseAddr("127.0.0.1") || a == netip.IPv6Loopback())
}

// inspectorTarget is one entry of the inspector's /json/list.
type inspectorTarget struct {
	Type  string `json:"type"`
	WSURL string `json:"webSocketDebuggerUrl"`
}

// discoverURL reads the first node target's WebSocket URL from http://127.0.0.1:port/json/list.
func discoverURL(ctx context.Context, port int) (string, error) {
	ctx, cancel := context.WithTimeout(ctx, discoverTimeout)
	defer cancel()
	list := "http://127.0.0.1:" + strconv.Itoa(port) + "/json/list"
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, list, nil)
	if err != nil {
		return "", err
	}
	client := &http.Client{
		Transport:     &http.Transport{Proxy: nil, DisableKeepAlives: true}, // nothing left idle
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}
	defer client.CloseIdleConnections()
	resp, err := client.Do(req)
	if err != nil {
		return "", &StartError{Stage: "discover", Err: fmt.Errorf("no inspector answers on 127.0.0.1:%d: %w", port, errors.Unwrap(err))}
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return "", &StartError{Stage: "discover", Err: fmt.Errorf("GET %s answered %s (node hides it with --inspect-publish-uid=stderr)", list, resp.Status)}
	}
	var targets []inspectorTarget
	if err := json.NewDecoder(io.LimitReader(resp.Body, maxTargetList)).Decode(&targets); err != nil {
		return "", &StartError{Stage: "discover", Err: fmt.Errorf("GET %s: not a target list: %w", list, err)}
	}
	for _, t := range targets {
		if t.Type == "node" && t.WSURL != "" {
			return checkInspectorURL(t.WSURL)
		}
	}
	return "", &StartError{Stage: "discover", Err: fmt.Errorf("GET %s lists no node target", list)}
}

// probe asks the process for its pid, cwd and main script, so that the summary names them and
// file:line locations resolve against the process's own cwd. A failure leaves the defaults.
func (s *Session) probe(ctx context.Context, c *cdp.Client, setCwd bool) {
	ctx, cancel := context.WithTimeout(ctx, probeTimeout)
	defer cancel()
	var res struct {
		Result struct {
			Value string `json:"value"`
		} `json:"result"`
	}
	err := proto.Do(ctx, c, proto.RuntimeEvaluate{
		Expression:    `JSON.stringify({pid: process.pid, cwd: process.cwd(), main: process.argv[1] || ""})`,
		ReturnByValue: true,
		Silent:        true,
	}, &res)
	var self struct {
		PID  int    `json:"pid"`
		Cwd  string `json:"cwd"`
		Main string `json:"main"`
	}
	if err != nil || json.Unmarshal([]byte(res.Result.Value), &self) != nil {
		s.log.Debug("attach probe", "session", s.id, "err", err)
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.attached.pid = self.PID
	if setCwd && strings.HasPrefix(self.Cwd, "/") {
		s.cwd.Store(&self.Cwd)
	}
	if self.Main != "" {
		s.program = self.Main
	}
}

// attachLoop makes CDP calls on behalf of the dispatcher, detaches when asked, and records the
// end once the socket has closed, whoever closed it.
func (t *Target) attachLoop(client *cdp.Client) {
	for {
		select {
		case <-t.discard:
			t.s.discardEntries(client)
		case <-t.unbind:
			ctx, cancel := context.WithTimeout(context.Background(), callTimeout)
			t.Breakpoints().unbindPending(ctx, client)
			cancel()
		case <-t.s.detach:
			t.lock()
			stopped := t.s.stopped
			t.unlock()
			if stopped {
				t.release(client)
			}
			client.Close()
		case <-client.Done():
			t.endAttached()
			return
		}
	}
}

// release lets the program run on without traced: out of a pause, past a wait for the debugger,
// without the logpoint binding. Closing the socket removes this session's breakpoints. Errors
// only mean the process is already gone.
func (t *Target) release(c *cdp.Client) {
	ctx, cancel := context.WithTimeout(context.Background(), detachTimeout)
	defer cancel()
	t.mu.Lock()
	paused := t.paused != nil
	t.mu.Unlock()
	calls := []proto.Command{proto.RuntimeRunIfWaitingForDebugger{}, proto.RuntimeRemoveBinding{Name: logBinding}}
	if paused {
		calls = append(calls, proto.DebuggerResume{})
	}
	for _, call := range calls {
		if err := proto.Do(ctx, c, call, nil); err != nil {
			t.s.log.Debug("detach", "session", t.s.id, "method", call.Method(), "err", err)
		}
	}
}

// endAttached records the end of an attached session: stopped when traced detached on a stop,
// failed when attaching failed, exited when the process or its inspector hung up.
func (t *Target) endAttached() {
	t.s.Tree().endWorkers()
	exit := ExitInfo{} // traced never sees the exit status of a process it did not spawn
	now := time.Now().UTC()
	t.lock()
	t.s.exit = &exit
	t.s.endedAt = &now
	t.paused = nil
	switch {
	case t.s.stopped:
		t.s.status = StatusStopped
		if t.s.reason == "" {
			t.s.reason = "detached; the process runs on"
		}
	case t.s.status != StatusFailed:
		t.s.status = StatusExited
	}
	t.unlock()
	t.record(Event{Kind: KindExit, Exit: &exit})
	close(t.s.done)
	t.s.pub.PublishStatus(t.s.Summary())
}

// abandon ends a session that never had a connection.
func (s *Session) abandon(reason string) {
	now := time.Now().UTC()
	s.mu.Lock()
	s.endedAt = &now
	if !s.stopped {
		s.status = StatusFailed
	} else {
		s.status = StatusStopped
	}
	s.reason = reason
	s.mu.Unlock()
	close(s.done)
}
