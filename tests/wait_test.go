package tests

import (
	"fmt"
	"testing"

	"traced/api"
	"traced/internal/service"
)

func TestWaitReturnsTheFirstMatchingEvent(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	s := h.start(api.StartRequest{Target: "throws.js"})
	w := h.waitFor(s.ID, 0, "console")
	if w.Event == nil || w.Event.Kind != api.KindConsole || w.Event.Console.Text.Value != "starting 42" {
		t.Fatalf("first console: %+v", w.Event)
	}
	// The cursor moves on: the next console after the first is the second one.
	w2 := h.waitFor(s.ID, w.Event.Seq, "console")
	if w2.Event == nil || w2.Event.Seq <= w.Event.Seq || w2.Event.Console.Level != "warning" {
		t.Fatalf("second console: %+v", w2.Event)
	}
	if w2.Oldest != 1 || w2.Newest < w2.Event.Seq || w2.Gap != nil {
		t.Fatalf("window oldest %d newest %d gap %+v", w2.Oldest, w2.Newest, w2.Gap)
	}
}

func TestWaitTimesOutWithTheWindow(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	s := h.start(api.StartRequest{Target: "forever.js"})
	var w api.WaitResponse
	h.call("GET", "/api/trace/wait?id="+s.ID+"&kinds=exception&timeoutMs=200", nil, &w)
	if !w.TimedOut || w.Event != nil || w.Finished || w.Newest == 0 || w.Oldest != 1 {
		t.Fatalf("wait answered %+v, want a timeout with the retained window", w)
	}
	if w.Next == 0 {
		t.Fatalf("next cursor %d: a timed-out wait should move past what it scanned", w.Next)
	}
}

func TestWaitOnFinishedSessionWithoutMatch(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	s := h.start(api.StartRequest{Target: "clean.js"})
	h.waitExit(s.ID)
	var w api.WaitResponse
	h.call("GET", "/api/trace/wait?id="+s.ID+"&kinds=exception&timeoutMs=5000", nil, &w)
	if !w.Finished || w.TimedOut || w.Event != nil {
		t.Fatalf("wait answered %+v, want finished without an event", w)
	}
}

func TestWaitReportsAGapForAnEvictedCursor(t *testing.T) {
	t.Parallel()
	h := newHarness(t, func(o *service.Options) { o.Engine.MaxEvents = 100 })
	s := h.start(api.StartRequest{Target: "lines.js", Args: []string{"3000"}})
	sum := h.waitExit(s.ID)
	var w api.WaitResponse
	h.call("GET", fmt.Sprintf("/api/trace/wait?id=%s&after=1&timeoutMs=1000", s.ID), nil, &w)
	oldest := sum.LastSeq - 99
	if w.Gap == nil || w.Gap.From != 2 || w.Gap.To != oldest-1 || w.Event == nil || w.Event.Seq != oldest {
		t.Fatalf("wait answered gap %+v event %+v, want gap 2..%d then seq %d", w.Gap, w.Event, oldest-1, oldest)
	}
}

func TestEventsPagesWithCursor(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	s := h.start(api.StartRequest{Target: "lines.js", Args: []string{"120"}})
	h.waitExit(s.ID)
	var after uint64
	var seen []string
	for range 10 {
		var p api.EventsResponse
		h.call("GET", fmt.Sprintf("/api/trace/events?id=%s&after=%d&kinds=console&limit=50", s.ID, after), nil, &p)
		for _, ev := range p.Events {
			seen = append(seen, ev.Console.Text.Value)
		}
		after = p.Next
		if !p.More {
			break
		}
	}
	if len(seen) != 120 || seen[0] != "line 0 " || seen[119] != "line 119 " {
		t.Fatalf("paged %d console events: first %q last %q", len(seen), seen[0], seen[len(seen)-1])
	}
}

// TestWaitKeepsTheGapPastNonMatchingEvents: the gap belongs to the caller's cursor, however many
// non-matching events the wait skips before it answers.
func TestWaitKeepsTheGapPastNonMatchingEvents(t *testing.T) {
	t.Parallel()
	h := newHarness(t, func(o *service.Options) { o.Engine.MaxEvents = 10 })
	s := h.start(api.StartRequest{Target: "lines.js", Args: []string{"50"}})
	sum := h.waitExit(s.ID)
	var w api.WaitResponse
	h.call("GET", fmt.Sprintf("/api/trace/wait?id=%s&after=5&kinds=exit&timeoutMs=1000", s.ID), nil, &w)
	oldest := sum.LastSeq - 9
	if w.Event == nil || w.Event.Kind != api.KindExit || w.Gap == nil || w.Gap.From != 6 || w.Gap.To != oldest-1 {
		t.Fatalf("wait answered event %+v gap %+v, want the exit and gap 6..%d", w.Event, w.Gap, oldest-1)
	}
}

// TestExpiredWaitOnFinishedSessionSaysFinished: timeoutMs=0 on a finished session has one answer.
func TestExpiredWaitOnFinishedSessionSaysFinished(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	s := h.start(api.StartRequest{Target: "clean.js"})
	sum := h.waitExit(s.ID)
	for range 50 {
		var w api.WaitResponse
		h.call("GET", fmt.Sprintf("/api/trace/wait?id=%s&after=%d&timeoutMs=0", s.ID, sum.LastSeq), nil, &w)
		if !w.Finished || w.TimedOut {
			t.Fatalf("wait answered %+v, want finished", w)
		}
	}
}
