package routes

import (
	"bufio"
	"bytes"
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"net/url"
	"strconv"
	"strings"
	"testing"

	"github.com/getkin/kin-openapi/openapi3filter"
)

// FuzzHostAllowed checks that an accepted Host header names this service as a browser reads it:
// the authority of http://<host>/ is exactly host, and its name is localhost, a loopback address
// without a zone, the bound address, or, when bound is unspecified, any IP literal without a zone
// that is not itself unspecified (a literal cannot be rebound by DNS).
func FuzzHostAllowed(f *testing.F) {
	for _, c := range hostCases {
		f.Add(c.host)
	}
	f.Add("198.51.100.4:80")     // passes only when bound everywhere
	f.Add("[2001:db8::1]:80")    // likewise
	f.Add("[::ffff:0.0.0.0]:80") // unspecified in disguise
	bounds := []netip.Addr{{}, netip.IPv4Unspecified(), netip.IPv6Unspecified(),
		netip.MustParseAddr("192.0.2.7"), netip.MustParseAddr("2001:db8::7")}
	f.Fuzz(func(t *testing.T, host string) {
		for _, bound := range bounds {
			if !HostAllowed(host, bound) {
				continue
			}
			if why := notThisService(host, bound); why != "" {
				t.Fatalf("HostAllowed(%q, bound %v) accepted it, but %s", host, bound, why)
			}
		}
	})
}

// notThisService says why host does not name a service bound to bound; "" when it does. It reads
// host with net/url, a parser independent of HostAllowed's.
func notThisService(host string, bound netip.Addr) string {
	u, err := url.Parse("http://" + host + "/")
	if err != nil {
		return "it is no URL authority: " + err.Error()
	}
	if u.Host != host || u.User != nil {
		return "a URL reads its authority as " + strconv.Quote(u.Host)
	}
	name := u.Hostname()
	if strings.EqualFold(name, "localhost") {
		return ""
	}
	ip, err := netip.ParseAddr(name)
	switch {
	case err != nil:
		return strconv.Quote(name) + " is neither localhost nor an IP literal"
	case ip.Zone() != "":
		return "the address has a zone"
	case ip.Unmap().IsUnspecified():
		return "the address is unspecified"
	case ip.Unmap().IsLoopback():
		return ""
	case bound.IsValid() && bound.IsUnspecified():
		return "" // bound everywhere: any literal may name one of our interfaces
	case bound.IsValid() && ip.Unmap() == bound.Unmap():
		return ""
	}
	return "the address is neither loopback nor the bound one"
}

// routerSeeds are valid and invalid calls to every route.
func routerSeeds() [][3]string {
	deepArray := strings.Repeat("[", 20_000) + strings.Repeat("]", 20_000)
	deepEnv := `{"target":"a","env":{"x":` + strings.Repeat(`{"a":`, 5_000) + `1` + strings.Repeat("}", 5_000) + `}}`
	long := strings.Repeat("a", 64<<10)
	return [][3]string{
		{"GET", "/healthz", ""},
		{"HEAD", "/healthz", ""},
		{"GET", "/api/openapi.yaml", ""},
		{"GET", "/api/stream", ""},
		{"GET", "/api/stream?session=s1&after=3&kinds=console,exit", ""},
		{"GET", "/api/stream?after=abc", ""},
		{"GET", "/api/stream?session=../x", ""},
		{"GET", "/api/stream?kinds=bogus", ""},
		{"GET", "/api/trace/status", ""},
		{"POST", "/api/trace/status", "{}"},
		{"POST", "/api/trace/start", `{"target":"app.js"}`},
		{"POST", "/api/trace/start", `{"target":"src/server.js","args":["--port","0"],"cwd":"services/api","env":{"NODE_ENV":"test"},"name":"api-test","timeoutMs":60000,"maxEvents":50000}`},
		{"POST", "/api/trace/start", `{`},
		{"POST", "/api/trace/start", ``},
		{"POST", "/api/trace/start", `null`},
		{"POST", "/api/trace/start", `[]`},
		{"POST", "/api/trace/start", `"app.js"`},
		{"POST", "/api/trace/start", `{"target":"a","timeoutMs":1e400}`},
		{"POST", "/api/trace/start", `{"target":"a","maxEvents":99999999999999999999999}`},
		{"POST", "/api/trace/start", `{"target":"a","timeoutMs":-99999999999999999999999}`},
		{"POST", "/api/trace/start", `{"target":"a","timeoutMs":86400000.5}`},
		{"POST", "/api/trace/start", `{"target":"a","timeoutMs":1e3}`},
		{"POST", "/api/trace/start", `{"target":"a","maxEvents":1.0}`},
		{"POST", "/api/trace/start", `{"target":"a","bogus":1}`},
		{"POST", "/api/trace/start", `{"target":"a","Target":"b"}`},
		{"POST", "/api/trace/start", `{"TARGET":"a"}`},
		{"POST", "/api/trace/start", `{"target":"a"} {"target":"b"}`},
		{"POST", "/api/trace/start", `{"target":"a","target":""}`},
		{"POST", "/api/trace/start", `{"target":"a","env":{"":"x"}}`},
		{"POST", "/api/trace/start", `{"target":"a","env":{"A=B":"x"}}`},
		{"POST", "/api/trace/start", `{"target":"a","env":{"A":"x\u0000"}}`},
		{"POST", "/api/trace/start", `{"target":"a","args":null,"env":null}`},
		{"POST", "/api/trace/start", `{"target":"\ud800"}`},
		{"POST", "/api/trace/start", "{\"target\":\"\xff\"}"},
		{"POST", "/api/trace/start", `{"target":"../../etc/passwd","cwd":"/"}`},
		{"POST", "/api/trace/start", deepArray},
		{"POST", "/api/trace/start", deepEnv},
		{"POST", "/api/trace/start", `{"target":"` + long + `"}`},
		{"POST", "/api/trace/start", `{"target":"a","env":{"A":"` + long + `"}}`},
		{"POST", "/api/trace/start?target=x", `{"target":"a"}`},
		{"POST", "/api/trace/stop", `{"id":"s1"}`},
		{"POST", "/api/trace/stop", `{"id":""}`},
		{"POST", "/api/trace/stop", `{}`},
		{"POST", "/api/trace/stop", `{"id":"s1","force":true}`},
		{"POST", "/api/trace/stop", `{"id":1}`},
		{"GET", "/api/trace/list", ""},
		{"GET", "/api/trace/list", `{"x":1}`},
		{"GET", "/api/trace?id=s1", ""},
		{"GET", "/api/trace?id=s1&kinds=bogus", ""},
		{"GET", "/api/trace?id=s1&kinds=console,exit", ""},
		{"GET", "/api/trace?id=s1&kinds=,", ""},
		{"GET", "/api/trace", ""},
		{"GET", "/api/trace?id=", ""},
		{"GET", "/api/trace?id=" + long, ""},
		{"GET", "/api/trace/evidence?id=s1", ""},
		{"GET", "/api/trace/evidence?id=%00", ""},
		{"GET", "/api/trace/evidence?id=%zz", ""},
		{"GET", "/api/trace/events?id=s1", ""},
		{"GET", "/api/trace/events?id=s1&after=abc", ""},
		{"GET", "/api/trace/events?id=s1&limit=-1", ""},
		{"GET", "/api/trace/events?id=s1&limit=0", ""},
		{"GET", "/api/trace/events?id=s1&after=18446744073709551616&limit=1000", ""},
		{"GET", "/api/trace/events?id=s1&after=1e3", ""},
		{"GET", "/api/trace/wait?id=s1&timeoutMs=0", ""},
		{"GET", "/api/trace/wait?id=s1&timeoutMs=-5", ""},
		{"GET", "/api/trace/wait?id=s1&timeoutMs=99999999999999999999", ""},
		{"GET", "/api/trace/wait?id=s1&id=s2&after=1&after=2", ""},
		{"PUT", "/api/trace/start", `{"target":"a"}`},
		{"DELETE", "/api/trace/list", ""},
		{"OPTIONS", "/api/trace/start", ""},
		{"post", "/api/trace/start", `{"target":"a"}`},
		{"GET", "/nope", ""},
		{"GET", "/api/trace/", ""},
		{"GET", "//api/trace/list", ""},
		{"GET", "/api/trace/%6cist", ""},
		{"GET", "/api/../api/trace/list", ""},
		{"GET", "http://attacker.example/api/trace/list", ""},
		{"GET", "*", ""},
	}
}

// FuzzRouter sends authorised loopback requests through the whole router. Whatever the method,
// path and body, it answers below 500 (except a start refused for want of node) and every failure
// is the error envelope; answers of contract routes follow the contract.
func FuzzRouter(f *testing.F) {
	for _, s := range routerSeeds() {
		f.Add(s[0], s[1], s[2])
	}
	fx := newFixture(f)
	c, err := newContract()
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, method, path, body string) {
		r, ok := rawRequest(method, path, body)
		if !ok {
			return // not a request the HTTP server would hand to a handler
		}
		w := fx.serve(r)
		isStart := r.Method == http.MethodPost && r.URL.Path == "/api/trace/start"
		switch {
		case w.Code == streamReached:
			if r.Method != http.MethodGet || r.URL.Path != "/api/stream" {
				t.Fatalf("%s %q reached the stream handler", r.Method, r.URL)
			}
		case w.Code >= 300:
			e := errorOf(t, w)
			if w.Code >= 500 && !(isStart && w.Code == http.StatusInternalServerError && e.Code == "start_failed") {
				t.Fatalf("%s %q: %d %+v", r.Method, r.URL, w.Code, e)
			}
		case isStart:
			t.Fatalf("a start succeeded without node: %d %s", w.Code, w.Body.Bytes())
		}
		if w.Code != streamReached {
			checkContractResponse(t, c, r, body, w)
		}
		if n := len(fx.engine.List()); n != 0 {
			t.Fatalf("%d sessions exist", n)
		}
	})
}

// rawRequest parses the request the way the HTTP server does, from its wire form, with the token
// and Host 127.0.0.1. ok is false when the server would refuse it before any handler.
func rawRequest(method, path, body string) (*http.Request, bool) {
	if strings.ContainsAny(method+path, " \r\n") {
		return nil, false
	}
	var b strings.Builder
	b.WriteString(method + " " + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer " + testToken + "\r\n")
	if body != "" {
		b.WriteString("Content-Type: application/json\r\n")
	}
	b.WriteString("Content-Length: " + strconv.Itoa(len(body)) + "\r\n\r\n" + body)
	r, err := http.ReadRequest(bufio.NewReader(strings.NewReader(b.String())))
	if err != nil {
		return nil, false
	}
	return r, true
}

// checkContractResponse validates an answer of a contract route against its documented response:
// the status declared by the operation (not merely covered by `default`), then the body.
func checkContractResponse(t *testing.T, c *contract, r *http.Request, body string, w *httptest.ResponseRecorder) {
	t.Helper()
	r.Body = io.NopCloser(strings.NewReader(body))
	route, params, err := c.router.FindRoute(r)
	if err != nil {
		return // not a contract route: the envelope check above is all there is
	}
	// ValidateResponse falls back to `default` for any status; the status must be declared itself.
	if route.Operation.Responses.Status(w.Code) == nil {
		t.Fatalf("%s %q -> %d: the contract does not declare this status\nbody: %.500s", r.Method, r.URL, w.Code, w.Body.Bytes())
	}
	in := &openapi3filter.ResponseValidationInput{
		RequestValidationInput: &openapi3filter.RequestValidationInput{
			Request: r, PathParams: params, Route: route,
			Options: &openapi3filter.Options{AuthenticationFunc: openapi3filter.NoopAuthenticationFunc},
		},
		Status:  w.Code,
		Header:  w.Header(),
		Body:    io.NopCloser(bytes.NewReader(w.Body.Bytes())),
		Options: &openapi3filter.Options{IncludeResponseStatus: true},
	}
	if err := openapi3filter.ValidateResponse(context.Background(), in); err != nil {
		t.Fatalf("%s %q -> %d breaks the contract: %v\nbody: %.500s", r.Method, r.URL, w.Code, err, w.Body.Bytes())
	}
}
