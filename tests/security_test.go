package tests

import (
	"bufio"
	"context"
	"fmt"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"
)

func TestTokenIsRequired(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	cases := []struct {
		name   string
		mutate func(*http.Request)
	}{
		{"no header", func(r *http.Request) { r.Header.Del("Authorization") }},
		{"wrong token of same length", func(r *http.Request) {
			r.Header.Set("Authorization", "Bearer "+strings.Repeat("x", len(testToken)))
		}},
		{"query token off the stream", func(r *http.Request) {
			r.Header.Del("Authorization")
			q := r.URL.Query()
			q.Set("token", testToken)
			r.URL.RawQuery = q.Encode()
		}},
		{"basic scheme", func(r *http.Request) { r.Header.Set("Authorization", "Basic "+testToken) }},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			h := h.with(t)
			req := h.request("GET", "/api/trace/status", nil)
			c.mutate(req)
			if e := h.errorOf(req, http.StatusUnauthorized); !strings.Contains(e.Hint, "Bearer") {
				t.Fatalf("hint %q", e.Hint)
			}
		})
	}
	t.Run("start without token spawns nothing", func(t *testing.T) {
		h := h.with(t)
		req := h.request("POST", "/api/trace/start", `{"target":"forever.js"}`)
		req.Header.Del("Authorization")
		h.errorOf(req, http.StatusUnauthorized)
		if n := len(h.svc.Engine.List()); n != 0 {
			t.Fatalf("%d sessions exist", n)
		}
	})
	t.Run("open routes", func(t *testing.T) {
		h := h.with(t)
		for _, path := range []string{"/healthz", "/api/openapi.yaml"} {
			req := h.request("GET", path, nil)
			req.Header.Del("Authorization")
			if st, _ := h.send(req); st != http.StatusOK {
				t.Fatalf("%s: %d", path, st)
			}
		}
	})
	t.Run("with token", func(t *testing.T) {
		h := h.with(t)
		if st := h.call("GET", "/api/trace/status", nil, nil); st != http.StatusOK {
			t.Fatalf("status %d", st)
		}
	})
}

func TestHostHeaderIsChecked(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	_, port, _ := net.SplitHostPort(h.addr)
	refused := []string{"attacker.example:" + port, "attacker.example", "0177.0.0.1:" + port,
		"0x7f.0.0.1:" + port, "2130706433:" + port, "127.1:" + port, "0.0.0.0:" + port,
		"[::1%25lo]:" + port, "[::1%lo]:" + port, "[::]:" + port, "localhost6:" + port, "localhost.attacker.example:" + port}
	for _, host := range refused {
		t.Run("refuse "+host, func(t *testing.T) {
			// Raw bytes: net/http's client would clean the Host (it drops IPv6 zones, for one).
			status := rawStatus(t, h.addr, "POST /api/trace/start HTTP/1.1\r\nHost: "+host+
				"\r\nAuthorization: Bearer "+testToken+"\r\nContent-Type: application/json\r\nContent-Length: 24\r\nConnection: close\r\n\r\n{\"target\":\"forever.js\"}")
			if status != http.StatusForbidden {
				t.Fatalf("status %d, want 403", status)
			}
		})
	}
	t.Run("HTTP/1.0 without Host", func(t *testing.T) {
		if st := rawStatus(t, h.addr, "GET /api/trace/list HTTP/1.0\r\nAuthorization: Bearer "+testToken+"\r\n\r\n"); st != http.StatusForbidden {
			t.Fatalf("status %d, want 403", st)
		}
	})
	t.Run("two Host headers", func(t *testing.T) {
		if st := rawStatus(t, h.addr, "GET /api/trace/list HTTP/1.1\r\nHost: "+h.addr+"\r\nHost: attacker.example\r\nAuthorization: Bearer "+testToken+"\r\nConnection: close\r\n\r\n"); st != http.StatusBadRequest {
			t.Fatalf("status %d, want 400", st)
		}
	})
	if n := len(h.svc.Engine.List()); n != 0 {
		t.Fatalf("a refused request started %d sessions", n)
	}
	for _, host := range []string{"127.0.0.1:" + port, "LOCALHOST:" + port, "localhost:" + port, "[::1]:" + port, "[::ffff:127.0.0.1]:" + port} {
		t.Run("allow "+host, func(t *testing.T) {
			h := h.with(t)
			req := h.request("GET", "/api/trace/status", nil)
			req.Host = host
			if st, body := h.send(req); st != http.StatusOK {
				t.Fatalf("status %d: %s", st, body)
			}
		})
	}
	t.Run("absolute-form URI names the host", func(t *testing.T) {
		raw := fmt.Sprintf("GET http://attacker.example:%s/api/trace/list HTTP/1.1\r\nHost: %s\r\nAuthorization: Bearer %s\r\nConnection: close\r\n\r\n", port, h.addr, testToken)
		if st := rawStatus(t, h.addr, raw); st != http.StatusForbidden {
			t.Fatalf("status %d, want 403", st)
		}
	})
}

// rawStatus writes a raw HTTP request and returns the response status.
func rawStatus(t *testing.T, addr, raw string) int {
	t.Helper()
	conn, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	conn.SetDeadline(time.Now().Add(deadline))
	if _, err := conn.Write([]byte(raw)); err != nil {
		t.Fatal(err)
	}
	resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	return resp.StatusCode
}

func TestCrossOriginIsRefused(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	for _, c := range []struct{ header, value string }{
		{"Origin", "https://evil.example"},
		{"Origin", "null"},
		{"Sec-Fetch-Site", "cross-site"},
	} {
		t.Run(c.header+" "+c.value, func(t *testing.T) {
			h := h.with(t)
			req := h.request("POST", "/api/trace/start", `{"target":"forever.js"}`)
			req.Header.Set(c.header, c.value)
			if e := h.errorOf(req, http.StatusForbidden); e.Code != "origin_refused" {
				t.Fatalf("error %+v", e)
			}
		})
	}
	if n := len(h.svc.Engine.List()); n != 0 {
		t.Fatalf("a refused request started %d sessions", n)
	}
	t.Run("own origin", func(t *testing.T) {
		h := h.with(t)
		req := h.request("GET", "/api/trace/status", nil)
		req.Header.Set("Origin", h.base)
		if st, _ := h.send(req); st != http.StatusOK {
			t.Fatalf("status %d", st)
		}
	})
}

func TestStreamHandshakeIsGuarded(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	ctx, cancel := context.WithTimeout(context.Background(), deadline)
	defer cancel()
	wsURL := "ws://" + h.addr + "/api/stream"
	auth := http.Header{"Authorization": {"Bearer " + testToken}}
	cases := []struct {
		name   string
		url    string
		opts   *websocket.DialOptions
		status int
	}{
		{"rebinding host", wsURL, &websocket.DialOptions{Host: "attacker.example", HTTPHeader: http.Header{
			"Authorization": {"Bearer " + testToken}, "Origin": {"http://attacker.example"}}}, 403},
		{"foreign origin", wsURL, &websocket.DialOptions{HTTPHeader: http.Header{
			"Authorization": {"Bearer " + testToken}, "Origin": {"https://evil.example"}}}, 403},
		{"null origin", wsURL, &websocket.DialOptions{HTTPHeader: http.Header{
			"Authorization": {"Bearer " + testToken}, "Origin": {"null"}}}, 403},
		{"no token", wsURL, nil, 401},
		{"unknown kind", wsURL + "?kinds=console,bogus", &websocket.DialOptions{HTTPHeader: auth}, 400},
		{"after without session", wsURL + "?after=3", &websocket.DialOptions{HTTPHeader: auth}, 400},
		{"unknown session", wsURL + "?session=s99", &websocket.DialOptions{HTTPHeader: auth}, 404},
		{"wrong query token", wsURL + "?token=nope", nil, 401},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			conn, resp, err := websocket.Dial(ctx, c.url, c.opts)
			if err == nil {
				conn.CloseNow()
				t.Fatal("handshake succeeded")
			}
			if resp == nil || resp.StatusCode != c.status {
				t.Fatalf("response %v, want %d (%v)", resp, c.status, err)
			}
		})
	}
	if n := h.svc.Hub.Subscribers(); n != 0 {
		t.Fatalf("%d subscribers registered by refused handshakes", n)
	}
	for name, dial := range map[string]func() (*websocket.Conn, *http.Response, error){
		"header token": func() (*websocket.Conn, *http.Response, error) {
			return websocket.Dial(ctx, wsURL, &websocket.DialOptions{HTTPHeader: auth})
		},
		"query token": func() (*websocket.Conn, *http.Response, error) {
			return websocket.Dial(ctx, wsURL+"?token="+testToken, nil)
		},
	} {
		t.Run(name, func(t *testing.T) {
			conn, _, err := dial()
			if err != nil {
				t.Fatal(err)
			}
			defer conn.CloseNow()
			msg := readMessage(ctx, t, conn)
			if msg.Type != "live" {
				t.Fatalf("first message %+v, want live", msg)
			}
			conn.Close(websocket.StatusNormalClosure, "")
		})
	}
}
