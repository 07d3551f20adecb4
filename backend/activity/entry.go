package activity

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"app/backend/mcp"
	"app/backend/redact"
)

// Entry is one recorded request. Text fields are redacted before they are stored.
type Entry struct {
	ID            int64     `json:"id"`
	Time          time.Time `json:"time"`
	ClientName    string    `json:"clientName"`
	ClientVersion string    `json:"clientVersion"`
	// Principal is the caller's principal id ("token:<id>", "anonymous"; "" when
	// authentication failed); TokenName and Level describe it to people.
	Principal string `json:"principal"`
	TokenName string `json:"tokenName"`
	Level     string `json:"level"`
	// Method is the JSON-RPC method; Name the tool or prompt name or the resource URI.
	Method string `json:"method"`
	Name   string `json:"name"`
	// Connection is the connection id the request named, if any.
	Connection string `json:"connection"`
	// Statement is the query or statement argument, or the compact JSON of the arguments;
	// redacted and capped at MaxStatementRunes.
	Statement string `json:"statement"`
	// Outcome is OutcomeOK, a tool error code (e.g. "query_failed") or a protocol error code
	// (e.g. "-33007").
	Outcome    string `json:"outcome"`
	DurationMS int64  `json:"durationMs"`
	PrevHash   string `json:"prevHash"`
	Hash       string `json:"hash"`
	// Trace is the request's W3C traceparent (trace and span ids, no user data), so a request
	// can be found from the client's own trace; tracestate and baggage may carry a vendor's
	// or a user's data and are not kept.
	Trace string `json:"trace,omitempty"`

	// rawTime is the stored time text of an entry read back (what its hash covers).
	rawTime string
}

// Outcomes that are not error codes.
const (
	OutcomeOK = "ok"
	// OutcomeDropped marks the entry the writer adds when the queue was full.
	OutcomeDropped = "dropped"
)

// MaxStatementRunes caps a stored statement (the spec's approval statement length).
const MaxStatementRunes = 2000

// rawStatementCap bounds what an Observer keeps of a statement before it is redacted and
// capped in the writer: generous enough that a secret straddling MaxStatementRunes is still
// seen whole by the redactor, small enough that a full queue stays a few megabytes.
const rawStatementCap = 16 << 10

// TimeLayout is how times are stored: UTC, fixed width, so text order is time order.
const TimeLayout = "2006-01-02T15:04:05.000000Z"

// GenesisHash is the prev_hash of the first entry ever written.
var GenesisHash = strings.Repeat("0", 64)

// hashVersion starts the canonical encoding; a new encoding gets a new version.
const hashVersion = "app-activity-v1"

// computeHash is SHA-256 (hex) over the previous hash and a canonical encoding of the
// fields: each as its byte length, a colon, the bytes and a newline, in a fixed order, so
// no two different entries encode alike.
func computeHash(e *Entry) string {
	// One stack buffer for the usual entry: the writer hashes every request it records.
	var scratch [512]byte
	b := append(scratch[:0], hashVersion...)
	b = append(b, '\n')
	field := func(s string) {
		b = strconv.AppendInt(b, int64(len(s)), 10)
		b = append(b, ':')
		b = append(b, s...)
		b = append(b, '\n')
	}
	num := func(n int64) {
		var d [20]byte
		digits := strconv.AppendInt(d[:0], n, 10)
		b = strconv.AppendInt(b, int64(len(digits)), 10)
		b = append(b, ':')
		b = append(b, digits...)
		b = append(b, '\n')
	}
	field(e.PrevHash)
	num(e.ID)
	if e.rawTime != "" {
		field(e.rawTime)
	} else {
		field(formatTime(e.Time))
	}
	field(e.ClientName)
	field(e.ClientVersion)
	field(e.Principal)
	field(e.TokenName)
	field(e.Level)
	field(e.Method)
	field(e.Name)
	field(e.Connection)
	field(e.Statement)
	field(e.Outcome)
	num(e.DurationMS)
	// Added in schema 2, and only when set, so every entry written before keeps its hash.
	if e.Trace != "" {
		field("trace")
		field(e.Trace)
	}
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

// formatTime is t in TimeLayout, written by hand for the years 0 to 9999 (the writer formats
// every entry's time; time.Format's general layout walk cost a tenth of the writer's CPU).
func formatTime(t time.Time) string {
	t = t.UTC()
	year, month, day := t.Date()
	if year < 0 || year > 9999 {
		return t.Format(TimeLayout)
	}
	hour, minute, sec := t.Clock()
	var b [len(TimeLayout)]byte
	put := func(at, width, v int) {
		for i := at + width - 1; i >= at; i-- {
			b[i] = byte('0' + v%10)
			v /= 10
		}
	}
	put(0, 4, year)
	b[4] = '-'
	put(5, 2, int(month))
	b[7] = '-'
	put(8, 2, day)
	b[10] = 'T'
	put(11, 2, hour)
	b[13] = ':'
	put(14, 2, minute)
	b[16] = ':'
	put(17, 2, sec)
	b[19] = '.'
	put(20, 6, t.Nanosecond()/1000)
	b[26] = 'Z'
	return string(b[:])
}

func parseTime(s string) (time.Time, error) { return time.Parse(TimeLayout, s) }

// FromRecord is the entry of one answered MCP request, before redaction: the Observer builds
// it on the request goroutine (cheap: a bounded copy of the statement), the writer redacts
// and caps it.
func FromRecord(rec mcp.Record) Entry {
	e := Entry{
		Time:       rec.Start,
		Principal:  rec.Principal.ID,
		TokenName:  rec.Principal.Name,
		Level:      rec.Principal.Level,
		Method:     rec.Method,
		Name:       rec.Name,
		Outcome:    outcome(rec),
		DurationMS: rec.Duration.Milliseconds(),
		Trace:      traceparent(rec.Traceparent),
	}
	if e.Time.IsZero() {
		e.Time = time.Now()
	}
	if rec.Client != nil {
		e.ClientName, e.ClientVersion = rec.Client.Name, rec.Client.Version
	}
	e.Connection, e.Statement = fromArguments(rec.Arguments)
	if e.Connection == "" && rec.Method == "resources/read" {
		e.Connection = connectionOfURI(rec.Name)
	}
	return e
}

// traceparent keeps a W3C traceparent that has its shape (version-traceid-spanid-flags, 55
// characters of lowercase hex and dashes), and nothing else: it is a client's text.
func traceparent(s string) string {
	if len(s) != 55 || s[2] != '-' || s[35] != '-' || s[52] != '-' {
		return ""
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c != '-' && (c < '0' || c > '9') && (c < 'a' || c > 'f') {
			return ""
		}
	}
	return s
}

func outcome(rec mcp.Record) string {
	switch {
	case rec.ErrorCode != 0:
		return strconv.Itoa(rec.ErrorCode)
	case rec.ToolError != "":
		return rec.ToolError
	}
	return OutcomeOK
}

// fromArguments finds the connection ("connection" or "connectionId") and the statement
// ("query" or "statement", else the compact arguments) of tools/call or prompts/get.
func fromArguments(args json.RawMessage) (connection, statement string) {
	args = bytes.TrimSpace(args)
	if len(args) == 0 || string(args) == "null" || string(args) == "{}" {
		return "", ""
	}
	var members map[string]json.RawMessage
	if json.Unmarshal(args, &members) == nil {
		for _, k := range []string{"connection", "connectionId", "connection_id"} {
			if s, ok := jsonString(members[k]); ok && s != "" {
				connection = s
				break
			}
		}
		for _, k := range []string{"query", "statement"} {
			if s, ok := jsonString(members[k]); ok {
				return connection, capBytes(s, rawStatementCap)
			}
		}
	}
	var b bytes.Buffer
	if json.Compact(&b, args) != nil {
		return connection, capBytes(string(args), rawStatementCap)
	}
	return connection, capBytes(b.String(), rawStatementCap)
}

func jsonString(raw json.RawMessage) (string, bool) {
	if len(raw) == 0 || raw[0] != '"' {
		return "", false
	}
	var s string
	if json.Unmarshal(raw, &s) != nil {
		return "", false
	}
	return s, true
}

// connectionOfURI is the id of app://connections/{id}.
func connectionOfURI(uri string) string {
	const prefix = "app://connections/"
	if !strings.HasPrefix(uri, prefix) {
		return ""
	}
	id := uri[len(prefix):]
	if i := strings.IndexAny(id, "/?#"); i >= 0 {
		id = id[:i]
	}
	return id
}

// capBytes cuts s to at most n bytes on a character boundary.
func capBytes(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}

// capRunes cuts s to at most n characters, marking a cut with an ellipsis.
func capRunes(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	count := 0
	for i := range s {
		if count == n-1 {
			return s[:i] + "…"
		}
		count++
	}
	return s
}

// redactEntryCached redacts every free-text field (clients choose their names and versions
// too) and caps the statement: redaction first, so a secret is never cut in half and left. The
// short fields' redactions are kept in seen, for a batch in which they repeat.
func redactEntryCached(e *Entry, r *redact.Redactor, seen map[string]string) {
	clean := func(s string) string { return strings.ToValidUTF8(r.String(s), "\uFFFD") }
	for _, f := range []*string{&e.ClientName, &e.ClientVersion, &e.TokenName, &e.Method, &e.Name, &e.Connection, &e.Outcome} {
		v, ok := seen[*f]
		if !ok {
			v = clean(*f)
			seen[*f] = v
		}
		*f = v
	}
	e.Statement = capRunes(clean(e.Statement), MaxStatementRunes)
	// Not redacted (ids the app made, a level, a checked traceparent), but stored as valid
	// UTF-8 like the rest, so a block reads back the bytes that were hashed.
	for _, f := range []*string{&e.Principal, &e.Level, &e.Trace} {
		*f = strings.ToValidUTF8(*f, "\uFFFD")
	}
	e.Time = e.Time.UTC().Truncate(time.Microsecond)
}

// Observe is an mcp.Observer: it queues the request's entry and returns at once.
func (l *Log) Observe(rec mcp.Record) { l.Append(FromRecord(rec)) }
