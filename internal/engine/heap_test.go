package engine

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"testing"
	"unicode/utf8"
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
	s := &Session{store: newStore(1000, func(Event) {})}
	job := s.newJob(OpHeapSnapshot)
	s.heap = &heapState{active: &chunkWriter{job: job, ref: "hs3", step: -1}}
	const total = 1_234_567
	for done := 0; done < total; done += 10000 {
		s.onHeapProgress(heapProgress{Done: done, Total: total})
	}
	s.onHeapProgress(heapProgress{Done: total, Total: total})
	s.onHeapProgress(heapProgress{Done: total, Total: total, Finished: true})
	var got []ProgressInfo
	for _, ev := range s.store.snapshot() {
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

// TestUnescapeJSON: the chunk decoder agrees with encoding/json on escapes, surrogate pairs,
// lone surrogates, and refuses what is not a string body.
func TestUnescapeJSON(t *testing.T) {
	for _, body := range []string{
		``, `plain,1,2,[3]`, `{\"a\":\"b\\\"c\"}`, `\n\t\r\b\f\/\\`, `\u00e9\u20AC`, `\ud83d\ude00`,
		`\ud83d`, `\ude00x`, `\ud83d\u0041`, `é€😀`,
	} {
		checkUnescape(t, body)
	}
	for _, bad := range []string{`"`, `a"b`, `\`, `\x`, `\u12`, `\u12g4`, "a\nb"} {
		if _, ok := unescapeJSON(nil, []byte(bad)); ok {
			t.Errorf("%q accepted", bad)
		}
	}
}

// FuzzUnescapeJSON: for every valid UTF-8 string body encoding/json accepts, unescapeJSON gives
// the same text; what it refuses, encoding/json refuses too.
func FuzzUnescapeJSON(f *testing.F) {
	for _, s := range []string{`a\"b`, `\ud83d\ude00`, `\ud800`, `x\\y\/z`, `\u003c`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, body string) {
		if utf8.ValidString(body) {
			checkUnescape(t, body)
		}
	})
}

func checkUnescape(t *testing.T, body string) {
	t.Helper()
	var want string
	werr := json.Unmarshal([]byte(`"`+body+`"`), &want)
	got, ok := unescapeJSON([]byte("keep:"), []byte(body))
	switch {
	case werr == nil && (!ok || string(got) != "keep:"+want):
		t.Errorf("%q: got %q ok %v, want %q", body, got, ok, want)
	case werr != nil && ok:
		t.Errorf("%q: accepted, encoding/json refuses it: %v", body, werr)
	}
}
