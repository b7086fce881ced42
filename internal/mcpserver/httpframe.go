package mcpserver

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// checkedPOST refuses, with 400 and a JSON-RPC error, a POST body that is not exactly one
// JSON-RPC message or batch of at most MaxBatch (the SDK reads the first JSON value of a body
// and silently drops what follows), and bounds the answer to MaxAnswerBytes.
func checkedPOST(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost {
			next.ServeHTTP(w, r)
			return
		}
		body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, mcp.DefaultMaxRequestBodyBytes))
		if err != nil {
			var tooBig *http.MaxBytesError
			if errors.As(err, &tooBig) {
				rpcError(w, http.StatusRequestEntityTooLarge, errorAnswer(nil, jsonrpc.CodeInvalidRequest,
					fmt.Sprintf("invalid request: a body of more than %d bytes", tooBig.Limit)))
				return
			}
			rpcError(w, http.StatusBadRequest, errorAnswer(nil, jsonrpc.CodeParseError, "parse error: reading the body: "+err.Error()))
			return
		}
		if _, ferr := parseFrame(body, MaxBatch); ferr != nil {
			rpcError(w, http.StatusBadRequest, ferr.answer())
			return
		}
		r.Body = io.NopCloser(bytes.NewReader(body))
		cw := &cappedWriter{ResponseWriter: w, limit: MaxAnswerBytes}
		next.ServeHTTP(cw, r)
		cw.finish(body)
	})
}

func rpcError(w http.ResponseWriter, status int, answer []byte) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_, _ = w.Write(answer)
}

// cappedWriter holds a JSON answer back until the handler is done, to replace it when it grows
// over limit bytes. An event stream (text/event-stream) goes through as it is written.
type cappedWriter struct {
	http.ResponseWriter
	limit   int
	status  int
	started bool // the header is decided: stream or buffer
	stream  bool
	buf     bytes.Buffer
	over    int // the size of an answer over the limit (buf is then dropped)
}

func (c *cappedWriter) WriteHeader(status int) {
	if c.started {
		return
	}
	c.started, c.status = true, status
	if strings.HasPrefix(c.Header().Get("Content-Type"), "text/event-stream") {
		c.stream = true
		c.ResponseWriter.WriteHeader(status)
	}
}

func (c *cappedWriter) Write(p []byte) (int, error) {
	c.WriteHeader(http.StatusOK)
	switch {
	case c.stream:
		return c.ResponseWriter.Write(p)
	case c.over == 0 && c.buf.Len()+len(p) <= c.limit:
		return c.buf.Write(p)
	}
	c.over += c.buf.Len() + len(p)
	c.buf.Reset()
	return len(p), nil
}

// Flush sends an event stream on; a JSON answer goes out whole, in finish.
func (c *cappedWriter) Flush() {
	if c.stream {
		http.NewResponseController(c.ResponseWriter).Flush()
	}
}

// finish sends the answer, or, over the limit, an error answer to each call of the request.
func (c *cappedWriter) finish(request []byte) {
	if c.stream {
		return
	}
	if c.over == 0 {
		if c.status != 0 {
			c.ResponseWriter.WriteHeader(c.status)
		}
		_, _ = c.ResponseWriter.Write(c.buf.Bytes())
		return
	}
	answer := tooLarge(bytes.TrimSpace(request), c.over, c.limit)
	rpcError(c.ResponseWriter, http.StatusOK, answer)
}
