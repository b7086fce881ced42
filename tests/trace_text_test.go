package tests

import (
	"net/http"
	"regexp"
	"strings"
	"testing"

	"traced/api"
)

// traceVolatile are the parts of a trace read's text that change with the node line: how many
// scripts node loads shifts every seq and count.
var traceVolatile = []struct {
	re   *regexp.Regexp
	with string
}{
	{regexp.MustCompile(`(?m)^[0-9]+ +`), "#  "},      // an event line's seq column
	{regexp.MustCompile(`[0-9]+ events`), "# events"}, // a session's event count
	{regexp.MustCompile(`after=[0-9]+`), "after=#"},   // the cursor in a page's hint
}

// TestGoldenTraceText: the trace reads (list, GET /api/trace, events, wait, evidence) answer the
// compact text form when asked, by ?format=text or Accept: text/plain, errors included: a session
// a line, an event a line, a page ending with its cursor.
func TestGoldenTraceText(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	s := h.start(api.StartRequest{Target: "throws.js"})
	h.waitExit(s.ID)
	q := "?id=" + s.ID

	for _, c := range []struct {
		name, path string
		byQuery    bool
	}{
		{"trace_list", "/api/trace/list", true},
		{"trace_events_all", "/api/trace" + q + "&kinds=console,exception,exit", false},
		{"trace_page", "/api/trace/events" + q + "&kinds=console,exit&limit=1", true},
		{"trace_wait_event", "/api/trace/wait" + q + "&after=0&kinds=exit", false}, // after: the exit happened before the wait
		{"trace_wait_finished", "/api/trace/wait" + q + "&kinds=pause", true},
	} {
		status, got := h.with(t).text("GET", c.path, nil, c.byQuery)
		if status != http.StatusOK {
			t.Fatalf("%s: status %d: %s", c.name, status, got)
		}
		for _, v := range traceVolatile {
			got = v.re.ReplaceAllString(got, v.with)
		}
		golden(t, h, c.name, got)
	}

	// Evidence in its own layout: the failure in one line first, then the cause and confidence.
	status, got := h.text("GET", "/api/trace/evidence"+q, nil, true)
	if status != http.StatusOK || !strings.HasPrefix(got, s.ID+" exited failure: exception TypeError at throws.js:6") ||
		!strings.Contains(got, "\nbefore it: seq ") || !strings.Contains(got, "\nconfidence: high") || strings.Contains(got, "{\"") {
		t.Fatalf("evidence text:\n%s", got)
	}
	// An error of a trace read is text too, and JSON stays the default.
	status, got = h.text("GET", "/api/trace/events?id=s999", nil, false)
	if status != http.StatusNotFound || !strings.HasPrefix(got, "error: ") || !strings.Contains(got, "hint: ") {
		t.Fatalf("unknown session as text: %d %q", status, got)
	}
	resp, err := h.client.Do(h.request("GET", "/api/trace/list", nil))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if ct := resp.Header.Get("Content-Type"); ct != "application/json" {
		t.Fatalf("list without format: Content-Type %q, want application/json", ct)
	}
}
