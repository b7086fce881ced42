package dap

import (
	"encoding/json"
	"errors"
	"net/url"
	"strconv"
	"strings"

	godap "github.com/google/go-dap"

	"traced/api"
	"traced/internal/apiclient"
)

// eval evaluates an expression in a frame (frameID 0: the main thread's global scope).
func (s *Server) eval(frameID int, expr string, sideEffectFree bool) (api.EvalResult, string, error) {
	sid, rest, err := s.session()
	if err != nil {
		return api.EvalResult{}, "", err
	}
	target, frame := mainTarget, 0
	if frameID > 0 {
		f, err := s.frame(frameID)
		if err != nil {
			return api.EvalResult{}, "", err
		}
		target, frame = f.target, f.index
	}
	var res api.EvalResult
	err = rest.do(s.ctx, "POST", apiclient.DebugPath(sid, "eval"), targetQuery(target),
		api.EvalRequest{Expression: expr, Frame: frame, SideEffectFree: sideEffectFree, AwaitPromise: frameID == 0}, &res)
	if err == nil && res.Exception != "" {
		err = errors.New(res.Exception)
	}
	return res, target, err
}

// onEvaluate evaluates for the repl, a watch or a hover (hovers refuse side effects).
func (s *Server) onEvaluate(m godap.RequestMessage) (godap.ResponseMessage, error) {
	r := m.(*godap.EvaluateRequest)
	a := r.Arguments
	res, target, err := s.eval(a.FrameId, a.Expression, a.Context == "hover")
	if err != nil {
		return nil, err
	}
	v := s.variable(target, "", a.Expression, res.Type, res.Value, res.Ref)
	return &godap.EvaluateResponse{Response: response(&r.Request), Body: godap.EvaluateResponseBody{
		Result: res.Value, Type: res.Type, VariablesReference: v.VariablesReference}}, nil
}

// onSetVariable sets a variable of a scope through the set route, or a property of an object
// by assigning through its ref.
func (s *Server) onSetVariable(m godap.RequestMessage) (godap.ResponseMessage, error) {
	r := m.(*godap.SetVariableRequest)
	sid, rest, err := s.session()
	if err != nil {
		return nil, err
	}
	a := r.Arguments
	h, err := s.handle(a.VariablesReference)
	if err != nil {
		return nil, err
	}
	var res api.EvalResult
	if h.vars != nil {
		raw, _ := json.Marshal(a.Value) // a string holding the value's JSON or JS literal
		var sr api.SetResponse
		if err := rest.do(s.ctx, "POST", apiclient.DebugPath(sid, "set"), targetQuery(h.target),
			api.SetRequest{Name: a.Name, Value: raw, Frame: h.frame}, &sr); err != nil {
			return nil, err
		}
		res = api.EvalResult{Ref: sr.Variable.Ref, Type: sr.Variable.Type, Value: sr.Variable.Value}
	} else {
		expr := h.ref + "[" + strconv.Quote(a.Name) + "] = (" + a.Value + ")"
		if err := rest.do(s.ctx, "POST", apiclient.DebugPath(sid, "eval"), targetQuery(h.target), api.EvalRequest{Expression: expr}, &res); err != nil {
			return nil, err
		}
		if res.Exception != "" {
			return nil, errors.New(res.Exception)
		}
	}
	v := s.variable(h.target, a.Name, "", res.Type, res.Value, res.Ref)
	return &godap.SetVariableResponse{Response: response(&r.Request), Body: godap.SetVariableResponseBody{
		Value: v.Value, Type: v.Type, VariablesReference: v.VariablesReference}}, nil
}

// onSetExpression assigns a value to an assignable expression in a frame.
func (s *Server) onSetExpression(m godap.RequestMessage) (godap.ResponseMessage, error) {
	r := m.(*godap.SetExpressionRequest)
	a := r.Arguments
	res, target, err := s.eval(a.FrameId, "("+a.Expression+") = ("+a.Value+")", false)
	if err != nil {
		return nil, err
	}
	v := s.variable(target, "", a.Expression, res.Type, res.Value, res.Ref)
	return &godap.SetExpressionResponse{Response: response(&r.Request), Body: godap.SetExpressionResponseBody{
		Value: v.Value, Type: v.Type, VariablesReference: v.VariablesReference}}, nil
}

// onExceptionInfo answers the exception a thread stopped at, from its last exception or throw
// event, with traced's evidence of the session when it has some.
func (s *Server) onExceptionInfo(m godap.RequestMessage) (godap.ResponseMessage, error) {
	r := m.(*godap.ExceptionInfoRequest)
	sid, rest, err := s.session()
	if err != nil {
		return nil, err
	}
	target := targetOf(r.Arguments.ThreadId)
	s.mu.Lock()
	ev := s.st.exceptions[target]
	mode := s.st.excFilter
	s.mu.Unlock()
	body := godap.ExceptionInfoResponseBody{ExceptionId: "Error", BreakMode: "unhandled", Details: &godap.ExceptionDetails{}}
	if mode == api.ExceptionsAll || mode == api.ExceptionsCaught {
		body.BreakMode = "always"
	}
	var stack []api.Frame
	switch {
	case ev != nil && ev.Exception != nil:
		e := ev.Exception
		body.ExceptionId, body.Description, stack = e.Class, exceptionText(e), e.Stack
	case ev != nil && ev.Throw != nil:
		t := ev.Throw
		body.ExceptionId, body.Description, stack = t.Class, t.Message.Value, t.Stack
		if t.Caught {
			body.BreakMode = "always"
		}
	default:
		// Paused at a throw before any event told of it: the pause's reason is what is known.
		reason, err := s.pauseReason(sid, rest, target)
		if err != nil {
			return nil, err
		}
		body.Description = reason
	}
	if body.ExceptionId == "" {
		body.ExceptionId = "Error"
	}
	body.Details.Message, body.Details.TypeName = body.Description, body.ExceptionId
	var lines []string
	for _, f := range stack {
		name := f.Function
		if name == "" {
			name = "(anonymous)"
		}
		lines = append(lines, "    at "+name+" ("+f.Where()+")")
	}
	if ev, err := s.evidenceText(sid, rest); err == nil && ev != "" {
		lines = append(lines, "", "traced evidence:", ev)
	}
	body.Details.StackTrace = strings.Join(lines, "\n")
	return &godap.ExceptionInfoResponse{Response: response(&r.Request), Body: body}, nil
}

// pauseReason reads the reason of the target's current pause from the state route.
func (s *Server) pauseReason(sid string, rest *restClient, target string) (string, error) {
	var st api.State
	q := targetQuery(target)
	q.Set("sections", "breakpoints") // the reason comes with any section: ask for a small one
	if err := rest.do(s.ctx, "GET", apiclient.DebugPath(sid, "state"), q, nil, &st); err != nil {
		return "", err
	}
	return st.Reason, nil
}

// evidenceText is the session's failure evidence in the API's compact text form.
func (s *Server) evidenceText(sid string, rest *restClient) (string, error) {
	var text string
	err := rest.do(s.ctx, "GET", "/api/trace/evidence", url.Values{"id": {sid}, "format": {"text"}}, nil, &text)
	return strings.TrimSpace(text), err
}
