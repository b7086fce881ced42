package cdp

import (
	"errors"
	"testing"
)

// FuzzDecode feeds arbitrary bytes through the path the reader takes for every text message and
// checks that nothing panics and that each message is routed to at most one place.
func FuzzDecode(f *testing.F) {
	for _, seed := range []string{
		`{"id":1,"result":{"result":{"type":"number","value":2,"description":"2"}}}`,
		`{"id":1,"error":{"code":-32601,"message":"'Nope.nope' wasn't found"}}`,
		`{"id":1,"error":{"code":-32602,"message":"Invalid parameters","data":"expression: string value expected"}}`,
		`{"method":"Runtime.consoleAPICalled","params":{"type":"log","args":[{"type":"string","value":"hi"}]}}`,
		`{"method":"Debugger.paused"}`,
		`{"id":7,"result":{}}`,
		`{"id":1,"method":"Both.set","params":[]}`,
		`{"id":1,"error":{"code":1,"message":"m","data":{"not":"a string"}}}`,
		`{"id":1e3}`,
		`{"id":-1}`,
		`null`,
		`[]`,
		`{`,
		"\xff\xfe",
		``,
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		waiter := make(chan reply, 1)
		c := &Client{calls: calls{pending: map[int64]chan reply{1: waiter}}, queue: newEventQueue()}
		err := c.handle(data)
		m, decodeErr := ParseMessage(data)
		if (err == nil) != (decodeErr == nil) {
			t.Fatalf("handle = %v but ParseMessage = %v", err, decodeErr)
		}
		c.queue.close()
		ev, queued := c.queue.pop()
		var replied bool
		var r reply
		select {
		case r = <-waiter:
			replied = true
		default:
		}
		if err != nil {
			if queued || replied {
				t.Fatalf("malformed message %q was routed", data)
			}
			return
		}
		if queued && replied {
			t.Fatalf("message %q was both an event and a reply", data)
		}
		if queued != (m.Method != "") {
			t.Fatalf("message %q: queued = %v, method = %q", data, queued, m.Method)
		}
		if queued && ev.Method != m.Method {
			t.Fatalf("queued %q, want %q", ev.Method, m.Method)
		}
		if replied != (m.Method == "" && m.ID == 1) {
			t.Fatalf("message %q: replied = %v, id = %d", data, replied, m.ID)
		}
		if replied {
			if _, still := c.calls.pending[1]; still {
				t.Fatal("answered waiter still pending")
			}
			var cerr *Error
			if (m.Error != nil) != errors.As(r.err, &cerr) {
				t.Fatalf("message %q: reply err = %v, error field = %v", data, r.err, m.Error)
			}
		}
	})
}
