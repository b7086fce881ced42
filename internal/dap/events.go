package dap

import (
	"encoding/json"
	"errors"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/coder/websocket"
	godap "github.com/google/go-dap"

	"traced/api"
	"traced/internal/apiclient"
)

// streamReadLimit caps one stream message: events carry capped strings, so a megabyte is ample.
const streamReadLimit = 1 << 20

// follow reads the session's stream from its first event until the session ends or the
// connection does, turning messages into DAP events. A subscriber the stream dropped for
// reading slowly (1008) reconnects from its cursor, as the stream asks.
func (s *Server) follow(sid string) {
	var after uint64
	for s.ctx.Err() == nil {
		done, err := s.followOnce(sid, &after)
		if done {
			return
		}
		if websocket.CloseStatus(err) != websocket.StatusPolicyViolation {
			if s.ctx.Err() == nil {
				s.log.Debug("dap: stream ended", "session", sid, "err", err)
				s.output("console", "traced: the session's stream ended: "+errString(err)+"\n", nil)
			}
			return
		}
	}
}

func errString(err error) string {
	if err == nil {
		return "closed"
	}
	return err.Error()
}

// followOnce reads one connection of the stream; done says the session ended.
func (s *Server) followOnce(sid string, after *uint64) (done bool, err error) {
	_, rest, err := s.session()
	if err != nil {
		return true, err
	}
	q := url.Values{"session": {sid}, "after": {strconv.FormatUint(*after, 10)}}
	u := "ws://" + rest.addr + "/api/stream?" + q.Encode()
	h := http.Header{}
	if rest.token != "" {
		h.Set("Authorization", "Bearer "+rest.token)
	}
	conn, _, err := websocket.Dial(s.ctx, u, &websocket.DialOptions{HTTPClient: s.http, HTTPHeader: h})
	if err != nil {
		return false, err
	}
	defer conn.CloseNow()
	conn.SetReadLimit(streamReadLimit)
	for {
		_, b, err := conn.Read(s.ctx)
		if err != nil {
			return false, err
		}
		var m api.StreamMessage
		if err := json.Unmarshal(b, &m); err != nil {
			return false, errors.Join(errors.New("decode a stream message"), err)
		}
		switch m.Type {
		case api.MsgEvent:
			if m.Event != nil {
				*after = m.Event.Seq
				s.onEvent(m.Event)
			}
		case api.MsgSession:
			if m.Summary != nil && m.Summary.Status.Finished() {
				s.terminated()
				conn.Close(websocket.StatusNormalClosure, "")
				return true, nil
			}
		}
	}
}

// terminated sends terminated once.
func (s *Server) terminated() {
	s.mu.Lock()
	ended := s.st.ended
	s.st.ended = true
	s.mu.Unlock()
	if !ended {
		s.send(&godap.TerminatedEvent{Event: event("terminated")})
	}
}

// onEvent turns one captured event into DAP events.
func (s *Server) onEvent(ev *api.Event) {
	target := ev.Target
	if target == "" {
		target = mainTarget
	}
	switch ev.Kind {
	case "pause":
		s.onPaused(target, ev.Pause)
	case "resume":
		s.mu.Lock()
		s.st.resumed(target)
		s.mu.Unlock()
		s.send(&godap.ContinuedEvent{Event: event("continued"), Body: godap.ContinuedEventBody{ThreadId: threadID(target)}})
	case "console":
		if s.outputMode() == "console" && ev.Console != nil {
			cat := "stdout"
			if ev.Console.Level == "error" || ev.Console.Level == "warning" || ev.Console.Level == "warn" {
				cat = "stderr"
			}
			s.output(cat, ev.Console.Text.Value+"\n", ev.Console.Frame)
		}
	case "stdout", "stderr":
		if s.outputMode() == "std" && ev.Output != nil {
			s.output(string(ev.Kind), ev.Output.Text.Value+"\n", nil)
		}
	case "logpoint":
		if ev.Logpoint != nil {
			s.output("console", ev.Logpoint.Text.Value+"\n", nil)
		}
	case "exception":
		s.mu.Lock()
		s.st.exceptions[target] = ev
		s.mu.Unlock()
		if e := ev.Exception; e != nil && s.outputMode() == "console" {
			s.output("stderr", exceptionText(e)+"\n", &api.Frame{File: e.File, URL: e.URL, Line: e.Line, Column: e.Column})
		}
	case "throw":
		s.mu.Lock()
		s.st.exceptions[target] = ev
		s.mu.Unlock()
	case "breakpoint":
		s.onBound(ev.Breakpoint)
	case "target":
		if ti := ev.TargetInfo; ti != nil {
			reason := "started"
			if ti.Status != "attached" {
				reason = "exited"
				s.mu.Lock()
				s.st.resumed(ti.Ref) // an ended thread's refs end with it
				s.mu.Unlock()
			}
			s.send(&godap.ThreadEvent{Event: event("thread"), Body: godap.ThreadEventBody{Reason: reason, ThreadId: threadID(ti.Ref)}})
		}
	case "exit":
		if ev.Exit != nil && target == mainTarget {
			code := 0
			if ev.Exit.Code != nil {
				code = *ev.Exit.Code
			} else if ev.Exit.Signal != "" {
				code = 128 // killed by a signal; DAP has no field for which
			}
			s.send(&godap.ExitedEvent{Event: event("exited"), Body: godap.ExitedEventBody{ExitCode: code}})
		}
	}
}

func exceptionText(e *api.ExceptionInfo) string {
	msg := e.Message.Value
	if e.Class != "" && !strings.HasPrefix(msg, e.Class) {
		msg = e.Class + ": " + msg
	}
	return e.Text + " " + msg
}

func (s *Server) outputMode() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.st.output
}

// output sends an output event, with the source position when there is one.
func (s *Server) output(category, text string, at *api.Frame) {
	ev := &godap.OutputEvent{Event: event("output"), Body: godap.OutputEventBody{Category: category, Output: text}}
	if at != nil && (at.File != "" || at.URL != "") {
		ev.Body.Source = s.source(*at)
		ev.Body.Line, ev.Body.Column = at.Line, at.Column
	}
	s.send(ev)
}

// onPaused sends stopped for a pause of target, with the reason DAP names.
func (s *Server) onPaused(target string, p *api.PauseInfo) {
	if p == nil {
		return
	}
	s.mu.Lock()
	s.st.resumed(target) // a new pause of this thread: what its last one handed out is gone
	asked := s.st.steps[target]
	delete(s.st.steps, target)
	entry := p.Reason == "Break on start"
	skip := entry && s.st.launched && !s.st.stopOnEntry && target == mainTarget
	var ids []int
	var unknown []string
	function := false
	for _, ref := range p.HitBreakpoints {
		function = function || slices.Contains(s.st.funcBPs, ref)
		if _, ok := s.st.bpIDs[ref]; !ok {
			unknown = append(unknown, ref)
		}
		ids = append(ids, s.st.bpID(ref))
	}
	s.mu.Unlock()
	if skip {
		return // configurationDone runs it on
	}
	s.announceBreakpoints(unknown)
	reason := "pause"
	switch {
	case entry:
		reason = "entry"
	case function:
		reason = "function breakpoint"
	case len(ids) > 0:
		reason = "breakpoint"
	case p.Reason == "exception" || p.Reason == "promiseRejection":
		reason = "exception"
	case asked != "":
		reason = asked
	case p.Reason == "other" || p.Reason == "debugCommand":
		reason = "pause"
	}
	body := godap.StoppedEventBody{Reason: reason, ThreadId: threadID(target), HitBreakpointIds: ids,
		Description: p.Reason}
	if p.Location != nil {
		body.Text = p.Location.Where()
	}
	s.send(&stoppedEvent{Event: event("stopped"), Body: stoppedBody{StoppedEventBody: body}})
}

// stoppedEvent is go-dap's StoppedEvent with allThreadsStopped written even when false, which
// go-dap's omits: traced pauses one target at a time (the others run on), and a client that
// finds the field absent may take the stop as the whole program's.
type stoppedEvent struct {
	godap.Event
	Body stoppedBody `json:"body"`
}

// stoppedBody is go-dap's body; its own AllThreadsStopped, outside, is the one JSON writes.
type stoppedBody struct {
	godap.StoppedEventBody
	AllThreadsStopped bool `json:"allThreadsStopped"`
}

// announceBreakpoints sends a new breakpoint event for each breakpoint another client set that
// a stop hit, before the stop: the editor then shows where it stands.
func (s *Server) announceBreakpoints(refs []string) {
	if len(refs) == 0 {
		return
	}
	sid, rest, err := s.session()
	if err != nil {
		return
	}
	var list api.BreakpointsResponse
	if err := rest.do(s.ctx, "GET", apiclient.DebugPath(sid, "breakpoints"), nil, nil, &list); err != nil {
		return
	}
	for _, b := range list.Breakpoints {
		if !slices.Contains(refs, b.Ref) || len(b.Resolved) == 0 {
			continue
		}
		at := b.Resolved[0]
		bp := s.dapBreakpoint(b.Ref, s.absPath(at.File), at.Line, b.Resolved, b.Pending)
		s.send(&godap.BreakpointEvent{Event: event("breakpoint"), Body: godap.BreakpointEventBody{Reason: "new", Breakpoint: bp}})
	}
}
