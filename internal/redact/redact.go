// Package redact hides credentials in what traced shows: values shaped like secrets (cloud keys,
// tokens, JWTs, PEM private keys, passwords in connection strings) in any text, and the values of
// variables and properties named like secrets. The program itself is never changed: only what
// traced answers, streams and exports.
package redact

import (
	"regexp"
	"strings"
	"sync"
	"unicode"
)

// Marker is what a hidden value is replaced by: "<redacted:KIND>".
func Marker(kind string) string { return "<redacted:" + kind + ">" }

// A rule finds one shape of secret. When group is set, only that capture group is replaced (the
// password of a connection string, not its host).
type rule struct {
	kind  string
	re    *regexp.Regexp
	group int
	// hints: the rule can match only where one of them appears (ASCII case folded when fold),
	// a check far cheaper than the expression on the capture path's ordinary lines.
	hints []string
	fold  bool
}

// rules are gitleaks-style shapes with few false positives: prefixes vendors chose so that their
// keys can be found, and structures (JWT, PEM) no ordinary value has. They are compiled on first
// use, not at init: the CLI shares the binary and must not pay for them (issue 25, point 16).
var rules = sync.OnceValue(func() []rule {
	return []rule{
		{"private-key", regexp.MustCompile(`-----BEGIN[A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----(?:[\s\S]*?-----END[A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----|[\s\S]*$)`), 0, []string{"PRIVATE KEY"}, false},
		{"aws-key", regexp.MustCompile(`\b(?:AKIA|ASIA|ABIA|ACCA|AIDA|AROA)[A-Z2-7]{16}\b`), 0, []string{"AKIA", "ASIA", "ABIA", "ACCA", "AIDA", "AROA"}, false},
		{"github-token", regexp.MustCompile(`\b(?:gh[pousr]_[A-Za-z0-9]{36,255}|github_pat_[A-Za-z0-9_]{60,255})\b`), 0, []string{"ghp_", "gho_", "ghu_", "ghs_", "ghr_", "github_pat_"}, false},
		{"gitlab-token", regexp.MustCompile(`\bglpat-[A-Za-z0-9_-]{20,}\b`), 0, []string{"glpat-"}, false},
		{"slack-token", regexp.MustCompile(`\bxox[abposr]-[A-Za-z0-9-]{10,}\b`), 0, []string{"xox"}, false},
		{"slack-webhook", regexp.MustCompile(`https://hooks\.slack\.com/services/[A-Za-z0-9/_-]{20,}`), 0, []string{"hooks.slack.com"}, false},
		{"stripe-key", regexp.MustCompile(`\b(?:sk|rk|pk)_(?:live|test)_[A-Za-z0-9]{20,}\b`), 0, []string{"_live_", "_test_"}, false},
		{"google-api-key", regexp.MustCompile(`\bAIza[0-9A-Za-z_-]{35}\b`), 0, []string{"AIza"}, false},
		{"anthropic-key", regexp.MustCompile(`\bsk-ant-[A-Za-z0-9_-]{20,}`), 0, []string{"sk-ant-"}, false},
		{"openai-key", regexp.MustCompile(`\bsk-(?:proj-|svcacct-|admin-)?[A-Za-z0-9_-]{20,}T3BlbkFJ[A-Za-z0-9_-]{20,}|\bsk-proj-[A-Za-z0-9_-]{40,}`), 0, []string{"sk-"}, false},
		{"npm-token", regexp.MustCompile(`\bnpm_[A-Za-z0-9]{36}\b`), 0, []string{"npm_"}, false},
		{"sendgrid-key", regexp.MustCompile(`\bSG\.[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]{43}\b`), 0, []string{"SG."}, false},
		{"twilio-key", regexp.MustCompile(`\bSK[0-9a-fA-F]{32}\b`), 0, []string{"SK"}, false},
		{"jwt", regexp.MustCompile(`\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}`), 0, []string{"eyJ"}, false},
		// user:password@host in a URL or a connection string: the password only.
		{"password", regexp.MustCompile(`\b[a-zA-Z][a-zA-Z0-9+.-]*://[^:/?#\s@"'<>]*:([^@/?#\s"'<>]{1,256})@`), 1, []string{"://"}, false},
		// "Authorization: Bearer ..." and the like.
		{"authorization", regexp.MustCompile(`(?i)\b(?:authorization|proxy-authorization)["']?\s*[:=]\s*["']?(?:bearer|basic|token|digest)\s+([A-Za-z0-9._~+/=-]{8,})`), 1, []string{"authorization"}, true},
		// password=..., "apiKey": "...", SECRET_TOKEN=...: a secret's name, then its value.
		{"secret", regexp.MustCompile(`(?i)\b[a-z0-9_.-]*(?:password|passwd|secret|token|api[_-]?key|access[_-]?key|private[_-]?key|auth[_-]?key|client[_-]?secret|credentials?)["']?\s*[:=]\s*["']?([^\s"',;&]{6,})`), 1, []string{"password", "passwd", "secret", "token", "key", "credential"}, true},
	}
})

// Redactor replaces secrets; its zero value is off-free: use New.
type Redactor struct {
	off bool
}

// New returns a redactor; on false gives one that changes nothing (--redact=off).
func New(on bool) *Redactor { return &Redactor{off: !on} }

// On reports whether the redactor hides anything.
func (r *Redactor) On() bool { return r != nil && !r.off }

// Text hides every secret-shaped part of s and reports how many it hid.
func (r *Redactor) Text(s string) (string, int) {
	if !r.On() || len(s) < 8 {
		return s, 0
	}
	n := 0
	for _, ru := range rules() {
		if !ru.hinted(s) || !ru.re.MatchString(s) {
			continue
		}
		if ru.group == 0 {
			s = ru.re.ReplaceAllStringFunc(s, func(string) string { n++; return Marker(ru.kind) })
			continue
		}
		s = replaceGroup(s, ru, &n)
	}
	return s, n
}

// replaceGroup replaces the rule's capture group in each match, keeping the rest of the match.
func replaceGroup(s string, ru rule, n *int) string {
	var b strings.Builder
	last := 0
	for _, m := range ru.re.FindAllStringSubmatchIndex(s, -1) {
		start, end := m[2*ru.group], m[2*ru.group+1]
		if start < 0 || strings.HasPrefix(s[start:end], "<redacted:") {
			continue
		}
		b.WriteString(s[last:start])
		b.WriteString(Marker(ru.kind))
		last = end
		*n++
	}
	if last == 0 {
		return s
	}
	b.WriteString(s[last:])
	return b.String()
}

// Named reports whether a variable or property name says it holds a secret: its last word is
// password, secret, token, credential(s), or it is an api/private/secret/access key or an
// authorization ("dbPassword", "API_TOKEN", "apiKey", "x-api-key"), and not a count or a flag
// of one ("tokenCount", "maxTokens", "hasPassword", "publicKey").
func Named(name string) bool {
	w := words(name)
	if len(w) == 0 {
		return false
	}
	last := w[len(w)-1]
	prev := ""
	if len(w) > 1 {
		prev = w[len(w)-2]
	}
	if len(w) > 1 && (w[0] == "has" || w[0] == "is" || w[0] == "use" || w[0] == "needs" || w[0] == "require" || w[0] == "show") {
		return false // a flag about a secret, not the secret
	}
	switch last {
	case "password", "passwd", "passphrase", "secret", "token", "credential", "credentials", "authorization", "apikey", "cookie":
		return true
	case "key":
		return prev == "api" || prev == "private" || prev == "secret" || prev == "access" || prev == "signing" || prev == "encryption" || prev == "auth" || prev == "master"
	case "auth":
		return len(w) == 1 || prev == "basic" || prev == "bearer"
	}
	return false
}

// words splits a name at case changes, digits' edges and separators, lower-cased:
// "dbPassword" -> db password, "API_TOKEN" -> api token, "x-api-key" -> x api key.
func words(name string) []string {
	var out []string
	var cur []rune
	flush := func() {
		if len(cur) > 0 {
			out = append(out, strings.ToLower(string(cur)))
			cur = cur[:0]
		}
	}
	rs := []rune(name)
	for i, c := range rs {
		switch {
		case !unicode.IsLetter(c) && !unicode.IsDigit(c):
			flush()
			continue
		case unicode.IsUpper(c) && len(cur) > 0:
			prevLower := unicode.IsLower(cur[len(cur)-1])
			nextLower := i+1 < len(rs) && unicode.IsLower(rs[i+1])
			if prevLower || (nextLower && unicode.IsUpper(cur[len(cur)-1])) {
				flush()
			}
		}
		cur = append(cur, c)
	}
	flush()
	return out
}

// Value hides the value of a variable or property named like a secret (when it is a non-empty
// string or a value's preview), else the secrets inside it; it reports how many it hid.
func (r *Redactor) Value(name, typ, value string) (string, int) {
	if !r.On() {
		return value, 0
	}
	if Named(name) && value != "" && value != `""` && value != "''" && typ != "undefined" && typ != "boolean" && typ != "number" && typ != "object" && typ != "function" {
		w := words(name)
		return Marker(w[len(w)-1]), 1
	}
	return r.Text(value)
}

// hinted reports whether one of the rule's hints appears in s.
func (ru rule) hinted(s string) bool {
	for _, h := range ru.hints {
		if ru.fold && containsFold(s, h) || !ru.fold && strings.Contains(s, h) {
			return true
		}
	}
	return false
}

// containsFold reports whether s holds the lower-case ASCII word h in any case.
func containsFold(s, h string) bool {
	for i := 0; i+len(h) <= len(s); i++ {
		j := 0
		for j < len(h) && s[i+j]|0x20 == h[j] {
			j++
		}
		if j == len(h) {
			return true
		}
	}
	return false
}
