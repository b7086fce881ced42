package main

import (
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"traced/internal/engine"
)

// gatedWriter holds its first Write until open is closed and reports every line it has written.
type gatedWriter struct {
	entered chan struct{} // closed when the first Write begins
	open    chan struct{} // closed by the test to let writes through
	wrote   chan struct{} // one value per line written; buffered beyond what a test writes

	mu  sync.Mutex
	out strings.Builder
	n   int
}

func newGatedWriter() *gatedWriter {
	return &gatedWriter{entered: make(chan struct{}), open: make(chan struct{}), wrote: make(chan struct{}, 2*lineQueue)}
}

func (w *gatedWriter) Write(b []byte) (int, error) {
	w.mu.Lock()
	first := w.n == 0
	w.n++
	w.mu.Unlock()
	if first {
		close(w.entered)
	}
	<-w.open
	w.mu.Lock()
	w.out.Write(b)
	w.mu.Unlock()
	w.wrote <- struct{}{}
	return len(b), nil
}

func (w *gatedWriter) String() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.out.String()
}

// waitFor receives on c within the test bound, failing the test otherwise.
func waitFor(t *testing.T, c <-chan struct{}, what string) {
	t.Helper()
	select {
	case <-c:
	case <-time.After(exitBound):
		t.Fatalf("no %s within %s", what, exitBound)
	}
}

func stdoutEvent(seq uint64) engine.Event {
	return engine.Event{Seq: seq, Kind: engine.KindStdout,
		Output: &engine.OutputInfo{Text: engine.Text{Value: fmt.Sprintf("line %d", seq)}}}
}

// TestLinePrinterNeverBlocks: with stderr stuck, PublishEvent returns at once (it runs under the
// engine's store lock); lines beyond the queue are counted, and one marker reports them when space
// returns. Close writes what is queued and stops the writer.
func TestLinePrinterNeverBlocks(t *testing.T) {
	w := newGatedWriter()
	p := newLinePrinter(w, false)
	defer p.Close()

	p.PublishEvent("s1", stdoutEvent(1))
	waitFor(t, w.entered, "first write") // the writer holds line 1; the queue is empty
	const skipped = 10
	published := make(chan struct{})
	go func() {
		defer close(published)
		for seq := uint64(2); seq <= 1+lineQueue+skipped; seq++ {
			p.PublishEvent("s1", stdoutEvent(seq))
		}
	}()
	waitFor(t, published, "return from PublishEvent while stderr is stuck")

	close(w.open)
	for range 1 + lineQueue {
		waitFor(t, w.wrote, "queued line written")
	}
	last := uint64(2 + lineQueue + skipped)
	p.PublishEvent("s1", stdoutEvent(last)) // finds room: the marker goes first
	p.Close()
	p.PublishEvent("s1", stdoutEvent(last+1)) // after Close: dropped, no panic

	lines := strings.Split(strings.TrimSuffix(w.String(), "\n"), "\n")
	if len(lines) != 1+lineQueue+2 {
		t.Fatalf("%d lines written, want %d", len(lines), 1+lineQueue+2)
	}
	for i, l := range lines[:1+lineQueue] {
		if want := fmt.Sprintf("%5d %-9s line %d", i+1, engine.KindStdout, i+1); l != want {
			t.Fatalf("line %d is %q, want %q", i+1, l, want)
		}
	}
	if want := fmt.Sprintf("… %d event lines skipped (stderr is slow)", skipped); lines[1+lineQueue] != want {
		t.Errorf("marker %q, want %q", lines[1+lineQueue], want)
	}
	if want := fmt.Sprintf("line %d", last); !strings.HasSuffix(lines[len(lines)-1], want) {
		t.Errorf("last line %q, want the event after the marker (%s)", lines[len(lines)-1], want)
	}
}

// TestLinePrinterCloseReportsSkips: skips that no later line reported are reported by Close,
// after every queued line.
func TestLinePrinterCloseReportsSkips(t *testing.T) {
	w := newGatedWriter()
	p := newLinePrinter(w, false)
	p.PublishEvent("s1", stdoutEvent(1))
	waitFor(t, w.entered, "first write")
	for seq := uint64(2); seq <= 1+lineQueue+3; seq++ {
		p.PublishEvent("s1", stdoutEvent(seq))
	}
	close(w.open)
	p.Close()
	p.Close() // idempotent

	out := w.String()
	if want := "… 3 event lines skipped (stderr is slow)\n"; !strings.HasSuffix(out, want) {
		t.Fatalf("output ends %q, want the marker %q", out[max(0, len(out)-80):], want)
	}
	if n := strings.Count(out, "\n"); n != 1+lineQueue+1 {
		t.Fatalf("%d lines, want %d", n, 1+lineQueue+1)
	}
}

// TestLinePrinterSkipsQuietEvents: events that render no line (resume, internal scripts) are not
// queued, so they neither print nor count as skipped.
func TestLinePrinterSkipsQuietEvents(t *testing.T) {
	var out strings.Builder
	p := newLinePrinter(&out, false)
	p.PublishEvent("s1", engine.Event{Seq: 1, Kind: engine.KindResume})
	p.PublishEvent("s1", engine.Event{Seq: 2, Kind: engine.KindScript, Script: &engine.ScriptInfo{URL: "node:fs", Internal: true}})
	code := 0
	p.PublishEvent("s1", engine.Event{Seq: 3, Kind: engine.KindExit, Exit: &engine.ExitInfo{Code: &code}})
	p.Close()
	if want := "    3 exit      code 0\n"; out.String() != want {
		t.Fatalf("output %q, want %q", out.String(), want)
	}
}

// TestLinePrinterWritesTheTextForm: a line is the text form's event line (a worker's kind names
// its target), valid UTF-8 whatever bytes the program wrote.
func TestLinePrinterWritesTheTextForm(t *testing.T) {
	var out strings.Builder
	p := newLinePrinter(&out, false)
	p.PublishEvent("s1", engine.Event{Seq: 4, Kind: engine.KindConsole, Target: "t1",
		Console: &engine.ConsoleInfo{Level: "log", Text: engine.Text{Value: "hi"}, Frame: &engine.Frame{File: "w.js", Line: 2}}})
	p.PublishEvent("s1", engine.Event{Seq: 5, Kind: engine.KindStdout,
		Output: &engine.OutputInfo{Text: engine.Text{Value: "bin \xff\xfe end"}}})
	p.Close()
	want := "    4 console@t1 log hi  (w.js:2)\n    5 stdout    bin \uFFFD end\n"
	if out.String() != want {
		t.Fatalf("output %q, want %q", out.String(), want)
	}
}
