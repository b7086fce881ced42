package engine

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// TestChunkWriterCap: a chunkWriter within its limit writes the snapshot whole; one that passes
// it stops writing with a *DiskCapError but still reports done at the last chunk, so no chunk of
// the cut snapshot is left in flight for the next one.
func TestChunkWriterCap(t *testing.T) {
	chunks := []string{`{"snapshot":{"a":"}]\"`, `x"},"nodes":[1,2,`, `3],"strings":["{"]}`}
	whole := int64(0)
	for _, c := range chunks {
		whole += int64(len(c))
	}
	for _, tt := range []struct {
		name  string
		limit int64
		cut   bool
	}{
		{"under", whole, false},
		{"over", whole - 1, true},
		{"first chunk over", 3, true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			f, err := os.Create(filepath.Join(t.TempDir(), "hs1.heapsnapshot"))
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			w := &chunkWriter{f: f, done: make(chan struct{}), limit: tt.limit,
				capErr: func(n int64) error { return &DiskCapError{Cap: tt.limit, Cut: n} }}
			for i, c := range chunks {
				select {
				case <-w.done:
					t.Fatalf("done before chunk %d", i)
				default:
				}
				w.write([]byte(c))
			}
			select {
			case <-w.done:
			default:
				t.Fatal("not done after the last chunk")
			}
			var de *DiskCapError
			if got := errors.As(w.err, &de) && errors.Is(w.err, ErrDiskCap); got != tt.cut {
				t.Fatalf("err %v, want a cap error: %v", w.err, tt.cut)
			}
			if fi, _ := f.Stat(); !tt.cut && fi.Size() != whole || tt.cut && fi.Size() > tt.limit {
				t.Fatalf("wrote %d bytes, limit %d", fi.Size(), tt.limit)
			}
		})
	}
}

// TestHeapProgressThinned: V8 reports a snapshot's walk every 10000 objects; a session records
// one event per tenth of the way, the whole way, and the finished one.
func TestHeapProgressThinned(t *testing.T) {
	s := &Target{s: &Session{store: newStore(1000, func(Event) {})}}
	job := s.s.newJob(OpHeapSnapshot)
	s.heap = &heapState{active: &chunkWriter{job: job, ref: "hs3", step: -1}}
	const total = 1_234_567
	for done := 0; done < total; done += 10000 {
		s.Heap().onHeapProgress(heapProgress{Done: done, Total: total})
	}
	s.Heap().onHeapProgress(heapProgress{Done: total, Total: total})
	s.Heap().onHeapProgress(heapProgress{Done: total, Total: total, Finished: true})
	var got []ProgressInfo
	for _, ev := range s.s.store.snapshot(context.Background()) {
		got = append(got, *ev.Progress)
	}
	if len(got) != progressSteps+2 {
		t.Fatalf("%d events, want %d: %+v", len(got), progressSteps+2, got)
	}
	for i, p := range got[:progressSteps] {
		if p.Done*progressSteps/total != i || p.Ref != "hs3" || p.Op != OpHeapSnapshot {
			t.Errorf("event %d: %+v, want the first report of tenth %d", i, p, i)
		}
	}
	if last := got[len(got)-1]; !last.Finished || last.Done != total {
		t.Errorf("last %+v, want finished", last)
	}
	if p := job.Info().Progress; p == nil || *p != got[len(got)-1] {
		t.Errorf("the job's latest progress %+v", p)
	}
}
