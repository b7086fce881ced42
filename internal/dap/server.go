// Package dap is traced's Debug Adapter Protocol endpoint: a thin adapter that turns DAP requests
// into calls of traced's REST API and the session's live stream into DAP events, so that an
// editor debugs the same session the CLI, MCP tools and dashboard see.
//
// One Server serves one DAP client over one connection (stdio for `traced dap`, a loopback TCP
// connection for the service's DAP listener). Goroutines: the request loop (Serve), which answers
// requests one at a time in order, and once a session is launched or attached the stream reader
// (events.go), which turns stream messages into events. mu guards the adapter's state the two
// share; sendMu keeps messages from interleaving on the wire.
package dap

import (
	"bufio"
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"strings"
	"sync"

	godap "github.com/google/go-dap"
)

// Config is where the adapter finds traced's REST API.
type Config struct {
	Addr string // host:port of the service
	// Token is the bearer token used unless launch or attach arguments give one ("token"); the
	// service's own listener leaves it empty, so a client proves it knows the token.
	Token string
	Log   *slog.Logger
}

// Server is one DAP connection.
type Server struct {
	cfg  Config
	log  *slog.Logger
	http *http.Client

	sendMu sync.Mutex
	w      *bufio.Writer
	seq    int // last seq sent, under sendMu

	ctx    context.Context // ends with Serve: bounds the stream reader and REST calls
	cancel context.CancelFunc
	wg     sync.WaitGroup // the stream reader

	nonce string // tells this connection's hit counters from another's in the same program

	mu    sync.Mutex
	st    state
	rest  *restClient // set by launch or attach
	clnup []func()    // what disconnect undoes
}

func (c Config) logger() *slog.Logger {
	if c.Log == nil {
		return slog.New(slog.DiscardHandler)
	}
	return c.Log
}

// New returns a Server for one client.
func New(cfg Config) *Server {
	return &Server{cfg: cfg, log: cfg.logger(), http: &http.Client{Transport: &http.Transport{Proxy: nil}},
		st: newState(), nonce: strings.ToLower(rand.Text()[:8])}
}

// errDisconnect ends the request loop after a disconnect request was answered.
var errDisconnect = errors.New("client disconnected")

// Serve reads requests from r and writes responses and events to w until the client
// disconnects, r ends or ctx is done. A session the adapter launched is stopped on the way out.
func (s *Server) Serve(ctx context.Context, r io.Reader, w io.Writer) error {
	s.ctx, s.cancel = context.WithCancel(ctx)
	defer s.shutdown()
	s.w = bufio.NewWriter(w)
	rd := bufio.NewReader(r)
	for {
		msg, err := godap.ReadProtocolMessage(rd)
		if err != nil {
			var field *godap.DecodeProtocolMessageFieldError
			if errors.As(err, &field) {
				s.sendError(&godap.Request{ProtocolMessage: godap.ProtocolMessage{Seq: field.Seq}, Command: field.SubType},
					fmt.Errorf("unsupported request %q", field.SubType))
				continue
			}
			if errors.Is(err, io.EOF) || ctx.Err() != nil {
				return nil
			}
			return fmt.Errorf("read a DAP message: %w", err)
		}
		req, ok := msg.(godap.RequestMessage)
		if !ok {
			continue // responses to reverse requests we never send, stray events
		}
		if err := s.dispatch(req); errors.Is(err, errDisconnect) {
			return nil
		}
	}
}

// shutdown ends what the connection started: the stream reader, and the session when the
// adapter launched it and the client did not say otherwise.
func (s *Server) shutdown() {
	s.mu.Lock()
	clnup := s.clnup
	s.clnup = nil
	s.mu.Unlock()
	for _, f := range clnup {
		f()
	}
	s.cancel()
	s.wg.Wait()
	s.http.CloseIdleConnections()
}

// dispatch answers one request. A handler returns its response or an error, sent as an error
// response naming the cause.
func (s *Server) dispatch(req godap.RequestMessage) error {
	r := req.GetRequest()
	h, ok := handlers[r.Command]
	if !ok {
		s.sendError(r, fmt.Errorf("unsupported request %q", r.Command))
		return nil
	}
	resp, err := h(s, req)
	if err != nil {
		s.sendError(r, err)
		return nil
	}
	if resp != nil { // nil: the handler sent its response itself, before an event
		s.send(resp)
	}
	if r.Command == "disconnect" {
		return errDisconnect
	}
	return nil
}

// handler answers a request with go-dap's response of its command.
type handler func(*Server, godap.RequestMessage) (godap.ResponseMessage, error)

// handlers is the table of supported requests, one entry per DAP command.
var handlers map[string]handler

func init() {
	handlers = map[string]handler{
		"initialize":              (*Server).onInitialize,
		"launch":                  (*Server).onLaunch,
		"attach":                  (*Server).onAttach,
		"configurationDone":       (*Server).onConfigurationDone,
		"disconnect":              (*Server).onDisconnect,
		"terminate":               (*Server).onTerminate,
		"setBreakpoints":          (*Server).onSetBreakpoints,
		"setFunctionBreakpoints":  (*Server).onSetFunctionBreakpoints,
		"setExceptionBreakpoints": (*Server).onSetExceptionBreakpoints,
		"breakpointLocations":     (*Server).onBreakpointLocations,
		"threads":                 (*Server).onThreads,
		"stackTrace":              (*Server).onStackTrace,
		"scopes":                  (*Server).onScopes,
		"variables":               (*Server).onVariables,
		"continue":                (*Server).onContinue,
		"next":                    (*Server).onNext,
		"stepIn":                  (*Server).onStepIn,
		"stepOut":                 (*Server).onStepOut,
		"pause":                   (*Server).onPause,
		"restartFrame":            (*Server).onRestartFrame,
		"evaluate":                (*Server).onEvaluate,
		"setVariable":             (*Server).onSetVariable,
		"setExpression":           (*Server).onSetExpression,
		"exceptionInfo":           (*Server).onExceptionInfo,
		"loadedSources":           (*Server).onLoadedSources,
		"source":                  (*Server).onSource,
	}
}

// send writes one message; a write error ends nothing here (the read loop sees the closed
// connection) but is logged.
func (s *Server) send(m godap.Message) {
	s.sendMu.Lock()
	defer s.sendMu.Unlock()
	s.seq++
	switch v := m.(type) {
	case godap.ResponseMessage:
		v.GetResponse().Seq = s.seq
	case godap.EventMessage:
		v.GetEvent().Seq = s.seq
	}
	err := godap.WriteProtocolMessage(s.w, m)
	if err == nil {
		err = s.w.Flush()
	}
	if err != nil {
		s.log.Debug("dap: write", "err", err)
	}
}

func response(r *godap.Request) godap.Response {
	return godap.Response{ProtocolMessage: godap.ProtocolMessage{Type: "response"},
		Command: r.Command, RequestSeq: r.Seq, Success: true}
}

func event(name string) godap.Event {
	return godap.Event{ProtocolMessage: godap.ProtocolMessage{Type: "event"}, Event: name}
}

func (s *Server) sendError(r *godap.Request, err error) {
	resp := godap.ErrorResponse{Response: response(r)}
	resp.Success = false
	resp.Message = err.Error()
	resp.Body.Error = &godap.ErrorMessage{Id: 1, Format: err.Error(), ShowUser: true}
	s.send(&resp)
}
