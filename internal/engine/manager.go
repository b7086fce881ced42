package engine

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	"traced/internal/cdp"
	"traced/internal/cdp/proto"
	"traced/internal/engine/launch"
	"traced/internal/engine/proctree"
	"traced/internal/redact"
	"traced/internal/sourcemap"
)

// Manager owns every session: it launches them, retains at most MaxSessions and ends them all at
// shutdown.
type Manager struct {
	cfg         Config
	ws          Workspace
	maps        *sourcemap.Cache // source maps of every session's scripts
	nodeVersion string
	pub         Publisher
	log         *slog.Logger

	featuresOnce sync.Once
	features     NodeFeatures // probed on first use (nodefeatures.go)

	preloadOnce sync.Once // the preload file is written on first launch (preload.go)
	preloadPath string
	preloadErr  error
	bootLock    *os.File // held (flock) while the preload's directory is in use (preload.go)

	mu       sync.Mutex // guards the fields below
	sessions []*Session // oldest first
	nextID   int
	closed   bool
}

// NewManager resolves the workspace and probes node's version once.
func NewManager(cfg Config, pub Publisher, log *slog.Logger) (*Manager, error) {
	cfg = cfg.withDefaults()
	ws, err := NewWorkspace(cfg.Root)
	if err != nil {
		return nil, err
	}
	// The heap files' parent is made now, so that a bad --data-dir fails at start-up, not at
	// the first snapshot.
	if err := os.MkdirAll(cfg.DataDir, 0o700); err != nil {
		return nil, fmt.Errorf("data dir: %w", err)
	}
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	if pub == nil {
		pub = nopPublisher{}
	}
	if n, err := proctree.ReapLeftovers(cfg.DataDir); err != nil {
		log.Warn("reap what a killed service left", "err", err)
	} else if n > 0 {
		log.Info("killed processes a killed service left behind", "killed", n)
	}
	m := &Manager{cfg: cfg, ws: ws, pub: pub, log: log, maps: newMapCache(ws, cfg.MaxSourceMapBytes)}
	if cfg.NodePath != "" {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		var buf strings.Builder
		cmd := exec.CommandContext(ctx, cfg.NodePath, "--version")
		cmd.Stdout = &buf
		err := proctree.Owned.Run(cmd) // a subreaper's reaper must not take its status
		out := buf.String()
		if err != nil {
			log.Warn("node version probe failed", "node", cfg.NodePath, "err", err)
		} else {
			m.nodeVersion = strings.TrimSpace(string(out))
		}
	}
	return m, nil
}

// FindNode resolves the node binary to an absolute path: flag if given, else PATH. A node found
// through a relative PATH entry (exec.ErrDot) is refused: it could be planted in the workspace.
func FindNode(flag string) (string, error) {
	name := flag
	if name == "" {
		name = "node"
	}
	p, err := exec.LookPath(name)
	if err != nil {
		return "", fmt.Errorf("find node %q: %w", name, err)
	}
	return filepath.Abs(p)
}

type nopPublisher struct{}

func (nopPublisher) PublishEvent(string, Event) {}
func (nopPublisher) PublishStatus(Summary)      {}

// Capabilities describes what this engine can do, for the status endpoint.
type Capabilities struct {
	NodeVersion string // "" when node was not found
	Root        string // the workspace root, symlinks resolved (Config.Root is as given)
	Config      Config
}

// Capabilities reports the node found and the limits in force.
func (m *Manager) Capabilities() Capabilities {
	return Capabilities{NodeVersion: m.nodeVersion, Root: m.ws.Root(), Config: m.cfg}
}

// Start launches a session and returns once the inspector is attached and the program runs.
func (m *Manager) Start(ctx context.Context, req StartRequest) (*Session, error) {
	if m.cfg.NodePath == "" || m.nodeVersion == "" {
		return nil, &StartError{Stage: "spawn", Err: errors.New("node was not found; install node 20+ or pass --node")}
	}
	cwd := m.ws.Root()
	if req.Cwd != "" {
		var err error
		if cwd, err = m.ws.Resolve(m.ws.Root(), req.Cwd); err != nil {
			return nil, fmt.Errorf("cwd: %w", err)
		}
		if !isDir(cwd) {
			return nil, fmt.Errorf("cwd: %w: %s is not a directory", ErrBadInput, req.Cwd)
		}
	}
	if req.Target == "" {
		return nil, fmt.Errorf("target: %w: empty", ErrBadInput)
	}
	if err := checkMode(&req); err != nil {
		return nil, err
	}
	target, err := m.ws.Resolve(cwd, req.Target)
	if err != nil {
		return nil, fmt.Errorf("target: %w", err)
	}
	if isDir(target) && !runsTests(req.NodeArgs) { // node --test takes a folder of tests
		return nil, fmt.Errorf("target: %w: %s is a directory (node --test takes one: nodeArgs [\"--test\"])", ErrBadInput, req.Target)
	}
	maxEvents := m.cfg.MaxEvents
	if req.MaxEvents > 0 {
		maxEvents = min(req.MaxEvents, MaxEventsLimit)
	}
	if req.Args == nil {
		req.Args = []string{}
	}
	if err := launch.CheckArgv(req.Args, req.Env); err != nil {
		return nil, fmt.Errorf("%w: %w", ErrBadInput, err)
	}

	s, err := m.reserve(req, target, cwd, maxEvents)
	if err != nil {
		return nil, err
	}
	if err := m.launch(ctx, s, req); err != nil {
		m.remove(s)
		return nil, err
	}
	if req.Timeout > 0 {
		t := time.AfterFunc(req.Timeout, func() { s.stopAtTimeout(req.Timeout) })
		go func() { <-s.done; t.Stop() }()
	}
	return s, nil
}

// reserve takes a session slot before spawning, so concurrent starts never exceed the limit.
func (m *Manager) reserve(req StartRequest, target, cwd string, maxEvents int) (*Session, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.closed {
		return nil, ErrShutdown
	}
	if req.Name != "" {
		if looksLikeID(req.Name) {
			return nil, fmt.Errorf("%w: name %q looks like a session id; pick another", ErrBadInput, req.Name)
		}
		for _, s := range m.sessions {
			if s.name != req.Name {
				continue
			}
			if !s.Summary().Status.Finished() {
				return nil, fmt.Errorf("%w: name %q is taken by session %s, still live: stop it first, or pick another name", ErrBadInput, req.Name, s.id)
			}
			s.mu.Lock() // an ended session gives its name up; it stays listed under its id
			s.name = ""
			s.mu.Unlock()
		}
	}
	if len(m.sessions) >= m.cfg.MaxSessions {
		evicted := false
		for i, s := range m.sessions {
			if s.Summary().Status.Finished() {
				m.sessions = append(m.sessions[:i], m.sessions[i+1:]...)
				evicted = true
				break
			}
		}
		if !evicted {
			return nil, fmt.Errorf("%w: %d of %d", ErrTooMany, len(m.sessions), m.cfg.MaxSessions)
		}
	}
	m.nextID++
	tr := &Session{
		id:             "s" + strconv.Itoa(m.nextID),
		name:           req.Name,
		program:        target,
		args:           req.Args,
		stringCap:      m.cfg.StringCap,
		discardEvery:   m.cfg.DiscardEvery,
		log:            m.log,
		pub:            m.pub,
		status:         StatusStarting,
		startedAt:      time.Now().UTC(),
		detach:         make(chan struct{}, 1),
		ws:             m.ws,
		mode:           req.Mode,
		heapLimits:     heapLimits{dir: m.cfg.DataDir, maxBytes: m.cfg.MaxHeapDiskBytes},
		callBound:      m.cfg.InspectorTimeout,
		pauseOnStart:   req.PauseOnStart,
		done:           make(chan struct{}),
		anyPause:       make(chan struct{}),
		req:            req,
		targets:        newRegistry(),
		inspectorURLs:  make(map[string]bool),
		mainURLRead:    make(chan struct{}),
		followChildren: req.Children == nil || *req.Children,
		followWorkers:  req.Workers == nil || *req.Workers,
		followMatch:    followRegexp(req.FollowMatch),
		throws:         newThrowState(req.Throws),
	}
	tr.cwd.Store(&cwd)
	tr.main = newTarget(tr, "t0", &sessionMaps{byScript: make(map[string]*scriptMap), off: req.SourceMaps != nil && !*req.SourceMaps, load: loadFrom(m.maps)})
	tr.main.debugged()
	tr.store = newStore(maxEvents, func(ev Event) { m.pub.PublishEvent(tr.id, ev) })
	tr.redaction.r = redact.New(!m.cfg.RedactOff)
	tr.store.hide = tr.redaction.hide
	m.sessions = append(m.sessions, tr)
	return tr, nil
}

func (m *Manager) remove(s *Session) {
	m.mu.Lock()
	defer m.mu.Unlock()
	for i, x := range m.sessions {
		if x == s {
			m.sessions = append(m.sessions[:i], m.sessions[i+1:]...)
			return
		}
	}
}

// unspawned ends a session whose child never ran and publishes its final status, as finish does
// for one that ran: Config.ChildEnv may have begun its trace (the OTLP export's root span), which
// only that status ends. It returns err.
func (s *Session) unspawned(err error) error {
	now := time.Now().UTC()
	s.mu.Lock()
	s.endedAt = &now
	s.status = StatusFailed
	if s.stopped { // a stop or shutdown came while spawning
		s.status = StatusStopped
	}
	if s.reason == "" {
		s.reason = err.Error()
	}
	s.mu.Unlock()
	close(s.done)
	s.pub.PublishStatus(s.Summary())
	return err
}

// launch spawns node, waits for its inspector URL, attaches and lets the program run. On error
// the child is dead and every goroutine of the session has ended.
func (m *Manager) launch(ctx context.Context, s *Session, req StartRequest) error {
	t := s.main
	// A trace session's program waits for the debugger without a first-line break: a pause
	// there, even one let go at once, leaves the main script's top level instrumented for the
	// debugger, and a loop in it several times slower for the whole run (17x on node 22).
	wait := "--inspect-wait=127.0.0.1:0"
	if s.mode == ModeDebug {
		wait = "--inspect-brk=127.0.0.1:0"
	}
	args := []string{wait, "--inspect-publish-uid=stderr", "--enable-source-maps", s.program}
	if s.mode == ModeDebug {
		// Node 20 aborts ("async hook stack has become corrupted") when a timer callback is
		// terminated (kill-execution); the check is a consistency assertion, not a behaviour.
		args = append(args[:len(args)-1], "--no-force-async-hooks-checks", s.program)
	}
	p, err := m.preloadFile()
	if err == nil && s.followChildren { // not followed, children are left alone: no FIFO
		err = t.openAnnouncements(filepath.Join(filepath.Dir(p), s.id+".announce"))
	}
	if err != nil {
		return s.unspawned(&StartError{Stage: "spawn", Err: err})
	}
	env := preloadEnv(p, s.announce.path, withChildEnv(req.Env, m.cfg.ChildEnv, s.id))
	if !runsTests(req.NodeArgs) { // node's test runner loads its files in children, not as main
		check, err := m.ws.mainCheck(s.program)
		if err != nil {
			s.Tree().closeAnnouncements()
			return s.unspawned(err)
		}
		env[mainCheckEnv] = check
	}
	s.mu.Lock()
	s.preloadURL = p // its script is traced's, not the program's
	s.mu.Unlock()
	dir := filepath.Dir(p)
	s.bootDir.Store(&dir)
	args = append(append(args[:len(args)-1:len(args)-1], req.NodeArgs...), s.program)
	args = append(args, req.Args...)
	c, err := launch.Spawn(launch.Command{Shim: m.cfg.ShimPath, Node: m.cfg.NodePath, Args: args, Dir: s.dir(), Env: env})
	if err != nil {
		s.Tree().closeAnnouncements()
		return s.unspawned(spawnError(err))
	}
	if err := c.RecordTree(m.cfg.DataDir); err != nil {
		m.log.Warn("record process tree", "session", s.id, "err", err)
	}
	s.mu.Lock()
	s.child = c
	killed := s.stopped || s.status == StatusFailed // a stop or shutdown came while spawning
	s.mu.Unlock()
	if killed {
		c.Kill()
	}

	// stderr: the first inspector URL goes to urls, every later line becomes an event.
	tail := &tailBuffer{n: stderrTail}
	urls := make(chan string, 1)
	found := false
	stdout := func(line string) { s.output(KindStdout, line) }
	stderr := func(line string) {
		if !found {
			if !inspectorChatter(line) { // the URL runs code: it never leaves the service
				tail.add(line)
			}
			if u := ParseInspectorURL(line); u != "" {
				found = true
				s.mu.Lock()
				s.inspectorURLs[u] = true // traced's own: never let run as a child's
				s.mu.Unlock()
				close(s.mainURLRead)
				urls <- u
			}
			return
		}
		s.output(KindStderr, line) // another process's inspector is let run there
	}
	c.ReadOutput(stdout, stderr, func() {
		if !found {
			close(s.mainURLRead)
		}
		close(urls)
	})
	go s.finish(c)

	fail := func(stage string, err error) error {
		s.kill(StatusFailed, stage+": "+err.Error())
		<-s.done
		if s.Summary().Status == StatusStopped {
			return fmt.Errorf("%w (%s)", ErrStoppedStarting, s.id)
		}
		// The stderr reader has returned (finish waited for it), so tail is no longer written.
		return &StartError{Stage: stage, Stderr: tail.String(), Err: err}
	}

	startCtx, cancel := context.WithTimeout(ctx, m.cfg.StartTimeout)
	defer cancel()
	var wsURL string
	select {
	case u, ok := <-urls:
		if !ok {
			return fail("inspector-url", errors.New("node exited before its inspector listened"))
		}
		wsURL = u
	case <-startCtx.Done():
		return fail("inspector-url", fmt.Errorf("no inspector URL on stderr: %w", startCtx.Err()))
	}

	client, err := cdp.Dial(startCtx, wsURL, cdp.Options{OnEvent: t.dispatcher().onEvent})
	if err != nil {
		return fail("attach", errors.New(strings.ReplaceAll(err.Error(), wsURL, "inspector")))
	}
	t.lock()
	t.conn = client
	t.unlock()
	go t.choresLoop(client)
	go s.watch()

	// At its end node waits for the debugger to hang up; it says so (the main context's
	// destruction does not always come first).
	if err := callSteps(startCtx, client, proto.RuntimeEnable{}, proto.DebuggerEnable{},
		proto.NodeWorkerEnable{WaitForDebuggerOnStart: true}, // workers.go
		notifyAtDisconnect); err != nil {
		return fail("enable", err)
	}
	if err := t.prepare(startCtx, client, req); err != nil {
		return fail("prepare", err)
	}
	if s.mode == ModeDebug {
		if err := t.Profiler().coverFromLaunch(startCtx, client); err != nil {
			return fail("prepare", err)
		}
	}
	if runsTests(req.NodeArgs) {
		// Under node 20's --test the main inspector is the test file's, whose process waits in
		// traced's preload too (children.go drops its announcement as t0's own).
		if err := proto.Do(startCtx, client, preloadGo, nil); err != nil {
			return fail("run", err)
		}
	}
	if err := proto.Do(startCtx, client, proto.RuntimeRunIfWaitingForDebugger{}, nil); err != nil {
		return fail("run", err)
	}
	if s.mode == ModeDebug && !runsTests(req.NodeArgs) {
		// Answer only once node stands at the user's first line, so that a pause or breakpoint
		// asked for right after start concerns the user's code, not node's start-up. Node's test
		// runner has none: its test files are children, each set up before it runs.
		select {
		case <-t.startPause:
			t.mu.Lock()
			from := t.paused
			t.mu.Unlock()
			if from != nil {
				t.installCreation(startCtx, client)
			}
			users := t.SourceMapping().usersFirstPause(from)
			// The main script is parsed now: breakpoints on its original sources bind here.
			var here []string
			if from != nil {
				here = t.SourceMapping().resolvePending(startCtx, client, from)
			}
			switch {
			case s.pauseOnStart:
			case users: // it stays, shown as any pause
			case len(here) > 0: // one bound on the very first statement: stop there as at a breakpoint
				user := *from
				user.Reason, user.HitBreakpoints = "breakpoint", here
				t.dispatcher().onPaused(&user)
			default:
				if err := t.Profiler().endLaunchCoverage(startCtx, client); err != nil {
					return fail("run", err)
				}
				t.mu.Lock()
				t.Control().leavePause()
				t.mu.Unlock()
				if err := proto.Do(startCtx, client, proto.DebuggerResume{}, nil); err != nil {
					return fail("run", err)
				}
				t.Control().leftPause(from)
			}
		case <-s.done: // ended before its first line, e.g. a syntax error: the timeline says why
		case <-startCtx.Done():
			return fail("run", fmt.Errorf("no first-line break: %w", startCtx.Err()))
		}
	}
	s.setStatus(StatusRunning)
	return nil
}

// prepare sets what a session needs before the program runs: trace sessions skip every pause
// (a `debugger;` statement must not stop them); debug sessions get their exception mode and
// initial breakpoints.
func (t *Target) prepare(ctx context.Context, c *cdp.Client, req StartRequest) error {
	if t.s.mode != ModeDebug {
		return callSteps(ctx, c, t.s.Settings().traceSteps()...)
	}
	if err := t.s.Settings().setPauseOnExceptions(ctx, c, req.PauseOnExceptions); err != nil {
		return err
	}
	if box := t.s.Settings().v8Blackbox(nil); len(box) > 0 { // the user's come with a restart (relaunch.go)
		if err := proto.Do(ctx, c, proto.DebuggerSetBlackboxPatterns{Patterns: box}, nil); err != nil {
			return err
		}
	}
	if err := proto.Do(ctx, c, proto.RuntimeAddBinding{Name: logBinding}, nil); err != nil {
		return err
	}
	for i, spec := range req.Breakpoints {
		if err := t.Breakpoints().checkPoint(ctx, c, spec.Location, spec.Condition, ""); err != nil {
			return fmt.Errorf("breakpoints.%d: %w", i, err)
		}
		set := t.Breakpoints().setBreakpoint
		if spec.URLRegex != "" {
			set = t.Breakpoints().setURLRegexBreakpoint
		}
		if _, err := set(ctx, c, spec); err != nil {
			return err
		}
	}
	for i, spec := range req.Logpoints {
		if err := t.Breakpoints().checkPoint(ctx, c, spec.Location, spec.Condition, spec.Template); err != nil {
			return fmt.Errorf("logpoints.%d: %w", i, err)
		}
		if _, err := t.Breakpoints().setLogpoint(ctx, c, spec); err != nil {
			return err
		}
	}
	if req.carry != nil {
		return t.applyCarry(ctx, c, req.carry)
	}
	return nil
}

// Shutdown refuses new sessions, kills every live child and waits for them (bounded by ctx).
func (m *Manager) Shutdown(ctx context.Context) error {
	defer m.removePreload()
	m.mu.Lock()
	m.closed = true
	sessions := append([]*Session(nil), m.sessions...)
	m.mu.Unlock()
	for _, s := range sessions {
		go s.stop("service shut down") // each its own grace, side by side
		s.mu.Lock()
		c := s.child
		s.mu.Unlock()
		if c != nil && s.Summary().Status.Finished() {
			c.EndShim() // what outlived a finished program ends with the service
		}
	}
	for _, s := range sessions {
		select {
		case <-s.done:
		case <-ctx.Done():
			return fmt.Errorf("shutdown: %w", ctx.Err())
		}
	}
	return nil
}
