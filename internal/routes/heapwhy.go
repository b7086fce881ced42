package routes

import (
	"cmp"
	"context"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/go-chi/chi/v5"

	"traced/api"
	"traced/internal/engine"
	"traced/internal/heapgraph"
)

// What holds memory: a snapshot's retainers, dominators and retained sizes (heapgraph), and a
// leak window from an object-id watermark to a later snapshot.

// heapAnswerBytes bounds the text of a heap analysis: an agent reads it whole.
const heapAnswerBytes = 2048

func (a *app) mountHeapWhy(r chi.Router) {
	r.Post(debugRoutes+"/heap/retainers", a.heapRetainers) // what holds an object, a class, the most memory
	r.Post(debugRoutes+"/heap/leak/begin", a.leakBegin)    // a watermark snapshot, sampling on
	r.Post(debugRoutes+"/heap/leak/end", a.leakEnd)        // gc, a snapshot: what was born and stays
	r.Post(debugRoutes+"/heap/leak", a.leakRun)            // begin, an expression N times, end
}

// graphs caches the last snapshot analysed: questions come in runs about one snapshot, and a
// graph takes about the snapshot's size in memory, so one is kept, and let go once no question
// came for graphIdle.
var graphs struct {
	mu      sync.Mutex
	path    string
	g       *heapgraph.Graph
	timer   *time.Timer
	release func() // puts back the memory limit held for g (graphmemory.go); nil without g
}

// dropGraph lets the cached graph go, under graphs.mu.
func dropGraph() {
	graphs.path, graphs.g = "", nil
	if graphs.release != nil {
		graphs.release()
		graphs.release = nil
	}
}

// graphIdle is how long an analysed graph is kept after its last question.
const graphIdle = 2 * time.Minute

// analysed reads a snapshot of t into its graph, or takes the cached one.
func analysed(t *engine.Target, ref string) (*heapgraph.Graph, error) {
	f, err := t.Heap().SnapshotFile(ref)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	graphs.mu.Lock()
	defer graphs.mu.Unlock()
	if graphs.timer == nil {
		graphs.timer = time.AfterFunc(graphIdle, func() {
			graphs.mu.Lock()
			dropGraph()
			graphs.mu.Unlock()
		})
	} else {
		graphs.timer.Reset(graphIdle)
	}
	if graphs.path == f.Name() && graphs.g != nil {
		return graphs.g, nil
	}
	dropGraph() // let the old one go before the new one is built
	var size int64
	if st, err := f.Stat(); err == nil {
		size = st.Size()
	}
	release := limitGraphMemory(size)
	g, err := heapgraph.Read(f)
	if err != nil {
		release()
		return nil, fmt.Errorf("analyse snapshot %s: %w", ref, err)
	}
	graphs.path, graphs.g, graphs.release = f.Name(), g, release
	return g, nil
}

// scriptNamer names a snapshot's script ids by the target's scripts.
func scriptNamer(t *engine.Target) heapgraph.ScriptNamer {
	scripts, err := t.Inspector().Scripts("", true)
	if err != nil {
		return nil
	}
	names := make(map[string]string, len(scripts))
	for _, s := range scripts {
		names[s.ScriptID] = cmp.Or(s.File, s.URL)
	}
	return func(id int) string { return names[fmt.Sprint(id)] }
}

func (a *app) heapRetainers(w http.ResponseWriter, r *http.Request) {
	req, err := decodeValid[api.HeapRetainersRequest](r)
	if err != nil {
		a.writeError(w, r, err)
		return
	}
	a.onSession(w, r, http.StatusOK, func(t *engine.Target) (any, error) {
		if req.Ref != "" { // a live value: its heap object id, in a snapshot taken now unless named
			id, err := t.Heap().ObjectID(r.Context(), req.Ref)
			if err != nil {
				return nil, refHint(r, err)
			}
			req.ID = id
			if req.Snapshot == "" {
				sn, err := snapshotNow(r.Context(), t, "retainers")
				if err != nil {
					return nil, heapError(r, err)
				}
				req.Snapshot = sn.Ref
			}
		}
		g, err := analysed(t, req.Snapshot)
		if err != nil {
			return nil, heapError(r, err)
		}
		names, top := scriptNamer(t), cmpOr(req.Top, 5)
		var text string
		switch {
		case req.ID != 0:
			n, ok := g.NodeByID(uint32(req.ID))
			if !ok {
				return nil, newError(http.StatusNotFound, "no_such_object", fmt.Sprintf("snapshot %s has no node %d", req.Snapshot, req.ID),
					"the ids are in the answers of POST "+debugPath(r, "heap/retainers")+" (by class) and of the leak report")
			}
			text = g.NodeText(n, names, heapAnswerBytes)
		case req.Class != "":
			text = g.Instances(req.Class, top, names).Text(heapAnswerBytes)
		default:
			text = largestText(g, top, names)
		}
		return api.HeapAnalysis{Session: t.Session().ID(), Target: t.Ref(), Snapshot: req.Snapshot, Text: text}, nil
	})
}

// largestText is the classes by retained size and the objects dominating the most memory, in
// one bounded answer.
func largestText(g *heapgraph.Graph, top int, names heapgraph.ScriptNamer) string {
	var b strings.Builder
	b.WriteString(g.Summary(top).Text(heapAnswerBytes / 2))
	b.WriteString("largest holders:\n")
	for _, h := range g.Largest(top, names) {
		line := fmt.Sprintf("  %s  retains %s  id %d  via %s\n", h.Label, heapgraph.Bytes(h.RetainedSize), h.ID, h.Path)
		if b.Len()+len(line) > heapAnswerBytes {
			break
		}
		b.WriteString(line)
	}
	return b.String()
}

// leakSamplingBytes is the sampling interval of a leak window: far finer than the profiler's
// default (32 KiB), so that a leak of a few kilobytes (200 small objects) still has samples of
// where it was allocated; at 4 KiB one run in a few dozen had none in user code.
const leakSamplingBytes = 1024

// leakSites is how many sampled sites a leak window reads: far more than it shows, since V8's
// and node's own allocations come first by size, and a cluster's sites may be small ones.
const leakSites = 500

// leakSitesShown is how many of them the answer lists.
const leakSitesShown = 8

// leakWindow is an open leak window of a target.
type leakWindow struct {
	snapshot  string
	watermark uint32
	sampling  bool
	began     time.Time
}

// leakWindows holds a service's open windows by session and target: a service's own, since
// session ids repeat across services (two in one process, as the tests run them).
type leakWindows struct {
	mu   sync.Mutex
	open map[string]leakWindow
}

func leakKey(t *engine.Target) string { return t.Session().ID() + "/" + t.Ref() }

// snapshotNow takes a snapshot and waits for it within the job bound.
func snapshotNow(ctx context.Context, t *engine.Target, tag string) (engine.SnapshotInfo, error) {
	j, err := t.Heap().StartSnapshot(tag, 1)
	if err != nil {
		return engine.SnapshotInfo{}, err
	}
	select {
	case <-j.Done():
	case <-ctx.Done():
		return engine.SnapshotInfo{}, ctx.Err()
	}
	info := j.Info()
	if info.Err != nil {
		return engine.SnapshotInfo{}, info.Err
	}
	si, ok := info.Result.(engine.SnapshotInfo)
	if !ok {
		return engine.SnapshotInfo{}, fmt.Errorf("snapshot job %s answered %T", info.ID, info.Result)
	}
	return si, nil
}

// begin opens a leak window on t: a snapshot whose highest object id is the watermark, and the
// sampling heap profiler for where the window's objects were allocated.
func (a *app) begin(ctx context.Context, t *engine.Target) (api.LeakBeginResponse, error) {
	sn, err := snapshotNow(ctx, t, "leak-begin")
	if err != nil {
		return api.LeakBeginResponse{}, err
	}
	g, err := analysed(t, sn.Ref)
	if err != nil {
		return api.LeakBeginResponse{}, err
	}
	lw := leakWindow{snapshot: sn.Ref, watermark: g.MaxID(), began: time.Now()}
	lw.sampling = t.Heap().StartSampling(ctx, engine.SamplingSpec{IntervalBytes: leakSamplingBytes}) == nil
	a.leaks.mu.Lock()
	if a.leaks.open == nil {
		a.leaks.open = map[string]leakWindow{}
	}
	a.leaks.open[leakKey(t)] = lw
	a.leaks.mu.Unlock()
	return api.LeakBeginResponse{Session: t.Session().ID(), Target: t.Ref(), Snapshot: sn.Ref, Watermark: lw.watermark, Sampling: lw.sampling}, nil
}

// end closes t's leak window: a full GC, a snapshot, and the objects born after the watermark
// that are still held, clustered.
func (a *app) end(r *http.Request, t *engine.Target, top, iterations int) (api.LeakReport, error) {
	ctx := r.Context()
	if err := t.Session().Debuggable(); err != nil {
		return api.LeakReport{}, err
	}
	a.leaks.mu.Lock()
	lw, ok := a.leaks.open[leakKey(t)]
	delete(a.leaks.open, leakKey(t))
	a.leaks.mu.Unlock()
	if !ok {
		return api.LeakReport{}, newError(http.StatusConflict, "not_started", "no leak window is open in "+leakKey(t),
			"POST "+debugPath(r, "heap/leak/begin")+" opens one: drive the load, then POST "+debugPath(r, "heap/leak/end")+
				"; POST "+debugPath(r, "heap/leak")+" with an expression opens and closes its own")
	}
	rep := api.LeakReport{Session: t.Session().ID(), Target: t.Ref(), Begin: lw.snapshot, Iterations: iterations}
	var allocs []engine.AllocationSite
	if lw.sampling {
		if s, err := t.Heap().StopSampling(ctx, leakSites); err == nil {
			allocs = s.Sites
		}
	}
	if _, err := t.Heap().CollectGarbage(ctx); err != nil {
		return rep, err
	}
	rep.Seconds = time.Since(lw.began).Seconds()
	sn, err := snapshotNow(ctx, t, "leak-end")
	if err != nil {
		return rep, err
	}
	rep.End = sn.Ref
	g, err := analysed(t, sn.Ref)
	if err != nil {
		return rep, err
	}
	found := g.Leaks(lw.watermark, top+noiseClusters, scriptNamer(t))
	found.Clusters = userClusters(found.Clusters, top)
	found.Attribute(samplesOf(allocs))
	rep.Objects, rep.RetainedSize = found.Objects, found.RetainedSize
	rep.Clusters = make([]api.LeakCluster, 0, len(found.Clusters))
	for _, c := range found.Clusters {
		lc := api.LeakCluster{Label: c.Label, Count: c.Count, RetainedSize: c.RetainedSize, Path: c.Path, Pinch: c.Pinch, PinchID: c.PinchID, IDs: c.IDs}
		for _, s := range c.Allocated {
			lc.Allocated = append(lc.Allocated, api.LeakSite(s))
		}
		if rep.Seconds > 0 {
			lc.PerSecond = float64(c.Count) / rep.Seconds
		}
		if iterations > 0 {
			lc.PerIteration = float64(c.Count) / float64(iterations)
		}
		rep.Clusters = append(rep.Clusters, lc)
	}
	// The program's own sites first, then V8's, at most leakSitesShown: the answer stays small.
	for _, own := range []bool{true, false} {
		for _, s := range allocs {
			if site := api.AllocationSite(s); (userSite(site) != "") == own && len(rep.Allocations) < leakSitesShown {
				rep.Allocations = append(rep.Allocations, site)
			}
		}
	}
	rep.Text = leakText(rep, found)
	return rep, nil
}

// noiseClusters is how many more clusters are asked of the analysis than shown, so that node's
// own lazily made objects can be left out without leaving fewer than top.
const noiseClusters = 10

// userClusters drops single objects held only through node's own code (a stream or observer
// node makes on first use, often for traced's own calls): a leak is many objects, or one the
// program's code holds.
func userClusters(cs []heapgraph.Cluster, top int) []heapgraph.Cluster {
	out := cs[:0]
	for _, c := range cs {
		if c.Count == 1 && (strings.Contains(c.Path, " node:") || strings.Contains(c.Path, "native_context")) {
			continue
		}
		out = append(out, c)
	}
	return out[:min(len(out), top)]
}

// leakText is the report in at most heapAnswerBytes: the clusters (heapgraph's text, with
// where each was allocated), the first one's growth, and, when no cluster could be tied to a
// sampled site, the program's top sites of the window.
func leakText(rep api.LeakReport, found heapgraph.Leaks) string {
	var tail strings.Builder
	attributed := false
	if len(rep.Clusters) > 0 {
		c := rep.Clusters[0]
		rate := fmt.Sprintf("%.1f/s", c.PerSecond)
		if rep.Iterations > 0 {
			rate += fmt.Sprintf(", %.2f per iteration", c.PerIteration)
		}
		fmt.Fprintf(&tail, "growth of the first: %s over %.1f s\n", rate, rep.Seconds)
	}
	for _, c := range rep.Clusters {
		attributed = attributed || len(c.Allocated) > 0
	}
	var sites strings.Builder
	seen := map[string]bool{}
	for _, s := range rep.Allocations {
		site := userSite(s)
		if site == "" || seen[site] || len(seen) == 3 {
			continue
		}
		seen[site] = true
		fmt.Fprintf(&sites, "  %s  %s\n", site, heapgraph.Bytes(uint64(s.Bytes)))
	}
	switch {
	case attributed || len(rep.Clusters) == 0:
	case sites.Len() > 0:
		tail.WriteString("allocated at (sampled in the window, no cluster's own):\n" + sites.String())
	case len(rep.Allocations) > 0:
		tail.WriteString("allocated at: no sample in the program's code (too few bytes in the window: drive more iterations)\n")
	}
	head := fmt.Sprintf("leak window %s..%s, %.1f s: ", rep.Begin, rep.End, rep.Seconds)
	return head + found.Text(heapAnswerBytes-len(head)-tail.Len()) + tail.String()
}

// samplesOf reads the sampled sites' stacks ("function file:line", innermost first) into
// frames for heapgraph's attribution.
func samplesOf(sites []engine.AllocationSite) []heapgraph.Sample {
	out := make([]heapgraph.Sample, 0, len(sites))
	for _, s := range sites {
		stack := make([]heapgraph.Frame, 0, len(s.Stack))
		for _, f := range s.Stack {
			stack = append(stack, frameOf(f))
		}
		out = append(out, heapgraph.Sample{Stack: stack, Bytes: s.Bytes})
	}
	return out
}

// frameOf reads "function file:line" (the file and line only where the frame has a file).
func frameOf(s string) heapgraph.Frame {
	i := strings.LastIndexByte(s, ' ')
	if i < 0 {
		return heapgraph.Frame{Function: s}
	}
	where := s[i+1:]
	j := strings.LastIndexByte(where, ':')
	if j <= 0 {
		return heapgraph.Frame{Function: s}
	}
	n, err := strconv.Atoi(where[j+1:])
	if err != nil || n < 1 {
		return heapgraph.Frame{Function: s}
	}
	return heapgraph.Frame{Function: s[:i], File: where[:j], Line: n}
}

// userSite names where a sampled allocation was made in the program's code: the site itself, or
// for an allocation inside a builtin (Array.prototype.push growing the leaking array) the
// nearest caller with a file. "" when no frame of it has one.
func userSite(s api.AllocationSite) string {
	if s.File != "" {
		return fmt.Sprintf("%s %s:%d", s.Function, s.File, s.Line)
	}
	for _, f := range s.Stack {
		if name, where, ok := strings.Cut(f, " "); ok && strings.Contains(where, ":") && !strings.HasPrefix(where, "node:") {
			return name + " " + where
		}
	}
	return ""
}

func (a *app) leakBegin(w http.ResponseWriter, r *http.Request) {
	a.onSession(w, r, http.StatusOK, func(t *engine.Target) (any, error) {
		res, err := a.begin(r.Context(), t)
		res.Next = "drive the load, then end the window: traced leak end (POST " + debugPath(r, "heap/leak/end") + "; MCP: heap leak-end)"
		return res, heapError(r, err)
	})
}

func (a *app) leakEnd(w http.ResponseWriter, r *http.Request) {
	req, err := decodeValid[api.LeakEndRequest](r)
	if err != nil {
		a.writeError(w, r, err)
		return
	}
	a.onSession(w, r, http.StatusOK, func(t *engine.Target) (any, error) {
		rep, err := a.end(r, t, cmpOr(req.Top, 5), 0)
		return rep, heapError(r, err)
	})
}

// leakRun is a leak window in one call: begin, run the expression iterations times (awaiting
// each promise), end.
func (a *app) leakRun(w http.ResponseWriter, r *http.Request) {
	req, err := decodeValid[api.LeakEndRequest](r)
	if err != nil {
		a.writeError(w, r, err)
		return
	}
	if req.Expression == "" {
		a.writeError(w, r, newError(http.StatusBadRequest, "invalid_request", "expression is required: the load to run between the window's ends",
			`{"expression":"handle(request())","iterations":1000}; or POST `+debugPath(r, "heap/leak/begin")+", drive the load, then heap/leak/end"))
		return
	}
	n := max(req.Iterations, 1)
	a.onSession(w, r, http.StatusOK, func(t *engine.Target) (any, error) {
		if _, err := a.begin(r.Context(), t); err != nil {
			return nil, heapError(r, err)
		}
		for i := 0; i < n; i++ {
			res, err := t.Inspector().Eval(r.Context(), engine.EvalSpec{Expression: req.Expression, AwaitPromise: true})
			if err == nil && res.Exception != "" {
				err = newError(http.StatusBadRequest, "threw", fmt.Sprintf("iteration %d of %q threw: %s", i+1, req.Expression, res.Exception),
					"POST "+debugPath(r, "eval")+" tries the expression once")
			}
			if err != nil {
				a.end(r, t, 1, i) // close the window; the error is the answer
				return nil, err
			}
		}
		rep, err := a.end(r, t, cmpOr(req.Top, 5), n)
		return rep, heapError(r, err)
	})
}
