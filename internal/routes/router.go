package routes

import (
	"context"
	"log/slog"
	"net/http"
	"net/netip"
	"strconv"

	"github.com/go-chi/chi/v5"

	"traced/api"
	"traced/internal/dashboard"
	"traced/internal/engine"
)

// Config is what the HTTP surface needs.
type Config struct {
	Engine *engine.Manager
	// Stream serves GET /api/stream (the stream hub); it runs after the Host, Origin and token
	// checks and the contract validation of the query.
	Stream http.Handler
	// MCP, when set, serves the Model Context Protocol (Streamable HTTP) at /mcp, after the Host,
	// Origin and token checks; its JSON-RPC bodies are its own, not the contract's.
	MCP http.Handler
	// Dashboard serves GET /ui and GET /ui/{asset}, the dashboard's static files; it runs after
	// the Host and Origin checks but needs no token (the page asks for it). nil answers 404.
	Dashboard    http.Handler
	Token        string // bearer token; "" turns auth off (--no-auth)
	TokenFile    string // where the token is kept, named in 401 hints
	AllowOrigins []string
	BoundAddr    netip.Addr // the listener's address, allowed in Host besides loopback
	MaxBodyBytes int64      // request body cap; 0: DefaultMaxBodyBytes
	Version      string
	Logger       *slog.Logger
	// Shutdown is cancelled when the service shuts down, ending long polls.
	Shutdown context.Context
	// Export reports the OTLP export's state for the status; nil when export is off.
	Export func() *api.ExportStatus
	// ExportOf tells how a session fares in the OTLP export, for its summary; nil when export
	// is off.
	ExportOf func(session string) *api.ExportCounts
}

// DefaultMaxBodyBytes caps request bodies: a start request with many args fits in a few KiB.
const DefaultMaxBodyBytes = 1 << 20

type app struct {
	cfg      Config
	contract *contract
	log      *slog.Logger
	leaks    leakWindows // open leak windows (heapwhy.go)
}

// New builds the router. Order: Host check, Origin check, token, body cap, contract validation,
// handler. The stream route has the same chain without the body cap (an upgrade has no body); its
// token may also come as ?token=, and the hub checks the Origin once more when it upgrades.
func New(cfg Config) (chi.Router, error) {
	if cfg.MaxBodyBytes <= 0 {
		cfg.MaxBodyBytes = DefaultMaxBodyBytes
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	if cfg.Shutdown == nil {
		cfg.Shutdown = context.Background()
	}
	c, err := newContract()
	if err != nil {
		return nil, err
	}
	a := &app{cfg: cfg, contract: c, log: cfg.Logger}

	r := chi.NewRouter()
	r.Use(dashboard.Secure, a.recoverPanics, a.checkHost, a.checkOrigin)
	r.NotFound(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodGet && r.URL.Path == "/ui/" { // typed by hand: the page is /ui
			a.toDashboard(w, r)
			return
		}
		a.writeError(w, r, newError(http.StatusNotFound, "not_found", "no route "+r.Method+" "+r.URL.Path, "GET /api/openapi.yaml lists the routes"))
	})
	r.MethodNotAllowed(func(w http.ResponseWriter, r *http.Request) {
		a.writeError(w, r, newError(http.StatusMethodNotAllowed, "method_not_allowed", r.Method+" is not allowed on "+r.URL.Path, "GET /api/openapi.yaml lists the methods"))
	})

	r.Get("/healthz", a.health)        // liveness, no auth
	r.Get("/", a.toDashboard)          // a browser opening the service lands on the dashboard
	r.Get("/ui", a.dashboard)          // the dashboard's page, no auth (it asks for the token)
	r.Get("/ui/{asset}", a.dashboard)  // its modules and styles
	r.Get("/api/openapi.yaml", a.spec) // the contract, no auth
	r.With(a.requireToken(true), a.validateRequest).
		Get("/api/stream", cfg.Stream.ServeHTTP) // WebSocket event stream
	if cfg.MCP != nil {
		r.With(a.requireToken(false)).Handle("/mcp", cfg.MCP) // MCP tools over this same API
	}

	r.Group(func(r chi.Router) {
		r.Use(a.requireToken(false), a.readBody, a.validateRequest)
		r.Get("/api/trace/status", a.status)     // capabilities and limits
		r.Post("/api/trace/start", a.start)      // launch a traced run
		r.Post("/api/trace/stop", a.stop)        // kill a run's process group
		r.Get("/api/trace/list", a.list)         // every retained session
		r.Get("/api/trace", a.trace)             // one session: summary and events
		r.Delete("/api/trace", a.deleteTrace)    // forget a finished session
		r.Get("/api/trace/evidence", a.evidence) // the failure evidence chain
		r.Get("/api/trace/events", a.events)     // a page of events after a cursor
		r.Get("/api/trace/wait", a.wait)         // long poll for the next matching event

		r.Post("/api/debug/attach", a.attach) // a debug session on a running node --inspect (attach.go)

		a.mountDebug(r) // /api/debug/{session}/...: the debugger of debug sessions (debug.go)
	})
	return r, nil
}

func (a *app) health(w http.ResponseWriter, r *http.Request) {
	writeJSON(w, http.StatusOK, api.HealthResponse{OK: true})
}

func (a *app) toDashboard(w http.ResponseWriter, r *http.Request) {
	http.Redirect(w, r, "/ui", http.StatusFound)
}

func (a *app) dashboard(w http.ResponseWriter, r *http.Request) {
	if a.cfg.Dashboard == nil {
		a.writeError(w, r, newError(http.StatusNotFound, "not_found", "this service has no dashboard", "use the API: GET /api/openapi.yaml"))
		return
	}
	a.cfg.Dashboard.ServeHTTP(w, r)
}

func (a *app) spec(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "application/yaml")
	w.Write(api.Spec)
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }
