package main

import (
	"fmt"
	"io"
	"sync"

	"traced/api/convert"
	"traced/internal/engine"
	"traced/internal/textform"
)

// lineQueue is how many formatted event lines wait for the writer, about 400 KiB at 100 bytes a
// line: enough to ride out a terminal that scrolls slowly, small enough to bound a stuck stderr.
const lineQueue = 4096

// linePrinter writes one compact line per event as the engine captures it, for `traced run`.
//
// PublishEvent runs under the session's store lock and must not block (engine.Publisher), so it
// only formats the line and queues it; one writer goroutine, started by newLinePrinter and ended
// by Close, owns w. When the queue is full the line is skipped and counted; the next line that
// finds room is preceded by one marker giving the count, and Close prints a marker for skips that
// no later line reported.
type linePrinter struct {
	verbose bool
	lines   chan string   // bounded by lineQueue; closed by Close
	done    chan struct{} // closed by the writer once every queued line is written

	mu      sync.Mutex // guards skipped and closed; held only for a non-blocking send
	skipped int        // lines dropped since the last marker
	closed  bool       // Close has run: lines is closed, later events are dropped
	final   int        // skips left at Close, printed by the writer after the last line
	once    sync.Once
}

func newLinePrinter(w io.Writer, verbose bool) *linePrinter {
	p := &linePrinter{verbose: verbose, lines: make(chan string, lineQueue), done: make(chan struct{})}
	go p.write(w)
	return p
}

// write is the writer goroutine: it copies queued lines to w until Close.
func (p *linePrinter) write(w io.Writer) {
	defer close(p.done)
	for line := range p.lines {
		io.WriteString(w, line)
	}
	// Close set final before closing lines: the range ending orders this read after that write.
	if p.final > 0 {
		io.WriteString(w, skippedMarker(p.final))
	}
}

// Close flushes the queued lines, stops the writer and waits for it. Events published afterwards
// are dropped. Safe to call more than once.
func (p *linePrinter) Close() {
	p.once.Do(func() {
		p.mu.Lock()
		p.closed = true
		p.final = p.skipped
		p.mu.Unlock()
		close(p.lines)
		<-p.done
	})
}

func (p *linePrinter) PublishStatus(engine.Summary) {}

func (p *linePrinter) PublishEvent(_ string, ev engine.Event) {
	line := eventLine(ev, p.verbose)
	if line == "" {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.closed {
		return
	}
	if p.skipped > 0 {
		select {
		case p.lines <- skippedMarker(p.skipped):
			p.skipped = 0
		default:
			p.skipped++
			return
		}
	}
	select {
	case p.lines <- fmt.Sprintf("%5d %-9s %s\n", ev.Seq, textform.EventKind(convert.FromEvent(ev)), line):
	default:
		p.skipped++
	}
}

func skippedMarker(n int) string {
	return fmt.Sprintf("… %d event lines skipped (stderr is slow)\n", n)
}

// eventLine renders an event in the text form; "" skips it. `traced run` prints what a program
// does: the modules it loads and its contexts only when asked, resumes never.
func eventLine(ev engine.Event, verbose bool) string {
	switch ev.Kind {
	case engine.KindConsole, engine.KindException, engine.KindStdout, engine.KindStderr, engine.KindExit, engine.KindPause:
		return textform.Event(convert.FromEvent(ev))
	case engine.KindScript, engine.KindContext: // every module a program loads, node_modules too
		if verbose {
			return textform.Event(convert.FromEvent(ev))
		}
	}
	return ""
}
