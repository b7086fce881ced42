package routes

import (
	"bytes"
	"crypto/subtle"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"net/netip"
	"strconv"
	"strings"
)

// HostAllowed reports whether a Host header names this service rather than a rebinding domain:
// "localhost" exactly, or an IP literal (strictly parsed, no zone) that is loopback or bound.
// When bound is unspecified (0.0.0.0 or ::, listening on every interface, which needs
// --allow-remote) any IP literal names this service except an unspecified one: the service cannot
// know which of its addresses a client dialled, and a literal, unlike a name, cannot be rebound by
// DNS. Names other than localhost are refused whatever the bound address.
// Go's net/http applies no Host policy and the WebSocket origin check passes during DNS
// rebinding, so this check is ours and runs before anything else.
func HostAllowed(host string, bound netip.Addr) bool {
	h, bracketed, ok := splitHost(host)
	if !ok {
		return false
	}
	if !bracketed && strings.EqualFold(h, "localhost") {
		return true
	}
	ip, err := netip.ParseAddr(h)
	// Brackets hold an IPv6 literal and nothing else, as in a URL.
	if err != nil || ip.Zone() != "" || bracketed != ip.Is6() {
		return false
	}
	ip = ip.Unmap()
	switch {
	case ip.IsUnspecified():
		return false // names no interface in particular; a client cannot have dialled it
	case ip.IsLoopback():
		return true
	case !bound.IsValid():
		return false
	case bound.IsUnspecified():
		return true
	}
	return ip == bound.Unmap()
}

// splitHost cuts a Host header into its host and whether that was bracketed, reading it as the
// authority of a URL (RFC 3986: host [":" port], port all digits). net.SplitHostPort is laxer: it
// takes "[localhost]:1", "::1" and "localhost:http", which no browser sends.
func splitHost(hostport string) (host string, bracketed, ok bool) {
	port := ""
	if rest, found := strings.CutPrefix(hostport, "["); found {
		host, rest, found = strings.Cut(rest, "]")
		if !found {
			return "", false, false
		}
		if rest != "" {
			if port, found = strings.CutPrefix(rest, ":"); !found {
				return "", false, false
			}
		}
		bracketed = true
	} else {
		host, port, _ = strings.Cut(hostport, ":")
	}
	for _, c := range []byte(port) {
		if c < '0' || c > '9' {
			return "", false, false
		}
	}
	return host, bracketed, true
}

func (a *app) checkHost(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !HostAllowed(r.Host, a.cfg.BoundAddr) {
			a.writeError(w, r, newError(http.StatusForbidden, "host_refused",
				"Host header "+quoteShort(r.Host)+" is not this service",
				"call the service as http://127.0.0.1:<port> or http://localhost:<port>"))
			return
		}
		next.ServeHTTP(w, r)
	})
}

// checkOrigin refuses cross-site requests: an Origin that is not the service's own and not listed
// with --allow-origin, or a browser's Sec-Fetch-Site: cross-site. Requests without either header
// (curl, IDE backends) pass.
func (a *app) checkOrigin(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		origin := r.Header.Get("Origin")
		refused := false
		switch {
		case origin != "":
			refused = !a.originAllowed(origin, r.Host)
		case r.Header.Get("Sec-Fetch-Site") == "cross-site":
			refused = true
		}
		if refused {
			a.writeError(w, r, newError(http.StatusForbidden, "origin_refused",
				"cross-origin request from "+quoteShort(origin)+" refused",
				"start traced with --allow-origin "+quoteShort(origin)+" to allow that page"))
			return
		}
		next.ServeHTTP(w, r)
	})
}

func (a *app) originAllowed(origin, host string) bool {
	if origin == "http://"+host {
		return true
	}
	for _, o := range a.cfg.AllowOrigins {
		if origin == o {
			return true
		}
	}
	return false
}

// requireToken checks the bearer token (or ?token= on the WebSocket route, for browsers that
// cannot set headers on an upgrade). Constant-time: the token is a password.
func (a *app) requireToken(queryToken bool) func(http.Handler) http.Handler {
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if a.cfg.Token == "" {
				next.ServeHTTP(w, r)
				return
			}
			got, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
			if !ok && queryToken {
				got, ok = r.URL.Query().Get("token"), true
			}
			if !ok || subtle.ConstantTimeCompare([]byte(got), []byte(a.cfg.Token)) != 1 {
				hint := "send Authorization: Bearer <token>; the token is in TRACED_TOKEN"
				if a.cfg.TokenFile != "" {
					hint += " or the file " + a.cfg.TokenFile
				}
				a.writeError(w, r, newError(http.StatusUnauthorized, "unauthorized", "missing or wrong token", hint))
				return
			}
			next.ServeHTTP(w, r)
		})
	}
}

// readBody caps the body before anything decodes it and insists on exactly one JSON value for
// requests with one. A POST without a body (curl -X POST, Content-Length 0 or none) is taken as
// `{}`: every operation whose fields are all optional can then be called bare, and one with a
// required field is refused by the contract naming it. The body is buffered so that the contract
// validator and the handler can both read it.
func (a *app) readBody(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodGet || r.Method == http.MethodHead || r.Method == http.MethodDelete {
			next.ServeHTTP(w, r)
			return
		}
		if r.ContentLength > a.cfg.MaxBodyBytes {
			a.writeError(w, r, tooLarge(a.cfg.MaxBodyBytes))
			return
		}
		body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, a.cfg.MaxBodyBytes))
		var mbe *http.MaxBytesError
		if errors.As(err, &mbe) {
			a.writeError(w, r, tooLarge(a.cfg.MaxBodyBytes))
			return
		}
		if err != nil {
			a.writeError(w, r, badRequest("read body: "+err.Error(), "send the whole JSON body"))
			return
		}
		if len(body) == 0 {
			body = []byte("{}")
			r.Header.Set("Content-Type", "application/json")
		}
		if mt, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type")); mt != "application/json" {
			a.writeError(w, r, newError(http.StatusUnsupportedMediaType, "unsupported_media_type",
				"request body must be JSON", "send Content-Type: application/json"))
			return
		}
		if err := oneJSONValue(body); err != nil {
			a.writeError(w, r, badRequest(err.Error(), "send exactly one JSON object; GET /api/openapi.yaml gives the schema of "+r.Method+" "+r.URL.Path))
			return
		}
		r.Body = io.NopCloser(bytes.NewReader(body))
		r.ContentLength = int64(len(body))
		next.ServeHTTP(w, r)
	})
}

// oneJSONValue checks that body is one JSON value and nothing after it but white space. Decoders
// (ours and the contract validator's) stop after the first value and would take `{...} x` or two
// objects back to back as the first one.
func oneJSONValue(body []byte) error {
	dec := json.NewDecoder(bytes.NewReader(body))
	var v json.RawMessage
	if err := dec.Decode(&v); err != nil {
		return fmt.Errorf("body is not valid JSON: %w", err)
	}
	end := dec.InputOffset()
	if _, err := dec.Token(); err != io.EOF {
		return fmt.Errorf("body has data after its JSON value (from byte %d): send exactly one value", end)
	}
	return nil
}

func tooLarge(limit int64) *httpError {
	return newError(http.StatusRequestEntityTooLarge, "payload_too_large",
		"request body is larger than the limit", "keep bodies under "+itoa(limit)+" bytes")
}

// quoteShort quotes a client-supplied string for an error message, capped so that a huge header
// is not echoed back.
func quoteShort(s string) string {
	if len(s) > 100 {
		s = s[:100] + "…"
	}
	return strconv.Quote(s)
}
