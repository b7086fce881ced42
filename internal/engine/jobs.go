package engine

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"sync"

	"traced/internal/cdp"
)

// ErrBusy: an operation of the kind asked is already running in the session (a *BusyError
// names its job).
var ErrBusy = errors.New("busy")

// BusyError is an operation refused because another of its kind runs: one heap snapshot at a
// time, since V8 streams the chunks of one snapshot on one channel.
type BusyError struct {
	Op  string // what runs, e.g. OpHeapSnapshot
	Job string // its job, to poll
}

func (e *BusyError) Error() string {
	return fmt.Sprintf("%s: a %s is running (job %s)", ErrBusy, e.Op, e.Job)
}

func (e *BusyError) Unwrap() error { return ErrBusy }

// JobStatus is where a job stands.
type JobStatus string

// Job states: running -> done | failed.
const (
	JobRunning JobStatus = "running"
	JobDone    JobStatus = "done"
	JobFailed  JobStatus = "failed" // the operation failed, or its session ended first
)

// maxJobs is how many jobs a session keeps: past it the oldest finished one is forgotten. A job
// holds a summary (a few KiB), and a client polls a job soon after the 202 that named it.
const maxJobs = 64

// Job is a long operation of a session (a heap snapshot, a diff) that can outlive the HTTP call
// that began it: the call waits a while, then answers with the job to poll. Its goroutine ends
// with the operation; the operation's context ends with the session, whichever comes first.
type Job struct {
	id, op string
	done   chan struct{} // closed once status has left running

	mu       sync.Mutex // guards the fields below
	status   JobStatus
	progress *ProgressInfo // the latest the operation reported; nil: none yet
	result   any
	err      error
}

// JobInfo is a job's state at one moment.
type JobInfo struct {
	ID       string
	Op       string
	Status   JobStatus
	Progress *ProgressInfo
	Result   any   // done: what the operation answered
	Err      error // failed: why
}

// ID is the job's id, j1, j2... in the session.
func (j *Job) ID() string { return j.id }

// Done is closed when the job has finished, done or failed.
func (j *Job) Done() <-chan struct{} { return j.done }

// Info reports the job's state now.
func (j *Job) Info() JobInfo {
	j.mu.Lock()
	defer j.mu.Unlock()
	info := JobInfo{ID: j.id, Op: j.op, Status: j.status, Result: j.result, Err: j.err}
	if j.progress != nil {
		p := *j.progress
		info.Progress = &p
	}
	return info
}

// report keeps the operation's latest progress; it never blocks (the dispatcher calls it).
func (j *Job) report(p ProgressInfo) {
	j.mu.Lock()
	j.progress = &p
	j.mu.Unlock()
}

func (j *Job) finish(result any, err error) {
	j.mu.Lock()
	if err != nil {
		j.status, j.err = JobFailed, err
	} else {
		j.status, j.result = JobDone, result
	}
	j.mu.Unlock()
	close(j.done)
}

// jobTable is a session's jobs, oldest first.
type jobTable struct {
	mu   sync.Mutex
	next int
	jobs []*Job
}

// newJob registers a job of op, not yet running.
func (s *Session) newJob(op string) *Job {
	s.mu.Lock()
	if s.jobs == nil {
		s.jobs = &jobTable{}
	}
	t := s.jobs
	s.mu.Unlock()
	t.mu.Lock()
	defer t.mu.Unlock()
	t.next++
	j := &Job{id: "j" + strconv.Itoa(t.next), op: op, done: make(chan struct{}), status: JobRunning}
	if len(t.jobs) >= maxJobs {
		for i, old := range t.jobs {
			if old.Info().Status != JobRunning {
				t.jobs = append(t.jobs[:i], t.jobs[i+1:]...)
				break
			}
		}
	}
	t.jobs = append(t.jobs, j)
	return j
}

// runJob runs a registered job's operation in a goroutine of its own, with a context that ends
// when the session does.
func (s *Session) runJob(j *Job, run func(ctx context.Context) (any, error)) {
	ctx, cancel := context.WithCancel(unboundedCalls(context.Background()))
	go func() {
		select {
		case <-s.done:
			cancel()
		case <-j.done:
		}
	}()
	go func() {
		defer cancel()
		res, err := run(ctx)
		if err != nil && (ctx.Err() != nil || errors.Is(err, cdp.ErrClosed)) {
			err = fmt.Errorf("%w: %s ended while job %s ran: %w", ErrFinished, s.id, j.id, err)
		}
		j.finish(res, err)
	}()
}

// Job finds a job of the session by id.
func (s *Session) Job(id string) (*Job, error) {
	if err := s.debugOnly(); err != nil {
		return nil, err
	}
	s.mu.Lock()
	t := s.jobs
	s.mu.Unlock()
	if t != nil {
		t.mu.Lock()
		defer t.mu.Unlock()
		for _, j := range t.jobs {
			if j.id == id {
				return j, nil
			}
		}
	}
	return nil, fmt.Errorf("%w: job %q", ErrNoRef, id)
}
