package tests

import (
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"testing"

	"traced/api"
)

// inspectme.js lines the tests stop at.
const (
	lineTotalReturn = 10 // return sum;   (in total)
	lineDebugger    = 14 // debugger;   (in run, after result is computed)
)

// get reads a debug route of the session into out, failing unless it answers 200.
func (h *harness) get(id, route string, out any) {
	h.t.Helper()
	if status := h.call("GET", "/api/debug/"+id+"/"+route, nil, out); status != http.StatusOK {
		h.t.Fatalf("GET %s: status %d", route, status)
	}
}

// post posts to a debug route of the session, failing unless it answers 200.
func (h *harness) post(id, route string, body, out any) {
	h.t.Helper()
	if status := h.call("POST", "/api/debug/"+id+"/"+route, body, out); status != http.StatusOK {
		h.t.Fatalf("POST %s: status %d", route, status)
	}
}

// evalWith evaluates a full request.
func (h *harness) evalWith(id string, req api.EvalRequest) api.EvalResult {
	h.t.Helper()
	var res api.EvalResult
	h.post(id, "eval", req, &res)
	return res
}

// pausedAtDebugger starts inspectme.js and returns its state at the debugger statement.
func (h *harness) pausedAtDebugger() (api.Summary, api.State) {
	h.t.Helper()
	s := h.debug(api.StartRequest{Target: "inspectme.js"})
	st, _ := h.waitPaused(s.ID, 0)
	wantPausedIn(h.t, st, "inspectme.js", "run", lineDebugger)
	return s, st
}

// TestDebugRefs: locals and eval results carry v refs that evals and props use; a v ref goes
// stale when the program moves on (409), an o ref from props does not.
func TestDebugRefs(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	s, st := h.pausedAtDebugger()
	result := local(t, st, "result")
	if result.Ref == "" || result.Value != "6" {
		t.Fatalf("result %+v, want 6 with a ref", result)
	}
	if again := local(t, h.state(s.ID, ""), "result"); again.Ref != result.Ref {
		t.Fatalf("the same pause gave result ref %s, then %s", result.Ref, again.Ref)
	}
	if res := h.eval(s.ID, result.Ref+" * 2", 0); res.Value != "12" {
		t.Fatalf("eval with ref: %+v", res)
	}
	jobs := h.eval(s.ID, "jobs", 0)
	if jobs.Ref == "" || jobs.Type != "array" {
		t.Fatalf("eval jobs: %+v", jobs)
	}
	// @ alias, property access on a ref, and a ref inside a string left alone.
	if res := h.eval(s.ID, "@"+jobs.Ref+"[1].id + ' "+jobs.Ref+"'", 0); unquote(res.Value) != "j2 "+jobs.Ref {
		t.Fatalf("eval @ref: %+v", res)
	}
	// Previews as a debugger lists them; a cut one names the call that expands it.
	if res := h.eval(s.ID, "new Error('refused')", 0); res.Value != "Error: refused (at inspectme.js:14)" {
		t.Fatalf("error preview: %+v", res)
	}
	if res := h.eval(s.ID, "Array.from({length: 47}, (_, i) => i)", 0); !strings.HasPrefix(res.Value, "Array(47) [ 0, 1,") ||
		!strings.HasSuffix(res.Value, "9, … ]") || res.Expand != "GET props?ref="+res.Ref {
		t.Fatalf("long array preview: %+v", res)
	}
	var props api.Props
	h.get(s.ID, "props?ref="+jobs.Ref, &props)
	if !strings.HasPrefix(props.Ref, "o") || len(props.Properties) != 4 { // 0, 1, 2, length
		t.Fatalf("props of jobs: %+v", props)
	}
	first := props.Properties[0]
	if first.Name != "0" || first.Ref == "" || !strings.Contains(first.Value, "j1") {
		t.Fatalf("jobs[0]: %+v", first)
	}
	var deep api.Props
	h.get(s.ID, "props?ref="+first.Ref+"&depth=2", &deep)
	tags := slices.IndexFunc(deep.Properties, func(p api.Property) bool { return p.Name == "tags" })
	if tags < 0 || len(deep.Properties[tags].Properties) != 3 { // "a", "b", length
		t.Fatalf("props of jobs[0] at depth 2: %+v", deep)
	}
	var inherited api.Props
	h.get(s.ID, "props?ref="+first.Ref+"&own=false", &inherited)
	if !slices.ContainsFunc(inherited.Properties, func(p api.Property) bool { return p.Kind == "inherited" && p.Name == "constructor" }) {
		t.Fatalf("props own=false lack the prototype's constructor: %+v", inherited)
	}
	if e := h.errorOf(h.request("GET", "/api/debug/"+s.ID+"/props?ref="+result.Ref, nil), http.StatusBadRequest); !strings.Contains(e.Message, "6") {
		t.Fatalf("props of a number: %+v", e)
	}
	if e := h.errorOf(h.request("GET", "/api/debug/"+s.ID+"/props?ref=v999", nil), http.StatusNotFound); e.Code != "no_such_ref" {
		t.Fatalf("props of an unknown ref: %+v", e)
	}

	h.exec(s.ID, "step", api.StepRequest{})
	e := h.errorOf(h.request("POST", "/api/debug/"+s.ID+"/eval", api.EvalRequest{Expression: "@" + result.Ref}), http.StatusConflict)
	if e.Code != "stale_ref" || !strings.Contains(e.Hint, "state") {
		t.Fatalf("stale ref: %+v", e)
	}
	// The o ref outlived the pause.
	if res := h.eval(s.ID, first.Ref+".retries", 0); res.Value != "1" {
		t.Fatalf("o ref after a step: %+v", res)
	}
	var cleared api.ClearRefsResponse
	if status := h.call("DELETE", "/api/debug/"+s.ID+"/refs", nil, &cleared); status != http.StatusOK || cleared.Released == 0 {
		t.Fatalf("DELETE refs: %d %+v", status, cleared)
	}
	if e := h.errorOf(h.request("POST", "/api/debug/"+s.ID+"/eval", api.EvalRequest{Expression: first.Ref}), http.StatusConflict); e.Code != "stale_ref" {
		t.Fatalf("o ref after clearing: %+v", e)
	}
	h.runToEnd(s.ID, 2)
}

// TestDebugEvalOptions: await of a promise while running and a settled one while paused,
// side-effect-free evaluation refusing x++, and the timeout ending an endless loop.
func TestDebugEvalOptions(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	s, _ := h.pausedAtDebugger()
	if res := h.evalWith(s.ID, api.EvalRequest{Expression: "Promise.resolve(limit * 4)", AwaitPromise: true}); res.Value != "40" || res.Exception != "" {
		t.Fatalf("awaited settled promise while paused: %+v", res)
	}
	if res := h.evalWith(s.ID, api.EvalRequest{Expression: "new Promise(() => {})", AwaitPromise: true}); res.Exception != "" || !strings.Contains(res.Hint, "pending") {
		t.Fatalf("awaited pending promise while paused: %+v", res)
	}
	res := h.evalWith(s.ID, api.EvalRequest{Expression: "limit++", SideEffectFree: true})
	if !strings.Contains(res.Exception, "side-effect") {
		t.Fatalf("side-effect-free limit++: %+v", res)
	}
	if res := h.eval(s.ID, "limit", 0); res.Value != "10" {
		t.Fatalf("limit after a refused limit++: %+v", res)
	}
	if res := h.evalWith(s.ID, api.EvalRequest{Expression: "jobs.length + limit", SideEffectFree: true}); res.Value != "13" {
		t.Fatalf("side-effect-free read: %+v", res)
	}
	if res := h.evalWith(s.ID, api.EvalRequest{Expression: "for(;;){}", TimeoutMs: 100}); res.Exception == "" {
		t.Fatalf("endless loop with a timeout: %+v", res)
	}
	h.runToEnd(s.ID, 1)

	r := h.debug(api.StartRequest{Target: "forever.js"})
	res = h.evalWith(r.ID, api.EvalRequest{Expression: "await new Promise(r => setTimeout(() => r(6 * 7), 20))", AwaitPromise: true})
	if res.Value != "42" || res.Exception != "" {
		t.Fatalf("await while running: %+v", res)
	}
	// A top-level let evaluated while running is a global lexical name.
	h.eval(r.ID, "let tracedLexical = 1", 0)
	var globals api.GlobalsResponse
	h.get(r.ID, "globals", &globals)
	if !slices.Contains(globals.Names, "tracedLexical") {
		t.Fatalf("globals %+v, want tracedLexical", globals)
	}
	obj := h.evalWith(r.ID, api.EvalRequest{Expression: "({ a: 1 })"})
	if !strings.HasPrefix(obj.Ref, "o") {
		t.Fatalf("object evaluated while running: %+v, want an o ref", obj)
	}
}

// TestDebugSet: set changes a local and a closure variable the program then prints; bad values
// and global variables are refused with the reason; unknown names list the variables.
func TestDebugSet(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	s, st := h.pausedAtDebugger()
	var set api.SetResponse
	h.post(s.ID, "set", api.SetRequest{Ref: local(t, st, "result").Ref, Value: []byte("99")}, &set)
	if set.Variable.Value != "99" || set.Variable.Name != "result" {
		t.Fatalf("set result: %+v", set)
	}
	h.post(s.ID, "set", api.SetRequest{Name: "limit", Value: []byte(`"12n"`)}, &set)
	if set.Variable.Value != "12n" || set.Variable.Scope != "closure" {
		t.Fatalf("set limit: %+v", set)
	}
	for _, c := range []struct {
		body   api.SetRequest
		status int
		want   string
	}{
		{api.SetRequest{Name: "result", Value: []byte(`"not json"`)}, http.StatusBadRequest, "quote"},
		{api.SetRequest{Name: "process", Value: []byte("1")}, http.StatusBadRequest, "global"},
		{api.SetRequest{Name: "nope", Value: []byte("1")}, http.StatusNotFound, "result"},
	} {
		e := h.errorOf(h.request("POST", "/api/debug/"+s.ID+"/set", c.body), c.status)
		if !strings.Contains(e.Message+e.Hint, c.want) {
			t.Errorf("set %+v: %+v, want %q in it", c.body, e, c.want)
		}
	}
	var vars api.VarsResponse
	h.get(s.ID, "vars?name=result", &vars)
	if len(vars.Variables) != 1 || vars.Variables[0].Value != "99" {
		t.Fatalf("vars?name=result: %+v", vars)
	}
	if e := h.errorOf(h.request("GET", "/api/debug/"+s.ID+"/vars?name=nope", nil), http.StatusNotFound); !strings.Contains(e.Message, "result") {
		t.Fatalf("vars?name=nope: %+v, want the names there are", e)
	}
	h.runToEnd(s.ID, 1)
	if got := h.consoleTexts(s.ID); !slices.Contains(got, "result 99 limit 12n") {
		t.Fatalf("console %q, want the set values printed", got)
	}
}

// TestDebugSetReturn: stepping onto total's return point shows the return value, set-return
// replaces it, and the caller gets the new one; before the return point it is refused.
func TestDebugSetReturn(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	s := h.debug(api.StartRequest{Target: "inspectme.js", Breakpoints: api.BreakpointsAt("inspectme.js:" + "10")})
	st, _ := h.waitPaused(s.ID, 0)
	wantPausedIn(t, st, "inspectme.js", "total", lineTotalReturn)
	e := h.errorOf(h.request("POST", "/api/debug/"+s.ID+"/set-return", api.SetReturnRequest{Value: []byte("1")}), http.StatusConflict)
	if e.Code != "not_at_return" || !strings.Contains(e.Hint, "step") {
		t.Fatalf("set-return before the return point: %+v", e)
	}
	st = h.exec(s.ID, "step", api.StepRequest{})
	if st.ReturnValue == nil || st.ReturnValue.Value != "6" {
		t.Fatalf("state at the return point: %+v, want returnValue 6", st)
	}
	var set api.SetResponse
	h.post(s.ID, "set-return", api.SetReturnRequest{Value: []byte("1000")}, &set)
	if set.Variable.Value != "1000" {
		t.Fatalf("set-return: %+v", set)
	}
	if st := h.state(s.ID, ""); st.ReturnValue == nil || st.ReturnValue.Value != "1000" {
		t.Fatalf("state after set-return: %+v", st.ReturnValue)
	}
	st = h.exec(s.ID, "continue", api.ContinueRequest{}) // to the debugger statement
	if local(t, st, "result").Value != "1000" {
		t.Fatalf("result after set-return: %+v", st.Locals)
	}
	h.runToEnd(s.ID, 3)
}

// TestDebugSetAtReturnPoint: set on a variable of a frame paused at its return point changes the
// variable, and the answer says what the frame returns and how to change that.
func TestDebugSetAtReturnPoint(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	s := h.debug(api.StartRequest{Target: "inspectme.js", Breakpoints: api.BreakpointsAt("inspectme.js:10")})
	h.waitPaused(s.ID, 0)
	if st := h.exec(s.ID, "step", api.StepRequest{}); st.ReturnValue == nil || st.ReturnValue.Value != "6" {
		t.Fatalf("state at the return point: %+v, want returnValue 6", st)
	}
	var set api.SetResponse
	h.post(s.ID, "set", api.SetRequest{Name: "sum", Value: []byte("99")}, &set)
	if set.Variable.Value != "99" || set.ReturnValue == nil || set.ReturnValue.Value != "6" || !strings.Contains(set.Hint, "set-return") {
		t.Fatalf("set at the return point answered %+v, want sum 99, returning 6 and the set-return call", set)
	}
	// Away from a return point the answer carries neither.
	st := h.exec(s.ID, "continue", api.ContinueRequest{}) // to the debugger statement in run
	if st.ReturnValue != nil {
		t.Fatalf("state at the debugger statement: %+v", st)
	}
	set = api.SetResponse{}
	h.post(s.ID, "set", api.SetRequest{Name: "result", Value: []byte("5")}, &set)
	if set.ReturnValue != nil || set.Hint != "" {
		t.Fatalf("set away from a return point answered %+v", set)
	}
}

// TestDebugInspection: stack, state sections and depth, instances, globals, scripts, source,
// search, console and exception history, contexts.
func TestDebugInspection(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	s, _ := h.pausedAtDebugger()
	id := s.ID

	var stack api.StackResponse
	h.get(id, "stack", &stack)
	if len(stack.Stack) < 2 || stack.Stack[0].Function != "run" || stack.Stack[0].Ref != "f0" {
		t.Fatalf("stack: %+v", stack)
	}
	st := h.state(id, "sections=vars&depth=0")
	if st.Stack != nil || st.Source != nil || st.Locals == nil {
		t.Fatalf("state?sections=vars: %+v, want only locals", st)
	}
	st = h.state(id, "sections=stack,breakpoints")
	if st.Locals != nil || st.Stack == nil || st.Location == nil {
		t.Fatalf("state?sections=stack,breakpoints: %+v", st)
	}
	if st := h.state(id, "allScopes=true"); !slices.ContainsFunc(st.Locals, func(v api.Variable) bool { return v.Name == "jobs" && v.Scope == "closure" }) {
		t.Fatalf("allScopes lacks the closure's jobs: %+v", st.Locals)
	}
	if e := h.errorOf(h.request("GET", "/api/debug/"+id+"/state?sections=nope", nil), http.StatusBadRequest); !strings.Contains(e.Hint, "sections=") {
		t.Fatalf("bad sections: %+v", e)
	}

	var inst api.Instances
	h.post(id, "instances", api.InstancesRequest{Expression: "jobs[0].constructor"}, &inst)
	if inst.Count != 3 || len(inst.Instances) != 3 || !strings.Contains(inst.Prototype, "Job") {
		t.Fatalf("instances of Job: %+v", inst)
	}
	one := 1
	h.post(id, "instances", api.InstancesRequest{Expression: "Object.getPrototypeOf(jobs[1])", Limit: &one}, &inst)
	if inst.Count != 3 || len(inst.Instances) != 1 {
		t.Fatalf("instances of Job.prototype, limit 1: %+v", inst)
	}
	if e := h.errorOf(h.request("POST", "/api/debug/"+id+"/instances", api.InstancesRequest{Expression: "limit"}), http.StatusBadRequest); !strings.Contains(e.Message, "not an object") {
		t.Fatalf("instances of a number: %+v", e)
	}

	var scripts api.ScriptsResponse
	h.get(id, "scripts?filter=inspectme", &scripts)
	if len(scripts.Scripts) != 1 || scripts.Scripts[0].File != "inspectme.js" {
		t.Fatalf("scripts?filter=inspectme: %+v", scripts)
	}
	var all api.ScriptsResponse
	h.get(id, "scripts?internal=true", &all)
	if len(all.Scripts) <= 1 {
		t.Fatalf("scripts?internal=true: %d scripts, want node's too", len(all.Scripts))
	}

	var src api.SourceView
	h.get(id, "source?lines=1", &src)
	if len(src.Lines) != 3 || !src.Lines[1].Current || src.Lines[1].Line != lineDebugger {
		t.Fatalf("source around the pause: %+v", src)
	}
	h.get(id, "source?file=inspectme.js&all=true", &src)
	if src.Total < 18 || len(src.Lines) != src.Total || !src.Lines[lineDebugger-1].Current {
		t.Fatalf("whole source: %d of %d lines", len(src.Lines), src.Total)
	}
	if e := h.errorOf(h.request("GET", "/api/debug/"+id+"/source?file=nope.js", nil), http.StatusNotFound); e.Code != "no_such_script" {
		t.Fatalf("source of an unknown file: %+v", e)
	}

	var found api.SearchResponse
	h.get(id, "search?q="+url.QueryEscape("j.retries"), &found)
	if len(found.Matches) != 1 || found.Matches[0].Line != 9 {
		t.Fatalf("search j.retries: %+v", found)
	}
	h.get(id, "search?q="+url.QueryEscape(`new Job\("j[0-9]"`)+"&regex=true", &found)
	if len(found.Matches) != 1 || found.Matches[0].Line != 5 {
		t.Fatalf("regex search: %+v", found)
	}
	h.get(id, "search?q=JOBS&caseSensitive=true", &found)
	if len(found.Matches) != 0 {
		t.Fatalf("case-sensitive search for JOBS: %+v", found)
	}

	var ctxs api.ContextsResponse
	h.get(id, "contexts", &ctxs)
	if len(ctxs.Contexts) != 1 || !ctxs.Contexts[0].Main {
		t.Fatalf("contexts: %+v", ctxs)
	}

	h.runToEnd(id, 1)
	var hist api.HistoryResponse
	h.get(id, "console?level=warn", &hist)
	if len(hist.Events) != 1 || hist.Events[0].Console.Text.Value != "done" {
		t.Fatalf("console?level=warn: %+v", hist)
	}
	h.get(id, "console?limit=1", &hist)
	if len(hist.Events) != 1 || !hist.More {
		t.Fatalf("console?limit=1: %+v", hist)
	}
	next := hist.Next
	h.get(id, "console?since="+strconv.FormatUint(next, 10), &hist)
	if len(hist.Events) != 1 || hist.Events[0].Console.Text.Value != "done" {
		t.Fatalf("console after the cursor: %+v", hist)
	}
	h.get(id, "exceptions", &hist)
	if len(hist.Events) != 0 {
		t.Fatalf("exceptions: %+v", hist)
	}
}

// TestDebugInspectRequestsAreChecked: malformed inspection and mutation requests answer 400
// before any session is looked up, unknown sessions 404.
func TestDebugInspectRequestsAreChecked(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	for _, c := range []struct {
		method, path string
		body         any
		status       int
	}{
		{"GET", "/api/debug/s1/props", nil, http.StatusBadRequest},
		{"GET", "/api/debug/s1/props?ref=x1", nil, http.StatusBadRequest},
		{"GET", "/api/debug/s1/props?ref=v1&depth=4", nil, http.StatusBadRequest},
		{"GET", "/api/debug/s1/search", nil, http.StatusBadRequest},
		{"GET", "/api/debug/s1/state?depth=2", nil, http.StatusBadRequest},
		{"GET", "/api/debug/s1/state?allScopes=maybe", nil, http.StatusBadRequest},
		{"GET", "/api/debug/s1/console?limit=0", nil, http.StatusBadRequest},
		{"GET", "/api/debug/s1/source?line=0", nil, http.StatusBadRequest},
		{"POST", "/api/debug/s1/set", `{"value":1}`, http.StatusBadRequest},
		{"POST", "/api/debug/s1/set", `{"name":"a","ref":"v1","value":1}`, http.StatusBadRequest},
		{"POST", "/api/debug/s1/set", `{"name":"a"}`, http.StatusBadRequest},
		{"POST", "/api/debug/s1/set", `{"ref":"o1","value":1}`, http.StatusBadRequest},
		{"POST", "/api/debug/s1/set-return", `{}`, http.StatusBadRequest},
		{"POST", "/api/debug/s1/instances", `{"expression":""}`, http.StatusBadRequest},
		{"POST", "/api/debug/s1/instances", `{"expression":"Job","limit":101}`, http.StatusBadRequest},
		{"POST", "/api/debug/s1/eval", `{"expression":"1","timeoutMs":60001}`, http.StatusBadRequest},
		{"POST", "/api/debug/s1/eval", `{"expression":"1","awaitPromise":"yes"}`, http.StatusBadRequest},
		{"GET", "/api/debug/s999/vars", nil, http.StatusNotFound},
		{"GET", "/api/debug/s999/props?ref=v1", nil, http.StatusNotFound},
		{"POST", "/api/debug/s999/set", `{"name":"a","value":"12n"}`, http.StatusNotFound},
		{"DELETE", "/api/debug/s999/refs", nil, http.StatusNotFound},
	} {
		t.Run(c.method+" "+c.path+" "+rawBody(c.body), func(t *testing.T) {
			h.with(t).errorOf(h.with(t).request(c.method, c.path, c.body), c.status)
		})
	}
}

// TestDebugAsyncStack: with async-depth on, a pause after an await shows the awaiting caller as
// an async parent, in the stack and in the text form; kill-execution, which would make node
// abort with async stacks on, is refused and the program runs on.
func TestDebugAsyncStack(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	s := h.debug(api.StartRequest{Target: "asyncme.js", PauseOnStart: true})
	h.waitPaused(s.ID, 0)
	h.post(s.ID, "async-depth", api.AsyncDepthRequest{Depth: new(8)}, nil)
	h.setBreakpoint(s.ID, api.BreakpointRequest{Location: "asyncme.js:5"})
	st := h.exec(s.ID, "continue", api.ContinueRequest{})
	wantPausedIn(t, st, "asyncme.js", "inner", 5)
	i := slices.IndexFunc(st.Stack, func(f api.StackFrame) bool { return f.Async != "" })
	if i < 0 || st.Stack[i].Function != "outer" || st.Stack[i].Line != 8 {
		t.Fatalf("stack %+v, want outer at line 8 as an async parent", st.Stack)
	}
	var stack api.StackResponse
	h.get(s.ID, "stack?asyncDepth=0", &stack)
	if slices.ContainsFunc(stack.Stack, func(f api.StackFrame) bool { return f.Async != "" }) {
		t.Fatalf("stack?asyncDepth=0 has async frames: %+v", stack)
	}
	_, text := h.send(h.request("GET", "/api/debug/"+s.ID+"/state?format=text", nil))
	if !strings.Contains(string(text), "-- await") {
		t.Fatalf("text state lacks the async boundary:\n%s", text)
	}
	e := h.errorOf(h.request("POST", "/api/debug/"+s.ID+"/kill-execution", api.KillExecutionRequest{}), http.StatusConflict)
	if e.Code != "async_stacks_on" {
		t.Fatalf("kill-execution with async stacks on: %+v", e)
	}
	h.runToEnd(s.ID, 2)
}

// TestDebugBreakpointResolvedEvent: a breakpoint set before its module loads binds when it
// loads, and that is a breakpoint event with its ref and location.
func TestDebugBreakpointResolvedEvent(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	s := h.debug(api.StartRequest{Target: "bpmore.js", PauseOnStart: true})
	_, seq := h.waitPaused(s.ID, 0)
	bp := h.setBreakpoint(s.ID, api.BreakpointRequest{Location: "bpmore_lib.js:3"})
	if len(bp.Resolved) != 0 {
		t.Fatalf("breakpoint %+v bound before its module loaded", bp)
	}
	h.exec(s.ID, "continue", api.ContinueRequest{WaitMs: new(int64)})
	w := h.waitFor(s.ID, seq, "breakpoint")
	if w.Event == nil || w.Event.Breakpoint.Ref != bp.Ref || w.Event.Breakpoint.Location.File != "bpmore_lib.js" || w.Event.Breakpoint.Location.Line != 3 {
		t.Fatalf("breakpoint event %+v, want %s bound at bpmore_lib.js:3", w.Event, bp.Ref)
	}
	st, _ := h.waitPaused(s.ID, w.Event.Seq)
	wantPausedIn(t, st, "bpmore_lib.js", "twice", 3)
}
