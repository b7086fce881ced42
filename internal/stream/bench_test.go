package stream

import (
	"fmt"
	"testing"

	"traced/api"
)

// BenchmarkPublish measures one publisher feeding subscribers that read everything: ns/op is the
// time per event until every subscriber has decoded it. PublishEvent itself is a small part of it
// (see a CPU profile); the writes dominate. The publisher stays within half a queue of the slowest
// reader so nobody overflows.
func BenchmarkPublish(b *testing.B) {
	for _, n := range []int{1, 8} {
		b.Run(fmt.Sprintf("subscribers=%d", n), func(b *testing.B) { benchPublish(b, n) })
	}
}

func benchPublish(b *testing.B, subscribers int) {
	const queue = 1024
	e := newEnv(b, Config{QueueSize: queue})
	e.src.add("s", 1)
	p := newPacer(subscribers, queue/2)
	errc := make(chan error, subscribers)
	for i := range subscribers {
		c, _ := e.subscribe(b, "session=s")
		go func() {
			for seq := uint64(1); seq <= uint64(b.N); seq++ {
				m, err := tryRead(c)
				if err == nil && (m.Type != api.MsgEvent || m.Event.Seq != seq) {
					err = fmt.Errorf("subscriber %d got %s, want event %d", i, describe(m), seq)
				}
				if err != nil {
					errc <- err
					p.halt() // another reader may have failed too
					return
				}
				p.saw(i, seq)
			}
			errc <- nil
		}()
	}
	ev := newEvent(0, "console", "a line of output of a typical length, with a number 12345")
	b.ReportAllocs()
	b.ResetTimer()
	for seq := uint64(1); seq <= uint64(b.N) && p.wait(seq); seq++ {
		ev.Seq = seq
		e.hub.PublishEvent("s", ev)
	}
	for range subscribers {
		if err := <-errc; err != nil {
			b.Fatal(err)
		}
	}
}
