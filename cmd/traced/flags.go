package main

import (
	"flag"
	"fmt"
	"log/slog"
	"os"
	"strings"
	"time"

	"traced/internal/engine"
)

// engineFlags are the engine settings both commands take.
type engineFlags struct {
	node         string
	root         string
	maxEvents    int
	maxSessions  int
	stringCap    int
	startTimeout time.Duration
	redact       string
}

func (f *engineFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&f.node, "node", "", "node binary (default: node on PATH, resolved to an absolute path once)")
	fs.StringVar(&f.root, "root", ".", "workspace root: targets and cwd must resolve inside it")
	fs.IntVar(&f.maxEvents, "max-events", engine.DefaultMaxEvents, "events kept per session (a ring; older ones are dropped and counted)")
	fs.IntVar(&f.maxSessions, "max-sessions", engine.DefaultMaxSessions, "sessions retained; the oldest finished one is evicted first")
	fs.IntVar(&f.stringCap, "string-cap", engine.DefaultStringCap, "bytes kept of each captured string")
	fs.DurationVar(&f.startTimeout, "start-timeout", engine.DefaultStartTimeout, "bound on spawning node and attaching to it")
	fs.StringVar(&f.redact, "redact", "on", "on: credential-shaped values and secret-named variables read <redacted:KIND> in every answer, event and export; off: shown as the program has them")
}

// validate refuses flag values no config can take.
func (f *engineFlags) validate() error {
	if f.redact != "on" && f.redact != "off" {
		return fmt.Errorf("--redact %q: on or off", f.redact)
	}
	return nil
}

// config builds the engine settings; when node cannot be found the error says so and the
// config is still usable (NodePath empty: starts are refused with that reason).
func (f *engineFlags) config() (engine.Config, error) {
	node, err := engine.FindNode(f.node)
	self, _ := os.Executable() // the shim is this binary; without it node is started directly
	return engine.Config{NodePath: node, ShimPath: self, Root: f.root, MaxEvents: f.maxEvents, MaxSessions: f.maxSessions,
		StringCap: f.stringCap, StartTimeout: f.startTimeout, RedactOff: f.redact == "off"}, err
}

// listFlag collects a repeatable, comma-separated flag.
type listFlag []string

func (l *listFlag) String() string { return strings.Join(*l, ",") }

func (l *listFlag) Set(s string) error {
	for _, v := range strings.Split(s, ",") {
		if v = strings.TrimSpace(v); v != "" {
			*l = append(*l, v)
		}
	}
	return nil
}

func newFlagSet(name, synopsis string) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.Usage = func() {
		fmt.Fprintf(os.Stderr, "Usage: %s\n\nFlags:\n", synopsis)
		fs.PrintDefaults()
	}
	return fs
}

// newLogger is the text log on stderr at a --log-level (debug, info, warn or error).
func newLogger(level string) (*slog.Logger, error) {
	var l slog.Level
	if err := l.UnmarshalText([]byte(level)); err != nil {
		return nil, fmt.Errorf("--log-level: %w", err)
	}
	return slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: l})), nil
}
