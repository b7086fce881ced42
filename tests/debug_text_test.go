package tests

import (
	"bytes"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"traced/api"
)

// update rewrites the golden files from the current output: go test ./tests -run Golden -update
var update = flag.Bool("update", false, "rewrite tests/testdata/golden/*.txt from the current output")

// isText reports whether a response is the text form.
func isText(resp *http.Response) bool {
	return strings.HasPrefix(resp.Header.Get("Content-Type"), "text/plain")
}

// checkTextError fails unless body is the text form of the error envelope.
func checkTextError(t *testing.T, body []byte) {
	t.Helper()
	if !bytes.HasPrefix(body, []byte("error: ")) {
		t.Fatalf("text error does not start with \"error: \": %q", body)
	}
}

// text sends a request asking for the text form (by Accept, or by ?format=text when byQuery) and
// returns the status and the body, failing unless the answer is text/plain.
func (h *harness) text(method, path string, body any, byQuery bool) (int, string) {
	h.t.Helper()
	if byQuery {
		sep := "?"
		if strings.Contains(path, "?") {
			sep = "&"
		}
		path += sep + "format=text"
	}
	req := h.request(method, path, body)
	if !byQuery {
		req.Header.Set("Accept", "text/plain")
	}
	var reqBody []byte
	if req.Body != nil {
		reqBody, _ = io.ReadAll(req.Body)
		req.Body = io.NopCloser(bytes.NewReader(reqBody))
	}
	resp, err := h.client.Do(req)
	if err != nil {
		h.t.Fatal(err)
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(resp.Body)
	if err != nil {
		h.t.Fatal(err)
	}
	if !isText(resp) {
		h.t.Fatalf("%s %s: Content-Type %q, want text/plain: %s", method, path, resp.Header.Get("Content-Type"), raw)
	}
	req.Body = io.NopCloser(bytes.NewReader(reqBody))
	checkResponse(h.t, req, resp, raw)
	return resp.StatusCode, string(raw)
}

// volatile are the parts of a text answer that change from run to run.
var volatile = []struct {
	re   *regexp.Regexp
	with string
}{
	{regexp.MustCompile(`\bs[0-9]+\b`), "s#"},                         // session ids
	{regexp.MustCompile(`\b(seq|lastSeq|next|pid): [0-9]+`), "$1: #"}, // counters
}

// nodeFrames names, in a text answer, what depends on how many frames node's own code puts
// under the user's (node 22 added wrapModuleLoad, 26 more): the end of the trailing run of
// internal frames and the stack's length, as the JSON state of the same pause gives them. The
// rest of traced's output stays exact: a count traced got wrong is left as it is and differs.
func nodeFrames(st api.State) func(string) string {
	n := len(st.Stack)
	r := strings.NewReplacer(
		fmt.Sprintf("-f%d node internals\n", n-1), "-f<last> node internals\n",
		fmt.Sprintf("(the stack has %d frames)", n), "(the stack has <n> frames)",
	)
	return r.Replace
}

// golden compares got, normalised, with testdata/golden/name.txt, or rewrites it with -update.
func golden(t *testing.T, h *harness, name, got string) {
	t.Helper()
	got = strings.ReplaceAll(got, h.root, "<root>")
	for _, v := range volatile {
		got = v.re.ReplaceAllString(got, v.with)
	}
	path := filepath.Join("testdata", "golden", name+".txt")
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./tests -run Golden -update)", err)
	}
	if got != string(want) {
		t.Errorf("%s differs from %s (run go test ./tests -run Golden -update after checking):\n--- got\n%s--- want\n%s", name, path, got, want)
	}
}

func TestGoldenText(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	s := h.debug(api.StartRequest{Target: "debugme.js", Breakpoints: api.BreakpointsAt("debugme.js:7")})
	st, _ := h.waitPaused(s.ID, 0)
	norm := nodeFrames(st)
	base := "/api/debug/" + s.ID

	cases := []struct {
		name, method, path string
		body               any
		byQuery            bool
		status             int
	}{
		{"state_paused", "GET", base + "/state?lines=2", nil, false, http.StatusOK},
		{"state_frame1", "GET", base + "/state?frame=1&lines=1", nil, true, http.StatusOK},
		{"breakpoint_set", "POST", base + "/breakpoints", api.BreakpointRequest{Location: "debugme.js:3", Condition: "n > 2", HitCount: 2}, false, http.StatusCreated},
		{"breakpoints", "GET", base + "/breakpoints", nil, true, http.StatusOK},
		{"eval", "POST", base + "/eval", api.EvalRequest{Expression: "i + '!'"}, false, http.StatusOK},
		{"eval_threw", "POST", base + "/eval", api.EvalRequest{Expression: "nope.x"}, true, http.StatusOK},
		// To the same line in the next call, with what call 1 printed on the way.
		{"state_output", "POST", base + "/continue", api.ContinueRequest{}, false, http.StatusOK},
		{"error_no_frame", "GET", base + "/state?frame=99", nil, false, http.StatusNotFound},
		{"removed", "DELETE", base + "/breakpoints/all", nil, true, http.StatusOK}, // the generic form
		{"state_running", "POST", base + "/continue", api.ContinueRequest{WaitMs: new(int64)}, false, http.StatusOK},
	}
	for _, c := range cases {
		status, got := h.with(t).text(c.method, c.path, c.body, c.byQuery)
		if status != c.status {
			t.Fatalf("%s: status %d, want %d: %s", c.name, status, c.status, got)
		}
		if c.name == "state_running" {
			// Without a wait the answer races the program's next lines: only "running" is golden.
			got = got[strings.Index(got, "running"):]
		}
		golden(t, h, c.name, norm(got))
	}

	// Stepping a running program: 409 with the pause call as the hint.
	status, got := h.text("POST", base+"/step", api.StepRequest{}, false)
	if status != http.StatusConflict {
		t.Fatalf("step while running: status %d: %s", status, got)
	}
	golden(t, h, "error_step_running", got)

	// JSON stays the default and wins when asked for.
	for _, path := range []string{base + "/state", base + "/state?format=json"} {
		req := h.request("GET", path, nil)
		if strings.HasSuffix(path, "json") {
			req.Header.Set("Accept", "text/plain")
		}
		resp, err := h.client.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if ct := resp.Header.Get("Content-Type"); ct != "application/json" {
			t.Errorf("GET %s: Content-Type %q, want application/json", path, ct)
		}
	}
}

// TestGoldenTextTypeScript: a pause in TypeScript reads as TypeScript, the generated position
// beside it, with the TypeScript source around it.
func TestGoldenTextTypeScript(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	s := h.debug(api.StartRequest{Target: "dist/app.js", Cwd: "ts", Breakpoints: api.BreakpointsAt("src/service.ts:8")})
	st, _ := h.waitPaused(s.ID, 0)
	norm := nodeFrames(st)
	base := "/api/debug/" + s.ID
	for _, c := range []struct{ name, path string }{
		{"ts_state", base + "/state?lines=1&sections=code,stack"},
		{"ts_breakpoints", base + "/breakpoints"},
	} {
		status, got := h.with(t).text("GET", c.path, nil, true)
		if status != http.StatusOK {
			t.Fatalf("%s: status %d: %s", c.name, status, got)
		}
		if c.name == "state_running" {
			// Without a wait the answer races the program's next lines: only "running" is golden.
			got = got[strings.Index(got, "running"):]
		}
		golden(t, h, c.name, norm(got))
	}
}
