package dap

import (
	"errors"
	"fmt"
	"path"
	"strconv"
	"strings"

	godap "github.com/google/go-dap"

	"traced/api"
	"traced/internal/apiclient"
)

// stackAsyncDepth is how many async parents stackTrace shows: as deep as the state route's default.
const stackAsyncDepth = 16

func (s *Server) onThreads(m godap.RequestMessage) (godap.ResponseMessage, error) {
	r := m.(*godap.ThreadsRequest)
	threads := []godap.Thread{{Id: 1, Name: "main"}}
	if sid, rest, err := s.session(); err == nil {
		var tr api.TargetsResponse
		if err := rest.do(s.ctx, "GET", apiclient.DebugPath(sid, "targets"), nil, nil, &tr); err == nil {
			threads = threads[:0]
			for _, t := range tr.Targets {
				if t.Status != "attached" && t.Ref != mainTarget {
					continue
				}
				threads = append(threads, godap.Thread{Id: threadID(t.Ref), Name: threadName(t)})
			}
		}
	}
	return &godap.ThreadsResponse{Response: response(&r.Request), Body: godap.ThreadsResponseBody{Threads: threads}}, nil
}

// threadName says which target a thread is: main, a worker and its script, a child and its pid.
func threadName(t api.TargetInfo) string {
	script := ""
	if t.URL != "" {
		script = path.Base(t.URL)
	}
	switch t.Kind {
	case "main":
		return "main"
	case "process":
		name := fmt.Sprintf("process %d", t.PID)
		if t.Title != "" {
			return name + " " + t.Title
		}
		return strings.TrimSpace(name + " " + script)
	}
	name := t.Title
	if name == "" {
		name = "worker " + t.Ref
	}
	if script != "" && !strings.Contains(name, script) {
		name += " " + script
	}
	return name
}

// onStackTrace answers the paused stack of a thread, paged; async parents follow a label frame
// naming the boundary, node's own frames are subtle.
func (s *Server) onStackTrace(m godap.RequestMessage) (godap.ResponseMessage, error) {
	r := m.(*godap.StackTraceRequest)
	sid, rest, err := s.session()
	if err != nil {
		return nil, err
	}
	target := targetOf(r.Arguments.ThreadId)
	q := targetQuery(target)
	q.Set("asyncDepth", strconv.Itoa(stackAsyncDepth))
	var sr api.StackResponse
	if err := rest.do(s.ctx, "GET", apiclient.DebugPath(sid, "stack"), q, nil, &sr); err != nil {
		return nil, err
	}
	var all []godap.StackFrame
	var refs []frameRef
	async := ""
	for _, f := range sr.Stack {
		if f.Async != "" && f.Async != async {
			async = f.Async
			refs = append(refs, frameRef{target: target, index: -1})
			all = append(all, godap.StackFrame{Name: "── " + f.Async + " ──", PresentationHint: "label"})
		}
		idx, _ := strconv.Atoi(strings.TrimPrefix(f.Ref, "f"))
		if f.Async != "" {
			idx = -1 // no scopes past an async boundary
		}
		refs = append(refs, frameRef{target: target, index: idx})
		name := f.Function
		if name == "" {
			name = "(anonymous)"
		}
		df := godap.StackFrame{Name: name, Source: s.source(f.Frame), Line: f.Line, Column: f.Column, CanRestart: f.Async == ""}
		if f.Internal {
			df.PresentationHint = "subtle"
		}
		all = append(all, df)
	}
	s.mu.Lock()
	for i := range all {
		all[i].Id = s.st.addFrame(refs[i])
	}
	s.mu.Unlock()
	total := len(all)
	start := min(r.Arguments.StartFrame, total)
	end := total
	if r.Arguments.Levels > 0 {
		end = min(start+r.Arguments.Levels, total)
	}
	return &godap.StackTraceResponse{Response: response(&r.Request),
		Body: godap.StackTraceResponseBody{StackFrames: all[start:end], TotalFrames: total}}, nil
}

// frame answers what a frame id stands for.
func (s *Server) frame(id int) (frameRef, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	f, ok := s.st.frames[id]
	if !ok {
		return frameRef{}, fmt.Errorf("frame %d is not of a paused thread: it ended when its thread resumed (ask stackTrace again)", id)
	}
	if f.index < 0 {
		return frameRef{}, errors.New("an async parent frame has no scopes: its variables are gone")
	}
	return f, nil
}

// onScopes answers a frame's scopes (local, block, closure...), each with its variables read.
func (s *Server) onScopes(m godap.RequestMessage) (godap.ResponseMessage, error) {
	r := m.(*godap.ScopesRequest)
	sid, rest, err := s.session()
	if err != nil {
		return nil, err
	}
	f, err := s.frame(r.Arguments.FrameId)
	if err != nil {
		return nil, err
	}
	q := targetQuery(f.target)
	q.Set("frame", strconv.Itoa(f.index))
	var vr api.VarsResponse
	if err := rest.do(s.ctx, "GET", apiclient.DebugPath(sid, "vars"), q, nil, &vr); err != nil {
		return nil, err
	}
	var order []string
	by := map[string][]api.Variable{}
	for _, v := range vr.Variables {
		if _, ok := by[v.Scope]; !ok {
			order = append(order, v.Scope)
		}
		by[v.Scope] = append(by[v.Scope], v)
	}
	scopes := []godap.Scope{}
	s.mu.Lock()
	for _, name := range order {
		sc := godap.Scope{Name: scopeName(name), VariablesReference: s.st.addHandle(handle{target: f.target, frame: f.index, vars: by[name]}),
			NamedVariables: len(by[name])}
		if name == "local" {
			sc.PresentationHint = "locals"
		}
		scopes = append(scopes, sc)
	}
	s.mu.Unlock()
	return &godap.ScopesResponse{Response: response(&r.Request), Body: godap.ScopesResponseBody{Scopes: scopes}}, nil
}

func scopeName(s string) string {
	if s == "" {
		return "Local"
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// onVariables answers a scope's variables or an object's properties, paged by start and count.
func (s *Server) onVariables(m godap.RequestMessage) (godap.ResponseMessage, error) {
	r := m.(*godap.VariablesRequest)
	sid, rest, err := s.session()
	if err != nil {
		return nil, err
	}
	h, err := s.handle(r.Arguments.VariablesReference)
	if err != nil {
		return nil, err
	}
	var vars []godap.Variable
	if h.vars != nil {
		for _, v := range h.vars {
			vars = append(vars, s.variable(h.target, v.Name, v.Name, v.Type, v.Value, v.Ref))
		}
	} else {
		q := targetQuery(h.target)
		q.Set("ref", h.ref)
		var p api.Props
		if err := rest.do(s.ctx, "GET", apiclient.DebugPath(sid, "props"), q, nil, &p); err != nil {
			return nil, err
		}
		for _, pr := range p.Properties {
			vars = append(vars, s.variable(h.target, pr.Name, "", pr.Type, pr.Value, pr.Ref))
		}
	}
	start := min(r.Arguments.Start, len(vars))
	end := len(vars)
	if r.Arguments.Count > 0 {
		end = min(start+r.Arguments.Count, len(vars))
	}
	out := vars[start:end]
	if out == nil {
		out = []godap.Variable{}
	}
	return &godap.VariablesResponse{Response: response(&r.Request), Body: godap.VariablesResponseBody{Variables: out}}, nil
}

// handle answers what a variablesReference stands for.
func (s *Server) handle(n int) (handle, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	h, ok := s.st.handles[n]
	if !ok {
		return handle{}, fmt.Errorf("variablesReference %d is not of a paused thread: it ended when its thread resumed", n)
	}
	return h, nil
}

// variable is the DAP form of a value; an object gets a variablesReference expanding its ref.
func (s *Server) variable(target, name, evalName, typ, value, ref string) godap.Variable {
	v := godap.Variable{Name: name, Value: value, Type: typ, EvaluateName: evalName}
	if expandable(typ, value, ref) {
		s.mu.Lock()
		v.VariablesReference = s.st.addHandle(handle{target: target, ref: ref})
		s.mu.Unlock()
	}
	return v
}

// expandable says whether a value has properties to show: objects and functions with a ref.
func expandable(typ, value, ref string) bool {
	if ref == "" || value == "null" {
		return false
	}
	switch typ {
	case "string", "number", "boolean", "undefined", "bigint", "symbol", "null":
		return false
	}
	return true
}
