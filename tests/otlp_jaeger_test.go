package tests

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"traced/api"
	"traced/internal/otlpexport"
	"traced/internal/service"
)

// jaegerVersion is the Jaeger all-in-one the export is tested against, built as a Go tool by
// tools/jaeger (make jaeger).
const jaegerVersion = "1.75.0"

// jaegerBinary finds the Jaeger all-in-one binary: $TRACED_JAEGER, else where make jaeger puts
// it. Without one the test skips naming the target, or fails under CI, which must have built it.
func jaegerBinary(t *testing.T) string {
	t.Helper()
	bin := os.Getenv("TRACED_JAEGER")
	if bin == "" {
		cache := os.Getenv("TRACED_CI_CACHE")
		if cache == "" {
			dir, err := os.UserCacheDir()
			if err != nil {
				t.Fatal(err)
			}
			cache = filepath.Join(dir, "traced-ci")
		}
		bin = filepath.Join(cache, "jaeger-"+jaegerVersion, "jaeger")
	}
	if _, err := os.Stat(bin); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("Jaeger %s is missing under CI (%v): .ci/run builds it with make jaeger", jaegerVersion, err)
		}
		t.Skipf("Jaeger %s not built (%v): run make jaeger", jaegerVersion, err)
	}
	return bin
}

// freePorts returns n loopback ports free a moment ago.
func freePorts(t *testing.T, n int) []int {
	t.Helper()
	ports := make([]int, n)
	for i := range ports {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		defer ln.Close()
		ports[i] = ln.Addr().(*net.TCPAddr).Port
	}
	return ports
}

// jaegerConfig is an all-in-one with in-memory storage, its OTLP/HTTP receiver and its query
// API on the given loopback ports, and no other listener (no metrics port, no UI, no sampling).
const jaegerConfig = `service:
  extensions: [jaeger_storage, jaeger_query]
  pipelines:
    traces:
      receivers: [otlp]
      exporters: [jaeger_storage_exporter]
  telemetry:
    metrics:
      level: none
    logs:
      level: info
extensions:
  jaeger_query:
    storage:
      traces: mem
    http:
      endpoint: 127.0.0.1:%d
    grpc:
      endpoint: 127.0.0.1:%d
  jaeger_storage:
    backends:
      mem:
        memory:
          max_traces: 100
receivers:
  otlp:
    protocols:
      http:
        endpoint: 127.0.0.1:%d
exporters:
  jaeger_storage_exporter:
    trace_storage: mem
`

// startJaeger runs Jaeger until the test ends and returns its OTLP base URL and query URL, once
// it logs that everything is ready.
func startJaeger(t *testing.T) (otlp, query string) {
	t.Helper()
	bin := jaegerBinary(t)
	p := freePorts(t, 3)
	config := filepath.Join(t.TempDir(), "jaeger.yaml")
	if err := os.WriteFile(config, fmt.Appendf(nil, jaegerConfig, p[0], p[1], p[2]), 0o600); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, "--config", "file:"+config)
	out, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	ready := make(chan struct{})
	logged := make(chan string, 1)
	go func() { // reads Jaeger's log until it exits
		var log strings.Builder
		sc := bufio.NewScanner(out)
		sc.Buffer(make([]byte, 64<<10), 1<<20)
		isReady := false // Jaeger may say it more than once; ready is closed once
		for sc.Scan() {
			log.WriteString(sc.Text() + "\n")
			if !isReady && strings.Contains(sc.Text(), "Everything is ready") {
				isReady = true
				close(ready)
			}
		}
		io.Copy(io.Discard, out)
		logged <- log.String()
	}()
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	t.Cleanup(func() {
		cmd.Process.Kill() // its graceful stop takes 10 s, and the test has read what it needs
		<-exited
		if l := <-logged; t.Failed() {
			t.Logf("jaeger's log:\n%s", l)
		}
	})
	select {
	case <-ready:
	case err := <-exited:
		t.Fatalf("jaeger exited before it was ready: %v\n%s", err, <-logged)
	case <-time.After(deadline):
		t.Fatalf("jaeger not ready within %s", deadline)
	}
	return fmt.Sprintf("http://127.0.0.1:%d", p[2]), fmt.Sprintf("http://127.0.0.1:%d", p[0])
}

// otlpTrace is what Jaeger's query API (v3) answers for one trace: OTLP as JSON.
type otlpTrace struct {
	Result struct {
		ResourceSpans []struct {
			Resource struct {
				Attributes []otlpAttr `json:"attributes"`
			} `json:"resource"`
			ScopeSpans []struct {
				Spans []otlpSpan `json:"spans"`
			} `json:"scopeSpans"`
		} `json:"resourceSpans"`
	} `json:"result"`
}

type otlpSpan struct {
	TraceID      string     `json:"traceId"`
	SpanID       string     `json:"spanId"`
	ParentSpanID string     `json:"parentSpanId"`
	Name         string     `json:"name"`
	Attributes   []otlpAttr `json:"attributes"`
	Events       []struct {
		Name       string     `json:"name"`
		Attributes []otlpAttr `json:"attributes"`
	} `json:"events"`
	Status struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	} `json:"status"`
}

type otlpAttr struct {
	Key   string `json:"key"`
	Value struct {
		String *string `json:"stringValue"`
		Int    *string `json:"intValue"` // int64 travels as a JSON string
		Bool   *bool   `json:"boolValue"`
	} `json:"value"`
}

// otlpAttrs renders attributes as strings by key.
func otlpAttrs(as []otlpAttr) map[string]string {
	m := make(map[string]string, len(as))
	for _, a := range as {
		switch {
		case a.Value.String != nil:
			m[a.Key] = *a.Value.String
		case a.Value.Int != nil:
			m[a.Key] = *a.Value.Int
		case a.Value.Bool != nil:
			m[a.Key] = fmt.Sprint(*a.Value.Bool)
		}
	}
	return m
}

// TestOTLPExportToJaeger traces a throwing program with export on, then reads its trace back
// from a real Jaeger: the root span the child's TRACEPARENT names, with the session's
// attributes, the exception event by the conventions and the console events.
func TestOTLPExportToJaeger(t *testing.T) {
	// Not parallel: Jaeger listens on ports free a moment ago, which a parallel test's listener could take.
	if os.Getenv("TRACED_CI_REPEAT") != "" {
		t.Skip("the tracing backend does not depend on the node line: tested in CI's first pass")
	}
	otlp, query := startJaeger(t)
	h := newHarness(t, func(o *service.Options) {
		o.OTLP = &otlpexport.Options{Endpoint: otlp, ServiceName: "traced-test", BatchTimeout: 10 * time.Millisecond}
	})
	var st api.StatusResponse
	h.call("GET", "/api/trace/status", nil, &st)
	if st.Export == nil || st.Export.Endpoint != otlp+"/v1/traces" {
		t.Fatalf("status export %+v, want the endpoint %s/v1/traces", st.Export, otlp)
	}
	sum := h.start(api.StartRequest{Target: "otlp/app.js"})
	if end := h.waitExit(sum.ID); end.ExitCode == nil || *end.ExitCode != 1 {
		t.Fatalf("app.js ended %+v, want exit code 1", end)
	}
	ctx, cancel := context.WithTimeout(context.Background(), deadline)
	defer cancel()
	if err := h.svc.Export.Flush(ctx); err != nil {
		t.Fatal(err)
	}

	consoles := h.trace(sum.ID, "console")
	if len(consoles.Events) != 2 {
		t.Fatalf("want 2 console events, got %+v", consoles.Events)
	}
	m := regexp.MustCompile(`^traceparent 00-([0-9a-f]{32})-([0-9a-f]{16})-01$`).FindStringSubmatch(consoles.Events[0].Console.Text.Value)
	if m == nil {
		t.Fatalf("the child's TRACEPARENT: %q", consoles.Events[0].Console.Text.Value)
	}
	if got := consoles.Events[1].Console.Text.Value; got != "resource traced.session.id="+sum.ID {
		t.Errorf("the child's OTEL_RESOURCE_ATTRIBUTES: %q", got)
	}
	if s := consoles.Session; s.Export == nil || s.Export.Spans != 1 || s.Export.Dropped != 0 {
		t.Errorf("summary export %+v, want 1 span sent, none dropped", s.Export)
	}

	client := &http.Client{Transport: &http.Transport{}}
	defer client.CloseIdleConnections()
	resp, err := client.Get(query + "/api/v3/traces/" + m[1])
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("jaeger has no trace %s: %d %s", m[1], resp.StatusCode, body)
	}
	var tr otlpTrace
	if err := json.Unmarshal(body, &tr); err != nil {
		t.Fatal(err)
	}
	if len(tr.Result.ResourceSpans) != 1 || len(tr.Result.ResourceSpans[0].ScopeSpans) != 1 ||
		len(tr.Result.ResourceSpans[0].ScopeSpans[0].Spans) != 1 {
		t.Fatalf("want one span in jaeger's trace: %s", body)
	}
	if svc := otlpAttrs(tr.Result.ResourceSpans[0].Resource.Attributes)["service.name"]; svc != "traced-test" {
		t.Errorf("service.name %q", svc)
	}
	root := tr.Result.ResourceSpans[0].ScopeSpans[0].Spans[0]
	if root.Name != "node app.js" || root.SpanID != m[2] || root.ParentSpanID != "" {
		t.Errorf("root span %q %s (parent %q), want node app.js %s with no parent", root.Name, root.SpanID, root.ParentSpanID, m[2])
	}
	ra := otlpAttrs(root.Attributes)
	for k, want := range map[string]string{
		"traced.session.id": sum.ID, "traced.status": "exited", "traced.mode": "trace", "process.exit.code": "1",
		"process.pid": fmt.Sprint(sum.PID), "process.runtime.version": st.Node.Version, "process.runtime.name": "nodejs",
		"traced.count.console": "2", "traced.count.exception": "1", "traced.events.dropped": "0",
		"traced.evidence.summary": "TypeError: Cannot read properties of undefined (reading 'number') at otlp/app.js:6",
	} {
		if ra[k] != want {
			t.Errorf("root %s = %q, want %q", k, ra[k], want)
		}
	}
	if root.Status.Code != 2 || root.Status.Message != "exit code 1" { // STATUS_CODE_ERROR
		t.Errorf("root status %+v", root.Status)
	}
	var exception, logs map[string]string
	for _, ev := range root.Events {
		a := otlpAttrs(ev.Attributes)
		switch {
		case ev.Name == "exception":
			exception = a
		case ev.Name == "console" && a["console.level"] == "error":
			logs = a
		}
	}
	if exception["exception.type"] != "TypeError" || !strings.Contains(exception["exception.message"], "reading 'number'") ||
		!strings.Contains(exception["exception.stacktrace"], "at charge (otlp/app.js:6:") || exception["code.line.number"] != "6" {
		t.Errorf("exception event %v", exception)
	}
	if logs["console.text"] != "resource traced.session.id="+sum.ID || logs["code.file.path"] != "otlp/app.js" || logs["code.line.number"] != "4" {
		t.Errorf("console.error event %v", logs)
	}
}
