package engine

import (
	"context"
	"regexp"
	"sync"
	"time"
)

// Gap is a range of seqs, inclusive, that a reader asked for but the ring no longer holds.
type Gap struct {
	From uint64
	To   uint64
}

// Page is a slice of a session's events after a cursor, with the window the ring retains.
type Page struct {
	Events []Event
	Oldest uint64 // oldest retained seq; 0 when nothing is retained
	Newest uint64 // newest seq produced so far; 0 before the first event
	Gap    *Gap
	// Next is the cursor to pass as after for the following page.
	Next uint64
	More bool // matching events remain after this page
}

// KindSet filters events by kind; an empty set matches every kind.
type KindSet map[Kind]bool

// Match reports whether the set admits k.
func (s KindSet) Match(k Kind) bool { return len(s) == 0 || s[k] }

// Filter selects events: by kind, by the target they come from ("" every target; "t0" the main
// thread, whose events carry no target), and by their text (nil: any).
type Filter struct {
	Kinds  KindSet
	Target string
	Text   *regexp.Regexp
	// NoInternal leaves out the script events of node's own scripts, which a reader of the
	// program's events rarely asks about (there are a hundred of them before its first module).
	NoInternal bool
}

// Match reports whether the filter admits ev.
func (f Filter) Match(ev *Event) bool {
	if !f.Kinds.Match(ev.Kind) {
		return false
	}
	if f.NoInternal && ev.Script != nil && ev.Script.Internal {
		return false
	}
	if f.Text != nil {
		t, ok := ev.text()
		if !ok || !f.Text.MatchString(t) {
			return false
		}
	}
	switch f.Target {
	case "":
		return true
	case "t0":
		return ev.Target == ""
	}
	return ev.Target == f.Target
}

// text is what a text filter reads of an event: a throw's or an exception's "Class: message",
// a console call's, logpoint's or output line's text, a script's URL; false when it has none.
func (ev *Event) text() (string, bool) {
	classed := func(class, msg string) string {
		if class == "" {
			return msg
		}
		return class + ": " + msg
	}
	switch {
	case ev.Throw != nil:
		return classed(ev.Throw.Class, ev.Throw.Message.Value), true
	case ev.Exception != nil:
		return classed(ev.Exception.Class, ev.Exception.Message.Value), true
	case ev.Console != nil:
		return ev.Console.Text.Value, true
	case ev.Logpoint != nil:
		return ev.Logpoint.Text.Value, true
	case ev.Output != nil:
		return ev.Output.Text.Value, true
	case ev.Script != nil:
		return ev.Script.URL, true
	}
	return "", false
}

// store is a session's capped event ring. Seqs start at 1 and never repeat.
type store struct {
	mu      sync.Mutex
	ring    []Event // capacity max; ring[(start+i)%max] is the i-th oldest retained
	start   int
	n       int
	max     int
	lastSeq uint64
	dropped int
	counts  map[Kind]int
	changed chan struct{} // made by the first waiter, closed by the next append; nil if none waits
	publish func(Event)   // called under mu so subscribers see seq order; must not block
	hide    func(*Event)  // redacts an event before it is stored, outside mu; nil: none
	held    []*heldEvent  // a reservation and the events behind it, in order (reserve)
	made    chan struct{} // closed when held empties; non-nil while it is not
}

func newStore(max int, publish func(Event)) *store {
	return &store{
		ring:    make([]Event, 0, min(max, 1024)),
		max:     max,
		counts:  make(map[Kind]int),
		publish: publish,
	}
}

// append stamps ev with the current time and stores it with the next seq, or, while a reserved
// event is still being made, queues it behind that one.
func (s *store) append(ev Event) {
	if s.hide != nil {
		s.hide(&ev)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	ev.Time = time.Now().UTC()
	if len(s.held) > 0 {
		s.held = append(s.held, &heldEvent{ev: ev, ready: true})
		return
	}
	s.commit(ev)
}

// heldEvent is an event waiting in order behind a reservation; ready once it is made.
type heldEvent struct {
	ev    Event
	ready bool
}

// reserve keeps the next place in order for an event that takes a while to make (a throw's
// locals are read after the pause is let go): the events appended meanwhile wait behind it, so
// seq order stays the order things happened. fill must follow.
func (s *store) reserve() *heldEvent {
	s.mu.Lock()
	defer s.mu.Unlock()
	h := &heldEvent{ev: Event{Time: time.Now().UTC()}}
	if s.made == nil {
		s.made = make(chan struct{})
	}
	s.held = append(s.held, h)
	return h
}

// fill stores a reserved event (stamped when reserved) and every event that waited behind it.
func (s *store) fill(h *heldEvent, ev Event) {
	if s.hide != nil {
		s.hide(&ev)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	ev.Time = h.ev.Time
	h.ev, h.ready = ev, true
	n := 0
	for ; n < len(s.held) && s.held[n].ready; n++ {
		s.commit(s.held[n].ev)
	}
	s.held = s.held[n:]
	if len(s.held) == 0 {
		s.held = nil
		close(s.made)
		s.made = nil
	}
}

// commit gives ev the next seq, stores it and publishes it, under mu.
func (s *store) commit(ev Event) {
	s.lastSeq++
	ev.Seq = s.lastSeq
	s.counts[ev.Kind]++
	switch {
	case s.n < s.max: // still growing (start is 0): allocate lazily, most sessions are small
		s.ring = append(s.ring, ev)
		s.n++
	default:
		s.ring[s.start] = ev
		s.start = (s.start + 1) % s.max
		s.dropped++
	}
	if s.changed != nil { // someone waits: wake them
		close(s.changed)
		s.changed = nil
	}
	if s.publish != nil {
		s.publish(ev)
	}
}

func (s *store) at(i int) *Event { return &s.ring[(s.start+i)%s.max] }

// page returns up to limit events with seq > after matching kinds (limit <= 0: no limit).
func (s *store) page(after uint64, f Filter, limit int) Page {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.pageLocked(after, f, limit)
}

func (s *store) pageLocked(after uint64, f Filter, limit int) Page {
	p := Page{Newest: s.lastSeq, Next: after, Events: []Event{}}
	if s.n == 0 {
		return p
	}
	p.Oldest = s.at(0).Seq
	if after >= s.lastSeq {
		// Nothing is newer. Returning here also keeps a client's huge cursor from overflowing
		// after+1 and the index arithmetic below.
		return p
	}
	if after+1 < p.Oldest {
		p.Gap = &Gap{From: after + 1, To: p.Oldest - 1}
	}
	// Seqs in the ring are contiguous, so the first candidate is found by arithmetic.
	first := 0
	if after >= p.Oldest {
		first = int(after - p.Oldest + 1)
	}
	for i := first; i < s.n; i++ {
		ev := s.at(i)
		if !f.Match(ev) {
			p.Next = ev.Seq
			continue
		}
		if limit > 0 && len(p.Events) == limit {
			p.More = true
			break
		}
		p.Events = append(p.Events, *ev)
		p.Next = ev.Seq
	}
	if p.More {
		p.Next = p.Events[len(p.Events)-1].Seq
	}
	return p
}

// next returns the page after the cursor (limited to one event) and, when it is empty, a
// channel closed on the next append (nil otherwise).
func (s *store) next(after uint64, f Filter) (Page, <-chan struct{}) {
	s.mu.Lock()
	defer s.mu.Unlock()
	p := s.pageLocked(after, f, 1)
	if len(p.Events) > 0 {
		return p, nil
	}
	if s.changed == nil {
		s.changed = make(chan struct{})
	}
	return p, s.changed
}

// newest is the seq of the newest event (0 before the first).
func (s *store) newest() uint64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.lastSeq
}

// count is how many events of kind were captured, dropped ones included.
func (s *store) count(k Kind) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.counts[k]
}

// stats reports counters for a summary.
func (s *store) stats() (counts map[Kind]int, retained, dropped int, last uint64) {
	s.mu.Lock()
	defer s.mu.Unlock()
	counts = make(map[Kind]int, len(s.counts))
	for k, v := range s.counts {
		counts[k] = v
	}
	return counts, s.n, s.dropped, s.lastSeq
}

// settle waits until the events being made when it is called are stored (or ctx ends): a throw
// whose locals are still being read happened before an answer the program gave after it, and a
// reader that saw that answer must see the throw. The wait is bounded by those reads' own
// deadline (callTimeout).
func (s *store) settle(ctx context.Context) {
	s.mu.Lock()
	made := s.made
	s.mu.Unlock()
	if made != nil {
		select {
		case <-made:
		case <-ctx.Done():
		}
	}
}

// snapshot copies every retained event, oldest first, once settled.
func (s *store) snapshot(ctx context.Context) []Event {
	s.settle(ctx)
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]Event, s.n)
	for i := range s.n {
		out[i] = *s.at(i)
	}
	return out
}
