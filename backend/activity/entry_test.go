package activity

import (
	"encoding/json"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"app/backend/mcp"
	"app/backend/redact"
)

// Issue 11, "The activity log": every request is recorded with its client, token, method,
// tool, connection, statement (redacted, capped) and outcome.
func TestFromRecord(t *testing.T) {
	long := strings.Repeat("é", MaxStatementRunes+50)
	cases := []struct {
		rule string
		rec  mcp.Record
		want Entry
	}{
		{"a result is ok, with the query argument as the statement and the connection argument",
			call("execute_query", map[string]any{"connection": "c1", "query": "{Get{Article{title}}}"}, t0),
			Entry{ClientName: "claude-code", ClientVersion: "2.1.0", Principal: "token:t1", TokenName: "laptop", Level: "readOnly",
				Method: "tools/call", Name: "execute_query", Connection: "c1", Statement: "{Get{Article{title}}}", Outcome: "ok", DurationMS: 12}},
		{"connectionId and statement are read too",
			call("describe_table", map[string]any{"connectionId": "c2", "statement": "x"}, t0),
			Entry{Connection: "c2", Statement: "x"}},
		{"other arguments are the statement as compact JSON",
			call("describe_table", map[string]any{"connection": "c3", "table": "Article"}, t0),
			Entry{Connection: "c3", Statement: `{"connection":"c3","table":"Article"}`}},
		{"a tool error's outcome is its code",
			func() mcp.Record { r := call("execute_query", nil, t0); r.ToolError = "query_failed"; return r }(),
			Entry{Outcome: "query_failed"}},
		{"a protocol error's outcome is its code",
			mcp.Record{Start: t0, Method: "tools/call", ErrorCode: -33007, Principal: mcp.AnonymousPrincipal()},
			Entry{Outcome: "-33007", Principal: "anonymous"}},
		{"a failed authentication has no principal",
			mcp.Record{Start: t0, Method: "tools/list", ErrorCode: -33009},
			Entry{Outcome: "-33009", Principal: ""}},
		{"resources/read names the connection of its URI",
			mcp.Record{Start: t0, Method: "resources/read", Name: "app://connections/0f8fad5b-d9cb-469f-a165-70867728950e"},
			Entry{Name: "app://connections/0f8fad5b-d9cb-469f-a165-70867728950e", Connection: "0f8fad5b-d9cb-469f-a165-70867728950e", Outcome: "ok"}},
		{"the statement is redacted",
			call("execute_query", map[string]any{"query": "get https://u:pw@db/x?apikey=abc123 Bearer zzz secret-api-key-1"}, t0),
			Entry{Statement: "get https://[REDACTED]@db/x?apikey=[REDACTED] Bearer [REDACTED] [REDACTED]"}},
		{"the statement is capped at 2,000 characters",
			call("execute_query", map[string]any{"query": long}, t0),
			Entry{Statement: strings.Repeat("é", MaxStatementRunes-1) + "…"}},
	}
	r := redact.New("secret-api-key-1")
	for _, c := range cases {
		t.Run(c.rule, func(t *testing.T) {
			got := FromRecord(c.rec)
			redactEntryCached(&got, r, map[string]string{})
			check := func(name, got, want string) {
				if want != "" && got != want {
					t.Errorf("%s = %q, want %q", name, got, want)
				}
			}
			w := c.want
			check("client", got.ClientName, w.ClientName)
			check("version", got.ClientVersion, w.ClientVersion)
			check("principal", got.Principal, w.Principal)
			check("token", got.TokenName, w.TokenName)
			check("level", got.Level, w.Level)
			check("method", got.Method, w.Method)
			check("name", got.Name, w.Name)
			check("connection", got.Connection, w.Connection)
			check("statement", got.Statement, w.Statement)
			check("outcome", got.Outcome, w.Outcome)
			if w.DurationMS != 0 && got.DurationMS != w.DurationMS {
				t.Errorf("duration %d", got.DurationMS)
			}
			if !got.Time.Equal(t0) {
				t.Errorf("time %v", got.Time)
			}
		})
	}
	t.Run("a raw statement is bounded before it is queued", func(t *testing.T) {
		huge, _ := json.Marshal(map[string]any{"query": strings.Repeat("x", 1<<20)})
		e := FromRecord(mcp.Record{Method: "tools/call", Arguments: huge})
		if len(e.Statement) > rawStatementCap {
			t.Fatalf("kept %d bytes", len(e.Statement))
		}
	})
}

// The hash covers every field: two entries that differ anywhere hash differently, and the
// encoding cannot be shifted from one field into the next.
func TestHashCoversEveryField(t *testing.T) {
	base := Entry{ID: 1, Time: t0, ClientName: "a", ClientVersion: "b", Principal: "c", TokenName: "d", Level: "e",
		Method: "f", Name: "g", Connection: "h", Statement: "i", Outcome: "j", DurationMS: 1, PrevHash: GenesisHash}
	h := computeHash(&base)
	edits := map[string]func(e *Entry){
		"id": func(e *Entry) { e.ID++ }, "time": func(e *Entry) { e.Time = e.Time.Add(time.Microsecond) },
		"client name": func(e *Entry) { e.ClientName += "x" }, "client version": func(e *Entry) { e.ClientVersion += "x" },
		"principal": func(e *Entry) { e.Principal += "x" }, "token name": func(e *Entry) { e.TokenName += "x" },
		"level": func(e *Entry) { e.Level += "x" }, "method": func(e *Entry) { e.Method += "x" },
		"name": func(e *Entry) { e.Name += "x" }, "connection": func(e *Entry) { e.Connection += "x" },
		"statement": func(e *Entry) { e.Statement += "x" }, "outcome": func(e *Entry) { e.Outcome += "x" },
		"duration": func(e *Entry) { e.DurationMS++ }, "prev hash": func(e *Entry) { e.PrevHash = strings.Repeat("1", 64) },
		"a byte moved between fields": func(e *Entry) { e.ClientName, e.ClientVersion = "ab", "" },
	}
	for name, edit := range edits {
		t.Run(name, func(t *testing.T) {
			e := base
			edit(&e)
			if computeHash(&e) == h {
				t.Fatal("same hash")
			}
		})
	}
}

// Issue 25 ("trace keys are stored and never used"): an entry keeps the request's W3C
// traceparent, when it has the traceparent shape, so a request can be found from the
// client's trace; the hash covers it, and an entry without one hashes as before schema 2.
func TestAnEntryKeepsTheRequestsTraceparent(t *testing.T) {
	const tp = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"
	for _, c := range []struct{ rule, sent, kept string }{
		{"a well-formed traceparent is kept", tp, tp},
		{"a value without the traceparent shape is not kept", "00-not-a-trace", ""},
		{"upper-case hex is not the W3C form and is not kept", strings.ToUpper(tp), ""},
	} {
		t.Run(c.rule, func(t *testing.T) {
			rec := call("list_tables", nil, t0)
			rec.Traceparent = c.sent
			if got := FromRecord(rec).Trace; got != c.kept {
				t.Fatalf("kept %q, want %q", got, c.kept)
			}
		})
	}
	t.Run("the hash covers the trace, and an entry without one hashes as in schema 1", func(t *testing.T) {
		e := FromRecord(call("list_tables", nil, t0))
		plain := computeHash(&e)
		e.Trace = tp
		if computeHash(&e) == plain {
			t.Fatal("changing the trace does not change the hash")
		}
	})
}

// The hash's encoding never changes (hashVersion says which it is): entries written by every
// earlier version must still verify. The values are those of the code that wrote every earlier entry.
func TestHashEncodingIsStable(t *testing.T) {
	e := Entry{ID: 42, Time: time.Date(2026, 3, 1, 12, 0, 0, 123456000, time.UTC), ClientName: "claude-code", ClientVersion: "2.1.0",
		Principal: "token:t1", TokenName: "laptop", Level: "readOnly", Method: "tools/call", Name: "execute_query", Connection: "c1",
		Statement: "{Get{Article{title}}}", Outcome: "ok", DurationMS: 12, PrevHash: GenesisHash}
	if got := computeHash(&e); got != "6f360e205fd6172ddd5a0b8cb70c7369aa2873cfcb340f36f453eae758395816" {
		t.Fatalf("untraced entry hashes to %s", got)
	}
	e.Trace = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"
	if got := computeHash(&e); got != "cde47c9d36d541826998ce857915e604c5e6347ddb99ecb5b3bf754eee05c9d6" {
		t.Fatalf("traced entry hashes to %s", got)
	}
}

// formatTime writes exactly what time.Format writes with TimeLayout: the stored time text is
// what every hash covers.
func TestFormatTimeIsTimeFormat(t *testing.T) {
	times := []time.Time{
		{}, t0, time.Date(1, 1, 1, 0, 0, 0, 0, time.UTC), time.Date(9999, 12, 31, 23, 59, 59, 999999999, time.UTC),
		time.Date(10000, 1, 1, 0, 0, 0, 0, time.UTC), time.Date(-1, 1, 1, 0, 0, 0, 0, time.UTC),
		time.Date(2026, 11, 27, 9, 30, 1, 123456789, time.FixedZone("x", -7*3600)), time.Now(),
	}
	r := rand.New(rand.NewPCG(1, 2))
	for range 10000 {
		times = append(times, time.Unix(r.Int64N(400<<30)-(200<<30), r.Int64N(1e9)))
	}
	for _, tm := range times {
		if got, want := formatTime(tm), tm.UTC().Format(TimeLayout); got != want {
			t.Fatalf("%v: %q, time.Format %q", tm, got, want)
		}
	}
}
