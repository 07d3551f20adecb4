package agentproof

import (
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"
)

// writeCalls are the writing tools' calls on one database, each writing nothing the person
// would want (a marker row, an update and a delete of a seeded row).
func writeCalls(conn, table, key string) map[string]map[string]any {
	update, destroy := "UPDATE notes SET body = 'scoped' WHERE id = 1", "DELETE FROM notes"
	if conn == connWV {
		update, destroy = `POST /v1/objects {"class":"Note","properties":{"body":"scoped"}}`, "DELETE /v1/schema/Note"
	}
	return map[string]map[string]any{
		"insert_rows":                   {"connection": conn, "table": table, "rows": []any{map[string]any{"values": map[string]any{"body": "scoped"}}}},
		"update_rows":                   {"connection": conn, "table": table, "rows": []any{map[string]any{"key": map[string]any{"id": key}, "values": map[string]any{"body": "scoped"}}}},
		"delete_rows":                   {"connection": conn, "table": table, "keys": []any{map[string]any{"id": key}}},
		"execute_query":                 {"connection": conn, "query": update},
		"confirm_destructive_operation": {"connection": conn, "query": destroy},
	}
}

// toolArgs are valid arguments of each tool on conn (so that what answers is the policy, not
// the arguments' check).
func toolArgs(tool, conn string) map[string]any {
	args := map[string]any{"connection": conn}
	switch tool {
	case "describe_table", "browse_table", "count_rows":
		args["table"] = "items"
	case "execute_query":
		args["query"] = "SELECT 1"
	case "insert_rows":
		args["table"] = "items"
		args["rows"] = []any{map[string]any{"values": map[string]any{"title": "x"}}}
	case "search_schema":
		args["query"] = "item"
	}
	return args
}

// scope: each tool on each token level, each connection's external access and AI policy, and
// what one principal holds (sessions, cursors, cancellations, subscriptions) used by another.
func scope(h *harness) group {
	var cases []attackCase
	add := func(name string, run func(a *attempt)) { cases = append(cases, attackCase{name: name, run: run}) }

	// Every tool on every token level and every connection's external access and AI policy
	// (matrix_test.go). Beside it, what the matrix does not show: a readOnly token's write
	// statement is the person's to approve, and reads on alwaysAsk wait for the person.
	cases = append(cases, matrixCases(h)...)
	for _, db := range []struct{ conn, table, key string }{{connPG, "notes", "1"}, {connLite, "notes", "1"}, {connWV, "Note", "00000000-0000-4000-8000-000000000002"}} {
		args := writeCalls(db.conn, db.table, db.key)["execute_query"]
		add("a readOnly token's write statement on "+db.conn+": its form, then App's own question", func(a *attempt) {
			r := a.elicit(tokRO, "execute_query", args)
			// A statement is the person's to approve, on any token (SPEC B): the form, then
			// App's own question, whatever the form says.
			if r.stateOf() == "" {
				a.Fatalf("want input_required: %s", r)
			}
			denied(a, a.answer(tokRO, "execute_query", args, r.stateOf(), true))
			if len(a.h.person.questions()) != 1 {
				a.Errorf("the person was asked %d times, want once", len(a.h.person.questions()))
			}
		})
	}
	// alwaysAsk without the form: reads wait for the person at App.
	for _, read := range []map[string]any{
		{"connection": connPGAlway, "query": "SELECT title FROM items"},
		{"connection": connPGAlway, "query": "SELECT count(*) FROM notes"},
	} {
		add(fmt.Sprintf("a readWrite token's read on %s waits for the person, who says no: %s", connPGAlway, read["query"]), func(a *attempt) {
			denied(a, a.tool(tokRW, "execute_query", read))
			if len(a.h.person.questions()) != 1 {
				a.Errorf("asked %d times, want once", len(a.h.person.questions()))
			}
		})
	}

	// A token allowed one connection reaches no other.
	for _, tool := range []string{"list_tables", "describe_table", "browse_table", "count_rows", "execute_query", "insert_rows", "connect"} {
		add("a token allowed only "+connLite+" calls "+tool+" on "+connPG, func(a *attempt) {
			forbidden(a, a.elicit(tokLite, tool, toolArgs(tool, connPG)))
		})
	}
	add("a token allowed only "+connLite+" lists only it", func(a *attempt) {
		r := a.tool(tokLite, "list_connections", nil)
		if strings.Contains(string(r.body), `"`+connPG+`"`) || !strings.Contains(string(r.body), connLite) {
			a.Fatalf("%s", r)
		}
	})
	add("a token allowed only "+connLite+" reads it", func(a *attempt) {
		r := a.tool(tokLite, "execute_query", map[string]any{"connection": connLite, "query": "SELECT title FROM items"})
		if r.result == nil || r.result["isError"] == true {
			a.Fatalf("%s", r)
		}
	})
	for _, uri := range []string{"app://connections/%s", "app://connections/%s/schema", "app://connections/%s/tables/items", "app://connections/%s/tables/items/sample"} {
		add("a token allowed only "+connLite+" reads the resource "+fmt.Sprintf(uri, connPG), func(a *attempt) {
			r := a.call(req{token: tokLite, method: "resources/read", params: map[string]any{"uri": fmt.Sprintf(uri, a.h.connIDs[connPG])}})
			if r.code() == 0 || strings.Contains(string(r.body), "three") {
				a.Fatalf("want an error and no rows: %s", r)
			}
		})
		add("a blocked connection's resource "+fmt.Sprintf(uri, connPGBlock), func(a *attempt) {
			r := a.call(req{token: tokFull, method: "resources/read", params: map[string]any{"uri": fmt.Sprintf(uri, a.h.connIDs[connPGBlock])}})
			if r.code() == 0 || strings.Contains(string(r.body), "three") {
				a.Fatalf("want an error and no rows: %s", r)
			}
		})
	}

	// What one principal holds, used by another.
	for _, other := range []string{tokFull2, tokRO, ""} {
		add(fmt.Sprintf("a legacy session of %s used by %q", tokFull, other), func(a *attempt) {
			sess := a.legacySession(tokFull)
			r := a.call(req{token: other, legacy: true, method: "tools/list",
				header: func(hd http.Header) { hd.Set("Mcp-Session-Id", sess); hd.Set("MCP-Protocol-Version", "2025-11-25") }})
			if r.code() != -33001 && r.code() != -33009 {
				a.Fatalf("want -33001 (or -33009 without a token): %s", r)
			}
		})
	}
	add("a legacy session ended by another token", func(a *attempt) {
		sess := a.legacySession(tokFull)
		ctx := a.Context()
		hr, _ := http.NewRequestWithContext(ctx, http.MethodDelete, fmt.Sprintf("http://127.0.0.1:%d/mcp", a.h.port), nil)
		hr.Header.Set("Mcp-Session-Id", sess)
		hr.Header.Set("MCP-Protocol-Version", "2025-11-25")
		hr.Header.Set("Authorization", "Bearer "+a.h.tokens[tokFull2])
		resp, err := http.DefaultClient.Do(hr)
		if err != nil {
			a.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode == http.StatusOK || resp.StatusCode == http.StatusNoContent {
			a.Fatalf("another token ended the session: HTTP %d", resp.StatusCode)
		}
		r := a.call(req{token: tokFull, legacy: true, method: "tools/list",
			header: func(hd http.Header) { hd.Set("Mcp-Session-Id", sess); hd.Set("MCP-Protocol-Version", "2025-11-25") }})
		if r.code() != 0 {
			a.Fatalf("the session's owner lost it: %s", r)
		}
	})
	// Cursors crossing principals (cursor_test.go).
	cases = append(cases, cursorCases(h)...)
	add("notifications/cancelled from another token leaves the request running", func(a *attempt) {
		var r reply
		var wg sync.WaitGroup
		wg.Add(1)
		go func() {
			defer wg.Done()
			raw, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": "slow-1", "method": "tools/call", "params": map[string]any{
				"name": "execute_query", "arguments": map[string]any{"connection": connPG, "query": "SELECT pg_sleep(1.5), 'slept'"},
				"_meta": map[string]any{"io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": map[string]any{}, "traceparent": a.traceparent()}}})
			r = a.call(req{token: tokFull, method: "tools/call", raw: raw, params: map[string]any{"name": "execute_query"}})
		}()
		time.Sleep(400 * time.Millisecond)
		// A notification's entry carries no trace (it is answered before its _meta is read).
		n := a.call(req{token: tokFull2, method: "notifications/cancelled", raw: mustJSON(map[string]any{"jsonrpc": "2.0", "method": "notifications/cancelled",
			"params": map[string]any{"requestId": "slow-1", "_meta": map[string]any{"io.modelcontextprotocol/protocolVersion": "2026-07-28"}}})})
		if n.status != http.StatusAccepted {
			a.Errorf("the notification: want 202: %s", n)
		}
		wg.Wait()
		if r.code() != 0 || !strings.Contains(string(r.body), "slept") {
			a.Fatalf("another token's cancel reached the request: %s", r)
		}
	})
	add("a subscription to resources the token may not use", func(a *attempt) {
		uris := []string{"app://connections/" + a.h.connIDs[connPG] + "/schema", "app://connections/" + a.h.connIDs[connPGBlock] + "/schema", "app://connections/" + a.h.connIDs[connLite] + "/schema"}
		r := a.listen(tokLite, uris)
		body := string(r.body)
		if !strings.Contains(body, "acknowledged") || strings.Contains(body, a.h.connIDs[connPG]) || strings.Contains(body, a.h.connIDs[connPGBlock]) {
			a.Fatalf("want the acknowledgement to agree to %s only: %s", connLite, r)
		}
	})
	// A bridge process's approvals: another process that holds the same bridge token (the
	// handshake file's) cannot redeem them, whatever instance it claims.
	const secretA = "0123456789abcdef0123456789abcdef"
	for _, other := range []struct{ name, instance string }{
		{"the same pid without its secret", "4242"},
		{"the same pid with another secret", "4242/" + strings.Repeat("e", 32)},
		{"no instance at all", ""},
		{"the same process (the control: its form counts, then the person says no)", "4242/" + secretA},
	} {
		add("a bridge's requestState redeemed by "+other.name, func(a *attempt) {
			tok := a.h.bridgeToken(a)
			as := func(instance string) func(http.Header) {
				return func(hd http.Header) {
					hd.Set("Authorization", "Bearer "+tok)
					if instance != "" {
						hd.Set("App-Bridge-Instance", instance)
					}
				}
			}
			args := map[string]any{"connection": connLite, "query": "INSERT INTO notes (id, body) VALUES (7000, 'bridged')"}
			caps := map[string]any{"elicitation": map[string]any{}}
			r := a.call(req{method: "tools/call", caps: caps, params: map[string]any{"name": "execute_query", "arguments": args}, header: as("4242/" + secretA)})
			state := r.stateOf()
			if state == "" {
				a.Fatalf("no input_required for the bridge: %s", r)
			}
			r = a.call(req{method: "tools/call", caps: caps, header: as(other.instance), params: map[string]any{"name": "execute_query", "arguments": args,
				"requestState": state, "inputResponses": map[string]any{"approve_statement": map[string]any{"action": "accept", "content": map[string]any{"approved": true}}}}})
			if other.instance == "4242/"+secretA {
				denied(a, r)
				return
			}
			invalidState(a, r)
		})
	}
	return group{name: "scope and allowlist", cases: cases}
}

// bridgeToken is the bridge token of the app's handshake file, as app-mcp reads it.
func (h *harness) bridgeToken(a *attempt) string {
	a.Helper()
	b, err := os.ReadFile(filepath.Join(h.dir, "mcp-handshake.json"))
	if err != nil {
		a.Fatal(err)
	}
	var hs struct {
		Token string `json:"token"`
	}
	if json.Unmarshal(b, &hs) != nil || hs.Token == "" {
		a.Fatalf("no bridge token in the handshake file: %s", b)
	}
	return hs.Token
}

func mustJSON(v any) []byte {
	b, _ := json.Marshal(v)
	return b
}

// listen opens subscriptions/listen for uris and reads its first second of stream.
func (a *attempt) listen(token string, uris []string) reply {
	a.Helper()
	ctx, cancel := contextWithTimeout(a, time.Second)
	defer cancel()
	return a.callCtx(ctx, req{token: token, method: "subscriptions/listen", params: map[string]any{"notifications": map[string]any{"resourceSubscriptions": uris}}})
}
