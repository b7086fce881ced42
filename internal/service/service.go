// Package service wires the engine, the stream hub and the HTTP routes into one running service,
// and ends them in order at shutdown. cmd/traced and the black-box tests share this wiring.
package service

import (
	"context"
	"errors"
	"log/slog"
	"net"
	"net/http"
	"net/netip"
	"time"

	"github.com/go-chi/chi/v5"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"traced/api"
	"traced/api/convert"
	"traced/internal/dashboard"
	"traced/internal/engine"
	"traced/internal/mcpserver"
	"traced/internal/otlpexport"
	"traced/internal/routes"
	"traced/internal/stream"
)

// Options configure a service.
type Options struct {
	Engine       engine.Config
	Token        string // "" turns auth off
	TokenFile    string
	AllowOrigins []string
	BoundAddr    netip.Addr
	MaxBodyBytes int64
	Version      string
	Logger       *slog.Logger
	// StreamQueue is each stream subscriber's queue length (messages); 0: the hub's default.
	StreamQueue int
	// StreamWriteTimeout bounds one message write to a subscriber; 0: the hub's default.
	StreamWriteTimeout time.Duration
	// MCPTools is the tool set served at /mcp ("all" or "core"; "" is all).
	MCPTools string
	// OTLP turns on the export of every session to an OpenTelemetry collector; nil: off. What
	// only the engine knows (node's version, the string cap, evidence, summaries) is filled in.
	OTLP *otlpexport.Options
}

// Service is a wired traced instance.
type Service struct {
	Engine *engine.Manager
	Hub    *stream.Hub
	Export *otlpexport.Exporter // nil when export is off
	Router chi.Router
	// MCP is the Model Context Protocol server whose tools call Router in process; /mcp serves
	// it over Streamable HTTP, `traced mcp` over stdio.
	MCP      *mcp.Server
	http     *http.Server
	endPolls context.CancelFunc // ends long polls at shutdown
	log      *slog.Logger
}

// New builds the service without listening.
func New(o Options) (*Service, error) {
	if o.Logger == nil {
		o.Logger = slog.New(slog.DiscardHandler)
	}
	src := &retained{}
	hub := stream.NewHub(stream.Config{Source: src, Logger: o.Logger, OriginPatterns: o.AllowOrigins,
		QueueSize: o.StreamQueue, WriteTimeout: o.StreamWriteTimeout})
	toHub := &hubPublisher{hub: hub}
	var pub engine.Publisher = toHub
	var wiring *otlpexport.Wiring
	if o.OTLP != nil {
		wiring = otlpexport.Wire(&o.Engine, toHub)
		pub = wiring
	}
	mgr, err := engine.NewManager(o.Engine, pub, o.Logger)
	if err != nil {
		return nil, err
	}
	src.engine = mgr
	var export *otlpexport.Exporter
	var exportStatus func() *api.ExportStatus
	var exportOf func(session string) *api.ExportCounts
	if wiring != nil {
		opts := *o.OTLP
		if opts.Logger == nil {
			opts.Logger = o.Logger
		}
		if export, err = wiring.Start(opts, mgr); err != nil {
			return nil, err
		}
		exportStatus = func() *api.ExportStatus {
			st := export.Status()
			return &st
		}
		exportOf = export.Counts
		toHub.exportOf = exportOf
	}
	shutdown, endPolls := context.WithCancel(context.Background())
	// fail ends what New started (long polls' context, the exporter's goroutines) on any later error.
	fail := func(err error) (*Service, error) {
		endPolls()
		if export != nil {
			export.Shutdown(context.Background())
		}
		return nil, err
	}
	// The MCP tools call the router, which serves them at /mcp: the handler is set once both exist.
	var mcpHTTP lateHandler
	r, err := routes.New(routes.Config{Engine: mgr, Stream: hub, Dashboard: dashboard.New(), Token: o.Token, TokenFile: o.TokenFile,
		AllowOrigins: o.AllowOrigins, BoundAddr: o.BoundAddr, MaxBodyBytes: o.MaxBodyBytes,
		Version: o.Version, Logger: o.Logger, Shutdown: shutdown, MCP: &mcpHTTP, Export: exportStatus, ExportOf: exportOf})
	if err != nil {
		return fail(err)
	}
	m, err := mcpserver.New(mcpserver.Options{API: r, Token: o.Token, Tools: o.MCPTools, Version: o.Version})
	if err != nil {
		return fail(err)
	}
	mcpHTTP.h = mcpserver.HTTPHandler(m)
	return &Service{
		Engine:   mgr,
		Hub:      hub,
		Export:   export,
		Router:   r,
		MCP:      m,
		endPolls: endPolls,
		log:      o.Logger,
		http: &http.Server{
			Handler:           r,
			ReadHeaderTimeout: 5 * time.Second,
			IdleTimeout:       2 * time.Minute,
			MaxHeaderBytes:    16 << 10,
			ErrorLog:          slog.NewLogLogger(o.Logger.Handler(), slog.LevelDebug),
		},
	}, nil
}

// Serve serves on ln until Shutdown; it returns nil after a graceful shutdown.
func (s *Service) Serve(ln net.Listener) error {
	err := s.http.Serve(ln)
	if errors.Is(err, http.ErrServerClosed) {
		return nil
	}
	return err
}

// Shutdown ends long polls, closes streams with 1001, stops accepting, waits for requests in
// flight and kills every child, all bounded by ctx.
func (s *Service) Shutdown(ctx context.Context) error {
	s.endPolls()
	s.Hub.Shutdown(ctx)
	errHTTP := s.http.Shutdown(ctx)
	errEngine := s.Engine.Shutdown(ctx)
	var errExport error
	if s.Export != nil { // after the engine: every session's trace has its end
		errExport = s.Export.Shutdown(ctx)
	}
	return errors.Join(errHTTP, errEngine, errExport)
}

// lateHandler is a handler set after the router that routes to it is built.
type lateHandler struct{ h http.Handler }

func (l *lateHandler) ServeHTTP(w http.ResponseWriter, r *http.Request) { l.h.ServeHTTP(w, r) }

// retained lets the stream hub resolve session names and replay a session's retained events.
type retained struct{ engine *engine.Manager }

func (r *retained) Resolve(session string) (string, bool) {
	s, err := r.engine.Get(session) // an id or a name
	if err != nil {
		return "", false
	}
	return s.ID(), true
}

func (r *retained) Retained(id string, after uint64) ([]api.Event, uint64, uint64, bool) {
	s, err := r.engine.Get(id)
	if err != nil {
		return nil, 0, 0, false
	}
	p := s.Timeline().Events(after, engine.Filter{}, 0)
	return convert.FromEvents(p.Events), p.Oldest, p.Newest, true
}
