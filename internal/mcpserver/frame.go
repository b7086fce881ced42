package mcpserver

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

// Bounds of what a client sends and gets back, on every transport.
const (
	// MaxBatch is the most messages one JSON-RPC batch may hold: a batch of 20,000 tools/list
	// calls would otherwise be answered with hundreds of megabytes.
	MaxBatch = 50
	// MaxAnswerBytes bounds one answer (a message or a batch's array): a larger one is replaced
	// by an error answer to each request it answered.
	MaxAnswerBytes = 16 << 20
	// maxDepth bounds the nesting of a frame below the SDK's own limit (1000), which it
	// enforces by ending the connection.
	maxDepth = 512
)

// frame is one checked inbound JSON-RPC value: a message, or a batch of them.
type frame struct {
	batch bool
	raws  []json.RawMessage // each a message the SDK decodes without error
	msgs  []jsonrpc.Message // raws, decoded
}

// frameError is the JSON-RPC error a malformed frame is answered with.
type frameError struct {
	id      json.RawMessage // the request's id when it could be read, else null
	code    int64
	message string
}

func (e *frameError) answer() []byte { return errorAnswer(e.id, e.code, e.message) }

// parseFrame checks that data is exactly one JSON value and a JSON-RPC message or a non-empty
// batch of at most maxBatch messages, each of which the SDK decodes: anything the SDK would
// end the connection on (or, over HTTP, read only the first value of) is refused here instead.
func parseFrame(data []byte, maxBatch int) (frame, *frameError) {
	data = bytes.TrimSpace(data)
	if !json.Valid(data) {
		return frame{}, &frameError{code: jsonrpc.CodeParseError, message: "parse error: not one JSON value (one JSON-RPC message or batch per line)"}
	}
	if depth(data) > maxDepth {
		return frame{}, &frameError{code: jsonrpc.CodeInvalidRequest, message: fmt.Sprintf("invalid request: nested deeper than %d levels", maxDepth)}
	}
	switch data[0] {
	case '{':
		msg, err := jsonrpc.DecodeMessage(data)
		if err != nil {
			return frame{}, &frameError{id: idOf(data), code: jsonrpc.CodeInvalidRequest, message: "invalid request: " + err.Error()}
		}
		return frame{raws: []json.RawMessage{data}, msgs: []jsonrpc.Message{msg}}, nil
	case '[':
		var raws []json.RawMessage
		if err := json.Unmarshal(data, &raws); err != nil {
			return frame{}, &frameError{code: jsonrpc.CodeParseError, message: "parse error: " + err.Error()}
		}
		if len(raws) == 0 {
			return frame{}, &frameError{code: jsonrpc.CodeInvalidRequest, message: "invalid request: empty batch"}
		}
		if len(raws) > maxBatch {
			return frame{}, &frameError{code: jsonrpc.CodeInvalidRequest, message: fmt.Sprintf("invalid request: a batch of %d messages; at most %d", len(raws), maxBatch)}
		}
		f := frame{batch: true, raws: raws}
		seen := map[jsonrpc.ID]bool{}
		for i, raw := range raws {
			msg, err := jsonrpc.DecodeMessage(raw)
			if err != nil {
				return frame{}, &frameError{code: jsonrpc.CodeInvalidRequest, message: fmt.Sprintf("invalid request: batch message %d: %v", i, err)}
			}
			if req, ok := msg.(*jsonrpc.Request); ok && req.IsCall() {
				if seen[req.ID] {
					return frame{}, &frameError{code: jsonrpc.CodeInvalidRequest, message: fmt.Sprintf("invalid request: batch message %d repeats id %v", i, req.ID.Raw())}
				}
				seen[req.ID] = true
			}
			f.msgs = append(f.msgs, msg)
		}
		return f, nil
	}
	return frame{}, &frameError{code: jsonrpc.CodeInvalidRequest, message: "invalid request: not a JSON-RPC message (an object) or batch (an array)"}
}

// errorAnswer is the JSON-RPC error answer to the request of id (null when unknown).
func errorAnswer(id json.RawMessage, code int64, message string) []byte {
	if len(id) == 0 {
		id = json.RawMessage("null")
	}
	type wireError struct {
		Code    int64  `json:"code"`
		Message string `json:"message"`
	}
	b, err := json.Marshal(struct {
		JSONRPC string          `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Error   wireError       `json:"error"`
	}{"2.0", id, wireError{code, message}})
	if err != nil { // id is valid JSON, so only a bug gets here
		panic(err)
	}
	return b
}

// idOf is the id of a message when it has a valid one (a string or a number), else nil.
func idOf(msg []byte) json.RawMessage {
	var m struct {
		ID json.RawMessage `json:"id"`
	}
	if json.Unmarshal(msg, &m) != nil || len(m.ID) == 0 || (m.ID[0] != '"' && m.ID[0] != '-' && (m.ID[0] < '0' || m.ID[0] > '9')) {
		return nil
	}
	return m.ID
}

// tooLarge is what replaces an answer of size bytes, over limit: an error answer to each id of
// msgs (the answer, or the request it answers); nil when none has an id (a notification).
func tooLarge(msgs []byte, size, limit int) []byte {
	msg := fmt.Sprintf("the answer is %d bytes, over the %d-byte cap: ask for less (a smaller batch or a narrower call)", size, limit)
	if bytes.HasPrefix(msgs, []byte("[")) {
		var members []json.RawMessage
		if json.Unmarshal(msgs, &members) != nil {
			return nil
		}
		out := make([]json.RawMessage, 0, len(members))
		for _, m := range members {
			if id := idOf(m); id != nil {
				out = append(out, errorAnswer(id, jsonrpc.CodeInternalError, msg))
			}
		}
		if len(out) == 0 {
			return nil
		}
		b, _ := json.Marshal(out)
		return b
	}
	id := idOf(msgs)
	if id == nil {
		return nil
	}
	return errorAnswer(id, jsonrpc.CodeInternalError, msg)
}

// depth is how deeply data's arrays and objects nest.
func depth(data []byte) int {
	var d, most int
	inString, escaped := false, false
	for _, b := range data {
		switch {
		case inString && escaped:
			escaped = false
		case inString && b == '\\':
			escaped = true
		case inString:
			inString = b != '"'
		case b == '"':
			inString = true
		case b == '{' || b == '[':
			d++
			most = max(most, d)
		case b == '}' || b == ']':
			d--
		}
	}
	return most
}
