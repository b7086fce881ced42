package tests

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"runtime"
	"runtime/metrics"
	"strings"
	"sync"
	"testing"
	"time"

	"traced/api"
	"traced/internal/engine"
)

// bigHeapRecords is how many Record objects bigheap.js keeps for BenchmarkHeapSnapshot: with
// node's own heap, about 50 MB used (measured: ~168 bytes of heap per record).
const bigHeapRecords = 270_000

// BenchmarkHeapSnapshot takes a snapshot of a ~50 MB heap through the REST API (streamed to disk,
// then stream-parsed into the summary) and reports the snapshot's size, the time of the call and
// the service's peak Go heap during it (sampled every millisecond; the test client is in the
// same process and counts too), beside the heap in use before the call. The peak must stay far
// below the snapshot's size: chunks are written as they come and the file is stream-parsed.
func BenchmarkHeapSnapshot(b *testing.B) {
	svc, addr, done := benchHarness(b)
	defer done()
	ctx := context.Background()
	s, err := svc.Engine.Start(ctx, engine.StartRequest{Target: "bigheap.js", Mode: engine.ModeDebug})
	if err != nil {
		b.Fatal(err)
	}
	defer svc.Engine.Stop(ctx, s.ID())
	client := &http.Client{Transport: &http.Transport{}}
	defer client.CloseIdleConnections()
	url := "http://" + addr + "/api/debug/" + s.ID()
	benchCall(b, client, "POST", url+"/eval", fmt.Sprintf(`{"expression":"fill(%d)","timeoutMs":60000}`, bigHeapRecords), http.StatusOK, nil)
	var usage api.HeapUsage
	benchCall(b, client, "POST", url+"/heap/gc", `{}`, http.StatusOK, &usage)

	var bytes int64
	var elapsed time.Duration
	var peak, base uint64
	for b.Loop() {
		runtime.GC()
		sampler := startHeapSampler()
		base = max(base, sampler.first)
		t0 := time.Now()
		var sn api.SnapshotInfo
		benchCall(b, client, "POST", url+"/heap/snapshot", `{"waitMs":600000}`, http.StatusCreated, &sn)
		elapsed += time.Since(t0)
		peak = max(peak, sampler.stop())
		bytes = sn.Bytes
		b.StopTimer()
		benchCall(b, client, "DELETE", url+"/heap/snapshots/"+sn.Ref, "", http.StatusOK, nil)
		b.StartTimer()
	}
	b.ReportMetric(float64(usage.Used)/1e6, "node-heap-MB")
	b.ReportMetric(float64(bytes)/1e6, "snapshot-MB")
	b.ReportMetric(elapsed.Seconds()/float64(b.N), "s/snapshot")
	b.ReportMetric(float64(base)/1e6, "base-go-heap-MB")
	b.ReportMetric(float64(peak)/1e6, "peak-go-heap-MB")
	// A guard, not the figure: a service that held the snapshot would pass the snapshot's size.
	if peak > uint64(bytes)/2 {
		b.Errorf("peak Go heap %d bytes for a %d byte snapshot: the service holds too much of it", peak, bytes)
	}
}

// heapSampler samples the Go heap in use (runtime/metrics: objects plus unused heap spans, the
// HeapInuse of MemStats without stopping the world) until stopped, keeping the peak.
type heapSampler struct {
	stopc chan struct{}
	wg    sync.WaitGroup
	first uint64 // the heap in use when sampling began
	peak  uint64
}

func startHeapSampler() *heapSampler {
	hs := &heapSampler{stopc: make(chan struct{})}
	samples := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}, {Name: "/memory/classes/heap/unused:bytes"}}
	read := func() {
		metrics.Read(samples)
		hs.peak = max(hs.peak, samples[0].Value.Uint64()+samples[1].Value.Uint64())
	}
	read()
	hs.first = hs.peak
	hs.wg.Add(1)
	go func() {
		defer hs.wg.Done()
		t := time.NewTicker(time.Millisecond)
		defer t.Stop()
		for {
			read()
			select {
			case <-hs.stopc:
				read()
				return
			case <-t.C:
			}
		}
	}()
	return hs
}

// stop ends the sampling and returns the peak, bytes.
func (hs *heapSampler) stop() uint64 {
	close(hs.stopc)
	hs.wg.Wait()
	return hs.peak
}

// benchCall sends a request (body "" for none), fails on another status than want and decodes
// the answer into out when given.
func benchCall(b *testing.B, client *http.Client, method, url, body string, want int, out any) {
	b.Helper()
	var rd io.Reader
	if body != "" {
		rd = strings.NewReader(body)
	}
	req, err := http.NewRequest(method, url, rd)
	if err != nil {
		b.Fatal(err)
	}
	if rd != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := client.Do(req)
	if err != nil {
		b.Fatal(err)
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(resp.Body)
	if err != nil {
		b.Fatal(err)
	}
	if resp.StatusCode != want {
		b.Fatalf("%s %s: %d, want %d: %s", method, url, resp.StatusCode, want, raw)
	}
	if out != nil {
		if err := json.Unmarshal(raw, out); err != nil {
			b.Fatalf("%s %s: %v", method, url, err)
		}
	}
}
