package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"os/signal"
	"strconv"
	"strings"
	"time"

	"github.com/coder/websocket"

	"traced/api"
	"traced/internal/apiclient"
	"traced/internal/textform"
)

func eventCommands() []*command {
	kinds := flagDef{name: "kinds", kind: kindString, help: "event kinds, e.g. console,exception,pause"}
	after := flagDef{name: "after", kind: kindString, help: "only events after this seq (a cursor)"}
	all := flagDef{name: "all", kind: kindBool, help: "node's own scripts (node:internal/...) too"}
	match := flagDef{name: "match", kind: kindString, help: "only events whose text matches this RE2, e.g. '^TypeError' (a throw's class: message, console text, an output line)"}
	return []*command{
		{name: "wait", usage: "[--kinds K] [--match RE] [--timeout D] [--after SEQ]", routes: []string{"GET /api/trace/wait"},
			help: "block (bounded) until the next event of these kinds", group: gEvents, core: true,
			flags: []flagDef{kinds, match, after, all, {name: "timeout", kind: kindString, help: "how long to wait, at most 60s (default 10s)"}},
			run: func(c *call) error {
				q := c.eventQuery()
				ms, ok, err := c.ms("timeout")
				if err != nil {
					return err
				}
				if ok {
					q.Set("timeoutMs", strconv.FormatInt(apiclient.ClampWait(ms), 10))
				}
				return c.get("/api/trace/wait", q)
			}},
		{name: "events", usage: "[--kinds K] [--match RE] [--after SEQ] [--limit N] [--all]", routes: []string{"GET /api/trace/events"},
			help: "a page of events; pass its next: back as --after", group: gEvents, core: true,
			flags: []flagDef{kinds, match, after, all, {name: "limit", kind: kindString, help: "events at most (1-1000)"}},
			run: func(c *call) error {
				q := c.eventQuery()
				if l := c.str("limit"); l != "" {
					q.Set("limit", l)
				}
				return c.get("/api/trace/events", q)
			}},
		{name: "timeline", usage: "[--kinds K]", routes: []string{"GET /api/trace"},
			help: "the session and every retained event", group: gEvents, flags: []flagDef{kinds, match, after, all},
			run: func(c *call) error { return c.get("/api/trace", c.eventQuery()) }},
		{name: "evidence", routes: []string{"GET /api/trace/evidence"},
			help: "the failure's evidence chain (correlation, never causation)", group: gEvents, core: true,
			run: func(c *call) error { return c.get("/api/trace/evidence", url.Values{"id": {"{session}"}}) }},
		{name: "stream", usage: "[--kinds K] [--max N] [--timeout D]", routes: []string{"GET /api/stream"},
			help: "live events, a line each (every session's unless --session; --json: the stream's JSON messages)", group: gEvents,
			flags: []flagDef{kinds, after, {name: "max", kind: kindString, help: "stop after N messages"},
				{name: "timeout", kind: kindString, help: "stop after this long (default 30s)"}},
			run: runStream},
	}
}

// eventQuery is the session and the --kinds, --match and --after filters of a trace read.
func (c *call) eventQuery() url.Values {
	q := url.Values{"id": {"{session}"}}
	if k := c.str("kinds"); k != "" {
		q.Set("kinds", k)
	}
	if m := c.str("match"); m != "" {
		q.Set("match", m)
	}
	if a := c.str("after"); a != "" {
		q.Set("after", a)
	}
	if c.flag("all") {
		q.Set("internal", "true")
	}
	return q
}

// runTrace starts an observed run, waits (bounded) for its end and answers what it printed and
// threw; a failed program adds the evidence chain and exits 1.
func runTrace(c *call) error {
	body, err := c.startBody("trace")
	if err != nil {
		return err
	}
	if _, _, err := c.start(body); err != nil {
		return err
	}
	ms, ok, err := c.ms("wait")
	if err != nil {
		return err
	}
	if !ok {
		ms = 30000
	}
	end := time.Now().Add(time.Duration(ms) * time.Millisecond)
	for { // one call waits at most apiclient.MaxWaitMs: wait again until the end or the bound
		left := max(time.Until(end).Milliseconds(), 0)
		var w api.WaitResponse
		err := c.with(func(ctx context.Context, cl *apiclient.Client) (err error) {
			w, _, err = cl.Wait(ctx, apiclient.WaitQuery{Session: c.sid, Kinds: "exit", TimeoutMs: max(left, 1)})
			return err
		})
		if err != nil {
			return err
		}
		if w.Event != nil || w.Finished || left == 0 {
			break
		}
	}
	if err := c.get("/api/trace", url.Values{"id": {c.sid}, "kinds": {"console,stdout,stderr,exception,exit"}}); err != nil {
		return err
	}
	var final []api.Summary
	if final, err = c.sessions(); err != nil {
		return err
	}
	for _, s := range final {
		if s.ID != c.sid {
			continue
		}
		if !s.Status.Finished() {
			return &cliError{code: ExitOK, hint: fmt.Sprintf("%s still runs: traced events --session %s reads on, traced stop --session %s ends it", s.ID, s.ID, s.ID)}
		}
		if s.Status == api.StatusStopped { // --timeout or a stop ended it: the program did not fail
			return &cliError{code: ExitOK, hint: s.ID + " was stopped, not failed: its answer above says what still ran"}
		}
		if (s.ExitCode != nil && *s.ExitCode != 0) || s.Signal != "" || s.Status == "failed" {
			if err := c.get("/api/trace/evidence", url.Values{"id": {c.sid}}); err != nil {
				return err
			}
			return &cliError{code: ExitRefused, msg: "the program failed"}
		}
	}
	return nil
}

func runStream(c *call) error {
	svc, err := c.service(false)
	if err != nil {
		return err
	}
	q := url.Values{}
	if s := c.str("session"); s != "" {
		q.Set("session", s)
	}
	if k := c.str("kinds"); k != "" {
		q.Set("kinds", k)
	}
	if a := c.str("after"); a != "" {
		q.Set("after", a)
	}
	ms, ok, err := c.ms("timeout")
	if err != nil {
		return err
	}
	if !ok {
		ms = 30000
	}
	maxMsgs, _, err := c.num("max")
	if err != nil {
		return err
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	ctx, cancel := context.WithTimeout(ctx, time.Duration(ms)*time.Millisecond)
	defer cancel()
	u := "ws://" + svc.addr + "/api/stream"
	if len(q) > 0 {
		u += "?" + q.Encode()
	}
	conn, _, err := websocket.Dial(ctx, u, &websocket.DialOptions{HTTPClient: svc.http,
		HTTPHeader: http.Header{"Authorization": {"Bearer " + svc.token}}})
	if err != nil {
		if isDialError(err) {
			return unreachable(svc, err)
		}
		return fmt.Errorf("open the stream: %w", err)
	}
	defer conn.CloseNow()
	conn.SetReadLimit(1 << 20)
	for n := 0; maxMsgs == 0 || n < maxMsgs; n++ {
		_, msg, err := conn.Read(ctx)
		if err != nil {
			if ctx.Err() != nil {
				return nil // the bound or an interrupt ended it, as asked
			}
			return fmt.Errorf("stream: %w", err)
		}
		if c.json {
			c.print(msg)
		} else {
			c.print([]byte(streamLine(msg)))
		}
	}
	conn.Close(websocket.StatusNormalClosure, "")
	return nil
}

// streamLine renders a stream message as one line of the text form: an event as the event reads
// show it, with its session; a session's change as its summary line.
func streamLine(msg []byte) string {
	var m api.StreamMessage
	if err := json.Unmarshal(msg, &m); err != nil {
		return string(msg) // not ours to read: shown as it came
	}
	switch {
	case m.Event != nil:
		return fmt.Sprintf("%s  %d  %s  %s", m.Session, m.Event.Seq, textform.EventKind(*m.Event), textform.Event(*m.Event))
	case m.Summary != nil:
		return textform.Session(*m.Summary)
	case m.Gap != nil:
		return fmt.Sprintf("%s  gap: seqs %d-%d were evicted", m.Session, m.Gap.From, m.Gap.To)
	}
	return strings.TrimSpace(m.Type + " " + m.Session)
}
