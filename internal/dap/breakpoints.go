package dap

import (
	"errors"
	"fmt"
	"net/url"
	"regexp"
	"strconv"
	"strings"

	godap "github.com/google/go-dap"

	"traced/api"
	"traced/internal/apiclient"
)

// logTemplateRE finds a logMessage's {expr}, which traced's templates write ${expr}.
var logTemplateRE = regexp.MustCompile(`\{([^{}]+)\}`)

// onSetBreakpoints replaces the breakpoints of one source: those set there before through this
// adapter are removed, the given ones set (logpoints for those with a logMessage).
func (s *Server) onSetBreakpoints(m godap.RequestMessage) (godap.ResponseMessage, error) {
	r := m.(*godap.SetBreakpointsRequest)
	sid, rest, err := s.session()
	if err != nil {
		return nil, err
	}
	path := r.Arguments.Source.Path
	if path == "" {
		return nil, errors.New("setBreakpoints needs source.path: sources without a path have no breakpoints here")
	}
	s.settingBreakpoints()
	defer s.settledBreakpoints()
	s.mu.Lock()
	old := s.st.bySource[path]
	delete(s.st.bySource, path)
	s.mu.Unlock()
	s.removeRefs(sid, rest, old)

	out := make([]godap.Breakpoint, len(r.Arguments.Breakpoints))
	var refs []string
	for i, sb := range r.Arguments.Breakpoints {
		loc := path + ":" + strconv.Itoa(sb.Line)
		if sb.Column > 0 {
			loc += ":" + strconv.Itoa(sb.Column)
		}
		var ref string
		var resolved []api.Frame
		var pending bool
		if sb.LogMessage != "" {
			// A logpoint has no hitCount of its own: its hit condition is always a counter.
			var cond string
			if cond, err = logCondition(sb.Condition, sb.HitCondition, s.hitKey()); err == nil {
				var lr api.LogpointResponse
				err = rest.do(s.ctx, "POST", apiclient.DebugPath(sid, "logpoints"), nil, api.LogpointRequest{Location: loc,
					Template: logTemplateRE.ReplaceAllString(sb.LogMessage, "$${$1}"), Condition: cond}, &lr)
				ref, resolved = lr.Logpoint.Ref, lr.Logpoint.Resolved
			}
		} else {
			req := api.BreakpointRequest{Location: loc}
			if req.Condition, req.HitCount, err = withHitCondition(sb.Condition, sb.HitCondition, s.hitKey()); err == nil {
				var br api.BreakpointResponse
				err = rest.do(s.ctx, "POST", apiclient.DebugPath(sid, "breakpoints"), nil, req, &br)
				ref, resolved, pending = br.Breakpoint.Ref, br.Breakpoint.Resolved, br.Breakpoint.Pending
			}
		}
		if err != nil {
			out[i] = godap.Breakpoint{Verified: false, Message: err.Error(), Line: sb.Line,
				Source: &godap.Source{Path: path}}
			continue
		}
		refs = append(refs, ref)
		out[i] = s.dapBreakpoint(ref, path, sb.Line, resolved, pending)
	}
	s.mu.Lock()
	s.st.bySource[path] = refs
	s.mu.Unlock()
	return &godap.SetBreakpointsResponse{Response: response(&r.Request),
		Body: godap.SetBreakpointsResponseBody{Breakpoints: out}}, nil
}

// dapBreakpoint is the DAP form of a traced breakpoint asked at path:line: verified once bound,
// at the line it bound to (the first binding in path when there are several).
func (s *Server) dapBreakpoint(ref, path string, line int, resolved []api.Frame, pending bool) godap.Breakpoint {
	s.mu.Lock()
	id := s.st.bpID(ref)
	s.mu.Unlock()
	bp := godap.Breakpoint{Id: id, Line: line, Source: &godap.Source{Path: path}}
	if len(resolved) == 0 || pending {
		bp.Message = "pending: binds when a script with this source loads"
		return bp
	}
	bp.Verified = true
	at := resolved[0]
	for _, f := range resolved {
		if s.absPath(f.File) == path {
			at = f
			break
		}
	}
	bp.Line, bp.Column = at.Line, at.Column
	return bp
}

// removeRefs removes breakpoints and logpoints; one already gone (removed through REST) is fine.
func (s *Server) removeRefs(sid string, rest *restClient, refs []string) {
	for _, ref := range refs {
		s.mu.Lock()
		delete(s.st.bpIDs, ref) // the removed event it causes is not told back to this client
		s.mu.Unlock()
		err := rest.do(s.ctx, "DELETE", apiclient.DebugPath(sid, "breakpoints/"+url.PathEscape(ref)), nil, nil, nil)
		if err != nil {
			s.log.Debug("dap: remove a breakpoint", "ref", ref, "err", err)
		}
	}
}

// onBound sends a breakpoint event when one binds: a pending breakpoint whose script loaded, or
// one set through another client.
func (s *Server) onBound(b *api.BreakpointInfo) {
	if b == nil || strings.HasPrefix(b.Ref, "lp") && !s.known(b.Ref) {
		return
	}
	s.mu.Lock()
	if s.st.setting > 0 && !s.knownLocked(b.Ref) {
		s.st.deferred = append(s.st.deferred, b) // perhaps this client's own: told when it knows
		s.mu.Unlock()
		return
	}
	s.mu.Unlock()
	switch b.Change {
	case "removed", "disabled": // DAP has no disabled breakpoint: the editor drops it
		s.mu.Lock()
		id, ok := s.st.bpIDs[b.Ref]
		delete(s.st.bpIDs, b.Ref)
		s.mu.Unlock()
		if ok {
			s.send(&godap.BreakpointEvent{Event: event("breakpoint"), Body: godap.BreakpointEventBody{Reason: "removed", Breakpoint: godap.Breakpoint{Id: id}}})
		}
		return
	case "set", "enabled":
		if s.known(b.Ref) {
			return // this client's own, or one it was told of already
		}
	}
	reason := "changed"
	if !s.known(b.Ref) {
		reason = "new"
	}
	path := s.absPath(b.Location.File)
	bp := s.dapBreakpoint(b.Ref, path, b.Location.Line, []api.Frame{b.Location}, false)
	s.send(&godap.BreakpointEvent{Event: event("breakpoint"), Body: godap.BreakpointEventBody{Reason: reason, Breakpoint: bp}})
}

func (s *Server) known(ref string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.knownLocked(ref)
}

func (s *Server) knownLocked(ref string) bool {
	_, ok := s.st.bpIDs[ref]
	return ok
}

// settingBreakpoints marks a request of this client's that sets breakpoints as in flight.
func (s *Server) settingBreakpoints() {
	s.mu.Lock()
	s.st.setting++
	s.mu.Unlock()
}

// settledBreakpoints ends one, and once none is in flight tells the breakpoint events that
// waited for it: this client's own are known by now, and are not announced back to it.
func (s *Server) settledBreakpoints() {
	s.mu.Lock()
	s.st.setting--
	var waiting []*api.BreakpointInfo
	if s.st.setting == 0 {
		waiting, s.st.deferred = s.st.deferred, nil
	}
	s.mu.Unlock()
	for _, b := range waiting {
		s.onBound(b)
	}
}

func (s *Server) onSetFunctionBreakpoints(m godap.RequestMessage) (godap.ResponseMessage, error) {
	r := m.(*godap.SetFunctionBreakpointsRequest)
	sid, rest, err := s.session()
	if err != nil {
		return nil, err
	}
	s.mu.Lock()
	old := s.st.funcBPs
	s.st.funcBPs = nil
	s.mu.Unlock()
	s.removeRefs(sid, rest, old)
	out := make([]godap.Breakpoint, len(r.Arguments.Breakpoints))
	var refs []string
	for i, fb := range r.Arguments.Breakpoints {
		req := api.FunctionBreakpointRequest{Expression: fb.Name}
		var br api.BreakpointResponse
		var err error
		if req.Condition, req.HitCount, err = withHitCondition(fb.Condition, fb.HitCondition, s.hitKey()); err == nil {
			err = rest.do(s.ctx, "POST", apiclient.DebugPath(sid, "breakpoints/function"), nil, req, &br)
		}
		if err != nil {
			out[i] = godap.Breakpoint{Message: err.Error()}
			continue
		}
		refs = append(refs, br.Breakpoint.Ref)
		s.mu.Lock()
		out[i] = godap.Breakpoint{Id: s.st.bpID(br.Breakpoint.Ref), Verified: true}
		s.mu.Unlock()
	}
	s.mu.Lock()
	s.st.funcBPs = refs
	s.mu.Unlock()
	return &godap.SetFunctionBreakpointsResponse{Response: response(&r.Request),
		Body: godap.SetFunctionBreakpointsResponseBody{Breakpoints: out}}, nil
}

// onSetExceptionBreakpoints sets traced's pause-on-exceptions mode: all wins over caught and
// uncaught together, which are all too.
func (s *Server) onSetExceptionBreakpoints(m godap.RequestMessage) (godap.ResponseMessage, error) {
	r := m.(*godap.SetExceptionBreakpointsRequest)
	sid, rest, err := s.session()
	if err != nil {
		return nil, err
	}
	has := map[string]bool{}
	for _, f := range r.Arguments.Filters {
		has[f] = true
	}
	for _, o := range r.Arguments.FilterOptions {
		has[o.FilterId] = true
	}
	mode := api.ExceptionsNone
	switch {
	case has[api.ExceptionsAll] || has[api.ExceptionsCaught] && has[api.ExceptionsUncaught]:
		mode = api.ExceptionsAll
	case has[api.ExceptionsCaught]:
		mode = api.ExceptionsCaught
	case has[api.ExceptionsUncaught]:
		mode = api.ExceptionsUncaught
	}
	s.mu.Lock()
	classes := s.st.excClasses
	s.mu.Unlock()
	req := api.PauseOnExceptionsRequest{Mode: mode, Classes: classes}
	if err := rest.do(s.ctx, "POST", apiclient.DebugPath(sid, "pause-on-exceptions"), nil, req, nil); err != nil {
		return nil, fmt.Errorf("set the exception mode: %w", err)
	}
	s.mu.Lock()
	s.st.excFilter = mode
	s.mu.Unlock()
	return &godap.SetExceptionBreakpointsResponse{Response: response(&r.Request)}, nil
}

// onBreakpointLocations answers the breakable positions of a line range from GET breakable.
func (s *Server) onBreakpointLocations(m godap.RequestMessage) (godap.ResponseMessage, error) {
	r := m.(*godap.BreakpointLocationsRequest)
	sid, rest, err := s.session()
	if err != nil {
		return nil, err
	}
	a := r.Arguments
	end := a.EndLine
	if end < a.Line {
		end = a.Line
	}
	var br api.BreakableResponse
	q := url.Values{"location": {fmt.Sprintf("%s:%d-%d", a.Source.Path, a.Line, end)}}
	if err := rest.do(s.ctx, "GET", apiclient.DebugPath(sid, "breakable"), q, nil, &br); err != nil {
		if !apiclient.IsRefusal(err) {
			return nil, err
		}
		br.Lines = nil // refused (a script not loaded yet): no positions known, not a failure
	}
	locs := []godap.BreakpointLocation{}
	for _, l := range br.Lines {
		for _, c := range l.Columns {
			locs = append(locs, godap.BreakpointLocation{Line: l.Line, Column: c})
		}
	}
	return &godap.BreakpointLocationsResponse{Response: response(&r.Request),
		Body: godap.BreakpointLocationsResponseBody{Breakpoints: locs}}, nil
}
