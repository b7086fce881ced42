package dap

import (
	"bufio"
	"bytes"
	"context"
	"sync"
	"testing"

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
