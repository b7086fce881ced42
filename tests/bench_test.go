package tests

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"

	"traced/internal/engine"
	"traced/internal/service"
)

// benchHarness is newHarness for benchmarks: a *testing.B is not a *testing.T.
func benchHarness(b *testing.B, opts ...func(*service.Options)) (*service.Service, string, func()) {
	b.Helper()
	o := service.Options{
		Engine:  engine.Config{NodePath: nodeOrSkip(b), Root: "testdata", MaxEvents: 250_000, MaxSessions: 4},
		Version: "bench",
	}
	for _, f := range opts {
		f(&o)
	}
	svc, err := service.New(o)
	if err != nil {
		b.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		b.Fatal(err)
	}
	served := make(chan error, 1)
	go func() { served <- svc.Serve(ln) }()
	return svc, ln.Addr().String(), func() {
		ctx, cancel := context.WithTimeout(context.Background(), deadline)
		defer cancel()
		svc.Shutdown(ctx)
		<-served
	}
}

// countEvents subscribes to every session and counts event messages until an exit event.
func countEvents(ctx context.Context, addr string, ready chan<- struct{}) uint64 {
	conn, _, err := websocket.Dial(ctx, "ws://"+addr+"/api/stream", nil)
	if err != nil {
		close(ready)
		return 0
	}
	defer conn.CloseNow()
	conn.SetReadLimit(1 << 20)
	var n uint64
	for {
		_, data, err := conn.Read(ctx)
		if err != nil {
			return n
		}
		switch {
		case bytes.Contains(data, []byte(`"type":"live"`)):
			close(ready)
		case bytes.Contains(data, []byte(`"type":"event"`)):
			n++
			if bytes.Contains(data, []byte(`"kind":"exit"`)) {
				conn.Close(websocket.StatusNormalClosure, "")
				return n
			}
		}
	}
}

// BenchmarkSessionStart measures spawn -> attach -> running, the latency of POST /api/trace/start
// minus HTTP.
func BenchmarkSessionStart(b *testing.B) {
	svc, _, done := benchHarness(b)
	defer done()
	ctx := context.Background()
	for b.Loop() {
		s, err := svc.Engine.Start(ctx, engine.StartRequest{Target: "forever.js"})
		if err != nil {
			b.Fatal(err)
		}
		b.StopTimer()
		if _, err := svc.Engine.Stop(ctx, s.ID()); err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
	}
}

// BenchmarkConsoleCapture runs console.log(i) 100,000 times (the raw CDP reference's shape) and
// reports console events captured per second (each also yields a stdout event, counted in
// events/s), with no subscriber and with one stream subscriber receiving every event.
func BenchmarkConsoleCapture(b *testing.B) {
	const lines = 100_000
	for _, subscribers := range []int{0, 1} {
		b.Run(fmt.Sprintf("subscribers=%d", subscribers), func(b *testing.B) {
			svc, addr, done := benchHarness(b, func(o *service.Options) { o.StreamQueue = 1 << 18 })
			defer done()
			var events, consoles, received uint64
			var elapsed time.Duration
			for b.Loop() {
				sub := make(chan uint64, 1)
				ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
				if subscribers > 0 {
					ready := make(chan struct{})
					go func() { sub <- countEvents(ctx, addr, ready) }()
					<-ready
				}
				t0 := time.Now()
				s, err := svc.Engine.Start(ctx, engine.StartRequest{Target: "count.js", Args: []string{fmt.Sprint(lines)}})
				if err != nil {
					b.Fatal(err)
				}
				<-s.Done()
				elapsed += time.Since(t0)
				sum := s.Summary()
				events += sum.LastSeq
				consoles += uint64(sum.Counts[engine.KindConsole])
				if subscribers > 0 {
					received += <-sub
				}
				cancel()
				svc.Engine.Stop(context.Background(), s.ID())
			}
			b.ReportMetric(float64(events)/elapsed.Seconds(), "events/s")
			b.ReportMetric(float64(consoles)/elapsed.Seconds(), "console/s")
			if subscribers > 0 {
				b.ReportMetric(float64(received)/float64(events), "received/captured")
			}
		})
	}
}

// benchPost posts body to the service and fails the benchmark on a non-200 answer.
func benchPost(b *testing.B, client *http.Client, url, body string) {
	resp, err := client.Post(url, "application/json", strings.NewReader(body))
	if err != nil {
		b.Fatal(err)
	}
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		b.Fatalf("POST %s: %d", url, resp.StatusCode)
	}
}

// BenchmarkDebugAPI measures one paused eval and one step over through the REST API (HTTP,
// validation, engine, CDP), to set beside internal/cdp's BenchmarkRoundTrip of the same run.
func BenchmarkDebugAPI(b *testing.B) {
	svc, addr, done := benchHarness(b)
	defer done()
	ctx := context.Background()
	s, err := svc.Engine.Start(ctx, engine.StartRequest{Target: "steploop.js", Mode: engine.ModeDebug, PauseOnStart: true})
	if err != nil {
		b.Fatal(err)
	}
	defer svc.Engine.Stop(ctx, s.ID())
	client := &http.Client{Transport: &http.Transport{}}
	defer client.CloseIdleConnections()
	base := "http://" + addr + "/api/debug/" + s.ID()
	b.Run("eval", func(b *testing.B) {
		for b.Loop() {
			benchPost(b, client, base+"/eval", `{"expression":"n + 1"}`)
		}
	})
	b.Run("step", func(b *testing.B) {
		for b.Loop() {
			benchPost(b, client, base+"/step", `{"kind":"over"}`)
		}
	})
}
