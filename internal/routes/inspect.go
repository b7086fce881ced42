package routes

import (
	"bytes"
	"encoding/json"
	"errors"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/go-chi/chi/v5"

	"traced/api"
	"traced/api/convert"
	"traced/internal/engine"
)

// Bounds of the inspection routes (the contract states the same).
const (
	defaultInstances = 10
	maxHistory       = 1000
)

// mountInspect serves the debugger's inspection, browsing and mutation routes.
func (a *app) mountInspect(r chi.Router) {
	r.Get(debugRoutes+"/vars", a.vars)              // variables of a frame, all or by name
	r.Get(debugRoutes+"/stack", a.stack)            // the paused stack with async parents
	r.Get(debugRoutes+"/props", a.props)            // properties of a ref, kept as an o ref
	r.Post(debugRoutes+"/instances", a.instances)   // live objects of a prototype
	r.Get(debugRoutes+"/globals", a.globals)        // global let/const/class names
	r.Get(debugRoutes+"/scripts", a.scripts)        // loaded scripts
	r.Get(debugRoutes+"/source", a.source)          // source around the pause, of a file, or whole
	r.Get(debugRoutes+"/search", a.search)          // search the loaded scripts
	r.Get(debugRoutes+"/console", a.consoleHistory) // console events since a cursor
	r.Get(debugRoutes+"/exceptions", a.exceptions)  // exception events since a cursor
	r.Get(debugRoutes+"/contexts", a.contexts)      // live execution contexts
	r.Get(debugRoutes+"/targets", a.targets)        // the main thread and worker threads
	r.Post(debugRoutes+"/set", a.setVariable)       // set a variable of a paused frame
	r.Post(debugRoutes+"/set-return", a.setReturn)  // replace the value being returned
	r.Delete(debugRoutes+"/refs", a.clearRefs)      // release the o refs' objects
	r.Get(debugRoutes+"/sourcemap", a.sourceMaps)   // what source maps the scripts have
	r.Post(debugRoutes+"/sourcemap", a.setSourceMaps)
	a.mountProfile(r)
	a.mountSlow(r)
	a.mountHeapWhy(r)
}

// queryInt reads an optional non-negative integer query parameter, capped.
func queryInt(q url.Values, name string, def, cap uint64) (int, error) {
	n, err := uintParam(q.Get(name), def)
	if err != nil {
		return 0, badRequest("query parameter \""+name+"\": "+strconv.Quote(q.Get(name))+" is not a non-negative integer", "see GET /api/openapi.yaml")
	}
	return int(min(n, cap)), nil
}

// queryBool reads an optional boolean query parameter (the contract has checked its form).
func queryBool(q url.Values, name string, def bool) bool {
	v := q.Get(name)
	if v == "" {
		return def
	}
	b, err := strconv.ParseBool(v)
	return err == nil && b
}

// sectionNames maps the names of the state's sections query.
var sectionNames = map[string]engine.Sections{
	"vars": engine.SectionVars, "stack": engine.SectionStack,
	"breakpoints": engine.SectionBreakpoints, "code": engine.SectionCode,
}

func (a *app) state(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	o := engine.StateOptions{AllScopes: queryBool(q, "allScopes", false), AsyncDepth: -1}
	var err error
	if o.Frame, err = queryInt(q, "frame", 0, 1<<20); err != nil {
		a.writeError(w, r, err)
		return
	}
	if o.Lines, err = queryInt(q, "lines", defaultSourceLines, maxSourceLines); err != nil {
		a.writeError(w, r, err)
		return
	}
	o.Lines = max(o.Lines, 1)
	if o.Depth, err = queryInt(q, "depth", 1, 1); err != nil {
		a.writeError(w, r, err)
		return
	}
	if q.Get("asyncDepth") != "" {
		if o.AsyncDepth, err = queryInt(q, "asyncDepth", 0, 64); err != nil {
			a.writeError(w, r, err)
			return
		}
	}
	for _, name := range strings.FieldsFunc(q.Get("sections"), func(r rune) bool { return r == ',' }) {
		sec, ok := sectionNames[strings.TrimSpace(name)]
		if !ok {
			a.writeError(w, r, badRequest("query parameter \"sections\": "+strconv.Quote(name)+" is not vars, stack, breakpoints or code",
				"GET "+debugPath(r, "state")+"?sections=vars,stack"))
			return
		}
		o.Sections |= sec
	}
	a.onSession(w, r, http.StatusOK, func(s *engine.Target) (any, error) {
		st, err := s.Inspector().StateOf(r.Context(), o)
		return convert.FromState(st), frameError(r, err)
	})
}

func (a *app) vars(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	frame, err := queryInt(q, "frame", 0, 1<<20)
	if err != nil {
		a.writeError(w, r, err)
		return
	}
	var names []string
	for _, n := range strings.Split(q.Get("name"), ",") {
		if n = strings.TrimSpace(n); n != "" {
			names = append(names, n)
		}
	}
	a.onSession(w, r, http.StatusOK, func(s *engine.Target) (any, error) {
		vars, err := s.Inspector().Vars(r.Context(), frame, names, queryBool(q, "allScopes", false))
		if errors.Is(err, engine.ErrNoRef) && len(names) > 0 && !strings.Contains(err.Error(), "(the stack has") {
			return nil, newError(http.StatusNotFound, "no_such_variable", err.Error(),
				"GET "+debugPath(r, "vars")+" lists the frame's variables; globals: POST "+debugPath(r, "eval"))
		}
		if vars == nil {
			vars = []engine.Variable{}
		}
		session, target := s.Named()
		return api.VarsResponse{Session: session, Target: target, Frame: "f" + strconv.Itoa(frame),
			Variables: convert.FromVariables(vars)}, frameError(r, err)
	})
}

func (a *app) stack(w http.ResponseWriter, r *http.Request) {
	depth := -1
	if v := r.URL.Query().Get("asyncDepth"); v != "" {
		var err error
		if depth, err = queryInt(r.URL.Query(), "asyncDepth", 0, 64); err != nil {
			a.writeError(w, r, err)
			return
		}
	}
	a.onSession(w, r, http.StatusOK, func(s *engine.Target) (any, error) {
		st, err := s.Inspector().Stack(r.Context(), depth)
		return api.StackResponse{Stack: convert.FromStackFrames(st)}, err
	})
}

func (a *app) eval(w http.ResponseWriter, r *http.Request) {
	req, err := decodeValid[api.EvalRequest](r)
	if err != nil {
		a.writeError(w, r, err)
		return
	}
	a.onSession(w, r, http.StatusOK, func(s *engine.Target) (any, error) {
		res, err := s.Inspector().Eval(r.Context(), engine.EvalSpec{
			Expression: req.Expression, Frame: req.Frame, AwaitPromise: req.AwaitPromise,
			SideEffectFree: req.SideEffectFree, Timeout: time.Duration(req.TimeoutMs) * time.Millisecond,
		})
		wire := convert.FromEvalResult(res)
		// A secret-named variable or property evaluated alone ("dbPassword", "cfg.apiKey")
		// is hidden by its name, as it is in the locals.
		name := req.Expression[strings.LastIndexAny(req.Expression, ".]")+1:]
		wire.Value = s.Session().RedactValue(strings.Trim(name, `"' `), wire.Type, wire.Value)
		return wire, refHint(r, frameError(r, err))
	})
}

// refHint points an unknown value ref at where refs come from.
func refHint(r *http.Request, err error) error {
	if errors.Is(err, engine.ErrNoRef) && strings.Contains(err.Error(), "never given") {
		return newError(http.StatusNotFound, "no_such_ref", err.Error(),
			"GET "+debugPath(r, "state")+" names values v1..., GET "+debugPath(r, "props")+"?ref=v1 objects o1...")
	}
	return err
}

func (a *app) props(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	depth, err := queryInt(q, "depth", 1, 3)
	if err != nil {
		a.writeError(w, r, err)
		return
	}
	spec := engine.PropsSpec{Ref: q.Get("ref"), Own: queryBool(q, "own", true), Internal: queryBool(q, "internal", false),
		Private: queryBool(q, "private", false), Depth: depth}
	a.onSession(w, r, http.StatusOK, func(s *engine.Target) (any, error) {
		res, err := s.Inspector().Props(r.Context(), spec)
		return convert.FromProps(res), refHint(r, err)
	})
}

func (a *app) instances(w http.ResponseWriter, r *http.Request) {
	req, err := decodeValid[api.InstancesRequest](r)
	if err != nil {
		a.writeError(w, r, err)
		return
	}
	limit := defaultInstances
	if req.Limit != nil {
		limit = *req.Limit
	}
	a.onSession(w, r, http.StatusOK, func(s *engine.Target) (any, error) {
		res, err := s.Inspector().Instances(r.Context(), req.Expression, req.Frame, limit)
		if errors.Is(err, engine.ErrBadInput) {
			return nil, badRequest(err.Error(), `expression names a prototype or a constructor: "Job" or "Job.prototype"`)
		}
		return convert.FromInstances(res), frameError(r, err)
	})
}

func (a *app) globals(w http.ResponseWriter, r *http.Request) {
	a.onSession(w, r, http.StatusOK, func(s *engine.Target) (any, error) {
		names, err := s.Inspector().Globals(r.Context())
		return api.GlobalsResponse{Names: names}, err
	})
}

func (a *app) scripts(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	a.onSession(w, r, http.StatusOK, func(s *engine.Target) (any, error) {
		sc, err := s.Inspector().Scripts(q.Get("filter"), queryBool(q, "internal", false))
		return api.ScriptsResponse{Scripts: convert.FromScriptInfos(sc)}, err
	})
}

func (a *app) source(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	spec := engine.SourceSpec{File: q.Get("file"), All: queryBool(q, "all", false)}
	var err error
	if spec.Frame, err = queryInt(q, "frame", 0, 1<<20); err == nil {
		if spec.Line, err = queryInt(q, "line", 0, 1<<30); err == nil {
			spec.Lines, err = queryInt(q, "lines", 0, maxSourceLines)
		}
	}
	if err != nil {
		a.writeError(w, r, err)
		return
	}
	a.onSession(w, r, http.StatusOK, func(s *engine.Target) (any, error) {
		view, err := s.Inspector().Source(r.Context(), spec)
		if errors.Is(err, engine.ErrNoRef) && spec.File != "" {
			return nil, newError(http.StatusNotFound, "no_such_script", err.Error(), "GET "+debugPath(r, "scripts")+" lists the loaded scripts")
		}
		if errors.Is(err, engine.ErrRunning) {
			return nil, newError(http.StatusConflict, "running", err.Error(),
				"GET "+debugPath(r, "source")+"?file=app.js, or POST "+debugPath(r, "pause"))
		}
		return convert.FromSourceView(view), frameError(r, err)
	})
}

func (a *app) search(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	spec := engine.SearchSpec{Query: q.Get("q"), Regex: queryBool(q, "regex", false),
		CaseSensitive: queryBool(q, "caseSensitive", false), Internal: queryBool(q, "internal", false)}
	if spec.Query == "" {
		a.writeError(w, r, badRequest("query parameter \"q\" is required", "GET "+debugPath(r, "search")+"?q=retry"))
		return
	}
	a.onSession(w, r, http.StatusOK, func(s *engine.Target) (any, error) {
		m, more, err := s.Inspector().Search(r.Context(), spec)
		return api.SearchResponse{Matches: convert.FromMatches(m), Truncated: more}, err
	})
}

func (a *app) consoleHistory(w http.ResponseWriter, r *http.Request) {
	a.history(w, r, engine.KindConsole)
}

func (a *app) exceptions(w http.ResponseWriter, r *http.Request) {
	a.history(w, r, engine.KindException)
}

// history answers the events of one kind after ?since=, console ones filtered by ?level=.
func (a *app) history(w http.ResponseWriter, r *http.Request, kind engine.Kind) {
	q := r.URL.Query()
	since, err := uintParam(q.Get("since"), 0)
	if err != nil {
		a.writeError(w, r, err)
		return
	}
	limit, err := queryInt(q, "limit", 100, maxHistory)
	if err != nil {
		a.writeError(w, r, err)
		return
	}
	var levels []string
	for _, l := range strings.Split(q.Get("level"), ",") {
		if l = strings.TrimSpace(l); l != "" {
			levels = append(levels, l)
		}
	}
	a.onSession(w, r, http.StatusOK, func(s *engine.Target) (any, error) {
		s.Session().Timeline().Settle(r.Context()) // a throw being recorded is listed
		p, err := s.Session().Timeline().History(kind, since, levels, max(limit, 1))
		return api.HistoryResponse{Events: convert.FromEvents(p.Events), Next: p.Next, More: p.More, Gap: convert.FromGapPtr(p.Gap)}, err
	})
}

func (a *app) contexts(w http.ResponseWriter, r *http.Request) {
	a.onSession(w, r, http.StatusOK, func(s *engine.Target) (any, error) {
		c, err := s.Inspector().Contexts()
		return api.ContextsResponse{Contexts: convert.FromContextViews(c)}, err
	})
}

// targets lists a session's targets; trace sessions have them too.
func (a *app) targets(w http.ResponseWriter, r *http.Request) {
	a.onSession(w, r, http.StatusOK, func(s *engine.Target) (any, error) {
		return api.TargetsResponse{Session: s.Session().ID(), Targets: convert.FromTargetInfos(s.Session().Targets())}, nil
	})
}

// valueText turns a request's value into the text the engine parses: a JSON string's content
// (so "12n" and "\"text\"" both work), any other JSON as written.
func valueText(raw json.RawMessage) string {
	raw = bytes.TrimSpace(raw)
	var s string
	if len(raw) > 0 && raw[0] == '"' && json.Unmarshal(raw, &s) == nil {
		return s
	}
	return string(raw)
}

// setHint is the hint of a value the engine could not parse.
const setHint = `value is JSON (42, true, {"a":1}) or a string of JSON or a JS primitive: "\"text\"", "undefined", "NaN", "12n", or a ref "v1"`

func (a *app) setVariable(w http.ResponseWriter, r *http.Request) {
	req, err := decodeValid[api.SetRequest](r)
	if err != nil {
		a.writeError(w, r, err)
		return
	}
	a.onSession(w, r, http.StatusOK, func(s *engine.Target) (any, error) {
		res, err := s.Inspector().SetVariable(r.Context(), engine.SetSpec{Name: req.Name, Ref: req.Ref, Value: valueText(req.Value), Frame: req.Frame})
		switch {
		case errors.Is(err, engine.ErrNotSettable):
			return nil, badRequest(err.Error(), "POST "+debugPath(r, "eval")+` {"expression":"name = value"} assigns it`)
		case errors.Is(err, engine.ErrBadInput):
			return nil, badRequest(err.Error(), setHint)
		case errors.Is(err, engine.ErrNoRef) && req.Ref == "" && !strings.Contains(err.Error(), "(the stack has"):
			return nil, newError(http.StatusNotFound, "no_such_variable", err.Error(), "GET "+debugPath(r, "vars")+" lists the frame's variables")
		}
		out := api.SetResponse{Variable: convert.FromVariable(res.Variable), ReturnValue: convert.FromVariablePtr(res.ReturnValue)}
		if res.ReturnValue != nil {
			out.Hint = "the frame is returning " + res.ReturnValue.Value + ", computed before this set; POST " +
				debugPath(r, "set-return") + ` {"value":...} replaces the value it returns`
		}
		return out, refHint(r, frameError(r, err))
	})
}

func (a *app) setReturn(w http.ResponseWriter, r *http.Request) {
	req, err := decodeValid[api.SetReturnRequest](r)
	if err != nil {
		a.writeError(w, r, err)
		return
	}
	a.onSession(w, r, http.StatusOK, func(s *engine.Target) (any, error) {
		v, err := s.Inspector().SetReturn(r.Context(), valueText(req.Value))
		switch {
		case errors.Is(err, engine.ErrNotAtReturn):
			return nil, newError(http.StatusConflict, "not_at_return", err.Error(),
				"POST "+debugPath(r, "step")+` {"kind":"over"} until GET state shows a returnValue`)
		case errors.Is(err, engine.ErrBadInput):
			return nil, badRequest(err.Error(), setHint)
		}
		return api.SetResponse{Variable: convert.FromVariable(v)}, refHint(r, err)
	})
}

func (a *app) clearRefs(w http.ResponseWriter, r *http.Request) {
	a.onSession(w, r, http.StatusOK, func(s *engine.Target) (any, error) {
		n, err := s.Inspector().ClearRefs(r.Context())
		return api.ClearRefsResponse{Released: n}, err
	})
}
