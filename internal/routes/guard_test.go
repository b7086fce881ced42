package routes

import (
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"strings"
	"testing"

	"github.com/go-chi/chi/v5"
)

// hostCases are the Host headers of the table test and the fuzz seeds: loopback spellings that
// must pass, and the rebinding or ambiguous spellings that must not.
var hostCases = []struct {
	host string
	want bool
}{
	{"127.0.0.1:80", true},
	{"LOCALHOST:1", true},
	{"[::1]:1", true},
	{"[::ffff:127.0.0.1]:1", true},
	{"0177.0.0.1:1", false}, // octal: some resolvers read it as 127.0.0.1
	{"0x7f.0.0.1:1", false}, // hex, likewise
	{"2130706433:1", false}, // 127.0.0.1 as one decimal number
	{"127.1:1", false},      // inet_aton shorthand
	{"10.0.2.555:1", false}, // not an address at all
	{"0.0.0.0:1", false},    // unspecified reaches every interface
	{"[::1%25lo]:1", false}, // a zone, percent-encoded as in a URL
	{"[::1%lo]:1", false},   // a zone
	{"[::]:1", false},       // unspecified
	{"localhost6:1", false}, // a name some hosts files map to ::1; still a name
	{"localhost.attacker.example:1", false},
	{"attacker.example", false},
	{"", false},
}

func TestHostAllowed(t *testing.T) {
	cases := append(hostCases[:len(hostCases):len(hostCases)], []struct {
		host string
		want bool
	}{
		{"localhost", true},
		{"127.0.0.1", true},
		{"127.9.8.7:1", true}, // all of 127/8 is loopback
		{"[::1]", true},
		{"localhost:", true}, // RFC 3986 allows an empty port
		{"[localhost]:1", false},
		{"[127.0.0.1]:1", false}, // brackets hold IPv6 literals only
		{"::1", false},           // an IPv6 literal must be bracketed
		{"::1:80", false},
		{"localhost:http", false}, // a port is digits
		{"127.0.0.1:80:90", false},
		{"[::1]x", false},
		{"[::1", false},
		{"user@localhost:1", false},
		{"localhost.:1", false},
		{"192.0.2.7:80", false}, // bound only when the listener is
	}...)
	for _, c := range cases {
		if got := HostAllowed(c.host, netip.Addr{}); got != c.want {
			t.Errorf("HostAllowed(%q) = %v, want %v", c.host, got, c.want)
		}
	}

	bound := netip.MustParseAddr("192.0.2.7")
	for _, c := range []struct {
		host  string
		bound netip.Addr
		want  bool
	}{
		{"192.0.2.7:80", bound, true},
		{"192.0.2.7", bound, true},
		{"127.0.0.1:80", bound, true}, // loopback stays allowed
		{"[::ffff:192.0.2.7]:80", bound, true},
		{"192.0.2.8:80", bound, false},
		{"192.0.2.7:80", netip.MustParseAddr("::ffff:192.0.2.7"), true},
		// Bound everywhere (--addr 0.0.0.0:p --allow-remote): any IP literal may be one of our
		// interfaces and cannot be rebound; names and unspecified or zoned literals stay refused.
		{"192.0.2.8:80", netip.IPv4Unspecified(), true},
		{"10.1.2.3", netip.IPv4Unspecified(), true},
		{"[2001:db8::1]:80", netip.IPv6Unspecified(), true},
		{"198.51.100.4:80", netip.IPv6Unspecified(), true},
		{"[::ffff:192.0.2.8]:80", netip.IPv4Unspecified(), true},
		{"127.0.0.1:80", netip.IPv4Unspecified(), true},
		{"localhost:80", netip.IPv6Unspecified(), true},
		{"0.0.0.0:80", netip.IPv4Unspecified(), false}, // binding everywhere names no address
		{"[::]:80", netip.IPv6Unspecified(), false},
		{"[::]:80", netip.IPv4Unspecified(), false},
		{"[::ffff:0.0.0.0]:80", netip.IPv4Unspecified(), false},
		{"[fe80::1%25eth0]:80", netip.IPv6Unspecified(), false}, // a zone
		{"[fe80::1%eth0]:80", netip.IPv6Unspecified(), false},
		{"attacker.example:80", netip.IPv4Unspecified(), false}, // a name can be rebound
		{"localhost.attacker.example:80", netip.IPv6Unspecified(), false},
		{"0x7f.0.0.1:80", netip.IPv4Unspecified(), false},  // not a strict literal
		{"2130706433:80", netip.IPv4Unspecified(), false},  // likewise
		{"[192.0.2.8]:80", netip.IPv4Unspecified(), false}, // brackets hold IPv6 only
		{"2001:db8::1", netip.IPv6Unspecified(), false},    // an IPv6 literal must be bracketed
	} {
		if got := HostAllowed(c.host, c.bound); got != c.want {
			t.Errorf("HostAllowed(%q, bound %v) = %v, want %v", c.host, c.bound, got, c.want)
		}
	}
}

// TestHostBoundEverywhere: a service listening on 0.0.0.0 (--allow-remote) answers requests
// that name it by any of its addresses, and still refuses names.
func TestHostBoundEverywhere(t *testing.T) {
	f := newFixture(t, func(c *Config) { c.BoundAddr = netip.IPv4Unspecified() })
	for _, host := range []string{"192.0.2.8:7777", "[2001:db8::1]:7777", "127.0.0.1:7777"} {
		r := request("GET", "/api/trace/list", "")
		r.Host = host
		if w := f.serve(r); w.Code != http.StatusOK {
			t.Errorf("Host %s: status %d, want 200: %s", host, w.Code, w.Body.Bytes())
		}
	}
	for _, host := range []string{"attacker.example:7777", "0.0.0.0:7777"} {
		r := request("GET", "/api/trace/list", "")
		r.Host = host
		wantError(t, f.serve(r), http.StatusForbidden, "host_refused")
	}
}

func TestHostIsCheckedFirst(t *testing.T) {
	f := newFixture(t)
	// No token and a foreign Origin as well: the Host refusal must win, whatever the route.
	for _, target := range []string{"/healthz", "/api/openapi.yaml", "/api/stream", "/api/trace/list", "/nope"} {
		r := request("GET", target, "")
		r.Host = "attacker.example:8080"
		r.Header.Del("Authorization")
		r.Header.Set("Origin", "http://attacker.example:8080")
		wantError(t, f.serve(r), http.StatusForbidden, "host_refused")
	}
}

func TestOriginCheck(t *testing.T) {
	f := newFixture(t, func(c *Config) { c.AllowOrigins = []string{"http://localhost:5173"} })
	for _, c := range []struct {
		name    string
		headers map[string]string
		target  string
		want    int // 0: refused with origin_refused
	}{
		{"no origin", nil, "/api/trace/status", http.StatusOK},
		{"own origin", map[string]string{"Origin": "http://" + testHost}, "/api/trace/status", http.StatusOK},
		{"allowed origin", map[string]string{"Origin": "http://localhost:5173"}, "/api/trace/status", http.StatusOK},
		{"allowed origin on the stream", map[string]string{"Origin": "http://localhost:5173"}, "/api/stream", streamReached},
		{"allowed origin, browser says cross-site", map[string]string{
			"Origin": "http://localhost:5173", "Sec-Fetch-Site": "cross-site"}, "/api/trace/status", http.StatusOK},
		{"same-origin fetch", map[string]string{"Sec-Fetch-Site": "same-origin"}, "/api/trace/status", http.StatusOK},
		{"navigation", map[string]string{"Sec-Fetch-Site": "none"}, "/api/trace/status", http.StatusOK},
		{"foreign origin", map[string]string{"Origin": "https://evil.example"}, "/api/trace/status", 0},
		{"foreign origin on an open route", map[string]string{"Origin": "https://evil.example"}, "/healthz", 0},
		{"foreign origin on the stream", map[string]string{"Origin": "https://evil.example"}, "/api/stream", 0},
		{"null origin", map[string]string{"Origin": "null"}, "/api/trace/status", 0},
		{"own host, other scheme", map[string]string{"Origin": "https://" + testHost}, "/api/trace/status", 0},
		{"own host, other port", map[string]string{"Origin": "http://127.0.0.1:8081"}, "/api/trace/status", 0},
		{"allowed origin with a path", map[string]string{"Origin": "http://localhost:5173/"}, "/api/trace/status", 0},
		{"allowed origin as a prefix", map[string]string{"Origin": "http://localhost:51730"}, "/api/trace/status", 0},
		{"cross-site without origin", map[string]string{"Sec-Fetch-Site": "cross-site"}, "/api/trace/status", 0},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := request("GET", c.target, "")
			for k, v := range c.headers {
				r.Header.Set(k, v)
			}
			w := f.serve(r)
			if c.want != 0 {
				if w.Code != c.want {
					t.Fatalf("status %d, want %d: %s", w.Code, c.want, w.Body.Bytes())
				}
				return
			}
			e := wantError(t, w, http.StatusForbidden, "origin_refused")
			if o := r.Header.Get("Origin"); o != "" && !strings.Contains(e.Hint, "--allow-origin") {
				t.Fatalf("hint %q does not name --allow-origin", e.Hint)
			}
		})
	}
	t.Run("refused before the token is checked", func(t *testing.T) {
		r := request("POST", "/api/trace/start", `{"target":"app.js"}`)
		r.Header.Del("Authorization")
		r.Header.Set("Origin", "https://evil.example")
		wantError(t, f.serve(r), http.StatusForbidden, "origin_refused")
	})
}

func TestTokenCheck(t *testing.T) {
	f := newFixture(t, func(c *Config) { c.TokenFile = "/run/traced/token" })
	wrong := strings.Repeat("x", len(testToken))
	for _, c := range []struct {
		name   string
		target string
		auth   string // the Authorization header; "" sends none
		want   int    // 0: refused with unauthorized
	}{
		{"missing", "/api/trace/status", "", 0},
		{"wrong", "/api/trace/status", "Bearer " + wrong, 0},
		{"prefix of the token", "/api/trace/status", "Bearer " + testToken[:len(testToken)-1], 0},
		{"token and more", "/api/trace/status", "Bearer " + testToken + "x", 0},
		{"empty bearer", "/api/trace/status", "Bearer ", 0},
		{"other scheme", "/api/trace/status", "Basic " + testToken, 0},
		{"bare token", "/api/trace/status", testToken, 0},
		{"right", "/api/trace/status", "Bearer " + testToken, http.StatusOK},
		{"query token off the stream", "/api/trace/status?token=" + testToken, "", 0},
		{"query token on a POST", "/api/trace/stop?token=" + testToken, "", 0},
		{"query token on the stream", "/api/stream?token=" + testToken, "", streamReached},
		{"wrong query token on the stream", "/api/stream?token=" + wrong, "", 0},
		{"empty query token on the stream", "/api/stream?token=", "", 0},
		{"no token on the stream", "/api/stream", "", 0},
		{"header on the stream", "/api/stream", "Bearer " + testToken, streamReached},
		{"wrong header beats a right query token", "/api/stream?token=" + testToken, "Bearer " + wrong, 0},
		{"open: health", "/healthz", "", http.StatusOK},
		{"open: contract", "/api/openapi.yaml", "", http.StatusOK},
		{"open routes ignore a wrong token", "/healthz", "Bearer " + wrong, http.StatusOK},
	} {
		t.Run(c.name, func(t *testing.T) {
			method, body := "GET", ""
			if strings.HasPrefix(c.target, "/api/trace/stop") {
				method, body = "POST", `{"id":"s1"}`
			}
			r := request(method, c.target, body)
			r.Header.Del("Authorization")
			if c.auth != "" {
				r.Header.Set("Authorization", c.auth)
			}
			w := f.serve(r)
			if c.want != 0 {
				if w.Code != c.want {
					t.Fatalf("status %d, want %d: %s", w.Code, c.want, w.Body.Bytes())
				}
				return
			}
			e := wantError(t, w, http.StatusUnauthorized, "unauthorized")
			if !strings.Contains(e.Hint, "Bearer") || !strings.Contains(e.Hint, "/run/traced/token") {
				t.Fatalf("hint %q names neither the header nor the token file", e.Hint)
			}
			if strings.Contains(w.Body.String(), testToken) {
				t.Fatal("the answer echoes the token")
			}
		})
	}
	t.Run("auth off", func(t *testing.T) {
		f := newFixture(t, func(c *Config) { c.Token = "" })
		r := request("GET", "/api/trace/status", "")
		r.Header.Del("Authorization")
		if w := f.serve(r); w.Code != http.StatusOK {
			t.Fatalf("status %d: %s", w.Code, w.Body.Bytes())
		}
	})
}

// chunked hides a body's length, as a chunked upload does.
type chunked struct{ io.Reader }

func TestBodyCap(t *testing.T) {
	const limit = 1024
	f := newFixture(t, func(c *Config) { c.MaxBodyBytes = limit })
	// Invalid JSON: were the contract validator reached, it would answer 400 bad_request.
	over := strings.Repeat("{", limit+1)
	at := `{"target":"` + strings.Repeat("a", limit-len(`{"target":""}`)) + `"}`
	if len(at) != limit {
		t.Fatalf("fixture: body of %d bytes", len(at))
	}
	for _, c := range []struct {
		name          string
		body          string
		contentLength bool
		status        int
		code          string
	}{
		{"over the cap, with Content-Length", over, true, http.StatusRequestEntityTooLarge, "payload_too_large"},
		{"over the cap, chunked", over, false, http.StatusRequestEntityTooLarge, "payload_too_large"},
		{"far over the cap, chunked", strings.Repeat(" ", 10*limit), false, http.StatusRequestEntityTooLarge, "payload_too_large"},
		// A body within the cap passes the contract and reaches the engine, which has no node.
		{"at the cap", at, true, http.StatusInternalServerError, "start_failed"},
		{"at the cap, chunked", at, false, http.StatusInternalServerError, "start_failed"},
		{"small", `{"target":"app.js"}`, false, http.StatusInternalServerError, "start_failed"},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := request("POST", "/api/trace/start", c.body)
			if !c.contentLength {
				r.Body = io.NopCloser(chunked{strings.NewReader(c.body)})
				r.ContentLength = -1
				r.TransferEncoding = []string{"chunked"}
			}
			e := wantError(t, f.serve(r), c.status, c.code)
			if c.status == http.StatusRequestEntityTooLarge && !strings.Contains(e.Hint, "1024") {
				t.Fatalf("hint %q does not give the limit", e.Hint)
			}
		})
	}
	if n := len(f.engine.List()); n != 0 {
		t.Fatalf("%d sessions exist", n)
	}
}

// TestBodyCapStopsBeforeValidation drives the middleware alone: an oversized body must not reach
// the next handler (the contract validator in the router) at all.
func TestBodyCapStopsBeforeValidation(t *testing.T) {
	a := &app{cfg: Config{MaxBodyBytes: 16}}
	for _, c := range []struct {
		name          string
		body          string
		contentLength bool
		reached       bool
	}{
		{"over, with Content-Length", strings.Repeat("x", 17), true, false},
		{"over, chunked", strings.Repeat("x", 17), false, false},
		{"at the cap", `"` + strings.Repeat("x", 14) + `"`, false, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			reached := false
			h := a.readBody(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				reached = true
				b, err := io.ReadAll(r.Body)
				if err != nil || string(b) != c.body || r.ContentLength != int64(len(c.body)) {
					t.Errorf("next handler read %q (length %d, err %v)", b, r.ContentLength, err)
				}
				w.WriteHeader(http.StatusNoContent)
			}))
			r := request("POST", "/api/trace/start", c.body)
			if !c.contentLength {
				r.Body = io.NopCloser(chunked{strings.NewReader(c.body)})
				r.ContentLength = -1
			}
			w := httptest.NewRecorder()
			h.ServeHTTP(w, r)
			if reached != c.reached {
				t.Fatalf("next handler reached: %v, want %v (status %d)", reached, c.reached, w.Code)
			}
			if !c.reached {
				wantError(t, w, http.StatusRequestEntityTooLarge, "payload_too_large")
			}
		})
	}
}

func TestContentType(t *testing.T) {
	f := newFixture(t)
	for _, c := range []struct {
		contentType string
		status      int
		code        string
	}{
		{"text/plain", http.StatusUnsupportedMediaType, "unsupported_media_type"},
		{"", http.StatusUnsupportedMediaType, "unsupported_media_type"},
		{"application/x-www-form-urlencoded", http.StatusUnsupportedMediaType, "unsupported_media_type"},
		{"multipart/form-data; boundary=x", http.StatusUnsupportedMediaType, "unsupported_media_type"},
		{"application/jsonx", http.StatusUnsupportedMediaType, "unsupported_media_type"},
		{"application/json;", http.StatusInternalServerError, "start_failed"},
		{"application/json; charset=utf-8", http.StatusInternalServerError, "start_failed"},
		{"Application/JSON", http.StatusInternalServerError, "start_failed"},
	} {
		t.Run(c.contentType, func(t *testing.T) {
			r := request("POST", "/api/trace/start", `{"target":"app.js"}`)
			r.Header.Set("Content-Type", c.contentType)
			wantError(t, f.serve(r), c.status, c.code)
		})
	}
}

// TestBodylessPost: a POST without a body (curl -X POST) is taken as {}, which the contract then
// checks like any body; a non-empty body still needs JSON.
func TestBodylessPost(t *testing.T) {
	f := newFixture(t)
	for _, c := range []struct {
		name, target string
		chunked      bool
		contentType  string
		status       int
		code, inMsg  string
	}{
		// continue has no required field: the request passes the contract and reaches the session lookup.
		{"continue, Content-Length 0", "/api/debug/s1/continue", false, "", http.StatusNotFound, "not_found", "s1"},
		{"continue, no length", "/api/debug/s1/continue", true, "", http.StatusNotFound, "not_found", "s1"},
		{"continue, empty JSON", "/api/debug/s1/continue", false, "application/json", http.StatusNotFound, "not_found", "s1"},
		{"continue, empty text", "/api/debug/s1/continue", false, "text/plain", http.StatusNotFound, "not_found", "s1"},
		// start needs a target: the contract names it, as it would for {}.
		{"start", "/api/trace/start", false, "", http.StatusBadRequest, "bad_request", `"target"`},
		{"stop", "/api/trace/stop", true, "", http.StatusBadRequest, "bad_request", `"id"`},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := request("POST", c.target, "")
			if c.chunked {
				r.Body = io.NopCloser(chunked{strings.NewReader("")})
				r.ContentLength = -1
				r.TransferEncoding = []string{"chunked"}
			}
			if c.contentType != "" {
				r.Header.Set("Content-Type", c.contentType)
			}
			e := wantError(t, f.serve(r), c.status, c.code)
			if !strings.Contains(e.Message, c.inMsg) {
				t.Fatalf("message %q does not name %s", e.Message, c.inMsg)
			}
		})
	}
	r := request("POST", "/api/debug/s1/continue", "x")
	r.Header.Del("Content-Type")
	wantError(t, f.serve(r), http.StatusUnsupportedMediaType, "unsupported_media_type")
}

// TestBodyIsOneJSONValue: data after the body's JSON value is refused before any decoder, which
// would take the first value and drop the rest.
func TestBodyIsOneJSONValue(t *testing.T) {
	f := newFixture(t)
	for _, c := range []struct {
		name, target, body string
		status             int
		code               string
	}{
		{"trailing word", "/api/trace/start", `{"target":"a.js"} x`, http.StatusBadRequest, "bad_request"},
		{"two objects", "/api/trace/start", `{"target":"a.js"}{"target":"b.js"}`, http.StatusBadRequest, "bad_request"},
		{"two objects, spaced", "/api/trace/stop", "{\"id\":\"s1\"}\n{\"id\":\"s2\"}", http.StatusBadRequest, "bad_request"},
		{"trailing number", "/api/debug/s1/continue", `{} 1`, http.StatusBadRequest, "bad_request"},
		// White space around the one value is allowed; the start reaches the engine (no node).
		{"trailing newline", "/api/trace/start", "{\"target\":\"a.js\"}\r\n\t ", http.StatusInternalServerError, "start_failed"},
	} {
		t.Run(c.name, func(t *testing.T) {
			e := wantError(t, f.serve(request("POST", c.target, c.body)), c.status, c.code)
			if c.status == http.StatusBadRequest && (!strings.Contains(e.Message, "after its JSON value") || !strings.Contains(e.Hint, "/api/openapi.yaml")) {
				t.Fatalf("error %+v does not say the body has data after its value", e)
			}
		})
	}
	if n := len(f.engine.List()); n != 0 {
		t.Fatalf("%d sessions exist", n)
	}
}

func TestValidationNamesTheField(t *testing.T) {
	f := newFixture(t)
	for _, c := range []struct {
		method, target, body string
		want                 string // a substring of the message
	}{
		{"POST", "/api/trace/start", `{"target":5}`, `body field "target"`},
		{"POST", "/api/trace/start", `{"target":""}`, `body field "target"`},
		{"POST", "/api/trace/start", `{"target":"a","timeoutMs":-1}`, `body field "timeoutMs"`},
		{"POST", "/api/trace/start", `{"target":"a","maxEvents":1e400}`, `body`},
		{"POST", "/api/trace/start", `{"target":"a","env":{"A":1}}`, `body field "env.A"`},
		{"POST", "/api/trace/start", `{"target":"a","args":["x",2]}`, `body field "args.1"`},
		{"POST", "/api/trace/start", `{"target":"a","name":"has space"}`, `body field "name"`},
		{"POST", "/api/trace/start", `{"target":"a","bogus":1}`, `"bogus"`},
		{"POST", "/api/trace/start", `{}`, `"target"`},
		{"POST", "/api/trace/start", `{`, `body`},
		{"POST", "/api/trace/stop", `{"id":"../x"}`, `body field "id"`},
		// A value matching no branch of a oneOf is named with its own branch's failure.
		{"POST", "/api/trace/start", `{"target":"a","breakpoints":["a.js:99999999999"]}`, `body field "breakpoints.0": string doesn't match the regular expression`},
		{"POST", "/api/trace/start", `{"target":"a","breakpoints":[{"location":"a.js:1","x":1}]}`, `body field "breakpoints.0": property "x" is unsupported`},
		{"POST", "/api/debug/s1/restart-frame", `{"frame":"g1"}`, `body field "frame": string doesn't match`},
		{"POST", "/api/debug/s1/restart-frame", `{"frame":-1}`, `body field "frame": number must be at least 0`},
		{"GET", "/api/trace/events?id=s1&limit=-1", "", `query parameter "limit"`},
		{"GET", "/api/trace/events?id=s1&limit=1001", "", `query parameter "limit"`},
		{"GET", "/api/trace/events?id=s1&after=abc", "", `query parameter "after"`},
		{"GET", "/api/trace/wait?id=s1&timeoutMs=60001", "", `query parameter "timeoutMs"`},
		{"GET", "/api/trace?id=s1&kinds=Console", "", `query parameter "kinds"`},
		{"GET", "/api/trace", "", `query parameter "id"`},
		{"GET", "/api/trace/evidence?id=a/b", "", `query parameter "id"`},
		{"GET", "/api/stream?after=x", "", `query parameter "after"`},
	} {
		t.Run(c.method+" "+c.target+" "+c.body, func(t *testing.T) {
			e := wantError(t, f.serve(request(c.method, c.target, c.body)), http.StatusBadRequest, "bad_request")
			if !strings.Contains(e.Message, c.want) {
				t.Fatalf("message %q does not contain %s", e.Message, c.want)
			}
			if !strings.Contains(e.Hint, "/api/openapi.yaml") {
				t.Fatalf("hint %q does not point at the contract", e.Hint)
			}
		})
	}
}

// TestKindsAreChecked covers what the contract's pattern lets through: a well-formed but unknown kind.
func TestKindsAreChecked(t *testing.T) {
	for _, c := range []struct {
		in   string
		want int // kinds in the set; -1: refused
	}{
		{"", 0},
		{"console", 1},
		{"console,exception,exit", 3},
		{"console,console", 1},
		{"bogus", -1},
		{"console,bogus", -1},
		{"console,", -1},
	} {
		set, err := parseKinds(c.in)
		switch {
		case c.want < 0 && err == nil:
			t.Errorf("parseKinds(%q) accepted %v", c.in, set)
		case c.want < 0:
			if !strings.Contains(err.Error(), `"kinds"`) {
				t.Errorf("parseKinds(%q): message %q does not name the parameter", c.in, err)
			}
		case err != nil || len(set) != c.want:
			t.Errorf("parseKinds(%q) = %v, %v; want %d kinds", c.in, set, err, c.want)
		}
	}
}

// TestPanicAnswersTheEnvelope: a handler that panics still answers 500 with the error envelope,
// without the panic's text.
func TestPanicAnswersTheEnvelope(t *testing.T) {
	var logged strings.Builder
	f := newFixture(t, func(c *Config) { c.Logger = slog.New(slog.NewTextHandler(&logged, nil)) })
	f.router.(chi.Router).Get("/panic", func(http.ResponseWriter, *http.Request) { panic("secret detail") })
	w := f.serve(request("GET", "/panic", ""))
	e := wantError(t, w, http.StatusInternalServerError, "internal")
	if strings.Contains(w.Body.String(), "secret detail") {
		t.Fatalf("the answer leaks the panic: %s", w.Body.Bytes())
	}
	if !strings.Contains(logged.String(), "secret detail") {
		t.Fatalf("the panic is not logged: %q (error %+v)", logged.String(), e)
	}

	// A panicking upgrade may have hijacked the connection: nothing is written on it, however the
	// client spells the Connection header.
	for _, conn := range []string{"Upgrade", "upgrade", "keep-alive, Upgrade", "Keep-Alive,UPGRADE"} {
		t.Run("upgrade "+conn, func(t *testing.T) {
			r := request("GET", "/panic", "")
			r.Header.Set("Connection", conn)
			r.Header.Set("Upgrade", "websocket")
			if w := f.serve(r); w.Body.Len() != 0 || w.Header().Get("Content-Type") != "" {
				t.Fatalf("Connection %q: wrote %d %q on a possibly hijacked connection", conn, w.Code, w.Body.Bytes())
			}
		})
	}
	t.Run("keep-alive is rendered", func(t *testing.T) {
		r := request("GET", "/panic", "")
		r.Header.Set("Connection", "keep-alive, upgrade-insecure-requests")
		wantError(t, f.serve(r), http.StatusInternalServerError, "internal")
	})

	t.Run("abort is not rendered", func(t *testing.T) {
		f.router.(chi.Router).Get("/abort", func(http.ResponseWriter, *http.Request) { panic(http.ErrAbortHandler) })
		defer func() {
			if v := recover(); v != http.ErrAbortHandler {
				t.Fatalf("recovered %v, want http.ErrAbortHandler to reach the server", v)
			}
		}()
		f.serve(request("GET", "/abort", ""))
	})
}
