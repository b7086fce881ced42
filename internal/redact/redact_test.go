package redact

import (
	"strings"
	"testing"
)

// secrets is a seeded set of credential shapes, each inside the kind of text traced shows (a
// console line, an error message, a preview). Recall must be total.
var secrets = []struct{ text, secret string }{
	{"key AKIAIOSFODNN7EXAMPLE loaded", "AKIAIOSFODNN7EXAMPLE"},
	{"ASIAY34FZKBOKMUTVV7A", "ASIAY34FZKBOKMUTVV7A"},
	{"token=ghp_1234567890abcdefghijABCDEFGHIJ123456", "ghp_1234567890abcdefghijABCDEFGHIJ123456"},
	{"github_pat_11ABCDEFG0123456789_abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789", "github_pat_11ABCDEFG0123456789_abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"},
	{"GITLAB glpat-abcdefghij0123456789", "glpat-abcdefghij0123456789"},
	{"xoxb-123456789012-1234567890123-AbCdEfGhIjKlMnOpQrStUvWx", "xoxb-123456789012-1234567890123-AbCdEfGhIjKlMnOpQrStUvWx"},
	{"stripe sk_live_51HxYzAbCdEfGhIjKlMnOpQr", "sk_live_51HxYzAbCdEfGhIjKlMnOpQr"},
	{"AIzaSyA-1234567890abcdefghijklmnopqrstu", "AIzaSyA-1234567890abcdefghijklmnopqrstu"},
	{"sk-ant-api03-abcdefghijklmnopqrstuvwxyz0123456789", "sk-ant-api03-abcdefghijklmnopqrstuvwxyz0123456789"},
	{"sk-proj-abcdefghijklmnopqrstuvwxyz0123456789ABCDEFGHIJKL", "sk-proj-abcdefghijklmnopqrstuvwxyz0123456789ABCDEFGHIJKL"},
	{"npm_abcdefghijklmnopqrstuvwxyz0123456789", "npm_abcdefghijklmnopqrstuvwxyz0123456789"},
	{"SG.abcdefghijklmnopqrstuv.abcdefghijklmnopqrstuvwxyz0123456789ABCDEFG", "SG.abcdefghijklmnopqrstuv.abcdefghijklmnopqrstuvwxyz0123456789ABCDEFG"},
	{"auth eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U ok", "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U"},
	{"-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEA\n-----END RSA PRIVATE KEY-----", "MIIEowIBAAKCAQEA"},
	{"-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAA (cut)", "b3BlbnNzaC1rZXktdjEAAAAA"},
	{"connecting to postgres://app:s3cr3tPass@db.internal:5432/shop", "s3cr3tPass"},
	{"mongodb+srv://admin:hunter2hunter2@cluster0.mongodb.net/test", "hunter2hunter2"},
	{"redis://:verysecretpw@localhost:6379", "verysecretpw"},
	{"Authorization: Bearer abcdef0123456789abcdef", "abcdef0123456789abcdef"},
	{`{"authorization":"Basic dXNlcjpwYXNzd29yZA=="}`, "dXNlcjpwYXNzd29yZA=="},
	{"password=correct-horse-battery", "correct-horse-battery"},
	{`{ password: 'hunter22', user: 'bob' }`, "hunter22"},
	{`DB_PASSWORD="p@ssw0rd!!"`, "p@ssw0rd!!"},
	{"API_KEY=abcd1234efgh5678", "abcd1234efgh5678"},
	{`"apiKey": "k-9f8e7d6c5b4a"`, "k-9f8e7d6c5b4a"},
	{"client_secret: 0a1b2c3d4e5f", "0a1b2c3d4e5f"},
	{"SECRET_TOKEN=zyxwvu987654", "zyxwvu987654"},
	{"sessionToken = 'abc123def456'", "abc123def456"},
	{"https://hooks.slack.com/services/T00000000/B00000000/XXXXXXXXXXXXXXXXXXXXXXXX", "T00000000/B00000000/XXXXXXXXXXXXXXXXXXXXXXXX"},
	{"SK0123456789abcdef0123456789abcdef", "SK0123456789abcdef0123456789abcdef"},
}

// ordinary values must pass unchanged.
var ordinary = []string{
	"PATH=/usr/local/bin:/usr/bin:/bin",
	"PWD=/home/user/project",
	"tokenCount: 4096",
	"max_tokens=4096",
	"tokenizer=cl100k_base",
	"passwordLength: 12",
	"hasPassword: true",
	"commit 3f786850e387550fdab836ed7e6dc881de23001b",
	"id 123e4567-e89b-12d3-a456-426614174000",
	"https://example.com/api/v1/users?id=42",
	"http://localhost:3000/",
	"sha256-47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU=",
	"listening on :8080",
	"Error: ENOENT: no such file or directory, open '/etc/app/config.json'",
	"at Object.<anonymous> (/app/src/index.js:12:5)",
	"expected 6 to be 7 // Object.is equality",
	"user bob logged in from 10.0.0.7",
	"the secret of the recipe is love",
	"token: 5",
	"key=value",
	"ssh://git@github.com/org/repo.git",
	"data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==",
	"publicKey: 'MFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAE'",
	"AKIA is a prefix",
	"sk-short",
	"function verifyPassword(input) {",
	"monkey=banana12345",
}

func TestRecall(t *testing.T) {
	r := New(true)
	for _, c := range secrets {
		got, n := r.Text(c.text)
		if n == 0 || strings.Contains(got, c.secret) || !strings.Contains(got, "<redacted:") {
			t.Errorf("%q -> %q (%d): the secret shows", c.text, got, n)
		}
	}
}

func TestNoFalsePositives(t *testing.T) {
	r := New(true)
	for _, s := range ordinary {
		if got, n := r.Text(s); got != s || n != 0 {
			t.Errorf("%q -> %q (%d), want it unchanged", s, got, n)
		}
	}
}

func TestNamed(t *testing.T) {
	yes := []string{"password", "dbPassword", "DB_PASSWORD", "secret", "clientSecret", "token", "accessToken", "API_TOKEN",
		"apiKey", "api_key", "x-api-key", "privateKey", "authorization", "Authorization", "credentials", "auth", "cookie", "passphrase"}
	no := []string{"PATH", "PWD", "tokenCount", "maxTokens", "tokens", "hasPassword", "isSecret", "publicKey", "key", "keys",
		"monkey", "author", "authorName", "passwordLength", "tokenizer", "secretary", "id", "user"}
	for _, n := range yes {
		if !Named(n) {
			t.Errorf("Named(%q) = false", n)
		}
	}
	for _, n := range no {
		if Named(n) {
			t.Errorf("Named(%q) = true", n)
		}
	}
}

func TestValue(t *testing.T) {
	r := New(true)
	if v, n := r.Value("dbPassword", "string", "'hunter2'"); v != "<redacted:password>" || n != 1 {
		t.Fatalf("dbPassword -> %q %d", v, n)
	}
	if v, n := r.Value("tokenCount", "number", "4096"); v != "4096" || n != 0 {
		t.Fatalf("tokenCount -> %q %d", v, n)
	}
	if v, n := r.Value("config", "object", "{password: 'hunter22', host: 'db'}"); strings.Contains(v, "hunter22") || n != 1 {
		t.Fatalf("config -> %q %d", v, n)
	}
	if v, n := New(false).Value("password", "string", "'hunter2'"); v != "'hunter2'" || n != 0 {
		t.Fatalf("off: %q %d", v, n)
	}
}

// BenchmarkText: the cost a captured line pays, for an ordinary line and one with a secret.
func BenchmarkText(b *testing.B) {
	r := New(true)
	for _, c := range []struct{ name, s string }{
		{"ordinary", "GET /api/users/42 200 12ms user=bob agent=curl/8.5.0"},
		{"secret", "connecting to postgres://app:s3cr3tPass@db.internal:5432/shop"},
	} {
		b.Run(c.name, func(b *testing.B) {
			for b.Loop() {
				r.Text(c.s)
			}
		})
	}
}
