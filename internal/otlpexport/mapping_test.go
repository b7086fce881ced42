package otlpexport

import (
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"

	"traced/internal/engine"
	"traced/internal/evidence"
	"traced/internal/leakcheck"
)

func TestMain(m *testing.M) { os.Exit(leakcheck.Run(m)) }

// kept is the SDK's in-memory exporter, whose spans outlive the provider's shutdown (the
// in-memory exporter's own Shutdown forgets them).
type kept struct{ *tracetest.InMemoryExporter }

func (kept) Shutdown(context.Context) error { return nil }

// session is a small session's capture as the engine publishes it: a console line, a pause, a
// worker with a line of its own, a heap snapshot, a caught throw, an uncaught exception, a
// stdout line, a script (not exported) and the exit.
func publishSession(e *Exporter, id string, t0 time.Time) engine.Summary {
	at := func(ms int) time.Time { return t0.Add(time.Duration(ms) * time.Millisecond) }
	code := 1
	sum := engine.Summary{ID: id, Mode: engine.ModeTrace, Status: engine.StatusRunning, Target: "/w/app.js",
		Args: []string{"--n", "3"}, Cwd: "/w", PID: 4242, StartedAt: t0, Counts: map[engine.Kind]int{}}
	e.PublishStatus(sum)
	evs := []engine.Event{
		{Kind: engine.KindScript, Script: &engine.ScriptInfo{ScriptID: "1", URL: "file:///w/app.js"}},
		{Kind: engine.KindConsole, Console: &engine.ConsoleInfo{Level: "log", Text: engine.Text{Value: "starting 3"},
			Frame: &engine.Frame{Function: "main", File: "app.js", Line: 2, Column: 9}}},
		{Kind: engine.KindPause, Pause: &engine.PauseInfo{Reason: "breakpoint", HitBreakpoints: []string{"bp1"},
			Location: &engine.Frame{File: "app.js", Line: 3, Column: 1}}},
		{Kind: engine.KindResume},
		{Kind: engine.KindTarget, Target: "t1", TargetInfo: &engine.TargetInfo{Ref: "t1", Kind: "worker", Title: "[worker 1] w.js", Status: engine.TargetAttached}},
		{Kind: engine.KindConsole, Target: "t1", Console: &engine.ConsoleInfo{Level: "warn", Text: engine.Text{Value: "from the worker"}}},
		{Kind: engine.KindTarget, Target: "t1", TargetInfo: &engine.TargetInfo{Ref: "t1", Kind: "worker", Status: engine.TargetExited}},
		{Kind: engine.KindProgress, Progress: &engine.ProgressInfo{Op: engine.OpHeapSnapshot, Ref: "hs1", Done: 1, Total: 10}},
		{Kind: engine.KindProgress, Progress: &engine.ProgressInfo{Op: engine.OpHeapSnapshot, Ref: "hs1", Done: 10, Total: 10, Finished: true}},
		{Kind: engine.KindThrow, Throw: &engine.ThrowInfo{Class: "RangeError", Message: engine.Text{Value: "caught one"}, Caught: true,
			Location: &engine.Frame{File: "app.js", Line: 5, Column: 3}, Locals: []engine.Variable{{Name: "n", Value: "3"}}}},
		{Kind: engine.KindStdout, Output: &engine.OutputInfo{Text: engine.Text{Value: "x", Truncated: true, Length: 9000}}},
		{Kind: engine.KindException, Exception: &engine.ExceptionInfo{Text: "Uncaught", Class: "TypeError",
			Message: engine.Text{Value: "boom"}, File: "app.js", Line: 7, Column: 11,
			Stack: []engine.Frame{{Function: "fail", File: "app.js", Line: 7, Column: 11}, {File: "app.js", Line: 9, Column: 1}}}},
		{Kind: engine.KindExit, Exit: &engine.ExitInfo{Code: &code}},
	}
	for i := range evs {
		evs[i].Seq = uint64(i + 1)
		evs[i].Time = at(10 * (i + 1))
		sum.Counts[evs[i].Kind]++
		e.PublishEvent(id, evs[i])
	}
	end := at(1000)
	sum.Status, sum.ExitCode, sum.EndedAt, sum.LastSeq = engine.StatusExited, &code, &end, uint64(len(evs))
	e.PublishStatus(sum)
	return sum
}

func attrs(kvs []attribute.KeyValue) map[attribute.Key]attribute.Value {
	m := make(map[attribute.Key]attribute.Value, len(kvs))
	for _, kv := range kvs {
		m[kv.Key] = kv.Value
	}
	return m
}

// TestMapping checks the trace one session becomes: the root span the child's TRACEPARENT
// names, with the summary's attributes and the evidence's summary; child spans for the pause,
// the worker and the heap snapshot; events as span events, exceptions by the conventions.
func TestMapping(t *testing.T) {
	mem := kept{tracetest.NewInMemoryExporter()}
	e, err := New(Options{SpanExporter: mem, NodeVersion: "v20.20.2", BatchTimeout: time.Millisecond,
		Evidence: func(sum engine.Summary) *evidence.Evidence {
			return &evidence.Evidence{Failure: evidence.Failure{Kind: evidence.FailureException, Class: "TypeError",
				Message: "boom", Location: &engine.Frame{File: "app.js", Line: 7}}, Confidence: evidence.ConfidenceHigh}
		}})
	if err != nil {
		t.Fatal(err)
	}
	env := e.ChildEnv("s1")
	m := regexp.MustCompile(`^00-([0-9a-f]{32})-([0-9a-f]{16})-01$`).FindStringSubmatch(env["TRACEPARENT"])
	if m == nil {
		t.Fatalf("TRACEPARENT %q", env["TRACEPARENT"])
	}
	if !strings.Contains(env["OTEL_RESOURCE_ATTRIBUTES"], "traced.session.id=s1") {
		t.Errorf("OTEL_RESOURCE_ATTRIBUTES %q", env["OTEL_RESOURCE_ATTRIBUTES"])
	}
	t0 := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	publishSession(e, "s1", t0)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := e.Shutdown(ctx); err != nil {
		t.Fatal(err)
	}

	spans := mem.GetSpans()
	byName := make(map[string]tracetest.SpanStub)
	for _, s := range spans {
		byName[s.Name] = s
	}
	root, ok := byName["node app.js"]
	if !ok {
		t.Fatalf("no root span named node app.js in %d spans: %+v", len(spans), byName)
	}
	if got := root.SpanContext.TraceID().String(); got != m[1] {
		t.Errorf("root trace %s, TRACEPARENT's %s", got, m[1])
	}
	if got := root.SpanContext.SpanID().String(); got != m[2] {
		t.Errorf("root span %s, TRACEPARENT's %s", got, m[2])
	}
	ra := attrs(root.Attributes)
	for k, want := range map[attribute.Key]string{
		"traced.session.id": "s1", "traced.status": "exited", "traced.mode": "trace", "process.pid": "4242",
		"process.exit.code": "1", "process.runtime.version": "v20.20.2", "process.working_directory": "/w",
		"traced.count.console": "2", "traced.count.script": "1", "traced.events": "13", "traced.events.dropped": "0",
		"traced.evidence.summary": "TypeError: boom at app.js:7", "traced.evidence.confidence": "high",
		"process.command_args": `["node","/w/app.js","--n","3"]`,
	} {
		if got := ra[k].Emit(); got != want {
			t.Errorf("root %s = %q, want %q", k, got, want)
		}
	}
	if root.Status.Code != codes.Error || root.Status.Description != "exit code 1" {
		t.Errorf("root status %+v", root.Status)
	}
	if !root.EndTime.Equal(t0.Add(time.Second)) {
		t.Errorf("root ends %v, want the summary's end", root.EndTime)
	}
	var names []string
	events := make(map[string]map[attribute.Key]attribute.Value)
	for _, ev := range root.Events {
		names = append(names, ev.Name)
		if events[ev.Name] == nil || ev.Name == "exception" && attrs(ev.Attributes)["exception.type"].AsString() == "TypeError" {
			events[ev.Name] = attrs(ev.Attributes)
		}
	}
	if got := strings.Join(names, ","); got != "console,exception,stdout,exception,exit" {
		t.Errorf("root events %s", got)
	}
	con := events["console"]
	if con["console.level"].AsString() != "log" || con["console.text"].AsString() != "starting 3" ||
		con["code.file.path"].AsString() != "app.js" || con["code.line.number"].AsInt64() != 2 || con["code.function.name"].AsString() != "main" {
		t.Errorf("console event %v", con)
	}
	exc := events["exception"]
	if exc["exception.type"].AsString() != "TypeError" || exc["exception.message"].AsString() != "boom" ||
		exc["exception.stacktrace"].AsString() != "    at fail (app.js:7:11)\n    at <anonymous> (app.js:9:1)" {
		t.Errorf("exception event %v", exc)
	}
	if out := events["stdout"]; out["log.iostream"].AsString() != "stdout" || out["traced.text.length"].AsInt64() != 9000 {
		t.Errorf("stdout event %v", out)
	}

	for name, want := range map[string]map[attribute.Key]string{
		"pause breakpoint":          {"traced.pause.reason": "breakpoint", "code.line.number": "3", "traced.pause.breakpoints": `["bp1"]`},
		"worker t1 [worker 1] w.js": {"traced.target.ref": "t1", "traced.target.status": "exited"},
		"heap-snapshot hs1":         {"traced.job.finished": "true", "traced.job.total": "10"},
	} {
		s, ok := byName[name]
		if !ok {
			t.Errorf("no span %q", name)
			continue
		}
		if s.Parent.SpanID() != root.SpanContext.SpanID() {
			t.Errorf("span %q's parent is not the root", name)
		}
		a := attrs(s.Attributes)
		for k, v := range want {
			if got := a[k].Emit(); got != v {
				t.Errorf("span %q: %s = %q, want %q", name, k, got, v)
			}
		}
	}
	if w := byName["worker t1 [worker 1] w.js"]; len(w.Events) != 1 || attrs(w.Events[0].Attributes)["console.text"].AsString() != "from the worker" {
		t.Errorf("the worker's console line is not on its span: %+v", w.Events)
	}
	if p := byName["pause breakpoint"]; !p.StartTime.Equal(t0.Add(30*time.Millisecond)) || !p.EndTime.Equal(t0.Add(40*time.Millisecond)) {
		t.Errorf("pause spans %v..%v, want the pause and resume events' times", p.StartTime, p.EndTime)
	}
	if got := e.Counts("s1"); got.Spans != 4 || got.Events != 6 || got.Dropped != 0 {
		t.Errorf("counts %+v, want 4 spans, 6 events, none dropped", got)
	}
}

// TestSpanEventCap: a span keeps its newest events past the cap; the rest count as dropped.
func TestSpanEventCap(t *testing.T) {
	mem := kept{tracetest.NewInMemoryExporter()}
	e, err := New(Options{SpanExporter: mem, MaxSpanEvents: 5})
	if err != nil {
		t.Fatal(err)
	}
	t0 := time.Now()
	e.PublishStatus(engine.Summary{ID: "s1", Status: engine.StatusRunning, Target: "/w/a.js", StartedAt: t0})
	for i := 1; i <= 12; i++ {
		e.PublishEvent("s1", engine.Event{Seq: uint64(i), Time: t0, Kind: engine.KindConsole,
			Console: &engine.ConsoleInfo{Level: "log", Text: engine.Text{Value: "line"}}})
	}
	e.PublishStatus(engine.Summary{ID: "s1", Status: engine.StatusExited, Target: "/w/a.js", StartedAt: t0, EndedAt: &t0, LastSeq: 12})
	if err := e.Shutdown(context.Background()); err != nil {
		t.Fatal(err)
	}
	spans := mem.GetSpans()
	if len(spans) != 1 || len(spans[0].Events) != 5 || attrs(spans[0].Events[4].Attributes)["traced.seq"].AsInt64() != 12 {
		t.Fatalf("want one span keeping events 8..12, got %+v", spans)
	}
	if got := e.Counts("s1"); got.Events != 5 || got.Dropped != 7 {
		t.Errorf("counts %+v, want 5 events and 7 dropped", got)
	}
}

// TestUnreachableCollector: with no collector listening, every event (past the queue, or on the
// span that could not be sent) is counted dropped, in the session's counts and in the total, with
// the error kept, and a flush still ends in time.
func TestUnreachableCollector(t *testing.T) {
	e, err := New(Options{Endpoint: closedPort(t), QueueSize: 8, BatchTimeout: time.Millisecond, ExportTimeout: 2 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	t0 := time.Now()
	e.ChildEnv("s1")
	e.PublishStatus(engine.Summary{ID: "s1", Status: engine.StatusRunning, Target: "/w/a.js", StartedAt: t0})
	const n = 1000 // far past the queue: most are dropped at once, the rest with the span
	for i := 1; i <= n; i++ {
		e.PublishEvent("s1", engine.Event{Seq: uint64(i), Time: t0, Kind: engine.KindConsole,
			Console: &engine.ConsoleInfo{Level: "log", Text: engine.Text{Value: "line"}}})
	}
	e.PublishStatus(engine.Summary{ID: "s1", Status: engine.StatusExited, Target: "/w/a.js", StartedAt: t0, EndedAt: &t0, LastSeq: n})
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	e.Flush(ctx) // its error is the failed export's, unless that came before it
	if ctx.Err() != nil {
		t.Fatal("flush to no collector: out of time")
	}
	// Every event was either past the queue or on the root span, whose export failed: n + 1.
	if got := e.Counts("s1"); got.Dropped != n+1 || got.Spans != 0 {
		t.Errorf("counts %+v, want all %d events and the span dropped", got, n)
	}
	st := e.Status()
	if st.Dropped != n+1 || !strings.Contains(st.LastError, "connect") || !strings.HasSuffix(st.Endpoint, "/v1/traces") {
		t.Errorf("status %+v", st)
	}
	if err := e.Shutdown(ctx); err != nil {
		t.Errorf("shutdown with nothing left to send: %v", err)
	}
}

// TestProtocol: a protocol traced does not speak is refused at start, naming the variable.
func TestProtocol(t *testing.T) {
	t.Setenv("OTEL_EXPORTER_OTLP_PROTOCOL", "grpc")
	if _, err := New(Options{Endpoint: "http://localhost:4318"}); err == nil || !strings.Contains(err.Error(), "OTEL_EXPORTER_OTLP_PROTOCOL=grpc") {
		t.Errorf("New under protocol grpc: %v", err)
	}
}

func TestTracesURL(t *testing.T) {
	for in, want := range map[string]string{
		"http://c:4318":           "http://c:4318/v1/traces",
		"http://c:4318/":          "http://c:4318/v1/traces",
		"https://c/otlp":          "https://c/otlp/v1/traces",
		"http://c:4318/v1/traces": "http://c:4318/v1/traces",
	} {
		if got, err := tracesURL(in); err != nil || got != want {
			t.Errorf("tracesURL(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	for _, bad := range []string{"c:4318", "grpc://c:4317", "http://"} {
		if _, err := tracesURL(bad); err == nil {
			t.Errorf("tracesURL(%q) took it", bad)
		}
	}
}

// closedPort is the base URL of a loopback port nothing listens on.
func closedPort(t *testing.T) string {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	return "http://" + addr
}

var _ sdktrace.SpanExporter = kept{}

// TestParentFromEnv: traced run under a job with TRACEPARENT puts the session's trace under it.
func TestParentFromEnv(t *testing.T) {
	const trace, parent = "4bf92f3577b34da6a3ce929d0e0e4736", "00f067aa0ba902b7"
	t.Setenv("TRACEPARENT", "00-"+trace+"-"+parent+"-01")
	mem := kept{tracetest.NewInMemoryExporter()}
	e, err := New(Options{SpanExporter: mem, ParentFromEnv: true})
	if err != nil {
		t.Fatal(err)
	}
	env := e.ChildEnv("s1")
	if !strings.HasPrefix(env["TRACEPARENT"], "00-"+trace+"-") || strings.Contains(env["TRACEPARENT"], parent) {
		t.Errorf("the child's TRACEPARENT %q, want the job's trace and the root span", env["TRACEPARENT"])
	}
	if err := e.Shutdown(context.Background()); err != nil {
		t.Fatal(err)
	}
	spans := mem.GetSpans()
	if len(spans) != 1 || spans[0].Parent.SpanID().String() != parent || !spans[0].Parent.IsRemote() {
		t.Fatalf("want the root span under the job's span %s: %+v", parent, spans)
	}
}

// TestHeadersFromEnv: OTEL_EXPORTER_OTLP_HEADERS reaches the collector, and the endpoint flag
// gets /v1/traces.
func TestHeadersFromEnv(t *testing.T) {
	t.Setenv("OTEL_EXPORTER_OTLP_HEADERS", "authorization=Bearer s3cret")
	got := make(chan string, 1)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		select {
		case got <- r.URL.Path + " " + r.Header.Get("Authorization"):
		default:
		}
		w.Header().Set("Content-Type", "application/x-protobuf")
	}))
	defer srv.Close()
	e, err := New(Options{Endpoint: srv.URL})
	if err != nil {
		t.Fatal(err)
	}
	t0 := time.Now()
	e.PublishStatus(engine.Summary{ID: "s1", Status: engine.StatusExited, Target: "/w/a.js", StartedAt: t0, EndedAt: &t0})
	if err := e.Flush(context.Background()); err != nil {
		t.Fatal(err)
	}
	if err := e.Shutdown(context.Background()); err != nil {
		t.Fatal(err)
	}
	select {
	case req := <-got:
		if req != "/v1/traces Bearer s3cret" {
			t.Errorf("the collector got %q", req)
		}
	default:
		t.Fatal("nothing reached the collector")
	}
	if c := e.Counts("s1"); c.Spans != 1 {
		t.Errorf("counts %+v, want the root span sent", c)
	}
}

// TestFailedSpawnEndsTrace: a launch whose spawn fails (an argument list past the kernel's
// limit) ends the root span ChildEnv started as soon as the export next flushes, not at its
// shutdown: the engine publishes the failed session's end.
func TestFailedSpawnEndsTrace(t *testing.T) {
	node, err := engine.FindNode("")
	if err != nil {
		t.Skip(err)
	}
	mem := kept{tracetest.NewInMemoryExporter()}
	e, err := New(Options{SpanExporter: mem})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { e.Shutdown(context.Background()) })
	root := t.TempDir()
	if err := os.WriteFile(filepath.Join(root, "a.js"), nil, 0o600); err != nil {
		t.Fatal(err)
	}
	mgr, err := engine.NewManager(engine.Config{Root: root, DataDir: t.TempDir(), NodePath: node,
		ChildEnv: e.ChildEnv}, e, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { mgr.Shutdown(context.Background()) })
	// Each argument is under the kernel's limit for one (checked before the spawn), together
	// they are far past its limit for all (ARG_MAX is at most 6 MB): execve fails with E2BIG.
	args := slices.Repeat([]string{strings.Repeat("x", 100<<10)}, 200)
	if _, err := mgr.Start(context.Background(), engine.StartRequest{Target: "a.js", Args: args}); !errors.Is(err, engine.ErrBadInput) {
		t.Fatalf("start past the argument list limit: %v, want a bad input", err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := e.Flush(ctx); err != nil {
		t.Fatal(err)
	}
	spans := mem.GetSpans()
	if len(spans) != 1 {
		t.Fatalf("want the failed session's root span ended, got %d spans", len(spans))
	}
	got := attrs(spans[0].Attributes)
	if spans[0].Name != "node a.js" || spans[0].Status.Code != codes.Error || got["traced.status"].AsString() != "failed" {
		t.Errorf("root span %q status %+v attributes %v", spans[0].Name, spans[0].Status, got)
	}
}

// TestEndpointURL: the flag and the variables are checked alike, and the URL is the one the
// exporter is given (so the status names where spans go).
func TestEndpointURL(t *testing.T) {
	for _, tc := range []struct {
		flag, base, traces string
		want, err          string
	}{
		{flag: "ftp://c:4318", err: "want http://host:port"},
		{base: "ftp://c:4318", err: "OTEL_EXPORTER_OTLP_ENDPOINT"},
		{traces: "ftp://c:4318/v1/traces", err: "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT"},
		{base: "c:4318", err: "want http://host:port"},
		{base: "http://c:4318/otlp", want: "http://c:4318/otlp/v1/traces"},
		{traces: "https://c:4318", want: "https://c:4318/"},
		{traces: "http://c/mine", base: "http://other:4318", want: "http://c/mine"},
		{flag: "http://f:4318", traces: "http://c/mine", want: "http://f:4318/v1/traces"},
		{want: defaultTracesURL},
	} {
		t.Setenv("OTEL_EXPORTER_OTLP_ENDPOINT", tc.base)
		t.Setenv("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT", tc.traces)
		got, err := endpointURL(tc.flag)
		switch {
		case tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)):
			t.Errorf("%+v: %q, %v; want an error naming %q", tc, got, err, tc.err)
		case tc.err == "" && (err != nil || got != tc.want):
			t.Errorf("%+v: %q, %v; want %q", tc, got, err, tc.want)
		}
	}
}
