package routes

import (
	"errors"
	"io"
	"net/http"
	"os"
	"strings"

	"github.com/go-chi/chi/v5"

	"traced/api"
	"traced/api/convert"
	"traced/internal/engine"
)

// defaultHeapTop is how many constructors a snapshot summary or a diff lists unless asked.
const defaultHeapTop = 20

// mountProfile serves the heap and CPU profile routes, and the jobs of the long ones.
func (a *app) mountProfile(r chi.Router) {
	r.Get(debugRoutes+"/heap/usage", a.heapUsage)                   // V8's heap use now
	r.Post(debugRoutes+"/heap/gc", a.heapGC)                        // a full GC, then the use
	r.Post(debugRoutes+"/heap/snapshot", a.heapSnapshot)            // a snapshot to disk, summarised
	r.Get(debugRoutes+"/heap/snapshots/{ref}", a.downloadSnapshot)  // the .heapsnapshot file
	r.Delete(debugRoutes+"/heap/snapshots/{ref}", a.deleteSnapshot) // forget it, free its disk
	r.Post(debugRoutes+"/heap/diff", a.heapDiff)                    // two snapshots by constructor
	r.Post(debugRoutes+"/cpu/start", a.cpuStart)                    // start the sampling CPU profiler
	r.Post(debugRoutes+"/cpu/stop", a.cpuStop)                      // stop it: the top functions
	r.Get(debugRoutes+"/cpu/profiles/{ref}", a.downloadProfile)     // the .cpuprofile file
	r.Post(debugRoutes+"/coverage/start", a.coverageStart)          // start precise coverage
	r.Post(debugRoutes+"/coverage/take", a.coverageTake)            // read it, go on collecting
	r.Post(debugRoutes+"/coverage/stop", a.coverageStop)            // read it and stop
	r.Post(debugRoutes+"/heap/sampling/start", a.samplingStart)     // start the sampling heap profiler
	r.Post(debugRoutes+"/heap/sampling/stop", a.samplingStop)       // stop it: the top allocation sites
	r.Post(debugRoutes+"/heap/inspect", a.heapInspect)              // a snapshot's object as an o ref
	r.Post(debugRoutes+"/heap/tracking/start", a.trackingStart)     // start allocation tracking
	r.Post(debugRoutes+"/heap/tracking/stop", a.trackingStop)       // stop it: a snapshot with allocations
	a.mountJobs(r)
}

func (a *app) heapInspect(w http.ResponseWriter, r *http.Request) {
	req, err := decodeValid[api.HeapInspectRequest](r)
	if err != nil {
		a.writeError(w, r, err)
		return
	}
	a.onSession(w, r, http.StatusOK, func(s *engine.Target) (any, error) {
		res, err := s.Heap().InspectObject(r.Context(), req.NodeID)
		if errors.Is(err, engine.ErrNoRef) {
			return nil, newError(http.StatusNotFound, "no_such_object", err.Error(),
				"POST "+debugPath(r, "heap/snapshot")+" lists nodeIds per constructor")
		}
		return convert.FromEvalResult(res), err
	})
}

func (a *app) samplingStart(w http.ResponseWriter, r *http.Request) {
	req, err := decodeValid[api.SamplingStartRequest](r)
	if err != nil {
		a.writeError(w, r, err)
		return
	}
	req.IntervalBytes = cmpOr(req.IntervalBytes, engine.DefaultSamplingBytes) // the answer says what it samples
	a.onSession(w, r, http.StatusOK, func(s *engine.Target) (any, error) {
		return req, s.Heap().StartSampling(r.Context(), engine.SamplingSpec{
			IntervalBytes: req.IntervalBytes, IncludeMajorGC: req.IncludeMajorGC, IncludeMinorGC: req.IncludeMinorGC,
		})
	})
}

func (a *app) samplingStop(w http.ResponseWriter, r *http.Request) {
	req, err := decodeValid[api.SamplingStopRequest](r)
	if err != nil {
		a.writeError(w, r, err)
		return
	}
	a.onSession(w, r, http.StatusOK, func(s *engine.Target) (any, error) {
		res, err := s.Heap().StopSampling(r.Context(), cmpOr(req.Top, defaultCPUTop))
		return convert.FromHeapSampling(res), err
	})
}

func (a *app) coverageStart(w http.ResponseWriter, r *http.Request) {
	req, err := decodeValid[api.CoverageStartRequest](r)
	if err != nil {
		a.writeError(w, r, err)
		return
	}
	a.onSession(w, r, http.StatusOK, func(s *engine.Target) (any, error) {
		return api.CoverageStartRequest{Detailed: req.Detailed}, s.Profiler().StartCoverage(r.Context(), req.Detailed)
	})
}

func (a *app) coverageTake(w http.ResponseWriter, r *http.Request) { a.coverage(w, r, false) }

func (a *app) coverageStop(w http.ResponseWriter, r *http.Request) { a.coverage(w, r, true) }

func (a *app) coverage(w http.ResponseWriter, r *http.Request, stop bool) {
	req, err := decodeValid[api.CoverageRequest](r)
	if err != nil {
		a.writeError(w, r, err)
		return
	}
	a.onSession(w, r, http.StatusOK, func(s *engine.Target) (any, error) {
		sc, err := s.Profiler().TakeCoverage(r.Context(), engine.CoverageSpec{File: req.File, Uncovered: req.Uncovered, Stop: stop})
		return api.CoverageResponse{Scripts: sc}, err
	})
}

// defaultCPUTop is how many functions a CPU profile lists unless asked.
const defaultCPUTop = 10

func (a *app) cpuStart(w http.ResponseWriter, r *http.Request) {
	req, err := decodeValid[api.CPUStartRequest](r)
	if err != nil {
		a.writeError(w, r, err)
		return
	}
	interval := cmpOr(req.IntervalUs, engine.DefaultSamplingInterval)
	a.onSession(w, r, http.StatusOK, func(s *engine.Target) (any, error) {
		return api.CPUStartResponse{IntervalUs: interval}, s.Profiler().StartCPU(r.Context(), interval)
	})
}

func (a *app) cpuStop(w http.ResponseWriter, r *http.Request) {
	req, err := decodeValid[api.CPUStopRequest](r)
	if err != nil {
		a.writeError(w, r, err)
		return
	}
	a.onSession(w, r, http.StatusOK, func(s *engine.Target) (any, error) {
		res, err := s.Profiler().StopCPU(r.Context(), cmpOr(req.Top, defaultCPUTop))
		return convert.FromCPUProfile(res), err
	})
}

func (a *app) downloadProfile(w http.ResponseWriter, r *http.Request) {
	a.download(w, r, ".cpuprofile", func(s *engine.Target, ref string) (*os.File, error) { return s.Profiler().ProfileFile(ref) })
}

func (a *app) heapUsage(w http.ResponseWriter, r *http.Request) {
	a.onSession(w, r, http.StatusOK, func(s *engine.Target) (any, error) {
		u, err := s.Heap().Usage(r.Context())
		return convert.FromHeapUsage(u), err
	})
}

func (a *app) heapGC(w http.ResponseWriter, r *http.Request) {
	a.onSession(w, r, http.StatusOK, func(s *engine.Target) (any, error) {
		u, err := s.Heap().CollectGarbage(r.Context())
		return convert.FromHeapUsage(u), err
	})
}

func (a *app) heapSnapshot(w http.ResponseWriter, r *http.Request) {
	req, err := decodeValid[api.SnapshotRequest](r)
	if err != nil {
		a.writeError(w, r, err)
		return
	}
	a.onJob(w, r, http.StatusCreated, req.WaitMs, func(s *engine.Target) (*engine.Job, error) {
		return s.Heap().StartSnapshot(req.Tag, cmpOr(req.Top, defaultHeapTop))
	})
}

func (a *app) trackingStart(w http.ResponseWriter, r *http.Request) {
	a.onSession(w, r, http.StatusOK, func(s *engine.Target) (any, error) {
		return api.TrackingStartResponse{Tracking: true}, s.Heap().StartTracking(r.Context())
	})
}

func (a *app) trackingStop(w http.ResponseWriter, r *http.Request) {
	req, err := decodeValid[api.TrackingStopRequest](r)
	if err != nil {
		a.writeError(w, r, err)
		return
	}
	a.onJob(w, r, http.StatusCreated, req.WaitMs, func(s *engine.Target) (*engine.Job, error) {
		return s.Heap().StopTracking(req.Tag, cmpOr(req.Top, defaultHeapTop))
	})
}

func (a *app) heapDiff(w http.ResponseWriter, r *http.Request) {
	req, err := decodeValid[api.HeapDiffRequest](r)
	if err != nil {
		a.writeError(w, r, err)
		return
	}
	a.onJob(w, r, http.StatusOK, req.WaitMs, func(s *engine.Target) (*engine.Job, error) {
		return s.Heap().StartDiff(req.From, req.To, cmpOr(req.Top, defaultHeapTop))
	})
}

func (a *app) downloadSnapshot(w http.ResponseWriter, r *http.Request) {
	a.download(w, r, ".heapsnapshot", func(s *engine.Target, ref string) (*os.File, error) { return s.Heap().SnapshotFile(ref) })
}

func (a *app) deleteSnapshot(w http.ResponseWriter, r *http.Request) {
	a.onSession(w, r, http.StatusOK, func(s *engine.Target) (any, error) {
		d, err := s.Heap().DeleteSnapshot(chi.URLParam(r, "ref"))
		return convert.FromDeleteSnapshotResponse(d), heapError(r, err)
	})
}

// download streams a file of the session named by the path's ref as a JSON attachment.
func (a *app) download(w http.ResponseWriter, r *http.Request, ext string, open func(*engine.Target, string) (*os.File, error)) {
	s, err := a.debugSession(r)
	if err != nil {
		a.writeError(w, r, err)
		return
	}
	ref := chi.URLParam(r, "ref")
	f, err := open(s, ref)
	if err != nil {
		a.writeError(w, r, heapError(r, err))
		return
	}
	defer f.Close()
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Content-Disposition", `attachment; filename="`+ref+ext+`"`)
	w.WriteHeader(http.StatusOK)
	io.Copy(w, f) // a client gone mid-download is its own loss
}

// heapError gives unknown snapshots and the disk cap their hints.
func heapError(r *http.Request, err error) error {
	switch {
	case errors.Is(err, engine.ErrNoRef):
		return newError(http.StatusNotFound, "no_such_snapshot", err.Error(), "POST "+debugPath(r, "heap/snapshot")+" takes one (hs1...), POST "+debugPath(r, "cpu/stop")+" keeps a profile (cpu1...)")
	case errors.Is(err, engine.ErrDiskCap):
		return newError(http.StatusConflict, "disk_cap", err.Error(), diskCapHint(r, err))
	case errors.Is(err, engine.ErrBusy):
		hint := "wait for the running operation"
		if be := (*engine.BusyError)(nil); errors.As(err, &be) {
			hint = "GET " + debugPath(r, "jobs/"+be.Job) + " answers once it is done; then ask again"
		}
		return newError(http.StatusConflict, "busy", err.Error(), hint)
	}
	return err
}

// diskCapHint names the snapshots whose deletion makes room, oldest first.
func diskCapHint(r *http.Request, err error) string {
	const raise = "traced serve --max-heap-disk raises the cap"
	var de *engine.DiskCapError
	if !errors.As(err, &de) || len(de.Refs) == 0 {
		return "the session keeps no snapshot: this heap's snapshot is larger than the cap; " + raise
	}
	return "DELETE " + debugPath(r, "heap/snapshots/"+de.Refs[0]) + " frees its bytes (kept: " +
		strings.Join(de.Refs, ", ") + "); ending the session frees them all; " + raise
}

// cmpOr is n, or def when n is 0 (absent).
func cmpOr(n, def int) int {
	if n == 0 {
		return def
	}
	return n
}
