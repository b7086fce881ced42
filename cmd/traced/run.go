package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"syscall"

	"golang.org/x/sys/unix"

	"traced/api"
	"traced/api/convert"
	"traced/internal/engine"
	"traced/internal/engine/proctree"
	"traced/internal/evidence"
	"traced/internal/otlpexport"
	"traced/internal/textform"
)

func run(args []string) int {
	fs := newFlagSet("run", "traced run [flags] <script> [args...]")
	var ef engineFlags
	ef.register(fs)
	var of otlpFlags
	of.register(fs)
	asJSON := fs.Bool("json", false, "print a machine-readable report (summary, events, evidence) on stdout")
	verbose := fs.Bool("verbose", false, "also print context and script events")
	timeout := fs.Duration("timeout", 0, "stop the program after this long, e.g. 30s (0: never); the report says it was stopped")
	if err := fs.Parse(args); err != nil {
		return exitUsage(err)
	}
	if fs.NArg() == 0 {
		fs.Usage()
		return 2
	}
	if err := of.check(); err != nil {
		fmt.Fprintln(os.Stderr, "traced:", err)
		return 2
	}
	if err := ef.validate(); err != nil {
		fmt.Fprintln(os.Stderr, "traced:", err)
		return 2
	}
	cfg, err := ef.config()
	if err != nil {
		fmt.Fprintln(os.Stderr, "traced:", err)
		return 127
	}
	cfg.MaxSessions = 1
	_ = proctree.EnableSubreaper() // orphans of the program's tree become ours: an interrupt kills them
	var printer io.Writer = os.Stderr
	if *asJSON {
		printer = io.Discard
	}
	lines := newLinePrinter(printer, *verbose)
	defer lines.Close() // on the early returns; Close is idempotent
	var pub engine.Publisher = lines
	var wiring *otlpexport.Wiring
	otlp := of.options(slog.New(slog.DiscardHandler), true)
	if otlp != nil {
		wiring = otlpexport.Wire(&cfg, lines)
		pub = wiring
	}
	mgr, err := engine.NewManager(cfg, pub, nil)
	if err != nil {
		fmt.Fprintln(os.Stderr, "traced:", err)
		return 1
	}
	// Shutdown also removes what the manager made in $TMPDIR (the preload's traced-boot-*).
	defer func() {
		ctx, cancel := context.WithTimeout(context.Background(), shutdownGrace)
		defer cancel()
		mgr.Shutdown(ctx)
	}()
	var export *otlpexport.Exporter
	if wiring != nil {
		if export, err = wiring.Start(*otlp, mgr); err != nil {
			fmt.Fprintln(os.Stderr, "traced:", err)
			return 2
		}
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if *timeout < 0 {
		fmt.Fprintln(os.Stderr, "traced: --timeout must not be negative")
		return 2
	}
	s, err := mgr.Start(ctx, engine.StartRequest{Target: fs.Arg(0), Args: fs.Args()[1:], Timeout: *timeout})
	if err != nil {
		lines.Close() // node's own output, if any, comes before the reason
		fmt.Fprintln(os.Stderr, "traced:", err)
		if export != nil {
			flushExport(export, os.Stderr)
		}
		return 1
	}
	select {
	case <-s.Done():
	case <-ctx.Done(): // interrupted: stop the child, report what was seen
		mgr.Shutdown(context.Background())
	}
	lines.Close()      // every event line is out before the evidence
	if export != nil { // before the summary, which tells what the export sent
		flushExport(export, os.Stderr)
	}
	sum := s.Summary()
	if sum.Status == engine.StatusStopped && sum.Error != "" { // --timeout ended it, not the program
		fmt.Fprintln(os.Stderr, "traced:", sum.Error)
	}
	res := convert.FromEvidenceResult(evidence.Build(evidence.Input{Summary: sum, Events: s.Timeline().Snapshot(context.Background())}))
	if *asJSON {
		wire := convert.FromSummary(sum)
		if export != nil {
			wire.Export = export.Counts(sum.ID)
		}
		enc := json.NewEncoder(os.Stdout)
		enc.SetIndent("", "  ")
		// The evidence result is embedded, as in GET /api/trace/evidence: one "evidence" object
		// (null for a clean run, with "reason" beside it), not evidence.evidence.
		enc.Encode(struct {
			Session api.Summary `json:"session"`
			Events  []api.Event `json:"events"`
			api.EvidenceResult
		}{wire, convert.FromEvents(s.Timeline().Events(0, engine.Filter{Kinds: engine.KindSet{engine.KindConsole: true, engine.KindException: true,
			engine.KindStdout: true, engine.KindStderr: true, engine.KindExit: true}}, 0).Events), res})
	} else if res.Evidence != nil { // the text form, as traced trace and evidence answer it
		fmt.Fprint(os.Stderr, "evidence:\n"+textform.Answer(api.EvidenceResponse{Session: sum.ID, Status: string(sum.Status), EvidenceResult: res}))
	}
	switch {
	case sum.ExitCode != nil:
		return *sum.ExitCode
	case sum.Signal != "":
		return 128 + signalNumber(sum.Signal)
	}
	return 1
}

// signalNumber maps a signal name such as "SIGABRT" back to its number (0 when unknown).
func signalNumber(name string) int {
	return int(unix.SignalNum(name))
}
