package apiclient

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"traced/api"
)

// fakeService answers the few routes these tests call, checking the token and recording the
// last start request it decoded.
type fakeService struct {
	sessions []api.Summary
	started  api.StartRequest
}

func (f *fakeService) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Header.Get("Authorization") != "Bearer tok" {
		w.WriteHeader(http.StatusUnauthorized)
		json.NewEncoder(w).Encode(api.ErrorBody{Error: api.ErrorDetail{Code: "unauthorized", Message: "no token", Hint: "send it"}})
		return
	}
	switch r.URL.Path {
	case "/api/trace/list":
		if r.URL.Query().Get("format") == "text" {
			io.WriteString(w, "error: not here\nhint: GET /api/trace/list\n")
			return
		}
		json.NewEncoder(w).Encode(api.ListResponse{Sessions: f.sessions})
	case "/api/trace/start":
		json.NewDecoder(r.Body).Decode(&f.started)
		w.WriteHeader(http.StatusCreated)
		json.NewEncoder(w).Encode(api.SessionResponse{Session: api.Summary{ID: "s9", Status: "running"}})
	case "/api/debug/s1/cpu/profiles/cpu1":
		io.WriteString(w, `{"nodes":[]}`)
	default:
		http.NotFound(w, r)
	}
}

func newFake(t *testing.T, f *fakeService, token string) *Client {
	t.Helper()
	srv := httptest.NewServer(f)
	t.Cleanup(srv.Close)
	return New(srv.URL, token, srv.Client())
}

func TestSessionChoice(t *testing.T) {
	ctx := context.Background()
	now := time.Now()
	f := &fakeService{}
	c := newFake(t, f, "tok")
	if _, err := c.Session(ctx, ""); !errors.Is(err, ErrNoSession) {
		t.Fatalf("no sessions: %v, want ErrNoSession", err)
	}
	if id, err := c.Session(ctx, "web"); err != nil || id != "web" {
		t.Fatalf("named: %q %v", id, err)
	}
	f.sessions = []api.Summary{{ID: "s1", Status: "running", StartedAt: now.Add(-time.Minute)},
		{ID: "s2", Status: "exited", StartedAt: now}}
	if id, err := c.Session(ctx, ""); err != nil || id != "s2" {
		t.Fatalf("default: %q %v, want s2, the newest: an ended session stays the default", id, err)
	}
}

// TestRefusals: a refusal is an *Error with the message and hint, read from the JSON envelope
// or the text form.
func TestRefusals(t *testing.T) {
	ctx := context.Background()
	_, err := newFake(t, &fakeService{}, "wrong").Sessions(ctx)
	var e *Error
	if !errors.As(err, &e) || e.Status != 401 || e.Message != "no token" || e.Hint != "send it" {
		t.Fatalf("refusal %#v", err)
	}
	c := newFake(t, &fakeService{}, "tok")
	if _, err := c.Text(ctx, "GET", "/api/trace/list", nil, nil); err != nil {
		t.Fatalf("a 200 text answer: %v", err)
	}
	if _, err := c.Do(ctx, "GET", "/nowhere", nil, nil); !errors.As(err, &e) || e.Status != 404 {
		t.Fatalf("404: %#v", err)
	}
}

// TestStartSendsTypedBody: the start request goes as the api struct encodes it, waitMs bounded.
func TestStartSendsTypedBody(t *testing.T) {
	f := &fakeService{}
	c := newFake(t, f, "tok")
	res, _, err := c.Start(context.Background(), api.StartRequest{Target: "app.js", Mode: api.ModeDebug,
		PauseOnStart: true, WaitMs: WaitMs(10 * MaxWaitMs)})
	if err != nil || res.Session.ID != "s9" {
		t.Fatalf("start: %+v %v", res, err)
	}
	if f.started.Target != "app.js" || !f.started.PauseOnStart || f.started.WaitMs == nil || *f.started.WaitMs != MaxWaitMs {
		t.Fatalf("the service got %+v", f.started)
	}
}

func TestSaveStreams(t *testing.T) {
	c := newFake(t, &fakeService{}, "tok")
	var b strings.Builder
	if err := c.Save(context.Background(), DebugPath("s1", "cpu/profiles/cpu1"), nil, &b); err != nil || b.String() != `{"nodes":[]}` {
		t.Fatalf("save: %q %v", b.String(), err)
	}
	var e *Error
	if err := c.Save(context.Background(), DebugPath("s1", "cpu/profiles/cpu2"), nil, &b); !errors.As(err, &e) || e.Status != 404 {
		t.Fatalf("save of a missing profile: %v", err)
	}
}

func TestClamps(t *testing.T) {
	for _, c := range []struct{ in, wait, job int64 }{{-5, 0, 0}, {0, 0, 0}, {5000, 5000, 5000},
		{90000, MaxWaitMs, 90000}, {1 << 40, MaxWaitMs, MaxJobWaitMs}} {
		if got := ClampWait(c.in); got != c.wait {
			t.Errorf("ClampWait(%d) = %d, want %d", c.in, got, c.wait)
		}
		if got := ClampJobWait(c.in); got != c.job {
			t.Errorf("ClampJobWait(%d) = %d, want %d", c.in, got, c.job)
		}
	}
}
