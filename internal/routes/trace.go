package routes

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"regexp"
	"strconv"
	"time"

	"traced/api"
	"traced/api/convert"
	"traced/internal/engine"
	"traced/internal/evidence"
)

// Defaults and caps of the trace API's query parameters (the contract states the same bounds).
const (
	defaultPageLimit = 100
	maxPageLimit     = 1000
	defaultWait      = 10 * time.Second
	maxWait          = 60 * time.Second
	// stopWait bounds a stop request: SIGKILL to a process group is reaped within milliseconds.
	stopWait = 10 * time.Second
)

func (a *app) status(w http.ResponseWriter, r *http.Request) {
	c := a.cfg.Engine.Capabilities()
	node := api.NodeInfo{Found: c.NodeVersion != "", Path: c.Config.NodePath, Version: c.NodeVersion}
	if node.Found {
		f := a.cfg.Engine.NodeFeatures()
		node.Features = &api.NodeFeatures{LiveEdit: f.LiveEdit, TypeScript: f.TypeScript}
	}
	var export *api.ExportStatus
	if a.cfg.Export != nil {
		export = a.cfg.Export()
	}
	writeJSON(w, http.StatusOK, api.StatusResponse{
		Export:  export,
		Service: "traced",
		Version: a.cfg.Version,
		Node:    node,
		// Positions are mapped to original sources through source maps, per session unless a start
		// says "sourceMaps": false or POST sourcemap turns it off.
		SourceMaps: true,
		Replay:     "timeline",
		Modes:      []string{api.ModeTrace, api.ModeDebug},
		Auth:       a.cfg.Token != "",
		Root:       c.Root,
		Limits: api.Limits{
			MaxEvents: c.Config.MaxEvents, MaxSessions: c.Config.MaxSessions, StringCap: c.Config.StringCap,
			MaxBodyBytes: a.cfg.MaxBodyBytes, StartTimeoutMs: c.Config.StartTimeout.Milliseconds(),
			MaxWaitMs: maxWait.Milliseconds(), MaxPageLimit: maxPageLimit, MaxHeapDiskBytes: c.Config.MaxHeapDiskBytes,
		},
	})
}

func (a *app) start(w http.ResponseWriter, r *http.Request) {
	req, err := decodeValid[api.StartRequest](r)
	if err != nil {
		a.writeError(w, r, err)
		return
	}
	bps, lps, err := startPoints(req)
	if err != nil {
		a.writeError(w, r, err)
		return
	}
	if req.WaitMs != nil && req.Mode != api.ModeDebug {
		a.writeError(w, r, badRequest("waitMs waits for the first pause, and only a debug session pauses",
			`add "mode":"debug", or leave waitMs out and GET /api/trace/wait?id=<id>&kinds=exit`))
		return
	}
	s, err := a.cfg.Engine.Start(r.Context(), engine.StartRequest{
		Target: req.Target, Args: req.Args, NodeArgs: req.NodeArgs, Cwd: req.Cwd, Env: req.Env, Name: req.Name,
		Timeout: time.Duration(req.TimeoutMs) * time.Millisecond, MaxEvents: req.MaxEvents,
		Mode: req.Mode, PauseOnStart: req.PauseOnStart,
		PauseOnExceptions: req.PauseOnExceptions, ExceptionClasses: req.PauseOnExceptionClasses,
		Breakpoints: bps, Logpoints: lps, SourceMaps: req.SourceMaps, Workers: req.Workers,
		Children: req.Children, FollowMatch: req.FollowMatch, Throws: throwOptions(req.Throws),
		CreationStacks: req.CreationStacks,
	})
	if err != nil {
		a.writeError(w, r, err)
		return
	}
	if req.WaitMs != nil {
		a.answerFirstPause(w, r, s, waitBound(req.WaitMs, 0, maxWait))
		return
	}
	if s.Summary().Status != engine.StatusPaused { // running: what it printed first (a server's port)
		render(w, r, http.StatusCreated, api.SessionResponse{Session: a.summary(s.Summary()),
			Output: convert.FromExecOutputPtr(s.Timeline().StartOutput(r.Context(), outputWait(req.OutputWaitMs)))})
		return
	}
	a.answerStarted(w, r, s)
}

// answerStarted answers a start or attach: the summary, and the state when the session stands
// paused already, so the caller needs no GET state first.
func (a *app) answerStarted(w http.ResponseWriter, r *http.Request, s *engine.Session) {
	if s.Summary().Status != engine.StatusPaused {
		render(w, r, http.StatusCreated, api.SessionResponse{Session: a.summary(s.Summary())})
		return
	}
	a.answerFirstPause(w, r, s, 0)
}

// answerFirstPause answers a start with the state at the program's first pause within wait (with
// what it printed before), or without a state when it runs on or ended first: the summary says
// which. The wait ends early when the service shuts down.
func (a *app) answerFirstPause(w http.ResponseWriter, r *http.Request, s *engine.Session, wait time.Duration) {
	ctx, cancel := context.WithCancel(r.Context())
	defer cancel()
	stop := context.AfterFunc(a.cfg.Shutdown, cancel)
	defer stop()
	st, err := s.Main().FirstStop(ctx, wait)
	if err != nil {
		if a.cfg.Shutdown.Err() != nil && errors.Is(err, context.Canceled) {
			err = engine.ErrShutdown
		}
		a.writeError(w, r, err)
		return
	}
	res := api.SessionResponse{Session: a.summary(s.Summary())}
	if st.Status == engine.StatusPaused { // it may have been continued meanwhile
		wire := convert.FromState(st)
		redactState(s, &wire)
		res.State = &wire
	} else {
		res.Output = convert.FromExecOutputPtr(st.Output) // what it printed while it did not pause
	}
	render(w, r, http.StatusCreated, res)
}

func (a *app) stop(w http.ResponseWriter, r *http.Request) {
	req, err := decodeValid[api.StopRequest](r)
	if err != nil {
		a.writeError(w, r, err)
		return
	}
	ctx, cancel := context.WithTimeout(r.Context(), stopWait)
	defer cancel()
	var note string
	if s, err := a.cfg.Engine.Get(req.ID); err == nil {
		if before := s.Summary(); before.Status.Finished() {
			note = fmt.Sprintf("nothing live to stop: %s had already ended (%s)", before.ID, before.Status)
		}
	}
	sum, err := a.cfg.Engine.Stop(ctx, req.ID)
	if err != nil {
		a.writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, api.SessionResponse{Session: a.summary(sum), Note: note})
}

// deleteTrace forgets a finished session.
func (a *app) deleteTrace(w http.ResponseWriter, r *http.Request) {
	sum, err := a.cfg.Engine.Delete(r.URL.Query().Get("id"))
	if err != nil {
		a.writeError(w, r, err)
		return
	}
	render(w, r, http.StatusOK, api.SessionResponse{Session: a.summary(sum), Note: "deleted " + sum.ID})
}

func (a *app) list(w http.ResponseWriter, r *http.Request) {
	render(w, r, http.StatusOK, api.ListResponse{Sessions: a.summaries(a.cfg.Engine.List())})
}

func (a *app) trace(w http.ResponseWriter, r *http.Request) {
	q, err := a.sessionQuery(r)
	if err != nil {
		a.writeError(w, r, err)
		return
	}
	q.session.Timeline().Settle(r.Context()) // a throw being recorded is listed
	sum := a.summary(q.session.Summary())    // before the events: a summary never claims fewer events than listed
	render(w, r, http.StatusOK, api.TraceResponse{Session: sum, Events: convert.FromEvents(q.session.Timeline().Events(q.after, q.filter, 0).Events)})
}

func (a *app) evidence(w http.ResponseWriter, r *http.Request) {
	s, err := a.cfg.Engine.Get(r.URL.Query().Get("id"))
	if err != nil {
		a.writeError(w, r, err)
		return
	}
	events := s.Timeline().Snapshot(r.Context()) // settled: a throw being recorded is the failure the program answered for
	sum := s.Summary()
	res := evidence.Build(evidence.Input{Summary: sum, Events: events})
	render(w, r, http.StatusOK, api.EvidenceResponse{Session: sum.ID, Status: string(sum.Status), EvidenceResult: convert.FromEvidenceResult(res)})
}

func (a *app) events(w http.ResponseWriter, r *http.Request) {
	q, err := a.sessionQuery(r)
	if err != nil {
		a.writeError(w, r, err)
		return
	}
	limit, err := uintParam(r.URL.Query().Get("limit"), defaultPageLimit)
	if err != nil {
		a.writeError(w, r, err)
		return
	}
	limit = min(max(limit, 1), maxPageLimit)
	q.session.Timeline().Settle(r.Context()) // a throw being recorded is listed
	sum := a.summary(q.session.Summary())
	render(w, r, http.StatusOK, convert.Page(sum, q.session.Timeline().Events(q.after, q.filter, int(limit))))
}

func (a *app) wait(w http.ResponseWriter, r *http.Request) {
	q, err := a.sessionQuery(r)
	if err != nil {
		a.writeError(w, r, err)
		return
	}
	ms, err := uintParam(r.URL.Query().Get("timeoutMs"), uint64(defaultWait.Milliseconds()))
	if err != nil {
		a.writeError(w, r, err)
		return
	}
	ctx, cancel := context.WithTimeout(r.Context(), min(time.Duration(ms)*time.Millisecond, maxWait))
	defer cancel()
	stop := context.AfterFunc(a.cfg.Shutdown, cancel) // end the poll rather than hold up shutdown
	defer stop()
	after := q.after
	if !r.URL.Query().Has("after") {
		after = waitFrom(q.session, q.filter)
	}
	p, err := q.session.Timeline().Wait(ctx, after, q.filter)
	res := convert.Wait(a.summary(q.session.Summary()), p, err != nil)
	if res.Finished && !r.URL.Query().Has("after") {
		res.Earlier = earlierMatch(q.session, after, q.filter)
	}
	res.State = a.pauseState(r, q.session, res.Event)
	if res.TimedOut && q.session.Mode() == engine.ModeDebug && r.Context().Err() == nil {
		res.StillRunning = q.session.StillRunning(r.Context())
	}
	render(w, r, http.StatusOK, redactAnswer(q.session, res))
}

// waitFrom is where a wait without a cursor starts: after everything captured so far, so that
// it answers the next matching event, never an old one. A program standing paused now is the
// exception for a wait on pauses: its current pause is the answer (the pause that began it is
// found by the cursor just before it).
func waitFrom(s *engine.Session, f engine.Filter) uint64 {
	last := s.Summary().LastSeq
	if f.Kinds != nil && !f.Kinds[engine.KindPause] {
		return last
	}
	for ref := range s.Tree().PausedTargets() { // "" the main thread
		pauses := engine.Filter{Kinds: map[engine.Kind]bool{engine.KindPause: true}, Target: ref}
		if ref == "" {
			pauses.Target = "t0"
		}
		if p := s.Timeline().Events(0, pauses, 0); len(p.Events) > 0 {
			if seq := p.Events[len(p.Events)-1].Seq; seq-1 < last {
				last = seq - 1
			}
		}
	}
	return last
}

// earlierMatch is, for a wait without a cursor on a session that ended, the seq of the last
// matching event recorded before the call (0: none): the caller learns that what it waited for
// had already happened, and the cursor to read it with, in the same answer.
func earlierMatch(s *engine.Session, before uint64, f engine.Filter) uint64 {
	p := s.Timeline().Events(0, f, 0)
	for i := len(p.Events) - 1; i >= 0; i-- {
		if p.Events[i].Seq <= before {
			return p.Events[i].Seq
		}
	}
	return 0
}

// pauseState is the state at a pause a wait answers, when the target still stands there: the
// caller needs no GET state after it.
func (a *app) pauseState(r *http.Request, s *engine.Session, ev *api.Event) *api.State {
	if ev == nil || ev.Kind != api.KindPause || s.Mode() != engine.ModeDebug {
		return nil
	}
	t, err := s.On(cmp.Or(ev.Target, "t0"))
	if err != nil {
		return nil
	}
	st, err := t.Inspector().StateOf(r.Context(), engine.StateOptions{AsyncDepth: -1, Depth: 1})
	if err != nil || st.Status != engine.StatusPaused {
		return nil
	}
	wire := convert.FromState(st)
	redactState(s, &wire)
	return &wire
}

// sessionQuery is what every session read takes: the session (id), the kinds and target of the
// events, and the cursor.
type sessionQuery struct {
	session *engine.Session
	filter  engine.Filter
	after   uint64
}

func (a *app) sessionQuery(r *http.Request) (sessionQuery, error) {
	q := r.URL.Query()
	s, err := a.cfg.Engine.Get(q.Get("id"))
	if err != nil {
		return sessionQuery{}, err
	}
	kinds, err := parseKinds(q.Get("kinds"))
	if err != nil {
		return sessionQuery{}, err
	}
	after, err := uintParam(q.Get("after"), 0)
	if err != nil {
		return sessionQuery{}, err
	}
	var text *regexp.Regexp
	if m := q.Get("match"); m != "" {
		if text, err = regexp.Compile(m); err != nil {
			return sessionQuery{}, badRequest("query parameter \"match\": "+err.Error(),
				"match is an RE2 regular expression over an event's text, e.g. match=^TypeError")
		}
	}
	// The text form is read by a person or an agent: node's own scripts only when asked.
	noInternal := wantsText(r) && !queryBool(q, "internal", false)
	return sessionQuery{session: s, filter: engine.Filter{Kinds: kinds, Target: q.Get("target"), Text: text, NoInternal: noInternal},
		after: after}, nil
}

// parseKinds reads the kinds parameter as the stream does (api.ParseKinds); empty means every kind.
func parseKinds(s string) (engine.KindSet, error) {
	set, err := api.ParseKinds(s)
	if err != nil {
		return nil, badRequest("query parameter \"kinds\": "+err.Error(),
			"kinds is a comma-separated list of: "+api.KindList())
	}
	return convert.ToKindSet(set), nil
}

// summary is a session's summary on the wire, with how it fares in the OTLP export.
func (a *app) summary(s engine.Summary) api.Summary {
	sum := convert.FromSummary(s)
	if a.cfg.ExportOf != nil {
		sum.Export = a.cfg.ExportOf(s.ID)
	}
	return sum
}

// summaries are summaries on the wire, as summary makes them.
func (a *app) summaries(list []engine.Summary) []api.Summary {
	out := make([]api.Summary, len(list))
	for i, s := range list {
		out[i] = a.summary(s)
	}
	return out
}

func uintParam(s string, def uint64) (uint64, error) {
	if s == "" {
		return def, nil
	}
	n, err := strconv.ParseUint(s, 10, 64)
	if err != nil {
		return 0, badRequest("query parameter: "+strconv.Quote(s)+" is not a non-negative integer", "see GET /api/openapi.yaml")
	}
	return n, nil
}

// decodeValid decodes a JSON body (already checked against the contract) and runs the struct
// rules the contract cannot state.
func decodeValid[T any](r *http.Request) (T, error) {
	var v T
	if err := decodeBody(r, &v); err != nil {
		return v, err
	}
	return v, checkStruct(v)
}

// decodeBody decodes a JSON body already checked against the contract.
func decodeBody(r *http.Request, v any) error {
	dec := json.NewDecoder(r.Body)
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		var se *json.SyntaxError
		if errors.As(err, &se) {
			return badRequest("body is not valid JSON: "+err.Error(), "send a JSON object")
		}
		return badRequest("body: "+err.Error(), "see GET /api/openapi.yaml for the schema")
	}
	return nil
}

// throwOptions converts a start's throw options; nil stays nil (the defaults).
func throwOptions(o *api.ThrowOptions) *engine.ThrowOptions {
	if o == nil {
		return nil
	}
	return &engine.ThrowOptions{Off: o.Off, PerSecond: o.PerSecond, Classes: o.Classes, UserCode: o.UserCode}
}

// outputWait is how long a start that does not pause waits for the first output line.
func outputWait(ms *int64) time.Duration {
	if ms == nil {
		return engine.FirstOutputWait
	}
	return time.Duration(*ms) * time.Millisecond
}
