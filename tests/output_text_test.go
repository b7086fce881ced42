package tests

import (
	"io"
	"strings"
	"testing"
	"unicode/utf8"

	"traced/api"
)

// TestOutputValidUTF8: a program's output reaches every form as valid UTF-8: a line past the
// 1 MiB cap is cut between two characters (the rest begins with a whole one), and bytes that
// are not UTF-8 become U+FFFD, in JSON and in the text form.
func TestOutputValidUTF8(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	s := h.start(api.StartRequest{Target: "rawbytes.js"})
	h.waitExit(s.ID)
	var lines []string
	for _, ev := range h.trace(s.ID, "stdout").Events {
		lines = append(lines, ev.Output.Text.Value)
	}
	if len(lines) != 3 {
		t.Fatalf("%d stdout lines, want 3 (the long one cut in two): %.80q", len(lines), lines)
	}
	if rest := lines[1]; !strings.HasPrefix(rest, "日") || strings.ContainsRune(rest, utf8.RuneError) {
		t.Errorf("the rest of the cut line %.40q does not start with a whole character", rest)
	}
	if lines[2] != "a\uFFFDb" {
		t.Errorf("the line of raw bytes is %q, want a\\uFFFDb", lines[2])
	}
	for _, path := range []string{"/api/trace?id=" + s.ID + "&kinds=stdout", "/api/trace?id=" + s.ID + "&kinds=stdout&format=text"} {
		resp, err := h.client.Do(h.request("GET", path, nil))
		if err != nil {
			t.Fatal(err)
		}
		body, err := io.ReadAll(resp.Body)
		resp.Body.Close()
		if err != nil || !utf8.Valid(body) || !strings.Contains(string(body), "a\uFFFDb") {
			t.Errorf("%s: valid UTF-8 %v, holds a\\uFFFDb %v (err %v)", path, utf8.Valid(body), strings.Contains(string(body), "a\uFFFDb"), err)
		}
	}
}
