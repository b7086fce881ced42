package routes

import (
	"errors"
	"io"
	"net/http"

	"github.com/go-chi/chi/v5"

	"traced/api"
	"traced/internal/engine"
)

// defaultHeapTop is how many constructors a snapshot summary or a diff lists unless asked.
const defaultHeapTop = 20

// mountProfile serves the heap routes.
func (a *app) mountProfile(r chi.Router) {
	r.Get(debugRoutes+"/heap/usage", a.heapUsage)                  // V8's heap use now
	r.Post(debugRoutes+"/heap/gc", a.heapGC)                       // a full GC, then the use
	r.Post(debugRoutes+"/heap/snapshot", a.heapSnapshot)           // a snapshot to disk, summarised
	r.Get(debugRoutes+"/heap/snapshots/{ref}", a.downloadSnapshot) // the .heapsnapshot file
	r.Post(debugRoutes+"/heap/diff", a.heapDiff)                   // two snapshots by constructor
}

func (a *app) heapUsage(w http.ResponseWriter, r *http.Request) {
	a.onSession(w, r, http.StatusOK, func(s *engine.Session) (any, error) { return s.HeapUsage(r.Context()) })
}

func (a *app) heapGC(w http.ResponseWriter, r *http.Request) {
	a.onSession(w, r, http.StatusOK, func(s *engine.Session) (any, error) { return s.CollectGarbage(r.Context()) })
}

func (a *app) heapSnapshot(w http.ResponseWriter, r *http.Request) {
	req, err := decodeValid[api.SnapshotRequest](r)
	if err != nil {
		a.writeError(w, r, err)
		return
	}
	a.onSession(w, r, http.StatusCreated, func(s *engine.Session) (any, error) {
		info, err := s.HeapSnapshot(r.Context(), req.Tag, cmpOr(req.Top, defaultHeapTop))
		return info, heapError(r, err)
	})
}

func (a *app) heapDiff(w http.ResponseWriter, r *http.Request) {
	req, err := decodeValid[api.HeapDiffRequest](r)
	if err != nil {
		a.writeError(w, r, err)
		return
	}
	a.onSession(w, r, http.StatusOK, func(s *engine.Session) (any, error) {
		d, err := s.DiffSnapshots(req.From, req.To, cmpOr(req.Top, defaultHeapTop))
		return d, heapError(r, err)
	})
}

func (a *app) downloadSnapshot(w http.ResponseWriter, r *http.Request) {
	s, err := a.debugSession(r)
	if err != nil {
		a.writeError(w, r, err)
		return
	}
	ref := chi.URLParam(r, "ref")
	f, err := s.SnapshotFile(ref)
	if err != nil {
		a.writeError(w, r, heapError(r, err))
		return
	}
	defer f.Close()
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Content-Disposition", `attachment; filename="`+ref+`.heapsnapshot"`)
	w.WriteHeader(http.StatusOK)
	io.Copy(w, f) // a client gone mid-download is its own loss
}

// heapError gives unknown snapshots and the disk cap their hints.
func heapError(r *http.Request, err error) error {
	switch {
	case errors.Is(err, engine.ErrNoRef):
		return newError(http.StatusNotFound, "no_such_snapshot", err.Error(), "POST "+debugPath(r, "heap/snapshot")+" takes one (hs1, hs2...)")
	case errors.Is(err, engine.ErrDiskCap):
		return newError(http.StatusConflict, "disk_cap", err.Error(), "end the session to free its snapshots")
	}
	return err
}

// cmpOr is n, or def when n is 0 (absent).
func cmpOr(n, def int) int {
	if n == 0 {
		return def
	}
	return n
}
