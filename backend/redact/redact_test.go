package redact

import (
	"errors"
	"strings"
	"testing"
	"unicode/utf8"
)

// Realistic secrets the tests scrub: a hosted-cloud style API key, an app token (32 random
// bytes in base64url after the prefix), a hex key.
const (
	cloudKey = "WVF5YThaHlkYwhGUSmCRgsX3tD5ngdN8pkih"
	appToken = "app_q3Zb1xX8V0kq2Jw5Yp7Lr9tN4mC6eH1sA0dF2gK8uQ"
	hexKey   = "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08"
	uuid1    = "0f8fad5b-d9cb-469f-a165-70867728950e"
)

// SPEC B Errors 5 / issue 11: secrets never leave the process. Each case is named after the
// rule it proves; want is the exact redacted text.
func TestRedactRules(t *testing.T) {
	r := New("s3cr3t-local-key", "correct horse battery staple")
	cases := []struct {
		rule, in, want string
	}{
		{"known secret", "Authentication failed: key s3cr3t-local-key rejected", "Authentication failed: key [REDACTED] rejected"},
		{"known secret with spaces inside", `password "correct horse battery staple" refused`, `password "[REDACTED]" refused`},
		{"known secret overlapping itself", "s3cr3t-local-keys3cr3t-local-key!", "[REDACTED]!"},
		{"bearer token", "sent Authorization: Bearer xyz to the node", "sent Authorization: Bearer [REDACTED] to the node"},
		{"bearer token in any case", "bearer abc.def-ghi_jkl~mno+pq/rs==", "bearer [REDACTED]"},
		{"authorization header", "Authorization: Basic dXNlcjpwYXNz", "Authorization: Basic [REDACTED]"},
		{"authorization header without scheme", `{"authorization":"tok-123"}`, `{"authorization":"[REDACTED]"}`},
		{"app token", "token " + appToken + " revoked", "token app_[REDACTED] revoked"},
		{"url userinfo", "Connection failed: Get https://admin:hunter2@db.local:8080/v1/meta", "Connection failed: Get https://[REDACTED]@db.local:8080/v1/meta"},
		{"url userinfo with @ in the password", "postgres://u:p@ss@127.0.0.1/db", "postgres://[REDACTED]@127.0.0.1/db"},
		{"url userinfo, user only", "https://keyonly@host/x", "https://[REDACTED]@host/x"},
		{"secret parameter apikey", "GET /v1/objects?apikey=abc123&limit=5", "GET /v1/objects?apikey=[REDACTED]&limit=5"},
		{"secret parameter api_key", "http://127.0.0.1/?a=1&api_key=zz9&b=2", "http://127.0.0.1/?a=1&api_key=[REDACTED]&b=2"},
		{"secret parameter token", "url=http://x/?token=abc#frag", "url=http://x/?token=[REDACTED]#frag"},
		{"secret parameter key", "dsn host=x key=abc port=1", "dsn host=x key=[REDACTED] port=1"},
		{"secret parameter password, quoted", `level=info password="two words" msg=hi`, `level=info password=[REDACTED] msg=hi`},
		{"secret parameter, not a suffix of another name", "primary_key=7 monkey=1 tokens=3", "primary_key=7 monkey=1 tokens=3"},
		{"secret json member", `{"apiKey":"abc\"def","host":"x"}`, `{"apiKey":"[REDACTED]","host":"x"}`},
		{"secret json member, spaced", `{"password" : "pw", "token": ""}`, `{"password" : "[REDACTED]", "token": ""}`},
		{"long key-like run", "Authentication failed: key " + cloudKey + " is not valid", "Authentication failed: key [REDACTED] is not valid"},
		{"long hex run", "sha " + hexKey + ".", "sha [REDACTED]."},
		{"long run next to a UUID", uuid1 + "-" + cloudKey, uuid1 + "-[REDACTED]"},
		{"UUIDs are never mangled", "object " + uuid1 + " in connection/" + uuid1 + "/apiKey", "object " + uuid1 + " in connection/" + uuid1 + "/apiKey"},
		{"UUIDs in upper case and back to back are never mangled", strings.ToUpper(uuid1) + "-" + uuid1, strings.ToUpper(uuid1) + "-" + uuid1},
		{"short hex is kept", "md5 d41d8cd98f00b204e9800998ecf8427e ok", "md5 d41d8cd98f00b204e9800998ecf8427e ok"},
		{"paths are kept", "/home/runner/work/app/backend/mcpfeatures/tools/list_connections.go:12", "/home/runner/work/app/backend/mcpfeatures/tools/list_connections.go:12"},
		{"ordinary text is kept", "Connection failed: dial tcp 127.0.0.1:8080: connect: connection refused", "Connection failed: dial tcp 127.0.0.1:8080: connect: connection refused"},
		{"GraphQL is kept", `{Get{Article(limit:10,where:{path:["title"],operator:Equal,valueText:"x"}){title _additional{id}}}}`, `{Get{Article(limit:10,where:{path:["title"],operator:Equal,valueText:"x"}){title _additional{id}}}}`},
		{"long words are kept", "Supercalifragilisticexpialidocious_and_more_words", "Supercalifragilisticexpialidocious_and_more_words"},
		{"empty", "", ""},
	}
	for _, c := range cases {
		t.Run(c.rule, func(t *testing.T) {
			got := r.String(c.in)
			if got != c.want {
				t.Fatalf("String(%q)\n got %q\nwant %q", c.in, got, c.want)
			}
			if again := r.String(got); again != got {
				t.Fatalf("not idempotent: %q -> %q", got, again)
			}
		})
	}
}

// Every rule named in the package has a case above (a new rule needs a test).
func TestEveryRuleIsTested(t *testing.T) {
	tested := map[string]bool{"bearer token": true, "authorization header": true, "app token": true, "url userinfo": true,
		"secret parameter": true, "secret json member": true, "long key-like run": true}
	for _, n := range RuleNames() {
		if !tested[n] {
			t.Errorf("rule %q has no case in TestRedactRules", n)
		}
	}
}

func TestAdd(t *testing.T) {
	t.Run("short secrets are ignored so ordinary text survives", func(t *testing.T) {
		r := New("abc", "  ")
		if got := r.String("abc abc"); got != "abc abc" {
			t.Fatalf("got %q", got)
		}
	})
	t.Run("a secret inside the mask is ignored", func(t *testing.T) {
		r := New("REDACT")
		if r.Known("REDACT") {
			t.Fatal("accepted")
		}
	})
	t.Run("surrounding white space is not part of a secret", func(t *testing.T) {
		r := New("  hunter22\n")
		if got := r.String("pw hunter22."); got != "pw [REDACTED]." {
			t.Fatalf("got %q", got)
		}
	})
	t.Run("the longest of two overlapping secrets is masked whole", func(t *testing.T) {
		r := New("abcdef", "abcdefghij")
		if got := r.String("x abcdefghij y"); got != "x [REDACTED] y" {
			t.Fatalf("got %q", got)
		}
	})
	t.Run("a masked secret cannot form another one", func(t *testing.T) {
		r := New("hunter2", "ED]xyz")
		got := r.String("hunter2xyz")
		if strings.Contains(got, "hunter2") || strings.Contains(got, "ED]xyz") {
			t.Fatalf("got %q", got)
		}
	})
}

func TestDefault(t *testing.T) {
	t.Run("Error redacts with the default redactor and is empty for nil", func(t *testing.T) {
		AddSecret("default-secret-42")
		if Error(nil) != "" {
			t.Fatal("nil error")
		}
		if got := Error(errors.New("bad default-secret-42")); got != "bad [REDACTED]" {
			t.Fatalf("got %q", got)
		}
		if got := String("Bearer x"); got != "Bearer [REDACTED]" {
			t.Fatalf("got %q", got)
		}
	})
}

// FuzzRedact: never panics, the output never contains a known secret, and redaction is
// idempotent.
func FuzzRedact(f *testing.F) {
	f.Add("Bearer abc", "hunter22")
	f.Add("https://u:p@h/?apikey=x&token=y", "apikey=x")
	f.Add(cloudKey+" "+uuid1, cloudKey)
	f.Add("hunter2xyz", "ED]xyz")
	f.Add(`{"apiKey":"\"`, `\"\"\"\"`)
	f.Add("[REDACTED]]]", "]]]]]]")
	f.Add("Authorization: Basic [REDACTED] x", "Basic [")
	f.Fuzz(func(t *testing.T, text, secret string) {
		r := New(secret)
		out := r.String(text)
		if r.Known(secret) && strings.Contains(out, strings.TrimSpace(secret)) {
			t.Fatalf("secret %q survives in %q (input %q)", secret, out, text)
		}
		// The secret spliced into the text is gone too.
		spliced := text + secret + text
		if o := r.String(spliced); r.Known(secret) && strings.Contains(o, strings.TrimSpace(secret)) {
			t.Fatalf("secret %q survives in %q", secret, o)
		}
		if again := r.String(out); again != out {
			t.Fatalf("not idempotent: %q -> %q -> %q", text, out, again)
		}
		if utf8.ValidString(text) && !utf8.ValidString(out) {
			t.Fatalf("valid UTF-8 %q became invalid %q", text, out)
		}
	})
}

func BenchmarkRedactLogLine(b *testing.B) {
	r := New(cloudKey)
	line := `level=info msg="MCP request" client=claude-code method=tools/call tool=execute_query connection=` + uuid1 + ` duration=12ms`
	for b.Loop() {
		_ = r.String(line)
	}
}
