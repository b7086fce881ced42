package routes

import (
	"errors"
	"net/http"
	"time"

	"github.com/go-chi/chi/v5"

	"traced/api"
	"traced/api/convert"
	"traced/internal/engine"
)

// Bounds of a long operation's call (POST heap/snapshot, heap/diff, heap/tracking/stop): past
// its wait it answers 202 with the job to poll. A snapshot of a heap of a few hundred MB takes
// seconds, so the default wait covers most; the cap keeps a call from holding a connection for
// long (the contract states the same bounds).
const (
	defaultJobWait = 30 * time.Second
	maxJobWait     = 10 * time.Minute
)

// mountJobs serves the jobs of long operations.
func (a *app) mountJobs(r chi.Router) {
	r.Get(debugRoutes+"/jobs/{job}", a.getJob) // a long operation: running, done (its result) or failed
}

// onJob starts a long operation on the path's session and answers its result with status when
// it ends within the wait, else 202 with the job. The wait ends early when the client goes
// (the job goes on) or the service shuts down (HTTP shutdown waits for handlers; the job ends
// with its session right after).
func (a *app) onJob(w http.ResponseWriter, r *http.Request, status int, waitMs *int64, start func(*engine.Target) (*engine.Job, error)) {
	s, err := a.debugSession(r)
	if err != nil {
		a.writeError(w, r, err)
		return
	}
	j, err := start(s)
	if err != nil {
		a.writeError(w, r, heapError(r, err))
		return
	}
	wait := waitBound(waitMs, defaultJobWait, maxJobWait)
	t := time.NewTimer(wait)
	defer t.Stop()
	select {
	case <-j.Done():
		info := j.Info()
		if info.Err != nil {
			a.writeError(w, r, heapError(r, info.Err))
			return
		}
		render(w, r, status, convert.FromJobResult(info.Result))
	case <-t.C:
		render(w, r, http.StatusAccepted, a.jobResponse(r, j.Info()))
	case <-a.cfg.Shutdown.Done():
		render(w, r, http.StatusAccepted, a.jobResponse(r, j.Info()))
	case <-r.Context().Done(): // nobody to answer
	}
}

func (a *app) getJob(w http.ResponseWriter, r *http.Request) {
	waitMs, err := queryInt(r.URL.Query(), "waitMs", 0, uint64(maxJobWait/time.Millisecond))
	if err != nil {
		a.writeError(w, r, err)
		return
	}
	a.onSession(w, r, http.StatusOK, func(s *engine.Target) (any, error) {
		id := chi.URLParam(r, "job")
		j, err := s.Session().Job(id)
		if errors.Is(err, engine.ErrNoRef) {
			return nil, newError(http.StatusNotFound, "no_such_job", err.Error(),
				"jobs are named by the 202 answers of POST "+debugPath(r, "heap/snapshot")+", heap/diff and heap/tracking/stop; a session keeps its last ones while it lives")
		}
		if err != nil {
			return nil, err
		}
		// A long poll: answer as soon as the job ends, or as it stands once the wait has passed.
		t := time.NewTimer(time.Duration(waitMs) * time.Millisecond)
		defer t.Stop()
		select {
		case <-j.Done():
		case <-t.C:
		case <-a.cfg.Shutdown.Done():
		case <-r.Context().Done():
		}
		return a.jobResponse(r, j.Info()), nil
	})
}

// jobResponse is a job in its wire shape; a failed job's error is the envelope's detail the
// call would have answered.
func (a *app) jobResponse(r *http.Request, info engine.JobInfo) api.JobResponse {
	res := api.JobResponse{Job: info.ID, Op: info.Op, Status: api.JobStatus(info.Status), URL: debugPath(r, "jobs/"+info.ID),
		Progress: convert.FromProgressInfoPtr(info.Progress), Result: convert.FromJobResult(info.Result)}
	if info.Err != nil {
		he := a.httpErrorOf(r, heapError(r, info.Err))
		res.Error = &api.ErrorDetail{Code: he.code, Message: he.message, Hint: he.hint}
	}
	return res
}
