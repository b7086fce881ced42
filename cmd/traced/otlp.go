package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"time"

	"go.opentelemetry.io/otel"

	"traced/internal/otlpexport"
)

// otlpFlushGrace bounds the flush of what is left to send at exit: a collector that does not
// answer in this long loses the rest (counted).
const otlpFlushGrace = 5 * time.Second

// otlpFlags are the OpenTelemetry export's settings, which serve and run both take; the
// standard OTEL_EXPORTER_OTLP_* and OTEL_SERVICE_NAME variables work without them.
type otlpFlags struct {
	endpoint string
}

func (f *otlpFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&f.endpoint, "otlp-endpoint", "", "export every session as a trace to this OpenTelemetry collector's OTLP/HTTP base URL, e.g. http://localhost:4318 (default: OTEL_EXPORTER_OTLP_ENDPOINT; off when neither is set)")
}

// check refuses a destination that is no OTLP/HTTP receiver, named by the flag or the
// standard variables alike.
func (f *otlpFlags) check() error { return otlpexport.CheckEndpoint(f.endpoint) }

// options are the exporter's options, nil when export is off. The SDK's own error reports go to
// log at debug level: the exporter counts and reports failed exports itself.
func (f *otlpFlags) options(log *slog.Logger, parentFromEnv bool) *otlpexport.Options {
	if !otlpexport.Enabled(f.endpoint) {
		return nil
	}
	otel.SetErrorHandler(otel.ErrorHandlerFunc(func(err error) { log.Debug("opentelemetry", "err", err) }))
	return &otlpexport.Options{Endpoint: f.endpoint, ServiceVersion: version, Logger: log, ParentFromEnv: parentFromEnv}
}

// flushExport sends what is left within otlpFlushGrace and tells how the export fared.
func flushExport(e *otlpexport.Exporter, w io.Writer) {
	ctx, cancel := context.WithTimeout(context.Background(), otlpFlushGrace)
	defer cancel()
	err := e.Shutdown(ctx)
	st := e.Status()
	fmt.Fprintf(w, "otlp: %d spans and %d events exported to %s, %d events dropped\n", st.Spans, st.Events, st.Endpoint, st.Dropped)
	if st.LastError != "" {
		fmt.Fprintln(w, "otlp: last export error:", st.LastError)
	} else if err != nil {
		fmt.Fprintln(w, "otlp:", err)
	}
}
