// Package otlpexport exports traced sessions to an OpenTelemetry backend over OTLP/HTTP: a session
// is a trace with a root span, its captured events are span events and child spans (mapper.go,
// attributes.go).
//
// Capture never waits for it. The engine hands each event to PublishEvent, which makes one
// non-blocking send into a bounded queue; one goroutine (the mapper) turns what it takes from
// there into spans (a span's events are built when it ends, ring.go), and ended spans go through
// the SDK's batch processor to the collector, whose queue is never overfilled (gate.go). What does not fit anywhere, or what the collector never
// takes, is counted per session and in total (counts.go).
package otlpexport

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"os"
	"strings"
	"sync"
	"time"

	"go.opentelemetry.io/otel/exporters/otlp/otlptrace/otlptracehttp"
	"go.opentelemetry.io/otel/propagation"
	"go.opentelemetry.io/otel/sdk/resource"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	semconv "go.opentelemetry.io/otel/semconv/v1.43.0"
	"go.opentelemetry.io/otel/trace"

	"traced/api"
	"traced/internal/engine"
	"traced/internal/evidence"
)

// Defaults for Options fields left zero.
const (
	// DefaultQueueSize is how many captured events may wait for the mapper, which only copies
	// most of them (ring.go): half a second of a program logging flat out (~30k events/s on 2
	// cores), in 3 MB (an event is 168 bytes and its session's id).
	DefaultQueueSize = 1 << 14
	// DefaultMaxSpanEvents caps the events one span keeps; past it the oldest go (and are
	// counted dropped), so a failing session keeps the lines just before its failure.
	DefaultMaxSpanEvents = 1000
	// DefaultSpanQueue is how many ended spans may wait for the batch processor.
	DefaultSpanQueue = 2048
	// DefaultExportTimeout bounds one export request, retries included.
	DefaultExportTimeout = 10 * time.Second
	// DefaultBatchTimeout is the longest an ended span waits for its batch to fill.
	DefaultBatchTimeout = 2 * time.Second
	defaultServiceName  = "traced"
)

// Options configure an Exporter.
type Options struct {
	// Endpoint is the collector's base URL (http://host:4318), as OTEL_EXPORTER_OTLP_ENDPOINT
	// takes it: /v1/traces is added. "" takes OTEL_EXPORTER_OTLP_TRACES_ENDPOINT or
	// OTEL_EXPORTER_OTLP_ENDPOINT, checked as this is (headers always come from
	// OTEL_EXPORTER_OTLP_HEADERS too).
	Endpoint string
	// ServiceName names the service of every span; "" takes OTEL_SERVICE_NAME, else "traced".
	ServiceName    string
	ServiceVersion string
	NodeVersion    string // process.runtime.version of every root span
	// StringCap caps strings the store does not cap already (arguments, stacks); the store's
	// cap (engine.DefaultStringCap when 0). Captured texts arrive capped.
	StringCap     int
	QueueSize     int // captured events waiting for the mapper; DefaultQueueSize when 0
	MaxSpanEvents int // events one span keeps; DefaultMaxSpanEvents when 0
	SpanQueue     int // ended spans waiting to be sent; DefaultSpanQueue when 0
	// ExportTimeout bounds one export, its retries included; DefaultExportTimeout when 0.
	ExportTimeout time.Duration
	// BatchTimeout is how long an ended span may wait for others; DefaultBatchTimeout when 0.
	BatchTimeout time.Duration
	// ParentFromEnv makes each root span a child of the TRACEPARENT in traced's own environment
	// (traced run inside an instrumented job).
	ParentFromEnv bool
	// Evidence builds a finished session's evidence chain, summarised on its root span; nil: none.
	Evidence func(engine.Summary) *evidence.Evidence
	// Summary gives a session's summary now, for a trace still open at shutdown whose final
	// status was not published yet (the engine publishes it just after the session's end); nil:
	// such a trace ends with what its last published status said.
	Summary func(session string) (engine.Summary, bool)
	Logger  *slog.Logger
	// SpanExporter replaces the OTLP/HTTP exporter (tests pass the SDK's in-memory one).
	SpanExporter sdktrace.SpanExporter
}

// Enabled tells whether export is asked for: an endpoint flag, or the standard variables.
func Enabled(endpoint string) bool {
	if strings.EqualFold(os.Getenv("OTEL_SDK_DISABLED"), "true") {
		return false
	}
	return endpoint != "" || os.Getenv("OTEL_EXPORTER_OTLP_ENDPOINT") != "" ||
		os.Getenv("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT") != ""
}

// item is one captured event on its way to the mapper.
type item struct {
	session string
	ev      engine.Event
}

// Exporter maps sessions to traces and sends them. It implements engine.Publisher; ChildEnv and
// Counts plug into engine.Config (Wire does both, for an engine made before the exporter).
type Exporter struct {
	opts     Options
	endpoint string // where spans go, for the status; "" with a replaced SpanExporter
	tp       *sdktrace.TracerProvider
	tracer   trace.Tracer
	parent   context.Context // root spans' parent: empty, or traced's own TRACEPARENT
	client   *http.Client    // the OTLP exporter's, whose idle connections Shutdown closes
	gate     *gate

	queue    chan item
	wake     chan struct{}      // buffer 1: a status is pending
	flushes  chan chan struct{} // Flush's: closed once what was queued before is mapped
	stop     chan struct{}      // closed by Shutdown: the mapper drains and ends
	stopOnce sync.Once
	mapped   chan struct{} // closed when the mapper has ended

	// mu guards the counts and what the mapper has yet to take.
	mu       sync.Mutex
	counts   counts
	pending  map[string]engine.Summary // the latest status of each session, not yet read
	launched map[string]trace.Span     // root spans ChildEnv started, not yet taken by the mapper

	// The mapper's own.
	sessions map[string]*sessionSpans
	ending   map[string]engine.Summary // finished, waiting for their last events
	ended    recentSet                 // finished sessions: a late event is not a new trace
}

// New starts an exporter; Shutdown ends it.
func New(o Options) (*Exporter, error) {
	if o.StringCap <= 0 {
		o.StringCap = engine.DefaultStringCap
	}
	if o.QueueSize <= 0 {
		o.QueueSize = DefaultQueueSize
	}
	if o.MaxSpanEvents <= 0 {
		o.MaxSpanEvents = DefaultMaxSpanEvents
	}
	if o.SpanQueue <= 0 {
		o.SpanQueue = DefaultSpanQueue
	}
	if o.ExportTimeout <= 0 {
		o.ExportTimeout = DefaultExportTimeout
	}
	if o.BatchTimeout <= 0 {
		o.BatchTimeout = DefaultBatchTimeout
	}
	if o.Logger == nil {
		o.Logger = slog.New(slog.DiscardHandler)
	}
	e := &Exporter{
		opts:     o,
		parent:   context.Background(),
		queue:    make(chan item, o.QueueSize),
		wake:     make(chan struct{}, 1),
		flushes:  make(chan chan struct{}),
		stop:     make(chan struct{}),
		mapped:   make(chan struct{}),
		counts:   newCounts(),
		pending:  make(map[string]engine.Summary),
		launched: make(map[string]trace.Span),
		sessions: make(map[string]*sessionSpans),
		ending:   make(map[string]engine.Summary),
		ended:    newRecentSet(maxRemembered),
	}
	exp := o.SpanExporter
	if exp == nil {
		var err error
		if exp, err = e.otlpExporter(); err != nil {
			return nil, err
		}
	}
	res, err := e.resource()
	if err != nil {
		return nil, err
	}
	if o.ParentFromEnv {
		if tp := os.Getenv("TRACEPARENT"); tp != "" {
			carrier := propagation.MapCarrier{"traceparent": tp, "tracestate": os.Getenv("TRACESTATE")}
			e.parent = propagation.TraceContext{}.Extract(context.Background(), carrier)
		}
	}
	bsp := sdktrace.NewBatchSpanProcessor(countingExporter{SpanExporter: exp, e: e},
		sdktrace.WithMaxQueueSize(o.SpanQueue), sdktrace.WithBatchTimeout(o.BatchTimeout),
		sdktrace.WithExportTimeout(o.ExportTimeout))
	e.gate = newGate(bsp, o.SpanQueue, e)
	limits := sdktrace.NewSpanLimits()
	limits.EventCountLimit = o.MaxSpanEvents
	// A stack or an argument list is cut by the mapper; this only stops a string it missed.
	limits.AttributeValueLengthLimit = 16 * o.StringCap
	e.tp = sdktrace.NewTracerProvider(sdktrace.WithResource(res), sdktrace.WithSpanProcessor(e.gate),
		sdktrace.WithRawSpanLimits(limits))
	e.tracer = e.tp.Tracer("traced/internal/otlpexport")
	go e.mapper()
	return e, nil
}

// otlpExporter makes the OTLP/HTTP exporter, with a client of its own so that Shutdown can
// close its idle connections (no goroutine outlives the exporter).
func (e *Exporter) otlpExporter() (sdktrace.SpanExporter, error) {
	for _, v := range []string{"OTEL_EXPORTER_OTLP_TRACES_PROTOCOL", "OTEL_EXPORTER_OTLP_PROTOCOL"} {
		if p := os.Getenv(v); p != "" && p != "http/protobuf" {
			return nil, fmt.Errorf("%s=%s: traced exports OTLP over HTTP with protobuf only; unset it or set http/protobuf, and point the endpoint at the collector's OTLP/HTTP port (usually 4318)", v, p)
		}
	}
	e.client = &http.Client{Transport: http.DefaultTransport.(*http.Transport).Clone()}
	opts := []otlptracehttp.Option{otlptracehttp.WithHTTPClient(e.client), otlptracehttp.WithTimeout(e.opts.ExportTimeout)}
	u, err := endpointURL(e.opts.Endpoint)
	if err != nil {
		return nil, err
	}
	opts = append(opts, otlptracehttp.WithEndpointURL(u))
	e.endpoint = redact(u)
	exp, err := otlptracehttp.New(context.Background(), opts...)
	if err != nil {
		return nil, fmt.Errorf("otlp exporter: %w", err)
	}
	return exp, nil
}

// resource names the service: Options.ServiceName, else OTEL_SERVICE_NAME, else traced; and
// whatever OTEL_RESOURCE_ATTRIBUTES adds.
func (e *Exporter) resource() (*resource.Resource, error) {
	name := e.opts.ServiceName
	if name == "" {
		name = os.Getenv("OTEL_SERVICE_NAME")
	}
	if name == "" {
		name = defaultServiceName
	}
	own := resource.NewWithAttributes(semconv.SchemaURL, semconv.ServiceName(name),
		semconv.ServiceVersion(e.opts.ServiceVersion))
	env, err := resource.New(context.Background(), resource.WithFromEnv(), resource.WithTelemetrySDK())
	if err != nil && !errors.Is(err, resource.ErrPartialResource) {
		return nil, fmt.Errorf("otlp resource: %w", err)
	}
	// Ours last: a service name from the flag beats the environment's.
	res, err := resource.Merge(env, own)
	if err != nil {
		return nil, fmt.Errorf("otlp resource: %w", err)
	}
	return res, nil
}

// PublishEvent queues ev for the mapper without ever waiting: a full queue drops it, counted.
// Kinds never exported are not queued.
func (e *Exporter) PublishEvent(session string, ev engine.Event) {
	if !exported(ev.Kind) {
		return
	}
	select {
	case e.queue <- item{session: session, ev: ev}:
	default:
		e.mu.Lock()
		e.counts.drop(session, 1)
		e.mu.Unlock()
	}
}

// PublishStatus keeps the latest summary of the session for the mapper, which reads it when it
// next wakes; a finished one ends the session's trace once its last events are mapped.
func (e *Exporter) PublishStatus(s engine.Summary) {
	// s.Counts is kept as is: the engine's Session.Summary builds a new map for every summary it
	// publishes, and no publisher beside this one writes to it.
	e.mu.Lock()
	e.pending[s.ID] = s
	e.mu.Unlock()
	select {
	case e.wake <- struct{}{}:
	default:
	}
}

// ChildEnv starts the session's root span as its child is launched, and gives the child
// TRACEPARENT (and TRACESTATE) for it, and OTEL_RESOURCE_ATTRIBUTES naming the session, so that
// an app instrumented with OpenTelemetry joins the session's trace.
func (e *Exporter) ChildEnv(session string) map[string]string {
	root := e.startRoot(session)
	carrier := propagation.MapCarrier{}
	propagation.TraceContext{}.Inject(trace.ContextWithSpan(context.Background(), root), carrier)
	e.mu.Lock()
	e.launched[session] = root
	e.mu.Unlock()
	env := map[string]string{"TRACEPARENT": carrier.Get("traceparent")}
	if ts := carrier.Get("tracestate"); ts != "" {
		env["TRACESTATE"] = ts
	}
	attrs := string(attrSession) + "=" + session
	if own := os.Getenv("OTEL_RESOURCE_ATTRIBUTES"); own != "" {
		attrs = own + "," + attrs
	}
	env["OTEL_RESOURCE_ATTRIBUTES"] = attrs
	return env
}

// startRoot starts a session's root span, under traced's own TRACEPARENT when asked: at launch
// (ChildEnv), or when the mapper first hears of a session traced did not launch.
func (e *Exporter) startRoot(session string, opts ...trace.SpanStartOption) trace.Span {
	opts = append(opts, trace.WithSpanKind(trace.SpanKindInternal), trace.WithAttributes(attrSession.String(session)))
	_, root := e.tracer.Start(e.parent, "session "+session, opts...)
	return root
}

// Counts tells how the session fares so far, for its summary on the wire (it never blocks on
// anything but a short lock).
func (e *Exporter) Counts(session string) *api.ExportCounts {
	e.mu.Lock()
	defer e.mu.Unlock()
	c := e.counts.session(session)
	return &c
}

// Status reports the export's totals and queue, for GET /api/trace/status.
func (e *Exporter) Status() api.ExportStatus {
	e.mu.Lock()
	defer e.mu.Unlock()
	t := e.counts.total
	return api.ExportStatus{Endpoint: e.endpoint, Queued: len(e.queue), QueueSize: cap(e.queue),
		Spans: t.Spans, Events: t.Events, Dropped: t.Dropped, LastError: e.counts.lastErr}
}

// Flush maps what was published before it and sends every span ended so far, waiting for the
// collector's answer or ctx. Sessions still running stay open: a root span is sent when its
// session ends.
func (e *Exporter) Flush(ctx context.Context) error {
	mapped := make(chan struct{})
	select {
	case e.flushes <- mapped:
	case <-e.mapped:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
	select {
	case <-mapped:
	case <-ctx.Done():
		return ctx.Err()
	}
	if err := e.tp.ForceFlush(ctx); err != nil {
		return fmt.Errorf("otlp flush: %w", err)
	}
	return nil
}

// Shutdown maps what is queued, ends the trace of every session still open, and sends what is
// left, all bounded by ctx; past it the rest is lost. It is safe to call more than once.
func (e *Exporter) Shutdown(ctx context.Context) error {
	e.stopOnce.Do(func() { close(e.stop) })
	select {
	case <-e.mapped:
	case <-ctx.Done():
	}
	// The batch processor first: what it has not sent by the deadline is counted lost, and so
	// is what the mapper still ends (the gate is closed), rather than vanishing as it would
	// past the provider's shutdown.
	err := e.gate.Shutdown(ctx)
	<-e.mapped
	_ = e.tp.Shutdown(ctx) // the gate again, a no-op now
	if e.client != nil {
		e.client.CloseIdleConnections()
	}
	if err != nil {
		return fmt.Errorf("otlp flush at shutdown: %w", err)
	}
	return nil
}
