package mcpserver

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// LineTransport is the SDK's newline-delimited transport (stdio) behind a filter that answers
// a malformed line itself, with JSON-RPC -32700 or -32600, and goes on: the SDK ends the
// connection, and with it every debug session of the client, on the first line it cannot
// decode. It also bounds batches and answers (MaxBatch, MaxAnswerBytes).
type LineTransport struct {
	In  io.Reader
	Out io.Writer
	// Limits; zero selects MaxBatch, mcp.DefaultMaxLineLength and MaxAnswerBytes.
	MaxBatch, MaxLine, MaxAnswer int
}

// Connect implements mcp.Transport: the SDK reads the lines the filter lets through.
func (t *LineTransport) Connect(ctx context.Context) (mcp.Connection, error) {
	pr, pw := io.Pipe()
	out := &answerWriter{w: t.Out, limit: or(t.MaxAnswer, MaxAnswerBytes), batched: map[jsonrpc.ID]bool{}}
	f := &lineFilter{out: out, sdk: pw, maxBatch: or(t.MaxBatch, MaxBatch), maxLine: or(t.MaxLine, mcp.DefaultMaxLineLength)}
	// The filter ends at the input's end (the SDK then reads EOF) or at the SDK's close (its
	// next line to the SDK fails), like the SDK's own reader of stdin.
	go func() { pw.CloseWithError(f.run(t.In)) }()
	return (&mcp.IOTransport{Reader: pr, Writer: out}).Connect(ctx)
}

func or(v, def int) int {
	if v > 0 {
		return v
	}
	return def
}

// lineFilter passes each well-formed line to the SDK and answers the others.
type lineFilter struct {
	out      *answerWriter
	sdk      io.Writer
	maxBatch int
	maxLine  int
	// noBatch: an initialize asked for a protocol version without JSON-RPC batches (2025-06-18
	// and later), on which the SDK ends the connection at a batch.
	noBatch bool
}

func (f *lineFilter) run(in io.Reader) error {
	r := bufio.NewReaderSize(in, 64<<10)
	for {
		line, tooLong, err := readLine(r, f.maxLine)
		if tooLong {
			f.answer(errorAnswer(nil, jsonrpc.CodeInvalidRequest, fmt.Sprintf("invalid request: a message of more than %d bytes", f.maxLine)))
		} else if len(bytes.TrimSpace(line)) > 0 {
			if werr := f.pass(line); werr != nil {
				return werr
			}
		}
		if err != nil {
			if errors.Is(err, io.EOF) {
				return nil
			}
			return fmt.Errorf("read MCP input: %w", err)
		}
	}
}

// readLine reads up to and without the next newline; a line longer than limit is read to its
// end and dropped (tooLong).
func readLine(r *bufio.Reader, limit int) (line []byte, tooLong bool, err error) {
	for {
		chunk, err := r.ReadSlice('\n')
		if !tooLong {
			line = append(line, chunk...)
			if len(line) > limit+2 { // the newline (and a \r) do not count
				tooLong, line = true, nil
			}
		}
		if !errors.Is(err, bufio.ErrBufferFull) {
			return line, tooLong, err
		}
	}
}

// pass checks one line and hands it (or its parts) to the SDK, or answers it.
func (f *lineFilter) pass(line []byte) error {
	fr, ferr := parseFrame(line, f.maxBatch)
	if ferr != nil {
		f.answer(ferr.answer())
		return nil
	}
	for _, m := range fr.msgs {
		if req, ok := m.(*jsonrpc.Request); ok && req.Method == "initialize" {
			var p struct {
				ProtocolVersion string `json:"protocolVersion"`
			}
			_ = json.Unmarshal(req.Params, &p)
			// The versions the SDK negotiates as asked that still have batches; any other
			// request is answered with a later version.
			f.noBatch = p.ProtocolVersion != "2025-03-26" && p.ProtocolVersion != "2024-11-05"
		}
	}
	if !fr.batch {
		return f.toSDK(fr.raws[0])
	}
	if f.noBatch {
		f.answer(errorAnswer(nil, jsonrpc.CodeInvalidRequest, "invalid request: the negotiated protocol version has no JSON-RPC batches: send one message a line"))
		return nil
	}
	// The SDK answers a batch once every member is answered, notifications included (which
	// never are), and ends the connection at a batch reusing an id still in flight: each
	// notification goes on its own, and a reused id is refused here.
	var rest []json.RawMessage
	var calls []jsonrpc.ID
	for i, m := range fr.msgs {
		req, ok := m.(*jsonrpc.Request)
		switch {
		case ok && !req.IsCall():
			if err := f.toSDK(fr.raws[i]); err != nil {
				return err
			}
			continue
		case ok:
			calls = append(calls, req.ID)
		}
		rest = append(rest, fr.raws[i])
	}
	if len(rest) == 0 {
		return nil
	}
	if !f.out.track(calls) {
		f.answer(errorAnswer(nil, jsonrpc.CodeInvalidRequest, "invalid request: the batch reuses the id of a request still in flight"))
		return nil
	}
	b, err := json.Marshal(rest)
	if err != nil {
		return fmt.Errorf("re-encode batch: %w", err)
	}
	return f.toSDK(b)
}

func (f *lineFilter) toSDK(msg []byte) error {
	_, err := f.sdk.Write(append(append([]byte(nil), msg...), '\n'))
	return err
}

// answer writes the filter's own answer; a failed write ends the SDK's connection too, which
// sees it on its next write.
func (f *lineFilter) answer(a []byte) { _, _ = f.out.Write(append(a, '\n')) }

// answerWriter is the output shared by the SDK and the filter: whole answers, one at a time,
// each at most limit bytes.
type answerWriter struct {
	mu      sync.Mutex
	w       io.Writer
	limit   int
	batched map[jsonrpc.ID]bool // ids of batched calls not yet answered
}

// Write writes one answer (the SDK writes each in one call), replacing one over the limit.
func (a *answerWriter) Write(p []byte) (int, error) {
	n := len(p)
	msg := bytes.TrimRight(p, "\r\n")
	a.mu.Lock()
	defer a.mu.Unlock()
	if bytes.HasPrefix(msg, []byte("[")) {
		a.answered(msg)
	}
	if len(msg) > a.limit {
		msg = tooLarge(msg, len(msg), a.limit)
		if msg == nil {
			return n, nil
		}
		p = append(msg, '\n')
	}
	if _, err := a.w.Write(p); err != nil {
		return 0, fmt.Errorf("write MCP answer: %w", err)
	}
	return n, nil
}

// Close leaves the output open: it is the process's stdout.
func (a *answerWriter) Close() error { return nil }

// track records the ids of a batch's calls, unless one is still in flight.
func (a *answerWriter) track(ids []jsonrpc.ID) bool {
	a.mu.Lock()
	defer a.mu.Unlock()
	for _, id := range ids {
		if a.batched[id] {
			return false
		}
	}
	for _, id := range ids {
		a.batched[id] = true
	}
	return true
}

// answered forgets the ids a batch answer answers.
func (a *answerWriter) answered(batch []byte) {
	var members []json.RawMessage
	if json.Unmarshal(batch, &members) != nil {
		return
	}
	for _, m := range members {
		if msg, err := jsonrpc.DecodeMessage(m); err == nil {
			if resp, ok := msg.(*jsonrpc.Response); ok {
				delete(a.batched, resp.ID)
			}
		}
	}
}
