// Package redact removes secrets from text before it leaves the process: the app log, the
// activity log and error text sent to MCP clients all go through one function family,
// Redactor.String (and the package-level String and Error over the process's Default).
//
// Two kinds of secret are scrubbed:
//
//   - known secrets: exact strings the app holds (saved API keys, tokens), added with Add as
//     soon as they are read, so they are caught however a driver or a server echoes them;
//   - patterns, for secrets nobody registered: bearer credentials, Authorization header
//     values, app tokens (app_ + base64url), user:password@ in URLs, secret-named query or
//     assignment values (apikey=, api_key=, token=, key=, password=, ...), secret-named JSON
//     members ("apiKey": "..."), and long runs that look like base64 or hex keys.
//
// UUIDs are never touched: the app shows them everywhere (object ids, connection ids), so
// the long-run rule treats every UUID as a separator.
//
// The result is a fixed point: redacting redacted text changes nothing, and it never
// contains a known secret.
package redact

import (
	"regexp"
	"sort"
	"strings"
	"sync"
	"unicode/utf8"
)

// Mask replaces every secret.
const Mask = "[REDACTED]"

// MinSecretLen is the shortest known secret Add accepts: scrubbing shorter strings would
// mangle ordinary text, and no key or token is that short.
const MinSecretLen = 6

// maxPasses bounds the passes String makes to reach a fixed point; text that does not
// settle within them (only contrived input, where masking one secret forms another) is
// replaced whole by Mask.
const maxPasses = 8

// Redactor scrubs known secrets and the built-in patterns. It is safe for concurrent use;
// the zero value scrubs the patterns only.
type Redactor struct {
	mu      sync.RWMutex
	secrets []string // unique, longest first
}

// New returns a Redactor that also scrubs the given secrets (see Add).
func New(secrets ...string) *Redactor {
	r := &Redactor{}
	r.Add(secrets...)
	return r
}

var defaultRedactor = New()

// Default is the process's Redactor: the app log and the activity log use it, and code that
// reads a secret adds it here.
func Default() *Redactor { return defaultRedactor }

// String redacts s with Default.
func String(s string) string { return defaultRedactor.String(s) }

// Error is the redacted text of err ("" for nil), with Default.
func Error(err error) string { return defaultRedactor.Error(err) }

// AddSecret adds known secrets to Default.
func AddSecret(secrets ...string) { defaultRedactor.Add(secrets...) }

// Add registers exact strings to scrub. Strings shorter than MinSecretLen, that are not
// UTF-8, or that occur inside Mask, are ignored (the first would mangle ordinary text, the
// second could split a character, the third could never be masked away); surrounding white
// space is not part of a secret.
func (r *Redactor) Add(secrets ...string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	changed := false
	for _, s := range secrets {
		s = strings.TrimSpace(s)
		if len(s) < MinSecretLen || !utf8.ValidString(s) || strings.Contains(Mask, s) || containsString(r.secrets, s) {
			continue
		}
		r.secrets = append(r.secrets, s)
		changed = true
	}
	if changed {
		sort.SliceStable(r.secrets, func(i, j int) bool { return len(r.secrets[i]) > len(r.secrets[j]) })
	}
}

// Known reports whether s is a registered secret.
func (r *Redactor) Known(s string) bool {
	r.mu.RLock()
	defer r.mu.RUnlock()
	return containsString(r.secrets, strings.TrimSpace(s))
}

func containsString(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}

// String returns s with every known secret and every pattern match replaced by Mask.
func (r *Redactor) String(s string) string {
	if s == "" {
		return s
	}
	r.mu.RLock()
	secrets := r.secrets
	r.mu.RUnlock()
	for range maxPasses {
		next := pass(s, secrets)
		if next == s {
			return s
		}
		s = next
	}
	return Mask
}

// Error is the redacted text of err, "" for nil.
func (r *Redactor) Error(err error) string {
	if err == nil {
		return ""
	}
	return r.String(err.Error())
}

// pass applies the known secrets, then each rule once.
func pass(s string, secrets []string) string {
	s = maskKnown(s, secrets)
	for _, rl := range rules {
		s = rl.apply(s)
	}
	return s
}

type span struct{ from, to int }

// maskKnown masks every occurrence of every secret, overlapping ones merged into one Mask.
func maskKnown(s string, secrets []string) string {
	var spans []span
	for _, sec := range secrets {
		for i := 0; i <= len(s)-len(sec); {
			j := strings.Index(s[i:], sec)
			if j < 0 {
				break
			}
			spans = append(spans, span{i + j, i + j + len(sec)})
			i += j + 1
		}
	}
	return maskSpans(s, spans)
}

// maskSpans replaces the union of spans with one Mask per connected stretch.
func maskSpans(s string, spans []span) string {
	if len(spans) == 0 {
		return s
	}
	sort.Slice(spans, func(i, j int) bool { return spans[i].from < spans[j].from })
	var b strings.Builder
	b.Grow(len(s))
	at := 0
	for i := 0; i < len(spans); {
		from, to := spans[i].from, spans[i].to
		for i++; i < len(spans) && spans[i].from <= to; i++ {
			to = max(to, spans[i].to)
		}
		b.WriteString(s[at:from])
		b.WriteString(Mask)
		at = to
	}
	b.WriteString(s[at:])
	return b.String()
}

// rule is one pattern: re finds candidates, mask returns the spans to mask within a match
// (given the submatch indexes) — usually one group, the value, keeping the name before it.
type rule struct {
	name string
	re   *regexp.Regexp
	mask func(s string, m []int) []span
}

func (rl rule) apply(s string) string {
	var spans []span
	for _, m := range rl.re.FindAllStringSubmatchIndex(s, -1) {
		spans = append(spans, rl.mask(s, m)...)
	}
	return maskSpans(s, spans)
}

// group masks submatch n.
func group(n int) func(string, []int) []span {
	return func(_ string, m []int) []span {
		if m[2*n] < 0 || m[2*n] == m[2*n+1] {
			return nil
		}
		return []span{{m[2*n], m[2*n+1]}}
	}
}

// secretNames are the parameter, assignment and JSON member names whose values are secret.
const secretNames = `api[_-]?key|apikey|access[_-]?token|refresh[_-]?token|id[_-]?token|auth[_-]?token|` +
	`client[_-]?secret|token|key|password|passwd|pwd|secret`

// rules are the patterns, in the order they run. Each is named after what it removes; the
// tests use the names.
var rules = []rule{
	{
		// RFC 6750 b64token after the Bearer scheme, any case.
		name: "bearer token",
		re:   regexp.MustCompile(`(?i)\bbearer(?:\s+)([A-Za-z0-9\-._~+/]+=*)`),
		mask: group(1),
	},
	{
		// The credentials of an Authorization header, whatever the scheme (Basic, Token, ...).
		name: "authorization header",
		re:   regexp.MustCompile(`(?i)\b(?:proxy-)?authorization"?\s*[:=]\s*"?([A-Za-z0-9\-._~+/]+=*)(?:[ \t]+([^\s,;"'\[\]{}]+))?`),
		mask: maskAuthorization,
	},
	{
		// The app's own MCP tokens: app_ and base64url; the prefix stays readable.
		name: "app token",
		re:   regexp.MustCompile(`\bapp_([A-Za-z0-9_-]{16,})`),
		mask: group(1),
	},
	{
		// Everything between scheme:// and the last @ of the authority.
		name: "url userinfo",
		re:   regexp.MustCompile(`[A-Za-z][A-Za-z0-9+.\-]*://([^/?#\s"'<>]*)@`),
		mask: group(1),
	},
	{
		// name=value in a query string, a form, a log line or a DSN.
		name: "secret parameter",
		re:   regexp.MustCompile(`(?i)(?:^|[?&;\s,({\[])(?:` + secretNames + `)=("[^"]*"|[^&\s#"'<>,;(){}\[\]]+)`),
		mask: group(1),
	},
	{
		// "apiKey": "value" in JSON text (a driver's echoed request, arguments).
		name: "secret json member",
		re:   regexp.MustCompile(`(?i)"(?:` + secretNames + `|authorization)"\s*:\s*"((?:[^"\\]|\\.)*)"`),
		mask: group(1),
	},
	{
		name: "long key-like run",
		re:   regexp.MustCompile(`[A-Za-z0-9+_\-]{32,}={0,2}`),
		mask: maskLongRuns,
	},
}

// maskAuthorization masks the credentials after the scheme ("Basic xyz"), or the one
// word when there is no scheme ("authorization=xyz"); a scheme already followed by Mask is
// done.
func maskAuthorization(s string, m []int) []span {
	if m[4] >= 0 {
		return []span{{m[4], m[5]}}
	}
	if strings.HasPrefix(strings.TrimLeft(s[m[1]:], " \t"), Mask) {
		return nil
	}
	return []span{{m[2], m[3]}}
}

var uuidRE = regexp.MustCompile(`[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}`)

// Long runs: a hex run of at least minHexRun characters (SHA-1 and longer digests, hex
// keys), or a base64-looking run of at least minB64Run characters that mixes upper case,
// lower case and digits (random keys do; words, identifiers and paths rarely do). '/' ends
// a run, so file paths are judged segment by segment, and UUIDs split a run without being
// part of any piece.
const (
	minHexRun = 40
	minB64Run = 32
)

func maskLongRuns(s string, m []int) []span {
	from, to := m[0], m[1]
	run := s[from:to]
	var spans []span
	at := 0
	judge := func(a, b int) {
		for a < b && (run[a] == '-' || run[a] == '_') {
			a++
		}
		for b > a && (run[b-1] == '-' || run[b-1] == '_') {
			b--
		}
		if keyLike(run[a:b]) {
			spans = append(spans, span{from + a, from + b})
		}
	}
	for _, u := range uuidRE.FindAllStringIndex(run, -1) {
		judge(at, u[0])
		at = u[1]
	}
	judge(at, len(run))
	return spans
}

func keyLike(piece string) bool {
	core := strings.TrimRight(piece, "=")
	if len(core) < minB64Run {
		return false
	}
	var hex, upper, lower, digit = true, false, false, false
	for i := 0; i < len(core); i++ {
		c := core[i]
		switch {
		case c >= '0' && c <= '9':
			digit = true
		case c >= 'a' && c <= 'z':
			lower = true
			hex = hex && c <= 'f'
		case c >= 'A' && c <= 'Z':
			upper = true
			hex = hex && c <= 'F'
		default:
			hex = false
		}
	}
	if hex && len(core) >= minHexRun {
		return true
	}
	return upper && lower && digit
}

// RuleNames lists the pattern rules in the order they run.
func RuleNames() []string {
	names := make([]string, len(rules))
	for i, rl := range rules {
		names[i] = rl.name
	}
	return names
}
