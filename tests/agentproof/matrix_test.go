package agentproof

import (
	"fmt"
	"slices"
	"sort"
	"strings"
)

// The scope table, hard-coded here as the spec and its issue define it (SPEC B
// "Authentication" 2 and 3 name the levels and the -33007; issue 11 and docs/architecture.md
// "MCP access control" name the tools' own scopes, which the spec leaves to the app): the
// scope each tool needs besides tools:read ("" for none), and the scopes of each level.
var toolScope = map[string]string{
	"list_connections": "", "connection_status": "", "connect": "", "disconnect": "",
	"list_tables": "", "describe_table": "", "search_schema": "", "browse_table": "", "count_rows": "",
	"vector_search": "", "execute_query": "",
	"insert_rows": "tools:write", "update_rows": "tools:write", "delete_rows": "tools:write",
	"confirm_destructive_operation": "admin",
}

var levelScopes = map[string][]string{
	"readOnly":   {"tools:read", "resources:read"},
	"readWrite":  {"tools:read", "resources:read", "tools:write"},
	"fullAccess": {"tools:read", "resources:read", "tools:write", "admin"},
}

// What a tool does with its connection, which decides what a connection's external access
// and AI policy make of the call: lists the connections; looks a saved one up (no statement);
// reads through the approval gate; or writes through it.
const (
	kindList  = "lists connections"
	kindSaved = "looks a connection up"
	kindRead  = "reads"
	kindWrite = "writes"
)

var toolKind = map[string]string{
	"list_connections": kindList, "connection_status": kindSaved, "disconnect": kindSaved,
	"connect": kindRead, "list_tables": kindRead, "describe_table": kindRead, "search_schema": kindRead,
	"browse_table": kindRead, "count_rows": kindRead, "vector_search": kindRead, "execute_query": kindRead,
	"insert_rows": kindWrite, "update_rows": kindWrite, "delete_rows": kindWrite, "confirm_destructive_operation": kindWrite,
}

// The answers a cell can expect.
const (
	answered        = "answered"
	asked           = "asked (input_required)"
	refusedScope    = "refused by scope (403 -33007, insufficient_scope)"
	refusedPolicy   = "refused by the connection (403 -33007)"
	answeredMissing = "answered as for a missing connection (not_found)"
)

// matrixConn is a saved connection with the rights its external access and AI policy give AI
// clients (SPEC B "Authentication" 3; connections.AIRights): reads run or ask, writes ask or
// are refused, or the connection is blocked (invisible).
type matrixConn struct {
	name, what  string
	read, write string // answered or asked; asked or refusedPolicy
	blocked     bool
	wv          bool
}

var matrixConns = []matrixConn{
	{name: connLite, what: "readWrite, askForWrites", read: answered, write: asked},
	{name: connPG, what: "readWrite, askForWrites", read: answered, write: asked},
	{name: connWV, what: "readWrite, askForWrites", read: answered, write: asked, wv: true},
	{name: connPGRO, what: "external access readOnly", read: answered, write: refusedPolicy},
	{name: connPGNever, what: "AI policy neverForWrites", read: answered, write: refusedPolicy},
	{name: connPGAlway, what: "AI policy alwaysAsk", read: asked, write: asked},
	{name: connPGBlock, what: "external access blocked", blocked: true},
}

// matrixCall is one call of a tool: execute_query is called with a read and with a write.
type matrixCall struct {
	tool, label string
	write       bool // execute_query's write
}

// matrixCalls are the calls of every tool the app offers.
func matrixCalls(offered []string) []matrixCall {
	var out []matrixCall
	for _, t := range offered {
		if t == "execute_query" {
			out = append(out, matrixCall{t, "execute_query (a read)", false}, matrixCall{t, "execute_query (a write)", true})
			continue
		}
		out = append(out, matrixCall{tool: t, label: t})
	}
	return out
}

// args are valid arguments of the call on c, so that what answers is the policy.
func (m matrixCall) args(c matrixConn) map[string]any {
	table, key, values := "items", map[string]any{"id": 1}, map[string]any{"id": 9100, "body": "matrix"}
	read, write, destroy := "SELECT title FROM items", "UPDATE notes SET body = 'matrix' WHERE id = 1", "DELETE FROM notes"
	if c.wv {
		table, key, values = "Note", map[string]any{"id": "00000000-0000-4000-8000-000000000002"}, map[string]any{"body": "matrix"}
		read, write, destroy = "{ Get { Note { body } } }", `POST /v1/objects {"class":"Note","properties":{"body":"matrix"}}`, "DELETE /v1/schema/Note"
	}
	args := map[string]any{"connection": c.name}
	switch m.tool {
	case "list_connections":
		return map[string]any{}
	case "describe_table", "browse_table", "count_rows":
		args["table"] = table
	case "search_schema":
		args["query"] = "body"
	case "vector_search":
		args["table"], args["vector"] = table, []any{0.1, 0.2, 0.3}
	case "execute_query":
		args["query"] = read
		if m.write {
			args["query"] = write
		}
	case "confirm_destructive_operation":
		args["query"] = destroy
	case "insert_rows":
		if c.wv {
			args["table"] = "Note"
		} else {
			args["table"] = "notes"
		}
		args["rows"] = []any{map[string]any{"values": values}}
	case "update_rows":
		args["table"] = table
		args["rows"] = []any{map[string]any{"key": key, "values": map[string]any{"title": "matrix"}}}
	case "delete_rows":
		args["table"] = table
		args["keys"] = []any{key}
	}
	return args
}

// expect is the spec's answer for the call on a token of level on c.
func (m matrixCall) expect(level string, c matrixConn) (string, bool) {
	scope, known := toolScope[m.tool]
	if !known {
		return "", false
	}
	if scope != "" && !slices.Contains(levelScopes[level], scope) {
		return refusedScope, true
	}
	kind := toolKind[m.tool]
	if m.write {
		kind = kindWrite
	}
	switch {
	case kind == kindList:
		return answered, true
	case c.blocked:
		return answeredMissing, true
	case kind == kindSaved:
		return answered, true
	case kind == kindRead:
		return c.read, true
	}
	return c.write, true
}

// databaseErrors are the tool errors a read may answer with when the database itself cannot
// do what was asked (vector_search on tables without vectors): an answer, not a refusal.
var databaseErrors = []string{"unsupported", "invalid_argument", "query_failed"}

// checkCell asserts one cell's answer.
func checkCell(a *attempt, m matrixCall, want string, r reply) {
	a.Helper()
	switch want {
	case refusedScope:
		forbidden(a, r)
		if !strings.Contains(r.header.Get("WWW-Authenticate"), `error="insufficient_scope"`) {
			a.Errorf("no insufficient_scope challenge: %v", r.header)
		}
		if req, _ := r.err.Data["requiredScopes"].([]any); !slices.Contains(req, any(toolScope[m.tool])) {
			a.Errorf("data.requiredScopes does not name %s: %s", toolScope[m.tool], r)
		}
	case refusedPolicy:
		forbidden(a, r)
		if strings.Contains(r.header.Get("WWW-Authenticate"), "insufficient_scope") {
			a.Errorf("a refusal by the connection answered as a missing scope: %v", r.header)
		}
	case asked:
		if r.stateOf() == "" {
			a.Fatalf("want input_required: %s", r)
		}
	case answeredMissing:
		if r.toolError() != "not_found" {
			a.Fatalf("want not_found, as for a connection that does not exist: %s", r)
		}
	case answered:
		if r.err != nil || r.result == nil || r.result["resultType"] != "complete" {
			a.Fatalf("want a complete result: %s", r)
		}
		if code := r.toolError(); code != "" && !(m.tool == "vector_search" && slices.Contains(databaseErrors, code)) {
			a.Fatalf("want the call answered, got the tool error %s: %s", code, r)
		}
		if m.tool == "list_connections" && strings.Contains(string(r.body), `"`+connPGBlock+`"`) {
			a.Fatalf("list_connections shows the blocked connection: %s", r)
		}
	}
	if q := a.h.person.questions(); len(q) != 0 {
		a.Errorf("the person was asked at the terminal (nobody answered the form): %q", q)
	}
}

// matrixCases: every tool the app offers (read from tools/list), on each token level and each
// connection's external access and AI policy, and on the bridge principal; each cell one
// case, the answer the scope table and the connection's rights give. The client declares
// elicitation and never answers the form: a call that would run a statement ends at its
// question, and nothing reaches the person.
func matrixCases(h *harness) []attackCase {
	var cases []attackCase
	levels := []struct{ token, level string }{{tokRO, "readOnly"}, {tokRW, "readWrite"}, {tokFull, "fullAccess"}}
	for _, m := range matrixCalls(h.offered) {
		for _, lv := range levels {
			for _, c := range matrixConns {
				cases = append(cases, attackCase{name: fmt.Sprintf("matrix: %s, a %s token, %s (%s)", m.label, lv.level, c.name, c.what), run: func(a *attempt) {
					want, ok := m.expect(lv.level, c)
					if !ok {
						a.Fatalf("tools/list offers %s, which the spec's scope table does not name: no expected answer", m.tool)
					}
					checkCell(a, m, want, a.elicit(lv.token, m.tool, m.args(c)))
				}})
			}
		}
		// The bridge principal (readOnly), through the real app-mcp.
		c := matrixConns[0]
		cases = append(cases, attackCase{name: fmt.Sprintf("matrix: %s, app-mcp's bridge principal, %s (%s)", m.label, c.name, c.what), run: func(a *attempt) {
			want, ok := m.expect("readOnly", c)
			if !ok {
				a.Fatalf("tools/list offers %s, which the spec's scope table does not name", m.tool)
			}
			b := a.bridge(false, map[string]any{"elicitation": map[string]any{}})
			r := b.tool(m.tool, m.args(c))
			if want == refusedScope {
				// Through stdio there is no HTTP status or challenge: the error and its data.
				bridgeForbidden(a, r)
				if req, _ := r.err.Data["requiredScopes"].([]any); !slices.Contains(req, any(toolScope[m.tool])) {
					a.Errorf("data.requiredScopes does not name %s: %s", toolScope[m.tool], r)
				}
				return
			}
			r.status, r.header = 200, nil
			checkCell(a, m, want, r)
		}})
	}
	// tools/list itself: each level sees exactly the tools its scopes allow.
	for _, lv := range []struct{ token, level string }{{tokRO, "readOnly"}, {tokRW, "readWrite"}, {tokFull, "fullAccess"}} {
		cases = append(cases, attackCase{name: "matrix: tools/list on a " + lv.level + " token lists exactly the tools its scopes allow", run: func(a *attempt) {
			var got, want []string
			for _, t := range a.pages(lv.token, "tools/list", "tools") {
				got = append(got, t["name"].(string))
			}
			for _, t := range a.h.offered {
				if s := toolScope[t]; s == "" || slices.Contains(levelScopes[lv.level], s) {
					want = append(want, t)
				}
			}
			sort.Strings(got)
			sort.Strings(want)
			if !slices.Equal(got, want) {
				a.Fatalf("tools/list shows %v, want %v", got, want)
			}
		}})
	}
	return cases
}
