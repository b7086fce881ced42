package heapsnap

import (
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"
)

// TestAppendChunk: a chunk's params give its text, framed as V8 sends them or spelled otherwise;
// params that are no chunk's are refused.
func TestAppendChunk(t *testing.T) {
	for _, c := range []struct{ params, want string }{
		{`{"chunk":"{\"a\":[1,\"\u00e9\"]}"}`, `{"a":[1,"é"]}`},
		{`{ "chunk": "x\ny" }`, "x\ny"},
		{`{"chunk":"\ud83d"}`, "\uFFFD"},
	} {
		got, ok := AppendChunk([]byte("keep:"), []byte(c.params))
		if !ok || string(got) != "keep:"+c.want {
			t.Errorf("%s: got %q %v, want %q", c.params, got, ok, c.want)
		}
	}
	if _, ok := AppendChunk(nil, []byte(`{"chunk":`)); ok {
		t.Error("broken params accepted")
	}
}

// TestEnd: the end is found at the outermost value's close, whatever brackets strings hold and
// however the text is cut into chunks.
func TestEnd(t *testing.T) {
	text := `{"snapshot":{"a":"}]\"x"},"nodes":[1,2,3],"strings":["{"]}`
	for cut := 0; cut <= len(text); cut++ {
		var e End
		if e.Scan([]byte(text[:cut])) != (cut == len(text)) {
			t.Fatalf("cut at %d: end after the first part", cut)
		}
		if !e.Scan([]byte(text[cut:])) {
			t.Fatalf("cut at %d: no end after the last part", cut)
		}
	}
	var e End
	if e.Scan([]byte(strings.Repeat(" ", 3))) {
		t.Error("end before any value")
	}
}

// TestUnescapeJSON: the chunk decoder agrees with encoding/json on escapes, surrogate pairs,
// lone surrogates, and refuses what is not a string body.
func TestUnescapeJSON(t *testing.T) {
	for _, body := range []string{
		``, `plain,1,2,[3]`, `{\"a\":\"b\\\"c\"}`, `\n\t\r\b\f\/\\`, `\u00e9\u20AC`, `\ud83d\ude00`,
		`\ud83d`, `\ude00x`, `\ud83d\u0041`, `é€😀`,
	} {
		checkUnescape(t, body)
	}
	for _, bad := range []string{`"`, `a"b`, `\`, `\x`, `\u12`, `\u12g4`, "a\nb"} {
		if _, ok := unescapeJSON(nil, []byte(bad)); ok {
			t.Errorf("%q accepted", bad)
		}
	}
}

// FuzzUnescapeJSON: for every valid UTF-8 string body encoding/json accepts, unescapeJSON gives
// the same text; what it refuses, encoding/json refuses too.
func FuzzUnescapeJSON(f *testing.F) {
	for _, s := range []string{`a\"b`, `\ud83d\ude00`, `\ud800`, `x\\y\/z`, `\u003c`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, body string) {
		if utf8.ValidString(body) {
			checkUnescape(t, body)
		}
	})
}

func checkUnescape(t *testing.T, body string) {
	t.Helper()
	var want string
	werr := json.Unmarshal([]byte(`"`+body+`"`), &want)
	got, ok := unescapeJSON([]byte("keep:"), []byte(body))
	switch {
	case werr == nil && (!ok || string(got) != "keep:"+want):
		t.Errorf("%q: got %q ok %v, want %q", body, got, ok, want)
	case werr != nil && ok:
		t.Errorf("%q: accepted, encoding/json refuses it: %v", body, werr)
	}
}
