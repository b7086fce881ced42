package tests

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os/exec"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"

	"traced/internal/cdp"
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
// events/s), with no subscriber and with one stream subscriber receiving every event; "mapped"
// runs the same loop from a script with a source map, each call site mapped to its original.
func BenchmarkConsoleCapture(b *testing.B) {
	const lines = 100_000
	for _, c := range []struct {
		name, target string
		subscribers  int
	}{{"subscribers=0", "count.js", 0}, {"subscribers=1", "count.js", 1}, {"mapped", "mapped/count.js", 0}} {
		subscribers := c.subscribers
		b.Run(c.name, func(b *testing.B) {
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
				s, err := svc.Engine.Start(ctx, engine.StartRequest{Target: c.target, Args: []string{fmt.Sprint(lines)}})
				if err != nil {
					b.Fatal(err)
				}
				<-s.Done()
				elapsed += time.Since(t0)
				sum := s.Summary()
				if c.name == "mapped" {
					if p := s.Timeline().Events(0, engine.Filter{Kinds: engine.KindSet{engine.KindConsole: true}}, 1); len(p.Events) == 0 || p.Events[0].Console.Frame.Where() != "mapped/count.ts:4" {
						b.Fatalf("mapped console call site %+v", p.Events)
					}
				}
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
// validation, engine, CDP), beside the same operation in raw CDP on its own node in the same
// run: api-eval / cdp-eval and api-step / cdp-step are the overhead ratios traced adds.
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
	raw := rawDebugger(b, "testdata/steploop.js")
	b.Run("api-eval", func(b *testing.B) {
		for b.Loop() {
			benchPost(b, client, base+"/eval", `{"expression":"n + 1"}`)
		}
	})
	b.Run("cdp-eval", func(b *testing.B) {
		for b.Loop() {
			raw.call(b, "Debugger.evaluateOnCallFrame", map[string]any{"callFrameId": raw.frame(), "expression": "n + 1", "generatePreview": true})
		}
	})
	b.Run("api-step", func(b *testing.B) {
		for b.Loop() {
			benchPost(b, client, base+"/step", `{"kind":"over"}`)
		}
	})
	b.Run("cdp-step", func(b *testing.B) {
		for b.Loop() {
			raw.call(b, "Debugger.stepOver", nil)
			raw.waitPause(b)
		}
	})
}

// rawNode is a node paused under a bare CDP client: the baseline of BenchmarkDebugAPI.
type rawNode struct {
	client *cdp.Client
	pauses chan string // callFrameId of each pause's top frame
	top    string
}

func (n *rawNode) frame() string { return n.top }

func (n *rawNode) call(b *testing.B, method string, params any) {
	ctx, cancel := context.WithTimeout(context.Background(), deadline)
	defer cancel()
	if err := n.client.Call(ctx, method, params, nil); err != nil {
		b.Fatalf("%s: %v", method, err)
	}
}

func (n *rawNode) waitPause(b *testing.B) {
	select {
	case n.top = <-n.pauses:
	case <-time.After(deadline):
		b.Fatal("no pause")
	}
}

var wsURLRE = regexp.MustCompile(`ws://[^\s]+`)

// rawDebugger starts node --inspect-brk on script, attaches a bare CDP client and waits for the
// first pause. Cleanup ends both.
func rawDebugger(b *testing.B, script string) *rawNode {
	b.Helper()
	cmd := exec.Command(nodeOrSkip(b), "--inspect-brk=127.0.0.1:0", script)
	stderr, err := cmd.StderrPipe()
	if err != nil {
		b.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	lines := bufio.NewScanner(stderr)
	url := ""
	for url == "" && lines.Scan() {
		url = wsURLRE.FindString(lines.Text())
	}
	go io.Copy(io.Discard, stderr) // node writes on stderr until it dies
	if url == "" {
		b.Fatal("node printed no ws:// URL")
	}
	n := &rawNode{pauses: make(chan string, 1)}
	ctx, cancel := context.WithTimeout(context.Background(), deadline)
	defer cancel()
	n.client, err = cdp.Dial(ctx, url, cdp.Options{OnEvent: func(ev cdp.Event) {
		if ev.Method != "Debugger.paused" {
			return
		}
		var p struct {
			CallFrames []struct {
				CallFrameID string `json:"callFrameId"`
			} `json:"callFrames"`
		}
		if json.Unmarshal(ev.Params, &p) == nil && len(p.CallFrames) > 0 {
			n.pauses <- p.CallFrames[0].CallFrameID
		}
	}})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { n.client.Close(); <-n.client.Done() })
	for _, m := range []string{"Runtime.enable", "Debugger.enable", "Runtime.runIfWaitingForDebugger"} {
		n.call(b, m, nil)
	}
	n.waitPause(b)
	return n
}
