package dap

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"sync"
	"testing"

	godap "github.com/google/go-dap"

	"traced/api"
)

// lockedBuffer is a wire a test reads after the server wrote.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

// wireServer is a Server between requests, as the stream reader finds it, writing to a buffer.
func wireServer(t *testing.T) (*Server, *lockedBuffer) {
	t.Helper()
	s := New(Config{})
	s.ctx, s.cancel = context.WithCancel(t.Context())
	t.Cleanup(s.cancel)
	out := &lockedBuffer{}
	s.w = bufio.NewWriter(out)
	return s, out
}

// messages reads what the server wrote, as raw JSON objects.
func messages(t *testing.T, out *lockedBuffer) []map[string]any {
	t.Helper()
	out.mu.Lock()
	defer out.mu.Unlock()
	rd := bufio.NewReader(bytes.NewReader(out.b.Bytes()))
	var all []map[string]any
	for {
		b, err := godap.ReadBaseMessage(rd)
		if err != nil {
			return all
		}
		var m map[string]any
		if err := json.Unmarshal(b, &m); err != nil {
			t.Fatalf("the server wrote %q: %v", b, err)
		}
		all = append(all, m)
	}
}

// TestRefsLiveUntilTheirThreadResumes: a worker's frame ids and variablesReferences stay valid
// while the main thread pauses and resumes, and end when the worker resumes.
func TestRefsLiveUntilTheirThreadResumes(t *testing.T) {
	t.Parallel()
	s, _ := wireServer(t)
	s.mu.Lock()
	wFrame := s.st.addFrame(frameRef{target: "t1", index: 0})
	wVars := s.st.addHandle(handle{target: "t1", ref: "o1"})
	s.mu.Unlock()

	s.onEvent(&api.Event{Kind: "pause", Pause: &api.PauseInfo{Reason: "other"}}) // main pauses
	s.mu.Lock()
	mVars := s.st.addHandle(handle{target: mainTarget, ref: "o2"})
	s.mu.Unlock()
	s.onEvent(&api.Event{Kind: "resume"}) // and resumes
	if _, err := s.frame(wFrame); err != nil {
		t.Errorf("the worker's frame after the main thread paused and resumed: %v", err)
	}
	if _, err := s.handle(wVars); err != nil {
		t.Errorf("the worker's variablesReference after the main thread paused and resumed: %v", err)
	}
	if _, err := s.handle(mVars); err == nil {
		t.Error("the main thread's variablesReference outlived its resume")
	}

	s.onEvent(&api.Event{Kind: "resume", Target: "t1"})
	if _, err := s.frame(wFrame); err == nil {
		t.Error("the worker's frame outlived its resume")
	}
	if _, err := s.handle(wVars); err == nil {
		t.Error("the worker's variablesReference outlived its resume")
	}
	// A new ref is never an old one's number: a stale id is refused, not taken for another.
	s.mu.Lock()
	fresh := s.st.addHandle(handle{target: "t1"})
	s.mu.Unlock()
	if fresh == wVars || fresh == mVars {
		t.Errorf("variablesReference %d handed out twice", fresh)
	}
}

// TestStoppedSaysNotAllThreads: a stop names its thread and says the others run on.
func TestStoppedSaysNotAllThreads(t *testing.T) {
	t.Parallel()
	s, out := wireServer(t)
	s.onEvent(&api.Event{Kind: "pause", Target: "t2", Pause: &api.PauseInfo{Reason: "other"}})
	msgs := messages(t, out)
	if len(msgs) != 1 || msgs[0]["event"] != "stopped" {
		t.Fatalf("wrote %v, want one stopped event", msgs)
	}
	body, _ := msgs[0]["body"].(map[string]any)
	all, ok := body["allThreadsStopped"]
	if !ok || all != false {
		t.Errorf("stopped body %v: want allThreadsStopped false, written", body)
	}
	if body["threadId"] != float64(3) || body["reason"] != "pause" {
		t.Errorf("stopped body %v: want thread 3, reason pause", body)
	}
}

// TestStoppedAtFunctionBreakpoint: a stop at one of this client's function breakpoints is
// called so; one at a line breakpoint stays "breakpoint".
func TestStoppedAtFunctionBreakpoint(t *testing.T) {
	t.Parallel()
	s, out := wireServer(t)
	s.mu.Lock()
	s.st.funcBPs = []string{"bp2"}
	s.st.bpID("bp1")
	s.st.bpID("bp2")
	s.mu.Unlock()
	s.onEvent(&api.Event{Kind: "pause", Pause: &api.PauseInfo{Reason: "other", HitBreakpoints: []string{"bp2"}}})
	s.onEvent(&api.Event{Kind: "pause", Pause: &api.PauseInfo{Reason: "other", HitBreakpoints: []string{"bp1"}}})
	msgs := messages(t, out)
	if len(msgs) != 2 {
		t.Fatalf("wrote %v, want two stopped events", msgs)
	}
	for i, want := range []string{"function breakpoint", "breakpoint"} {
		if got := msgs[i]["body"].(map[string]any)["reason"]; got != want {
			t.Errorf("stop %d: reason %v, want %q", i, got, want)
		}
	}
}
