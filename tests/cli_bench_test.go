package tests

import (
	"context"
	"io"
	"net"
	"net/http"
	"os/exec"
	"path/filepath"
	"sort"
	"testing"
	"time"

	"traced/internal/engine"
	"traced/internal/service"
)

// BenchmarkCLIOverhead measures what a CLI command costs beyond its request: the wall time of
// `traced health` (process start to exit) minus the same GET /healthz sent in-process, both
// medians. Run it without -race: `go test -run '^$' -bench CLIOverhead ./tests/`.
func BenchmarkCLIOverhead(b *testing.B) {
	addr := benchService(b)
	c := newCLI(b, "TRACED_ADDR="+addr, "TRACED_TOKEN="+testToken)
	client := &http.Client{Transport: &http.Transport{}}
	defer client.CloseIdleConnections()
	var proc, req []time.Duration
	for b.Loop() {
		cmd := exec.Command(c.bin, "health")
		cmd.Dir, cmd.Env = c.dir, c.env
		start := time.Now()
		if out, err := cmd.CombinedOutput(); err != nil {
			b.Fatalf("traced health: %v\n%s", err, out)
		}
		proc = append(proc, time.Since(start))

		req = append(req, timeGet(b, client, "http://"+addr+"/healthz"))
	}
	p, r := median(proc), median(req)
	b.ReportMetric(float64(p.Microseconds())/1000, "cli-ms")
	b.ReportMetric(float64(r.Microseconds())/1000, "request-ms")
	b.ReportMetric(float64((p-r).Microseconds())/1000, "overhead-ms")
}

// benchService serves on loopback until the benchmark ends and returns its address.
func benchService(b *testing.B) string {
	root, err := filepath.Abs("testdata")
	if err != nil {
		b.Fatal(err)
	}
	svc, err := service.New(service.Options{Engine: engine.Config{NodePath: nodeOrSkip(b), Root: root},
		Token: testToken, Version: "bench"})
	if err != nil {
		b.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		b.Fatal(err)
	}
	served := make(chan error, 1)
	go func() { served <- svc.Serve(ln) }()
	b.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), deadline)
		defer cancel()
		svc.Shutdown(ctx)
		<-served
	})
	return ln.Addr().String()
}

func median(d []time.Duration) time.Duration {
	s := append([]time.Duration(nil), d...)
	sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
	return s[len(s)/2]
}

// timeGet times one authorised GET, its body read to the end: the request a command or a tool
// makes, timed beside it.
func timeGet(b *testing.B, client *http.Client, url string) time.Duration {
	start := time.Now()
	req, _ := http.NewRequest("GET", url, nil)
	req.Header.Set("Authorization", "Bearer "+testToken)
	resp, err := client.Do(req)
	if err != nil {
		b.Fatal(err)
	}
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	return time.Since(start)
}
