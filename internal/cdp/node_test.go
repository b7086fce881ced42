//go:build linux

package cdp_test

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"os/exec"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"traced/internal/cdp"
)

// nodeStartTimeout bounds the wait for node's "Debugger listening" line.
const nodeStartTimeout = 10 * time.Second

// startNode runs a node paused at --inspect-brk in its own process group and returns its
// inspector URL. Cleanup kills the group and reaps node.
func startNode(tb testing.TB) string {
	tb.Helper()
	bin, err := exec.LookPath("node")
	if err != nil {
		tb.Skip("node not found on PATH")
	}
	cmd := exec.Command(bin, "--inspect-brk=127.0.0.1:0", "-e", "setInterval(() => {}, 1000)")
	// Its own group so cleanup reaches anything node spawns; Pdeathsig so a killed test binary
	// does not leave it behind.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
	stderr, err := cmd.StderrPipe()
	if err != nil {
		tb.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		tb.Fatalf("start node: %v", err)
	}

	urls := make(chan string, 1)
	drained := make(chan struct{})
	var (
		mu   sync.Mutex
		seen []string // what node said before the URL, for the failure message
	)
	go func() {
		defer close(drained)
		sc := bufio.NewScanner(stderr)
		found := false
		for sc.Scan() {
			// Keep reading after the URL so node never blocks on a full pipe.
			if found {
				continue
			}
			line := sc.Text()
			if _, url, ok := strings.Cut(line, "Debugger listening on "); ok {
				found = true
				urls <- strings.TrimSpace(url)
				continue
			}
			mu.Lock()
			seen = append(seen, line)
			mu.Unlock()
		}
	}()
	tb.Cleanup(func() {
		syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		select {
		case <-drained: // the pipe's write end closed with the group
		case <-time.After(nodeStartTimeout):
			tb.Error("node's stderr stayed open after the kill")
		}
		cmd.Wait()
	})

	select {
	case url := <-urls:
		return url
	case <-drained:
	case <-time.After(nodeStartTimeout):
	}
	mu.Lock()
	defer mu.Unlock()
	tb.Fatalf("node did not report an inspector URL; stderr so far:\n%s", strings.Join(seen, "\n"))
	return ""
}

// attachNode starts a paused node and connects to it; cleanup closes the client before node dies.
func attachNode(tb testing.TB, dial func(context.Context, string, cdp.Options) (*cdp.Client, error), opts cdp.Options) *cdp.Client {
	tb.Helper()
	url := startNode(tb)
	ctx, cancel := context.WithTimeout(context.Background(), nodeStartTimeout)
	defer cancel()
	client, err := dial(ctx, url, opts)
	if err != nil {
		tb.Fatalf("dial node: %v", err)
	}
	tb.Cleanup(func() {
		client.Close()
		waitDone(tb, client)
	})
	return client
}

// evaluateResult is the part of Runtime.evaluate's reply the tests read.
type evaluateResult struct {
	Result struct {
		Type  string `json:"type"`
		Value any    `json:"value"`
	} `json:"result"`
	ExceptionDetails any `json:"exceptionDetails"`
}

func TestNodeEvaluate(t *testing.T) {
	client := attachNode(t, cdp.Dial, cdp.Options{})
	ctx, cancel := context.WithTimeout(context.Background(), testTimeout)
	defer cancel()

	if err := client.Call(ctx, "Runtime.enable", nil, nil); err != nil {
		t.Fatalf("Runtime.enable: %v", err)
	}
	var res evaluateResult
	err := client.Call(ctx, "Runtime.evaluate", map[string]any{"expression": "1+1", "returnByValue": true}, &res)
	if err != nil {
		t.Fatalf("Runtime.evaluate: %v", err)
	}
	if res.ExceptionDetails != nil {
		t.Fatalf("evaluate threw: %v", res.ExceptionDetails)
	}
	if res.Result.Type != "number" || res.Result.Value != 2.0 {
		t.Fatalf("1+1 = %s %v, want number 2", res.Result.Type, res.Result.Value)
	}

	var cerr *cdp.Error
	err = client.Call(ctx, "Nope.nope", nil, nil)
	if !errors.As(err, &cerr) || cerr.Code != -32601 {
		t.Fatalf("unknown method err = %v, want cdp error -32601", err)
	}
}

// A console line far above the websocket library's 32 KiB default must arrive whole.
//
// The test lets node reach its first-line pause before logging. node 20 starts the inspector's
// socket thread before the main thread reaches its wait-for-debugger point, and messages that
// arrive in between can run on the main thread via a V8 interrupt; console.log there serialises
// node's options and trips CHECK(!parent_env_->has_serialized_options()) in
// Agent::WaitForConnectByOptions (node aborts, we see EOF). Seen about once in 150 runs.
func TestNodeLargeConsoleEvent(t *testing.T) {
	const size = 2 << 20
	paused := make(chan struct{}, 1)
	logged := make(chan cdp.Event, 1)
	client := attachNode(t, cdp.Dial, cdp.Options{OnEvent: func(ev cdp.Event) {
		switch ev.Method {
		case "Debugger.paused":
			select {
			case paused <- struct{}{}:
			default:
			}
		case "Runtime.consoleAPICalled":
			select {
			case logged <- ev:
			default:
			}
		}
	}})
	ctx, cancel := context.WithTimeout(context.Background(), testTimeout)
	defer cancel()

	for _, method := range []string{"Runtime.enable", "Debugger.enable", "Runtime.runIfWaitingForDebugger"} {
		if err := client.Call(ctx, method, nil, nil); err != nil {
			t.Fatalf("%s: %v", method, err)
		}
	}
	select {
	case <-paused: // on the script's first line: past node's startup
	case <-ctx.Done():
		t.Fatal("node never paused on the first line")
	}
	if err := client.Call(ctx, "Runtime.evaluate", map[string]any{"expression": `console.log("x".repeat(2<<20))`}, nil); err != nil {
		t.Fatalf("Runtime.evaluate: %v", err)
	}
	var ev cdp.Event
	select {
	case ev = <-logged:
	case <-ctx.Done():
		t.Fatal("no Runtime.consoleAPICalled event")
	}
	if len(ev.Params) <= size {
		t.Fatalf("event params are %d bytes, want more than %d", len(ev.Params), size)
	}
	var params struct {
		Type string `json:"type"`
		Args []struct {
			Type  string `json:"type"`
			Value string `json:"value"`
		} `json:"args"`
	}
	if err := json.Unmarshal(ev.Params, &params); err != nil {
		t.Fatalf("decode params: %v", err)
	}
	if params.Type != "log" || len(params.Args) != 1 {
		t.Fatalf("console call = %s with %d args", params.Type, len(params.Args))
	}
	if v := params.Args[0].Value; len(v) != size || strings.Trim(v, "x") != "" {
		t.Fatalf("logged string has %d bytes (want %d of 'x')", len(v), size)
	}
}

// BenchmarkRoundTrip measures one call against node paused at --inspect-brk, the state every
// session spends its setup in.
func BenchmarkRoundTrip(b *testing.B) {
	benchmarkRoundTrip(b, cdp.Dial)
}

// BenchmarkRoundTripNoQuickAck is the same without the TCP_QUICKACK re-arm. Each op costs a delayed
// ACK (~40 ms), so run it with a small count: -bench NoQuickAck -benchtime=20x.
func BenchmarkRoundTripNoQuickAck(b *testing.B) {
	if b.N > 100 {
		b.Skipf("b.N = %d would take minutes at ~40 ms per op; run with -benchtime=20x", b.N)
	}
	benchmarkRoundTrip(b, cdp.DialWithoutQuickAck)
}

func benchmarkRoundTrip(b *testing.B, dial func(context.Context, string, cdp.Options) (*cdp.Client, error)) {
	client := attachNode(b, dial, cdp.Options{})
	ctx := context.Background()
	for _, method := range []string{"Runtime.enable", "Debugger.enable"} {
		if err := client.Call(ctx, method, nil, nil); err != nil {
			b.Fatalf("%s: %v", method, err)
		}
	}
	params := map[string]string{"expression": "1+1"}
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		if err := client.Call(ctx, "Runtime.evaluate", params, nil); err != nil {
			b.Fatal(err)
		}
	}
	b.StopTimer()
}
