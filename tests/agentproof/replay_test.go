package agentproof

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/http"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"app/backend/secrets"
	"app/internal/testkit/sqlitecli"
)

// writeTarget is how one database is written to through the form flow, and read back.
type writeTarget struct {
	conn, word string // word: the state's first word ("postgres", ...)
	// insert is execute_query's statement writing marker with key n.
	insert func(n int64, marker string) string
	// variants are statements that differ from insert by one thing, named.
	variants func(n int64, marker string) map[string]string
}

var markerSeq atomic.Int64

func nextMarker() (int64, string) {
	n := markerSeq.Add(1) + 1000
	return n, fmt.Sprintf("approved-%d", n)
}

func targets() []writeTarget {
	sql := func(conn, word string) writeTarget {
		return writeTarget{conn: conn, word: word,
			insert: func(n int64, m string) string {
				return fmt.Sprintf("INSERT INTO notes (id, body) VALUES (%d, '%s')", n, m)
			},
			variants: func(n int64, m string) map[string]string {
				return map[string]string{
					"whitespace":           fmt.Sprintf("INSERT INTO notes (id, body)  VALUES (%d, '%s')", n, m),
					"a comment":            fmt.Sprintf("INSERT INTO notes (id, body) VALUES (%d, '%s') -- ok", n, m),
					"a value":              fmt.Sprintf("INSERT INTO notes (id, body) VALUES (%d, '%s-x')", n, m),
					"a statement after it": fmt.Sprintf("INSERT INTO notes (id, body) VALUES (%d, '%s'); DELETE FROM notes WHERE id = 1", n, m),
				}
			}}
	}
	wv := writeTarget{conn: connWV, word: "weaviate",
		insert: func(_ int64, m string) string {
			return fmt.Sprintf(`POST /v1/objects {"class":"Note","properties":{"body":"%s"}}`, m)
		},
		variants: func(_ int64, m string) map[string]string {
			return map[string]string{
				"whitespace":         fmt.Sprintf(`POST  /v1/objects {"class":"Note","properties":{"body":"%s"}}`, m),
				"a query parameter":  fmt.Sprintf(`POST /v1/objects?consistency_level=ONE {"class":"Note","properties":{"body":"%s"}}`, m),
				"a value":            fmt.Sprintf(`POST /v1/objects {"class":"Note","properties":{"body":"%s-x"}}`, m),
				"another collection": fmt.Sprintf(`POST /v1/objects {"class":"Notes","properties":{"body":"%s"}}`, m),
			}
		}}
	return []writeTarget{sql(connPG, "postgres"), sql(connLite, "sqlite"), wv}
}

// count is how many rows or objects of the database hold marker, read with its own tool.
func (h *harness) count(a *attempt, w writeTarget, marker string) int {
	a.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	var out string
	var err error
	switch w.word {
	case "postgres":
		out, err = h.pg.Psql(ctx, "", fmt.Sprintf("SELECT count(*) FROM notes WHERE body LIKE '%s%%'", marker))
	case "sqlite":
		out, err = sqlitecli.Run(ctx, h.lite, fmt.Sprintf("SELECT count(*) FROM notes WHERE body LIKE '%s%%'", marker))
	default:
		var objs struct {
			Objects []struct {
				Properties map[string]any `json:"properties"`
			} `json:"objects"`
		}
		err = h.wv.DoJSON(ctx, http.MethodGet, "/v1/objects?class=Note&limit=1000", nil, &objs)
		n := 0
		for _, o := range objs.Objects {
			if b, _ := o.Properties["body"].(string); strings.HasPrefix(b, marker) {
				n++
			}
		}
		out = fmt.Sprint(n)
	}
	if err != nil {
		a.Fatal(err)
	}
	var n int
	fmt.Sscan(out, &n)
	return n
}

// wantCount asserts how many rows hold marker.
func (a *attempt) wantCount(w writeTarget, marker string, want int) {
	a.Helper()
	if got := a.h.count(a, w, marker); got != want {
		a.Fatalf("%s holds %d rows of %s, want %d", w.word, got, marker, want)
	}
}

// invalidState asserts the -32602 of a requestState not valid for the call.
func invalidState(a *attempt, r reply) {
	a.Helper()
	if r.code() != -32602 {
		a.Fatalf("want -32602 (requestState not valid for this call): %s", r)
	}
}

func denied(a *attempt, r reply) {
	a.Helper()
	if r.toolError() != "denied" {
		a.Fatalf("want the tool error denied: %s", r)
	}
}

// replay: approvals reused, altered, moved, or stretched to another statement.
func replay(h *harness) group {
	var cases []attackCase
	for _, w := range targets() {
		q := func(n int64, m string) map[string]any {
			return map[string]any{"connection": w.conn, "query": w.insert(n, m)}
		}
		// first asks and returns the state of a fresh insert's form.
		first := func(a *attempt, token string, args map[string]any) string {
			a.Helper()
			r := a.elicit(token, "execute_query", args)
			s := r.stateOf()
			if s == "" {
				a.Fatalf("no input_required: %s", r)
			}
			return s
		}
		add := func(name string, changed bool, run func(a *attempt)) {
			c := attackCase{name: w.conn + ": " + name, run: run}
			if changed {
				c.changed = []string{w.word}
			}
			cases = append(cases, c)
		}

		add("an accepted form runs the statement once (the control)", true, func(a *attempt) {
			n, m := nextMarker()
			args := q(n, m)
			if r := a.answer(tokFull, "execute_query", args, first(a, tokFull, args), true); r.result == nil || r.result["isError"] == true {
				a.Fatalf("the approved statement did not run: %s", r)
			}
			a.wantCount(w, m, 1)
		})
		add("the requestState used a second time", true, func(a *attempt) {
			n, m := nextMarker()
			args := q(n, m)
			s := first(a, tokFull, args)
			a.answer(tokFull, "execute_query", args, s, true)
			invalidState(a, a.answer(tokFull, "execute_query", args, s, true))
			a.wantCount(w, m, 1)
		})
		add("a declined form's requestState used again, accepted", false, func(a *attempt) {
			n, m := nextMarker()
			args := q(n, m)
			s := first(a, tokFull, args)
			denied(a, a.answer(tokFull, "execute_query", args, s, false))
			invalidState(a, a.answer(tokFull, "execute_query", args, s, true))
			a.wantCount(w, m, 0)
		})
		for what, change := range map[string]func(string) string{
			"one character of its payload changed": func(s string) string { return flip(s, 5) },
			"its signature changed":                func(s string) string { return flip(s, len(s)-3) },
			"cut short":                            func(s string) string { return s[:len(s)-10] },
			"its signature removed":                func(s string) string { p, _, _ := strings.Cut(s, "."); return p },
			"made up":                              func(string) string { return "eyJwIjoiYW55In0.c2lnbmF0dXJl" },
		} {
			add("a requestState with "+what, false, func(a *attempt) {
				n, m := nextMarker()
				args := q(n, m)
				s := first(a, tokFull, args)
				invalidState(a, a.answer(tokFull, "execute_query", args, change(s), true))
				a.wantCount(w, m, 0)
			})
		}
		add("the requestState moved to another tool", false, func(a *attempt) {
			n, m := nextMarker()
			args := q(n, m)
			s := first(a, tokFull, args)
			table := "notes"
			if w.word == "weaviate" {
				table = "Note"
			}
			rows := map[string]any{"connection": w.conn, "table": table, "rows": []any{map[string]any{"values": map[string]any{"body": m}}}}
			invalidState(a, a.answer(tokFull, "insert_rows", rows, s, true))
			a.wantCount(w, m, 0)
		})
		add("the requestState moved to another token", false, func(a *attempt) {
			n, m := nextMarker()
			args := q(n, m)
			s := first(a, tokFull, args)
			invalidState(a, a.answer(tokFull2, "execute_query", args, s, true))
			a.wantCount(w, m, 0)
		})
		add("the requestState moved to another connection", false, func(a *attempt) {
			n, m := nextMarker()
			args := q(n, m)
			s := first(a, tokFull, args)
			other := map[string]any{"connection": connPGAlway, "query": args["query"]}
			if w.conn == connPG {
				other["connection"] = connLite
			}
			invalidState(a, a.answer(tokFull, "execute_query", other, s, true))
			a.wantCount(w, m, 0)
		})
		for what, stmt := range w.variants(0, "") {
			add("the approval applied to a statement that differs by "+what, false, func(a *attempt) {
				n, m := nextMarker()
				args := q(n, m)
				s := first(a, tokFull, args)
				changed := map[string]any{"connection": w.conn, "query": w.variants(n, m)[what]}
				_ = stmt
				invalidState(a, a.answer(tokFull, "execute_query", changed, s, true))
				a.wantCount(w, m, 0)
			})
		}
		add("the same arguments re-encoded (other key order, spaces) are the same approval", true, func(a *attempt) {
			n, m := nextMarker()
			args := q(n, m)
			s := first(a, tokFull, args)
			raw := fmt.Sprintf(`{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{ "inputResponses":{"approve_statement":{"content":{"approved":true},"action":"accept"}}, "requestState":%q, "arguments": {"query": %q,   "connection": %q}, "name":"execute_query","_meta":{"traceparent":%q,"io.modelcontextprotocol/clientCapabilities":{"elicitation":{}},"io.modelcontextprotocol/protocolVersion":"2026-07-28"}}}`,
				s, args["query"], w.conn, a.traceparent())
			r := a.call(req{token: tokFull, method: "tools/call", raw: []byte(raw), params: map[string]any{"name": "execute_query"}})
			if r.result == nil || r.result["isError"] == true {
				a.Fatalf("re-encoded arguments were refused: %s", r)
			}
			a.wantCount(w, m, 1)
		})
		for what, form := range map[string]map[string]any{
			"approved as the string \"true\"":  {"approve_statement": map[string]any{"action": "accept", "content": map[string]any{"approved": "true"}}},
			"approved as 1":                    {"approve_statement": map[string]any{"action": "accept", "content": map[string]any{"approved": 1}}},
			"the answer under another name":    {"approve": map[string]any{"action": "accept", "content": map[string]any{"approved": true}}},
			"the action cancel, approved true": {"approve_statement": map[string]any{"action": "cancel", "content": map[string]any{"approved": true}}},
			"no content":                       {"approve_statement": map[string]any{"action": "accept"}},
		} {
			add("a form answered with "+what, false, func(a *attempt) {
				n, m := nextMarker()
				args := q(n, m)
				s := first(a, tokFull, args)
				r := a.call(req{token: tokFull, method: "tools/call", caps: map[string]any{"elicitation": map[string]any{}},
					params: map[string]any{"name": "execute_query", "arguments": args, "requestState": s, "inputResponses": form}})
				denied(a, r)
				a.wantCount(w, m, 0)
			})
		}
		add("two follow-ups at once with one requestState: one runs", true, func(a *attempt) {
			n, m := nextMarker()
			args := q(n, m)
			s := first(a, tokFull, args)
			var wg sync.WaitGroup
			replies := make([]reply, 2)
			for i := range replies {
				wg.Add(1)
				go func() { defer wg.Done(); replies[i] = a.answerQuiet(tokFull, "execute_query", args, s) }()
			}
			wg.Wait()
			bad := 0
			for _, r := range replies {
				if r.code() == -32602 {
					bad++
				}
			}
			if bad != 1 {
				a.Fatalf("want exactly one refused: %s / %s", replies[0], replies[1])
			}
			a.wantCount(w, m, 1)
		})
		add("a readWrite token's accepted form, and the person at the terminal says no", false, func(a *attempt) {
			n, m := nextMarker()
			args := q(n, m)
			s := first(a, tokRW, args)
			denied(a, a.answer(tokRW, "execute_query", args, s, true))
			if len(a.h.person.questions()) != 1 {
				a.Errorf("the person was asked %d times, want once", len(a.h.person.questions()))
			}
			a.wantCount(w, m, 0)
		})
		add("the person approves one statement; the agent sends another", false, func(a *attempt) {
			n, m := nextMarker()
			a.h.person.will(w.insert(n, m))
			denied(a, a.tool(tokRW, "execute_query", map[string]any{"connection": w.conn, "query": w.variants(n, m)["a value"]}))
			a.wantCount(w, m, 0)
		})
		add("the person approves a statement that shows in full (the control)", true, func(a *attempt) {
			n, m := nextMarker()
			a.h.person.will(w.insert(n, m))
			if r := a.tool(tokRW, "execute_query", q(n, m)); r.result == nil || r.result["isError"] == true {
				a.Fatalf("the person's yes did not run it: %s", r)
			}
			a.wantCount(w, m, 1)
		})
		add("a requestState past its five minutes (re-signed with the app's own key)", false, func(a *attempt) {
			n, m := nextMarker()
			args := q(n, m)
			s := a.h.expire(a, first(a, tokFull, args))
			invalidState(a, a.answer(tokFull, "execute_query", args, s, true))
			a.wantCount(w, m, 0)
		})
		add("a requestState on a legacy session's call", false, func(a *attempt) {
			n, m := nextMarker()
			args := q(n, m)
			s := first(a, tokFull, args)
			sess := a.legacySession(tokFull)
			r := a.call(req{token: tokFull, legacy: true, method: "tools/call", params: map[string]any{"name": "execute_query", "arguments": args,
				"requestState": s, "inputResponses": map[string]any{"approve_statement": map[string]any{"action": "accept", "content": map[string]any{"approved": true}}}},
				header: func(hd http.Header) { hd.Set("Mcp-Session-Id", sess); hd.Set("MCP-Protocol-Version", "2025-11-25") }})
			notRun(a, r)
			a.wantCount(w, m, 0)
		})
		add("inputResponses without a requestState", false, func(a *attempt) {
			n, m := nextMarker()
			r := a.call(req{token: tokFull, method: "tools/call", caps: map[string]any{"elicitation": map[string]any{}},
				params: map[string]any{"name": "execute_query", "arguments": q(n, m),
					"inputResponses": map[string]any{"approve_statement": map[string]any{"action": "accept", "content": map[string]any{"approved": true}}}}})
			if r.code() != -32602 && r.stateOf() == "" {
				a.Fatalf("want -32602 or a new question: %s", r)
			}
			a.wantCount(w, m, 0)
		})
	}
	// A token revoked between the question and the answer.
	cases = append(cases, attackCase{name: "the requestState of a token revoked since", changed: []string{"policy"}, run: func(a *attempt) {
		name := fmt.Sprintf("short-lived-%d", markerSeq.Add(1))
		var c struct{ Token string }
		if err := json.Unmarshal([]byte(a.h.cli(a, nil, "token", "create", "--json", "--yes", "--name", name, "--level", "fullAccess")), &c); err != nil {
			a.Fatal(err)
		}
		a.h.tokens[name] = c.Token
		n, m := nextMarker()
		w := targets()[1]
		args := map[string]any{"connection": w.conn, "query": w.insert(n, m)}
		r := a.elicit(name, "execute_query", args)
		if r.stateOf() == "" {
			a.Fatalf("no input_required: %s", r)
		}
		state := r.stateOf()
		a.h.cli(a, nil, "token", "revoke", name)
		// The app reads the tokens file once a second: the revocation is in force once a plain
		// call is refused.
		for deadline := time.Now().Add(5 * time.Second); ; {
			if a.tool(name, "list_connections", nil).code() == -33009 {
				break
			}
			if time.Now().After(deadline) {
				a.Fatal("the revoked token still works after 5 s")
			}
			time.Sleep(200 * time.Millisecond)
		}
		r = a.answer(name, "execute_query", args, state, true)
		if r.code() != -33009 {
			a.Fatalf("want -33009 for the revoked token: %s", r)
		}
		a.wantCount(w, m, 0)
	}})
	return group{name: "approval replay and tampering", cases: cases}
}

// answerQuiet is answer with the form accepted, for concurrent use.
func (a *attempt) answerQuiet(token, name string, args map[string]any, state string) reply {
	return a.call(req{token: token, method: "tools/call", caps: map[string]any{"elicitation": map[string]any{}},
		params: map[string]any{"name": name, "arguments": args, "requestState": state,
			"inputResponses": map[string]any{"approve_statement": map[string]any{"action": "accept", "content": map[string]any{"approved": true}}}}})
}

// flip changes the character at i of a base64url text to another of the alphabet.
func flip(s string, i int) string {
	c := byte('A')
	if s[i] == 'A' {
		c = 'B'
	}
	return s[:i] + string(c) + s[i+1:]
}

// expire re-signs a requestState with its expiry passed, with the app's own key read from
// the keyring (an attacker who holds the key is out of reach of any check; this proves the
// expiry is checked, which no real wait of five minutes in a suite should).
func (h *harness) expire(a *attempt, state string) string {
	a.Helper()
	keys, err := secrets.Open(secrets.Options{Backend: "file", Password: "agentproof", Dir: filepath.Join(h.dir, "keyring")})
	if err != nil {
		a.Fatal(err)
	}
	v, err := keys.Get("mcp/requestStateKey")
	if err != nil {
		a.Fatal(err)
	}
	key, _ := base64.RawURLEncoding.DecodeString(v)
	enc, _, _ := strings.Cut(state, ".")
	payload, _ := base64.RawURLEncoding.DecodeString(enc)
	var p map[string]any
	if err := json.Unmarshal(payload, &p); err != nil {
		a.Fatal(err)
	}
	p["e"] = time.Now().Add(-time.Second).UnixMilli()
	payload, _ = json.Marshal(p)
	mac := hmac.New(sha256.New, key)
	mac.Write(payload)
	return base64.RawURLEncoding.EncodeToString(payload) + "." + base64.RawURLEncoding.EncodeToString(mac.Sum(nil))
}

// legacySession opens a 2025-11-25 session for token and returns its id.
func (a *attempt) legacySession(token string) string {
	a.Helper()
	r := a.call(req{token: token, legacy: true, method: "initialize", params: map[string]any{
		"protocolVersion": "2025-11-25", "capabilities": map[string]any{"elicitation": map[string]any{}},
		"clientInfo": map[string]any{"name": "agentproof", "version": "1.0"}}})
	id := r.header.Get("Mcp-Session-Id")
	if id == "" {
		a.Fatalf("no session: %s", r)
	}
	return id
}
