package dap

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"time"

	godap "github.com/google/go-dap"

	"traced/api"
	"traced/internal/apiclient"
)

// launchArgs are the arguments of launch: the program and traced's start options.
type launchArgs struct {
	Program     string            `json:"program"`
	Args        []string          `json:"args"`
	Cwd         string            `json:"cwd"`
	Env         map[string]string `json:"env"`
	RuntimeArgs []string          `json:"runtimeArgs"` // node's own flags (vscode's name)
	NodeArgs    []string          `json:"nodeArgs"`    // the same, traced's name
	StopOnEntry bool              `json:"stopOnEntry"`
	Name        string            `json:"sessionName"` // the traced session's name
	Token       string            `json:"token"`
	SourceMaps  *bool             `json:"sourceMaps"`
	Workers     *bool             `json:"workers"`
	Children    *bool             `json:"children"`
	FollowMatch string            `json:"followMatch"`
	Throws      *api.ThrowOptions `json:"throws"`
	TimeoutMs   int64             `json:"timeoutMs"`
	MaxEvents   int               `json:"maxEvents"`
	// OutputCapture is console (console calls with their file:line, the default) or std (the
	// process's stdout and stderr lines): node writes console calls to both.
	OutputCapture string `json:"outputCapture"`
	// AsyncStackDepth is how many async parents V8 records for stackTrace (default
	// defaultAsyncDepth; 0: none).
	AsyncStackDepth *int `json:"asyncStackDepth"`
	// PauseOnExceptionClasses narrows the exception filters to these classes (constructor
	// names), as the REST start's option of that name: setExceptionBreakpoints keeps them.
	PauseOnExceptionClasses []string `json:"pauseOnExceptionClasses"`
	// CreationStacks records where the program creates each handle that can keep it alive, for
	// traced's alive answer, as the REST start's option of that name.
	CreationStacks bool `json:"creationStacks"`
}

// defaultAsyncDepth is the async parents recorded for a launched program: enough to reach the
// user's code through a few awaits, as editors show by default.
const defaultAsyncDepth = 16

// attachArgs are the arguments of attach: a traced session, or a node inspector to attach to.
type attachArgs struct {
	Session string `json:"session"` // a traced session's id or name
	Port    int    `json:"port"`    // a node --inspect port on 127.0.0.1
	WSURL   string `json:"wsUrl"`
	Token   string `json:"token"`
	// OutputCapture is as for launch.
	OutputCapture string `json:"outputCapture"`
}

// exceptionFilters are the exception breakpoint filters: traced's pause-on-exceptions modes.
var exceptionFilters = []godap.ExceptionBreakpointsFilter{
	{Filter: api.ExceptionsAll, Label: "All Exceptions", Description: "pause at every throw, caught or not"},
	{Filter: api.ExceptionsUncaught, Label: "Uncaught Exceptions", Description: "pause where a throw nothing catches happens", Default: true},
	{Filter: api.ExceptionsCaught, Label: "Caught Exceptions (with locals)", Description: "pause at throws a handler catches, with the throwing frame's locals"},
}

func (s *Server) onInitialize(m godap.RequestMessage) (godap.ResponseMessage, error) {
	r := m.(*godap.InitializeRequest)
	return &godap.InitializeResponse{Response: response(&r.Request), Body: godap.Capabilities{
		SupportsConfigurationDoneRequest:   true,
		SupportsFunctionBreakpoints:        true,
		SupportsConditionalBreakpoints:     true,
		SupportsHitConditionalBreakpoints:  true,
		SupportsEvaluateForHovers:          true,
		ExceptionBreakpointFilters:         exceptionFilters,
		SupportsSetVariable:                true,
		SupportsSetExpression:              true,
		SupportsRestartFrame:               true,
		SupportsExceptionInfoRequest:       true,
		SupportTerminateDebuggee:           true,
		SupportsTerminateRequest:           true,
		SupportsLoadedSourcesRequest:       true,
		SupportsLogPoints:                  true,
		SupportsBreakpointLocationsRequest: true,
		SupportsDelayedStackTraceLoading:   true,
	}}, nil
}

// restFor is the REST client of a launch or attach, with the token it gives or the default.
func (s *Server) restFor(token string) *restClient {
	if token == "" {
		token = s.cfg.Token
	}
	return newRESTClient(s.cfg.Addr, token, s.http)
}

func (s *Server) onLaunch(m godap.RequestMessage) (godap.ResponseMessage, error) {
	r := m.(*godap.LaunchRequest)
	var a launchArgs
	if err := json.Unmarshal(r.Arguments, &a); err != nil {
		return nil, fmt.Errorf("launch arguments: %w", err)
	}
	if a.Program == "" {
		return nil, errors.New("launch needs \"program\": the script to run")
	}
	rest := s.restFor(a.Token)
	// Paused on its first line until configurationDone: breakpoints set before it are in place.
	wait := int64(0)
	req := api.StartRequest{Target: a.Program, Args: a.Args, Cwd: a.Cwd, Env: a.Env, Name: a.Name,
		NodeArgs: append(a.RuntimeArgs, a.NodeArgs...), Mode: api.ModeDebug, PauseOnStart: true,
		SourceMaps: a.SourceMaps, Workers: a.Workers, Children: a.Children, FollowMatch: a.FollowMatch,
		Throws: a.Throws, TimeoutMs: a.TimeoutMs, MaxEvents: a.MaxEvents, WaitMs: &wait,
		PauseOnExceptionClasses: a.PauseOnExceptionClasses, CreationStacks: a.CreationStacks}
	var started api.SessionResponse
	if err := rest.do(s.ctx, "POST", "/api/trace/start", nil, req, &started); err != nil {
		return nil, fmt.Errorf("start %s: %w", a.Program, err)
	}
	depth := defaultAsyncDepth
	if a.AsyncStackDepth != nil {
		depth = *a.AsyncStackDepth
	}
	if err := rest.do(s.ctx, "POST", apiclient.DebugPath(started.Session.ID, "async-depth"), nil, api.AsyncDepthRequest{Depth: &depth}, nil); err != nil {
		s.log.Debug("dap: async depth", "err", err) // stacks without async parents; the session stands
	}
	s.begin(rest, started.Session, true, a.StopOnEntry, a.OutputCapture)
	s.mu.Lock()
	s.st.excClasses = a.PauseOnExceptionClasses
	s.mu.Unlock()
	s.send(&godap.LaunchResponse{Response: response(&r.Request)})
	s.announce(started.Session)
	return nil, nil
}

func (s *Server) onAttach(m godap.RequestMessage) (godap.ResponseMessage, error) {
	r := m.(*godap.AttachRequest)
	var a attachArgs
	if err := json.Unmarshal(r.Arguments, &a); err != nil {
		return nil, fmt.Errorf("attach arguments: %w", err)
	}
	rest := s.restFor(a.Token)
	var sum api.Summary
	switch {
	case a.Session != "":
		var list api.ListResponse
		if err := rest.do(s.ctx, "GET", "/api/trace/list", nil, nil, &list); err != nil {
			return nil, fmt.Errorf("attach to session %s: %w", a.Session, err)
		}
		i := slices.IndexFunc(list.Sessions, func(x api.Summary) bool { return x.ID == a.Session || x.Name == a.Session })
		if i < 0 {
			return nil, fmt.Errorf("attach: no session has the id or name %q (traced sessions lists them)", a.Session)
		}
		sum = list.Sessions[i]
	case a.Port != 0 || a.WSURL != "":
		var started api.SessionResponse
		if err := rest.do(s.ctx, "POST", "/api/debug/attach", nil, api.AttachRequest{Port: a.Port, WSURL: a.WSURL}, &started); err != nil {
			return nil, fmt.Errorf("attach to the inspector: %w", err)
		}
		sum = started.Session
	default:
		return nil, errors.New("attach needs \"session\" (a traced session's id or name) or \"port\" (a node --inspect port)")
	}
	if sum.Mode != api.ModeDebug {
		return nil, fmt.Errorf("session %s is a %s session: attach to a debug session", sum.ID, sum.Mode)
	}
	s.begin(rest, sum, false, false, a.OutputCapture)
	s.send(&godap.AttachResponse{Response: response(&r.Request)})
	s.announce(sum)
	return nil, nil
}

// announce names the session to the user (the CLI and MCP tools act on the same one) and tells
// the client it may configure.
func (s *Server) announce(sum api.Summary) {
	s.output("console", fmt.Sprintf("traced session %s: the CLI and MCP tools share it (traced state --session %s)\n", sum.ID, sum.ID), nil)
	s.send(&godap.InitializedEvent{Event: event("initialized")})
}

// begin records the session and starts following its stream.
func (s *Server) begin(rest *restClient, sum api.Summary, launched, stopOnEntry bool, output string) {
	s.mu.Lock()
	s.rest = rest
	s.st.session, s.st.cwd, s.st.launched, s.st.stopOnEntry = sum.ID, sum.Cwd, launched, stopOnEntry
	if output == "std" {
		s.st.output = "std"
	}
	if launched {
		s.clnup = append(s.clnup, func() { s.stopSession() })
	}
	s.mu.Unlock()
	s.wg.Add(1)
	go func() {
		defer s.wg.Done()
		s.follow(sum.ID)
	}()
}

// session answers the session and its REST client, or an error before launch or attach.
func (s *Server) session() (string, *restClient, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.rest == nil {
		return "", nil, errors.New("no session: launch or attach first")
	}
	return s.st.session, s.rest, nil
}

func (s *Server) onConfigurationDone(m godap.RequestMessage) (godap.ResponseMessage, error) {
	r := m.(*godap.ConfigurationDoneRequest)
	sid, rest, err := s.session()
	if err != nil {
		return nil, err
	}
	s.mu.Lock()
	s.st.configured = true
	run := s.st.launched && !s.st.stopOnEntry
	s.mu.Unlock()
	if run {
		if err := rest.do(s.ctx, "POST", apiclient.DebugPath(sid, "continue"), nil, api.ContinueRequest{WaitMs: new(int64)}, nil); err != nil {
			return nil, fmt.Errorf("run the program: %w", err)
		}
	}
	return &godap.ConfigurationDoneResponse{Response: response(&r.Request)}, nil
}

// onDisconnect ends the client's part: a launched session is stopped; an attached one runs on
// without the breakpoints this client set (its owner's stay).
func (s *Server) onDisconnect(m godap.RequestMessage) (godap.ResponseMessage, error) {
	r := m.(*godap.DisconnectRequest)
	s.mu.Lock()
	// go-dap reads an absent terminateDebuggee as false: a launched session is stopped either way.
	terminate := s.st.launched || r.Arguments != nil && r.Arguments.TerminateDebuggee
	s.clnup = nil
	var mine []string
	for _, refs := range s.st.bySource {
		mine = append(mine, refs...)
	}
	mine = append(mine, s.st.funcBPs...)
	s.mu.Unlock()
	if terminate {
		s.stopSession()
	} else if sid, rest, err := s.session(); err == nil {
		s.removeRefs(sid, rest, mine)
	}
	return &godap.DisconnectResponse{Response: response(&r.Request)}, nil
}

func (s *Server) onTerminate(m godap.RequestMessage) (godap.ResponseMessage, error) {
	r := m.(*godap.TerminateRequest)
	if _, _, err := s.session(); err != nil {
		return nil, err
	}
	s.stopSession()
	return &godap.TerminateResponse{Response: response(&r.Request)}, nil
}

// stopSession stops the session (an attached process is detached and runs on).
func (s *Server) stopSession() {
	sid, rest, err := s.session()
	if err != nil {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := rest.do(ctx, "POST", "/api/trace/stop", nil, api.StopRequest{ID: sid}, nil); err != nil {
		s.log.Debug("dap: stop the session", "session", sid, "err", err)
	}
}

// absPath is a path of an answer made absolute: answers give paths relative to the session's cwd.
func (s *Server) absPath(p string) string {
	if p == "" || filepath.IsAbs(p) {
		return p
	}
	s.mu.Lock()
	cwd := s.st.cwd
	s.mu.Unlock()
	return filepath.Join(cwd, p)
}
