package cpuprofile

import (
	"strings"
	"testing"
)

// TestRenderAlive: a child's stdio pipes fold into the child, equal handles are counted once,
// unref'd ones are listed apart, and an empty answer says the loop can end.
func TestRenderAlive(t *testing.T) {
	fd := 1
	a := Alive{PID: 42, ThreadID: 2, Handles: []Handle{
		{Kind: "child", Ref: true, PID: 7, Command: "sleep 30"},
		{Kind: "child-stdio", Ref: true, Owner: 7},
		{Kind: "child-stdio", Ref: true, Owner: 7},
		{Kind: "socket", Ref: true, Peer: "10.0.0.1:5432"},
		{Kind: "socket", Ref: true, Peer: "10.0.0.1:5432"},
		{Kind: "stdio", Ref: false, FD: &fd},
		{Kind: "timeout", Ref: false, DelayMs: 500, Callback: "retry", Location: "app.js:9"},
	}, Requests: []Handle{{Kind: "request", Type: "FSReqCallback", Ref: true}}}
	text := RenderAlive("worker 2", a, 0)
	want := "worker 2 (pid 42, thread 2): still running because: child process 7 (sleep 30); 2 × socket to 10.0.0.1:5432; pending request FSReqCallback\n" +
		"  not keeping it alive (unref'd or inactive): stdio fd 1; timeout 500 ms retry at app.js:9\n"
	if text != want {
		t.Errorf("got\n%s\nwant\n%s", text, want)
	}
	if got := RenderAlive("main", Alive{}, 0); !strings.HasPrefix(got, "main: nothing keeps it alive") {
		t.Errorf("empty: %q", got)
	}
	orphan := Alive{Handles: []Handle{{Kind: "child-stdio", Ref: true, Owner: 9}}}
	if got := RenderAlive("main", orphan, 0); !strings.Contains(got, "stdio pipe of child 9") {
		t.Errorf("a pipe whose child is gone: %q", got)
	}
}

// TestAliveResourcesCounted: ref'd timers and immediates that node counts but no description
// covers are still named; described ones are not counted twice.
func TestAliveResourcesCounted(t *testing.T) {
	a := Alive{Resources: map[string]int{"Timeout": 2, "Immediate": 1}, Handles: []Handle{
		{Kind: "interval", Ref: true, DelayMs: 1000, Callback: "poll"},
		{Kind: "timeout", Ref: false, DelayMs: 5, Callback: "late"},
	}}
	got := RenderAlive("main", a, 0)
	want := "main: still running because: interval 1000 ms poll; timer (not described); setImmediate callback\n"
	if !strings.HasPrefix(got, want) {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

// TestParseAlive: the snippets' answers parse, broken ones do not.
func TestParseAlive(t *testing.T) {
	a, err := ParseAlive([]byte(`{"pid":5,"threadId":0,"handles":[{"kind":"server","type":"Server","ref":true,"fd":20,"address":"127.0.0.1:80"}],"requests":[],"resources":{"Timeout":1}}`))
	if err != nil || a.PID != 5 || len(a.Handles) != 1 || *a.Handles[0].FD != 20 || a.Resources["Timeout"] != 1 {
		t.Errorf("got %+v, %v", a, err)
	}
	if _, err := ParseAlive([]byte(`{`)); err == nil {
		t.Error("broken answer accepted")
	}
	hs, err := ParseHandles([]byte(`[{"kind":"interval","delayMs":1000,"ref":true,"callback":"poll"}]`))
	if err != nil || len(hs) != 1 || hs[0].Kind != "interval" {
		t.Errorf("got %+v, %v", hs, err)
	}
}
