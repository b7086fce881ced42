package heapgraph

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// The benchmarks analyse snapshots of tests/testdata/bigheap.js filled with n records
// (about 250 bytes of snapshot each). The ~100 MB one runs with -bench; the ~1 GiB one also
// needs HEAPGRAPH_BIG=1 (it takes node minutes and gigabytes to write):
//
//	go test -run '^$' -bench Read -benchtime 1x ./internal/heapgraph
//	HEAPGRAPH_BIG=1 go test -run '^$' -bench Read1GiB -benchtime 1x -timeout 30m ./internal/heapgraph
//
// Each reports the snapshot's size, the time of the analysis (Read) and of the questions after
// it (summary, largest holders, a leak report, instances), the peak Go heap (sampled) and the
// process' peak resident memory (VmHWM, reset before Read) over both, and the peak's ratio to
// the size. Measured on the shared 2-core machine (load average 10 to 15), a 1.14 GiB
// snapshot of 16.4 M nodes and 42.8 M edges: analysis 24 to 30 s of wall time (7.7 s of CPU),
// peak RSS 0.95 × the size; the queries after it 6 to 8 s, within 1.0 × with
// HEAPGRAPH_MEMLIMIT=1.0 (1.14 × without a limit: their garbage waits for the GC).

func BenchmarkRead100MB(b *testing.B) { benchmarkRead(b, 400_000) }

func BenchmarkRead1GiB(b *testing.B) {
	if os.Getenv("HEAPGRAPH_BIG") == "" {
		b.Skip("set HEAPGRAPH_BIG=1 to write and analyse a 1 GiB snapshot")
	}
	benchmarkRead(b, 3_300_000)
}

func benchmarkRead(b *testing.B, records int) {
	file := bigSnapshot(b, records)
	st, err := os.Stat(file)
	if err != nil {
		b.Fatal(err)
	}
	if limit := os.Getenv("HEAPGRAPH_MEMLIMIT"); limit != "" { // e.g. "1.0": a share of the size
		share, err := strconv.ParseFloat(limit, 64)
		if err != nil {
			b.Fatal(err)
		}
		defer debug.SetMemoryLimit(debug.SetMemoryLimit(int64(share * float64(st.Size()))))
	}
	b.ResetTimer()
	for range b.N {
		runtime.GC()
		resetPeakRSS()
		peak := sampleHeap()
		start, cpu := time.Now(), cpuTime()
		g := readBig(b, file)
		elapsed, cpuUsed := time.Since(start), cpuTime()-cpu
		heap, rss := peak(), peakRSS()
		// The questions, on the half of the records born last: their garbage adds to the
		// peak unless a memory limit (HEAPGRAPH_MEMLIMIT here, GOMEMLIMIT in a service) bounds it.
		resetPeakRSS()
		peak = sampleHeap()
		start = time.Now()
		sum, top := g.Summary(20), g.Largest(10, nil)
		leaks, records := g.Leaks(g.MaxID()/2, 5, nil), g.Instances("Record", 5, nil)
		queries := time.Since(start)
		queryHeap, queryRSS := peak(), peakRSS()
		if len(sum.Classes) == 0 || len(top) == 0 || len(leaks.Clusters) == 0 || records.Count < records.Count/2 {
			b.Fatalf("no answers:\n%s\n%s", leaks.Text(2048), records.Text(2048))
		}
		b.ReportMetric(queries.Seconds(), "s/queries")
		b.ReportMetric(float64(queryRSS)/float64(st.Size()), "queries-rss/size")
		b.ReportMetric(float64(st.Size())/(1<<20), "snapshot-MB")
		b.ReportMetric(elapsed.Seconds(), "s/analysis")
		b.ReportMetric(cpuUsed.Seconds(), "cpu-s/analysis") // the wall time depends on the machine's load
		b.ReportMetric(float64(heap)/(1<<20), "peak-heap-MB")
		b.ReportMetric(float64(rss)/(1<<20), "peak-rss-MB")
		b.ReportMetric(float64(rss)/float64(st.Size()), "rss/size")
		b.Logf("%d nodes, %d edges, %.0f MB: analysis %v, peak heap %d MB, peak RSS %d MB; queries %v, peak heap %d MB, peak RSS %d MB\n%s%s",
			g.NodeCount(), g.EdgeCount(), float64(st.Size())/(1<<20), elapsed, heap>>20, rss>>20,
			queries, queryHeap>>20, queryRSS>>20, leaks.Text(2048), records.Text(2048))
		runtime.KeepAlive(g)
	}
}

func readBig(b *testing.B, file string) *Graph {
	f, err := os.Open(file)
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	g, err := Read(f)
	if err != nil {
		b.Fatal(err)
	}
	return g
}

// bigSnapshot writes, once per records count, a snapshot of bigheap.js under the temp dir
// (kept across runs: writing it is most of the benchmark's time).
func bigSnapshot(b *testing.B, records int) string {
	b.Helper()
	file := filepath.Join(os.TempDir(), fmt.Sprintf("heapgraph-bigheap-%d.heapsnapshot", records))
	if _, err := os.Stat(file); err == nil {
		return file
	}
	fixture, err := filepath.Abs(filepath.Join("..", "..", "tests", "testdata", "bigheap.js"))
	if err != nil {
		b.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Minute)
	defer cancel()
	tmp := file + ".part"
	script := fmt.Sprintf("require(%q); fill(%d); require('v8').writeHeapSnapshot(%q); process.exit(0)", fixture, records, tmp)
	cmd := exec.CommandContext(ctx, "node", "--max-old-space-size=8192", "-e", script)
	if out, err := cmd.CombinedOutput(); err != nil {
		b.Fatalf("node: %v\n%s", err, out)
	}
	if err := os.Rename(tmp, file); err != nil {
		b.Fatal(err)
	}
	return file
}

// sampleHeap samples the Go heap in use (objects and the free space of their spans, as
// MemStats.HeapInuse, but read without stopping the world) until the returned function is
// called, which answers the peak.
func sampleHeap() func() uint64 {
	done := make(chan struct{})
	result := make(chan uint64)
	go func() {
		var peak uint64
		tick := time.NewTicker(20 * time.Millisecond)
		defer tick.Stop()
		samples := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}, {Name: "/memory/classes/heap/unused:bytes"}}
		for {
			metrics.Read(samples)
			peak = max(peak, samples[0].Value.Uint64()+samples[1].Value.Uint64())
			select {
			case <-done:
				result <- peak
				return
			case <-tick.C:
			}
		}
	}()
	return func() uint64 {
		close(done)
		return <-result
	}
}

// resetPeakRSS restarts the kernel's count of peak resident memory (Linux).
func resetPeakRSS() { _ = os.WriteFile("/proc/self/clear_refs", []byte("5"), 0) }

// peakRSS is the process' peak resident memory since the last reset, in bytes (0 if unknown).
func peakRSS() uint64 {
	f, err := os.Open("/proc/self/status")
	if err != nil {
		return 0
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if v, ok := strings.CutPrefix(sc.Text(), "VmHWM:"); ok {
			kb, _ := strconv.ParseUint(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")), 10, 64)
			return kb << 10
		}
	}
	return 0
}

// cpuTime is the CPU time the process has used, user and system.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
