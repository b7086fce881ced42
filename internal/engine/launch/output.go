package launch

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"os"
	"time"
	"unicode/utf8"
)

// maxLine caps one line read from the child's stdout or stderr; longer lines are split, on a
// rune boundary.
const maxLine = 1 << 20

// ReadOutput reads node's stdout and stderr, each on a goroutine of its own, calling stdout or
// stderr with every line until the pipe closes or Wait cuts it off. stderrEnd runs on stderr's
// reader once it has read all: node prints its inspector's URL there, so an end before that line
// means it never listened. Call it once, before Wait.
func (c *Child) ReadOutput(stdout, stderr func(line string), stderrEnd func()) {
	c.readers.Add(2)
	go func() {
		defer c.readers.Done()
		readLines(c.stdout, stdout)
	}()
	go func() {
		defer c.readers.Done()
		readLines(c.stderr, stderr)
		if stderrEnd != nil {
			stderrEnd()
		}
	}()
}

// Wait returns how node ended, once it has and its output is read. It removes the tree's record
// (nothing of the tree is left to reap after a restart, or it is the user's), and gives the
// readers drain to read what is left: a grandchild that inherited the pipes could otherwise hold
// them open forever.
func (c *Child) Wait(drain time.Duration) Exit {
	<-c.exited
	if c.record != "" {
		os.Remove(c.record)
	}
	deadline := time.Now().Add(drain)
	c.stdout.SetReadDeadline(deadline)
	c.stderr.SetReadDeadline(deadline)
	c.readers.Wait()
	c.stdout.Close()
	c.stderr.Close()
	return c.exit()
}

// readLines calls fn for each line of r, without its "\n" or "\r\n", until EOF or a read error
// (a deadline included); a last line without a newline is reported too. A line longer than maxLine
// is reported in maxLine pieces, so memory stays bounded and nothing is lost.
func readLines(r io.Reader, fn func(string)) {
	br := bufio.NewReaderSize(r, 64<<10)
	var line []byte // a line that did not fit the reader's buffer
	for {
		frag, err := br.ReadSlice('\n')
		whole := err == nil
		if whole && len(line) == 0 { // the common case: the line is in the buffer, no copy
			fn(validText(dropEOL(frag)))
			continue
		}
		line = append(line, frag...)
		more := errors.Is(err, bufio.ErrBufferFull) // this line goes on
		if !more {
			line = dropEOL(line)
		}
		for len(line) > maxLine {
			cut := runeCut(line, maxLine)
			fn(validText(line[:cut]))
			line = line[:copy(line, line[cut:])]
		}
		if more {
			continue
		}
		if whole || len(line) > 0 {
			fn(validText(line))
		}
		line = line[:0]
		if err != nil {
			return
		}
	}
}

// runeCut is where to cut b, longer than max, to at most max bytes: at the start of the rune the
// cut falls in, or at max in bytes that are not UTF-8.
func runeCut(b []byte, max int) int {
	for cut := max; cut > 0 && cut > max-utf8.UTFMax; cut-- {
		if utf8.RuneStart(b[cut]) {
			return cut
		}
	}
	return max
}

// validText is a program's raw output as text: each run of bytes that is not UTF-8 becomes
// U+FFFD, so that every form (JSON, the text form, the stream, OTLP's protobuf strings) holds
// valid UTF-8.
func validText(b []byte) string {
	if utf8.Valid(b) {
		return string(b)
	}
	return string(bytes.ToValidUTF8(b, []byte("\uFFFD")))
}

func dropEOL(b []byte) []byte {
	b = bytes.TrimSuffix(b, []byte{'\n'})
	return bytes.TrimSuffix(b, []byte{'\r'})
}
