package engine

import (
	"context"
	"fmt"
	"math"
	"reflect"
	"slices"
	"sync"
	"testing"
	"time"

	"go.uber.org/goleak"
)

// waitFor bounds every wait on a store channel; a correct store wakes a waiter at once.
const waitFor = 5 * time.Second

func outputEvent(kind Kind, text string) Event {
	return Event{Kind: kind, Output: &OutputInfo{Text: Text{Value: text}}}
}

// fill appends one event per kind, in order, and returns the stamped events.
func fill(t *testing.T, s *store, kinds ...Kind) []Event {
	t.Helper()
	out := make([]Event, 0, len(kinds))
	for i, k := range kinds {
		s.append(outputEvent(k, fmt.Sprint("event ", i)))
		out = append(out, *s.at(s.n - 1))
	}
	return out
}

func seqsOf(evs []Event) []uint64 {
	out := make([]uint64, 0, len(evs))
	for _, ev := range evs {
		out = append(out, ev.Seq)
	}
	return out
}

func seqRange(from, to uint64) []uint64 {
	out := []uint64{}
	for s := from; s <= to; s++ {
		out = append(out, s)
	}
	return out
}

func TestStoreSeqsStartAtOneAndIncrease(t *testing.T) {
	s := newStore(100, nil)
	before := time.Now().UTC()
	evs := fill(t, s, KindStdout, KindConsole, KindStdout, KindExit)
	for i, ev := range evs {
		if want := uint64(i + 1); ev.Seq != want {
			t.Errorf("event %d: seq %d, want %d", i, ev.Seq, want)
		}
		if ev.Time.Before(before) || ev.Time.Location() != time.UTC {
			t.Errorf("event %d: time %v, want UTC at or after %v", i, ev.Time, before)
		}
	}
	if got := seqsOf(s.snapshot(context.Background())); !reflect.DeepEqual(got, []uint64{1, 2, 3, 4}) {
		t.Errorf("snapshot seqs %v", got)
	}
}

func TestStoreRingKeepsNewest(t *testing.T) {
	for _, n := range []int{1, 2, 5, 64} {
		t.Run(fmt.Sprint("max=", n), func(t *testing.T) {
			s := newStore(n, nil)
			total := 2*n + 7
			for i := range total {
				s.append(outputEvent(KindStdout, fmt.Sprint(i)))
			}
			counts, retained, dropped, last := s.stats()
			if retained != n || dropped != n+7 || last != uint64(total) || counts[KindStdout] != total {
				t.Fatalf("stats: retained %d dropped %d last %d counts %v; want %d, %d, %d, %d",
					retained, dropped, last, counts, n, n+7, total, total)
			}
			want := seqRange(uint64(n+8), uint64(total))
			if got := seqsOf(s.snapshot(context.Background())); !reflect.DeepEqual(got, want) {
				t.Fatalf("snapshot seqs %v, want %v", got, want)
			}
			p := s.page(0, Filter{}, 0)
			if p.Oldest != uint64(n+8) || p.Newest != uint64(total) {
				t.Fatalf("page window [%d, %d], want [%d, %d]", p.Oldest, p.Newest, n+8, total)
			}
			if !reflect.DeepEqual(seqsOf(p.Events), want) {
				t.Fatalf("page seqs %v, want %v", seqsOf(p.Events), want)
			}
			// The texts travel with their seqs through the wrap-around.
			for _, ev := range p.Events {
				if ev.Output.Text.Value != fmt.Sprint(ev.Seq-1) {
					t.Fatalf("seq %d holds %q", ev.Seq, ev.Output.Text.Value)
				}
			}
		})
	}
}

func TestStorePageEmpty(t *testing.T) {
	s := newStore(10, nil)
	p := s.page(3, Filter{}, 5)
	if p.Events == nil || len(p.Events) != 0 || p.Oldest != 0 || p.Newest != 0 || p.Gap != nil ||
		p.Next != 3 || p.More {
		t.Fatalf("empty store page %+v", p)
	}
}

func TestStorePage(t *testing.T) {
	// Seqs 1..15 into a ring of 10: 6..15 retained. Consoles at 3, 6, 9, 12, an exception at 14,
	// stdout elsewhere; 13 and 15 (after the last console) do not match a console filter.
	s := newStore(10, nil)
	for seq := 1; seq <= 15; seq++ {
		kind := KindStdout
		switch {
		case seq == 14:
			kind = KindException
		case seq%3 == 0 && seq != 15:
			kind = KindConsole
		}
		s.append(outputEvent(kind, fmt.Sprint(seq)))
	}
	console := KindSet{KindConsole: true}
	cases := []struct {
		name   string
		after  uint64
		kinds  KindSet
		limit  int
		events []uint64
		gap    *Gap
		next   uint64
		more   bool
	}{
		{"from the start", 0, nil, 0, seqRange(6, 15), &Gap{1, 5}, 15, false},
		{"gap of one", 4, nil, 0, seqRange(6, 15), &Gap{5, 5}, 15, false},
		{"just before oldest", 5, nil, 0, seqRange(6, 15), nil, 15, false},
		{"at oldest", 6, nil, 0, seqRange(7, 15), nil, 15, false},
		{"middle", 10, nil, 0, seqRange(11, 15), nil, 15, false},
		{"at newest", 15, nil, 0, []uint64{}, nil, 15, false},
		{"past newest", 99, nil, 0, []uint64{}, nil, 99, false},
		{"huge cursor", math.MaxUint64, nil, 0, []uint64{}, nil, math.MaxUint64, false},
		{"huge cursor minus one", math.MaxUint64 - 1, console, 1, []uint64{}, nil, math.MaxUint64 - 1, false},
		{"empty kind set is all", 12, KindSet{}, 0, seqRange(13, 15), nil, 15, false},
		{"kinds filter", 0, console, 0, []uint64{6, 9, 12}, &Gap{1, 5}, 15, false},
		{"next skips trailing non-matching", 12, console, 0, []uint64{}, nil, 15, false},
		{"limit cuts", 0, nil, 3, []uint64{6, 7, 8}, &Gap{1, 5}, 8, true},
		{"limit cuts a filter", 0, console, 2, []uint64{6, 9}, &Gap{1, 5}, 9, true},
		{"limit cuts before non-matching", 6, console, 1, []uint64{9}, nil, 9, true},
		{"limit not reached", 9, console, 1, []uint64{12}, nil, 15, false},
		{"limit equals what matches", 0, console, 3, []uint64{6, 9, 12}, &Gap{1, 5}, 15, false},
		{"two kinds", 12, KindSet{KindConsole: true, KindException: true}, 1, []uint64{14}, nil, 15, false},
		{"kind only in the gap", 0, KindSet{KindExit: true}, 0, []uint64{}, &Gap{1, 5}, 15, false},
		{"negative limit is none", 10, nil, -1, seqRange(11, 15), nil, 15, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := s.page(c.after, Filter{Kinds: c.kinds}, c.limit)
			if got := seqsOf(p.Events); !reflect.DeepEqual(got, c.events) {
				t.Errorf("events %v, want %v", got, c.events)
			}
			for _, ev := range p.Events {
				if !c.kinds.Match(ev.Kind) {
					t.Errorf("seq %d kind %s passed filter %v", ev.Seq, ev.Kind, c.kinds)
				}
			}
			if !reflect.DeepEqual(p.Gap, c.gap) {
				t.Errorf("gap %+v, want %+v", p.Gap, c.gap)
			}
			if p.Next != c.next || p.More != c.more {
				t.Errorf("next %d more %v, want %d %v", p.Next, p.More, c.next, c.more)
			}
			if p.Oldest != 6 || p.Newest != 15 {
				t.Errorf("window [%d, %d], want [6, 15]", p.Oldest, p.Newest)
			}
		})
	}
}

// TestStorePagingCoversEverything pages with a small limit from 0 and checks the pages join into
// exactly the matching retained events.
func TestStorePagingCoversEverything(t *testing.T) {
	s := newStore(20, nil)
	var kinds []Kind
	for i := range 50 {
		kinds = append(kinds, []Kind{KindStdout, KindConsole, KindStderr, KindConsole, KindScript}[i%5])
	}
	fill(t, s, kinds...)
	for _, filter := range []KindSet{nil, {KindConsole: true}, {KindScript: true, KindStderr: true}, {KindExit: true}} {
		for _, limit := range []int{1, 2, 3, 7, 100} {
			var want []uint64
			for _, ev := range s.snapshot(context.Background()) {
				if filter.Match(ev.Kind) {
					want = append(want, ev.Seq)
				}
			}
			var got []uint64
			after := uint64(0)
			for range 100 {
				p := s.page(after, Filter{Kinds: filter}, limit)
				got = append(got, seqsOf(p.Events)...)
				if p.Next < after {
					t.Fatalf("kinds %v limit %d: next went back from %d to %d", filter, limit, after, p.Next)
				}
				after = p.Next
				if !p.More {
					break
				}
			}
			if !reflect.DeepEqual(got, want) || after != 50 {
				t.Errorf("kinds %v limit %d: pages %v ending at %d, want %v ending at 50", filter, limit, got, after, want)
			}
		}
	}
}

func TestStoreCountsIncludeDropped(t *testing.T) {
	s := newStore(3, nil)
	fill(t, s, KindContext, KindScript, KindScript, KindConsole, KindConsole, KindConsole, KindExit)
	counts, retained, dropped, last := s.stats()
	want := map[Kind]int{KindContext: 1, KindScript: 2, KindConsole: 3, KindExit: 1}
	if !reflect.DeepEqual(counts, want) || retained != 3 || dropped != 4 || last != 7 {
		t.Fatalf("stats %v %d %d %d, want %v 3 4 7", counts, retained, dropped, last, want)
	}
	counts[KindExit] = 99 // a copy: the store's own counts are untouched
	if c, _, _, _ := s.stats(); c[KindExit] != 1 {
		t.Fatalf("stats returned the store's own map")
	}
}

func TestStorePublishesEachAppendInOrder(t *testing.T) {
	var published []Event
	s := newStore(4, func(ev Event) { published = append(published, ev) })
	appended := fill(t, s, KindStdout, KindStderr, KindConsole, KindStdout, KindStdout, KindExit)
	if !reflect.DeepEqual(published, appended) {
		t.Fatalf("published %v, want %v", seqsOf(published), seqsOf(appended))
	}
}

func TestStoreNextWakesOnAppend(t *testing.T) {
	s := newStore(10, nil)
	p, changed := s.next(0, Filter{})
	if len(p.Events) != 0 {
		t.Fatalf("empty store: %+v", p)
	}
	select {
	case <-changed:
		t.Fatal("changed closed before any append")
	default:
	}
	s.append(outputEvent(KindStdout, "one"))
	select {
	case <-changed:
	case <-time.After(waitFor):
		t.Fatal("changed not closed by an append")
	}

	// A non-matching append wakes the waiter too; the page then moves the cursor past it.
	p, changed = s.next(0, Filter{Kinds: KindSet{KindConsole: true}})
	if len(p.Events) != 0 || p.Next != 1 {
		t.Fatalf("console after 0: %+v, want none and next 1", p)
	}
	s.append(outputEvent(KindStderr, "two"))
	select {
	case <-changed:
	case <-time.After(waitFor):
		t.Fatal("changed not closed by a non-matching append")
	}
	s.append(outputEvent(KindConsole, "three"))
	p, _ = s.next(p.Next, Filter{Kinds: KindSet{KindConsole: true}})
	if got := seqsOf(p.Events); !reflect.DeepEqual(got, []uint64{3}) || p.Next != 3 {
		t.Fatalf("next console: seqs %v next %d, want [3] 3", got, p.Next)
	}

	// next returns at most one event, with More when others match.
	s.append(outputEvent(KindStdout, "four"))
	p, _ = s.next(0, Filter{})
	if got := seqsOf(p.Events); !reflect.DeepEqual(got, []uint64{1}) || !p.More || p.Next != 1 {
		t.Fatalf("next after 0: seqs %v more %v next %d", got, p.More, p.Next)
	}
}

// TestStoreConcurrent appends from several goroutines while readers follow with next, as
// Session.Wait does. Run with -race.
func TestStoreConcurrent(t *testing.T) {
	defer goleak.VerifyNone(t)
	const writers, perWriter, readers = 4, 500, 3
	total := uint64(writers * perWriter)
	cases := []struct {
		name string
		max  int
	}{
		{"everything retained", writers * perWriter},
		{"ring wraps", 16},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var mu sync.Mutex
			var published []uint64
			s := newStore(c.max, func(ev Event) {
				mu.Lock()
				published = append(published, ev.Seq)
				mu.Unlock()
			})
			var wg sync.WaitGroup
			for w := range writers {
				wg.Go(func() {
					for i := range perWriter {
						s.append(outputEvent(KindStdout, fmt.Sprint(w, "/", i)))
					}
				})
			}
			for range readers {
				wg.Go(func() { followStore(t, s, total, c.max >= int(total)) })
			}
			wg.Go(func() { // a pager and summariser alongside
				for {
					p := s.page(0, Filter{}, 10)
					if _, n, _, last := s.stats(); n > c.max || last < p.Newest {
						t.Errorf("stats: %d retained (max %d), last %d < page newest %d", n, c.max, last, p.Newest)
						return
					}
					if p.Newest == total {
						return
					}
					np, changed := s.next(p.Newest, Filter{})
					if len(np.Events) > 0 {
						continue
					}
					select {
					case <-changed:
					case <-time.After(waitFor):
						t.Errorf("pager: no append after %d", p.Newest)
						return
					}
				}
			})
			wg.Wait()
			if want := seqRange(1, total); !reflect.DeepEqual(published, want) {
				t.Fatalf("published %d seqs, not 1..%d in order", len(published), total)
			}
			_, retained, dropped, last := s.stats()
			if last != total || retained != min(c.max, int(total)) || dropped != int(total)-retained {
				t.Fatalf("stats: last %d retained %d dropped %d", last, retained, dropped)
			}
		})
	}
}

// followStore reads every event up to last through next, checking that seqs strictly increase
// and that anything skipped is reported as a gap.
func followStore(t *testing.T, s *store, last uint64, noGaps bool) {
	t.Helper()
	after := uint64(0)
	for after < last {
		p, changed := s.next(after, Filter{})
		if len(p.Events) == 0 {
			select {
			case <-changed:
				continue
			case <-time.After(waitFor):
				t.Errorf("reader: no event after %d", after)
				return
			}
		}
		seq := p.Events[0].Seq
		switch {
		case seq == after+1 && p.Gap == nil:
		case p.Gap != nil && !noGaps && p.Gap.From == after+1 && p.Gap.To+1 == seq:
		default:
			t.Errorf("reader: after %d got seq %d with gap %+v", after, seq, p.Gap)
			return
		}
		if p.Next != seq {
			t.Errorf("reader: seq %d but next %d", seq, p.Next)
			return
		}
		after = seq
	}
}

// TestFilterTarget: a filter by target admits that target's events; t0 those of the main
// thread, which carry none; no target every event.
func TestFilterTarget(t *testing.T) {
	s := newStore(10, func(Event) {})
	s.append(Event{Kind: KindConsole})
	s.append(Event{Kind: KindConsole, Target: "t1"})
	s.append(Event{Kind: KindPause, Target: "t2"})
	s.append(Event{Kind: KindConsole, Target: "t2"})
	for _, c := range []struct {
		f    Filter
		want []uint64
	}{
		{Filter{}, []uint64{1, 2, 3, 4}},
		{Filter{Target: "t0"}, []uint64{1}},
		{Filter{Target: "t2"}, []uint64{3, 4}},
		{Filter{Target: "t2", Kinds: KindSet{KindConsole: true}}, []uint64{4}},
		{Filter{Target: "t9"}, nil},
	} {
		if got := seqsOf(s.page(0, c.f, 0).Events); !slices.Equal(got, c.want) {
			t.Errorf("%+v: %v, want %v", c.f, got, c.want)
		}
	}
}

// TestStoreReserve: events appended while a reserved one is being made wait behind it, so seqs,
// pages and the published stream keep the order things happened in; the reserved event keeps the
// time it was reserved at.
func TestStoreReserve(t *testing.T) {
	var published []string
	s := newStore(10, func(ev Event) { published = append(published, ev.Output.Text.Value) })
	s.append(outputEvent(KindStdout, "before"))
	h := s.reserve()
	s.append(outputEvent(KindStdout, "after 1"))
	s.append(outputEvent(KindStdout, "after 2"))
	if p := s.page(0, Filter{}, 0); len(p.Events) != 1 || p.Newest != 1 {
		t.Fatalf("while reserved: %d events, newest %d; want only the one before", len(p.Events), p.Newest)
	}
	s.fill(h, outputEvent(KindConsole, "reserved"))
	p := s.page(0, Filter{}, 0)
	var got []string
	for _, ev := range p.Events {
		got = append(got, fmt.Sprint(ev.Seq, " ", ev.Output.Text.Value))
	}
	want := []string{"1 before", "2 reserved", "3 after 1", "4 after 2"}
	if !slices.Equal(got, want) {
		t.Fatalf("events %q, want %q", got, want)
	}
	if !slices.Equal(published, []string{"before", "reserved", "after 1", "after 2"}) {
		t.Fatalf("published %q", published)
	}
	if p.Events[1].Time.After(p.Events[2].Time) {
		t.Fatalf("reserved event stamped %v, after the next one's %v", p.Events[1].Time, p.Events[2].Time)
	}
	s.append(outputEvent(KindStdout, "later"))
	if n := s.newest(); n != 5 {
		t.Fatalf("newest %d after the reservation was filled, want 5", n)
	}
}

// TestStoreSnapshotWaitsForReserved: a snapshot taken while a reserved event is being made waits
// for it (an answer the program gave after a throw must not precede the throw) until its ctx
// ends, then returns what is stored; once the event is filled it holds it, without waiting.
func TestStoreSnapshotWaitsForReserved(t *testing.T) {
	s := newStore(10, nil)
	s.append(outputEvent(KindStdout, "before"))
	h := s.reserve()
	s.append(outputEvent(KindStdout, "after"))

	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel()
	if got := s.snapshot(ctx); len(got) != 1 || ctx.Err() == nil {
		t.Fatalf("snapshot while reserved: %d events, ctx %v; want it to wait out its ctx, then the 1 stored", len(got), ctx.Err())
	}
	s.fill(h, outputEvent(KindThrow, "reserved"))
	if evs := s.snapshot(context.Background()); len(evs) != 3 || evs[1].Output.Text.Value != "reserved" {
		t.Fatalf("snapshot after the fill: %d events, want 3 with the reserved one second", len(evs))
	}
}
