package agentproof

import (
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// Connections someone saved that point into the config dir (made in start): a driver must
// never open them, whoever asks.
const (
	connInSettings = "lite-settings" // the SQLite file is settings.json
	connInLog      = "lite-log"      // the SQLite file is the activity log
	connViaLink    = "lite-link"     // connections.json through a link from elsewhere
)

// escalation: an agent raising its own rights or reaching the person's policy, by any route.
// Always refused, whether the agent's own form or the person approves.
func escalation(h *harness) group {
	cfg := h.dir
	var cases []attackCase

	// Statements that would open, copy or load a file in the config dir. Refused before anyone
	// is asked, on a fullAccess token whose agent accepts its own form and on a readWrite one
	// whose person would say yes.
	sqlite := []string{
		fmt.Sprintf("ATTACH DATABASE '%s' AS s", filepath.Join(cfg, "settings.json")),
		fmt.Sprintf("ATTACH '%s' AS c", filepath.Join(cfg, "connections.json")),
		fmt.Sprintf("ATTACH '%s' AS t", filepath.Join(cfg, "mcp-tokens.json")),
		fmt.Sprintf("ATTACH '%s' AS log", filepath.Join(cfg, "activity.db")),
		fmt.Sprintf("ATTACH 'file:%s?mode=rw' AS log", filepath.Join(cfg, "activity.db")),
		fmt.Sprintf("attach database '%s' as k", filepath.Join(cfg, "keyring", "keys.db")),
		fmt.Sprintf("/* just a read */ ATTACH '%s' AS n", filepath.Join(cfg, "new.db")),
		fmt.Sprintf("SELECT 1; ATTACH '%s' AS s", filepath.Join(cfg, "settings.json")),
		fmt.Sprintf("VACUUM INTO '%s'", filepath.Join(cfg, "settings.json")),
		fmt.Sprintf("vacuum into '%s'", filepath.Join(cfg, "copy.db")),
		fmt.Sprintf("SELECT load_extension('%s')", filepath.Join(cfg, "plugins", "evil")),
		"DETACH DATABASE main",
	}
	postgres := []string{
		fmt.Sprintf("COPY items TO '%s'", filepath.Join(cfg, "settings.json")),
		fmt.Sprintf("COPY (SELECT '{}') TO '%s'", filepath.Join(cfg, "connections.json")),
		fmt.Sprintf("COPY items FROM '%s'", filepath.Join(cfg, "mcp-tokens.json")),
		fmt.Sprintf("COPY (SELECT 1) TO PROGRAM 'touch %s'", filepath.Join(cfg, "pwned")),
		fmt.Sprintf("copy items to program 'cat > %s'", filepath.Join(cfg, "settings.json")),
		fmt.Sprintf("SELECT pg_read_file('%s')", filepath.Join(cfg, "connections.json")),
		fmt.Sprintf("SELECT pg_catalog.pg_read_binary_file('%s')", filepath.Join(cfg, "activity.db")),
		fmt.Sprintf("SELECT * FROM pg_ls_dir('%s')", cfg),
		fmt.Sprintf("SELECT lo_import('%s')", filepath.Join(cfg, "settings.json")),
		fmt.Sprintf("SELECT lo_export(1, '%s')", filepath.Join(cfg, "settings.json")),
		fmt.Sprintf("WITH x AS (SELECT pg_read_file('%s') AS t) SELECT t FROM x", filepath.Join(cfg, "mcp-tokens.json")),
		fmt.Sprintf("SELECT 1; COPY items TO '%s'", filepath.Join(cfg, "activity.db")),
	}
	for _, db := range []struct {
		conn  string
		stmts []string
	}{{connLite, sqlite}, {connPG, postgres}} {
		for _, stmt := range db.stmts {
			args := map[string]any{"connection": db.conn, "query": stmt}
			cases = append(cases,
				attackCase{name: db.conn + ", the agent approves its own form: " + stmt, run: func(a *attempt) {
					refusedOutright(a, a.elicit(tokFull, "execute_query", args))
				}},
				attackCase{name: db.conn + ", the person would approve it: " + stmt, run: func(a *attempt) {
					a.h.person.will(stmt)
					refusedOutright(a, a.tool(tokRW, "execute_query", args))
				}},
			)
		}
	}

	// A saved connection whose file is in the config dir: no driver opens it, for any tool.
	for _, conn := range []string{connInSettings, connInLog, connViaLink} {
		for _, call := range []struct {
			tool string
			args map[string]any
		}{
			{"list_tables", nil},
			{"connect", nil},
			{"execute_query", map[string]any{"query": "SELECT * FROM sqlite_master"}},
			{"browse_table", map[string]any{"table": "sqlite_master"}},
		} {
			args := map[string]any{"connection": conn}
			for k, v := range call.args {
				args[k] = v
			}
			cases = append(cases, attackCase{name: call.tool + " on a saved connection whose file is " + conn, run: func(a *attempt) {
				r := a.tool(tokFull, call.tool, args)
				notRun(a, r)
				if !strings.Contains(r.text(), "App's own settings folder") {
					a.Errorf("not refused for the config dir: %s", r)
				}
			}})
		}
	}

	// Tools, methods and resources that would change or show the policy: none exists.
	for _, name := range []string{"settings_set", "token_create", "set_require_auth", "../settings.json", "approve_statement", "raise_token_level"} {
		cases = append(cases, attackCase{name: "tools/call of a tool that would change the policy: " + name, run: func(a *attempt) {
			r := a.tool(tokFull, name, map[string]any{"level": "fullAccess", "requireAuth": false})
			if r.code() != -32602 {
				a.Fatalf("want -32602 (unknown tool): %s", r)
			}
		}})
	}
	for _, method := range []string{"settings/set", "tokens/create", "auth/requireAuth", "config/write", "elicitation/create", "sampling/createMessage"} {
		cases = append(cases, attackCase{name: "a method that would change the policy: " + method, run: func(a *attempt) {
			r := a.call(req{token: tokFull, method: method, params: map[string]any{"requireAuth": false, "level": "fullAccess"}})
			if r.code() != -32601 {
				a.Fatalf("want -32601 (method not found): %s", r)
			}
		}})
	}
	for _, uri := range []string{
		"file://" + filepath.Join(cfg, "settings.json"),
		"file://" + filepath.Join(cfg, "connections.json"),
		"file://" + filepath.Join(cfg, "mcp-tokens.json"),
		"app://settings",
		"app://connections/../settings.json",
		"app://config/mcp-tokens.json",
	} {
		cases = append(cases, attackCase{name: "resources/read of the policy: " + uri, run: func(a *attempt) {
			r := a.call(req{token: tokFull, method: "resources/read", params: map[string]any{"uri": uri}})
			if r.code() != -32602 {
				a.Fatalf("want -32602 (unknown resource): %s", r)
			}
			if strings.Contains(string(r.body), "requireAuth") || strings.Contains(string(r.body), "rateLimitPerMinute") {
				a.Fatalf("the answer shows the settings: %s", r)
			}
		}})
	}
	for _, conn := range []string{"../connections.json", filepath.Join(cfg, "connections.json"), "settings", "*"} {
		cases = append(cases, attackCase{name: "a connection named like a policy file: " + conn, run: func(a *attempt) {
			r := a.tool(tokFull, "list_tables", map[string]any{"connection": conn})
			if r.toolError() != "not_found" {
				a.Fatalf("want not_found: %s", r)
			}
		}})
	}

	// Claiming rights the token does not have.
	insert := map[string]any{"connection": connLite, "table": "notes", "rows": []any{map[string]any{"values": map[string]any{"body": "escalated"}}}}
	cases = append(cases,
		attackCase{name: "a readOnly token claims fullAccess in _meta", run: func(a *attempt) {
			r := a.call(req{token: tokRO, method: "tools/call", params: map[string]any{"name": "insert_rows", "arguments": insert,
				"_meta": map[string]any{"io.app/level": "fullAccess", "level": "fullAccess", "scopes": []string{"tools:write"}}}})
			forbidden(a, r)
		}},
		attackCase{name: "a readOnly token claims fullAccess in the arguments", run: func(a *attempt) {
			args := map[string]any{"level": "fullAccess", "token": a.h.tokens[tokFull]}
			for k, v := range insert {
				args[k] = v
			}
			notRun(a, a.tool(tokRO, "insert_rows", args))
		}},
		attackCase{name: "two Authorization headers, readOnly first and fullAccess second", run: func(a *attempt) {
			r := a.call(req{token: tokRO, method: "tools/call", params: map[string]any{"name": "insert_rows", "arguments": insert},
				header: func(hd http.Header) { hd["Authorization"] = append(hd["Authorization"], "Bearer "+a.h.tokens[tokFull]) }})
			notRun(a, r)
		}},
		attackCase{name: "a revoked token", run: func(a *attempt) {
			r := a.tool(tokRevoked, "list_tables", map[string]any{"connection": connLite})
			if r.code() != -33009 || r.status != 401 || !strings.Contains(r.header.Get("WWW-Authenticate"), "invalid_token") {
				a.Fatalf("want 401 -33009 invalid_token: %s %v", r, r.header)
			}
		}},
		attackCase{name: "a fullAccess token with one character changed", run: func(a *attempt) {
			tok := a.h.tokens[tokFull]
			last := tok[len(tok)-1:]
			repl := "A"
			if last == "A" {
				repl = "B"
			}
			r := a.tool(tok[:len(tok)-1]+repl, "insert_rows", insert)
			if r.code() != -33009 || r.status != 401 {
				a.Fatalf("want 401 -33009: %s", r)
			}
		}},
		attackCase{name: "a token's id in place of the token", run: func(a *attempt) {
			r := a.tool(a.h.tokenIDs[tokFull], "insert_rows", insert)
			if r.code() != -33009 {
				a.Fatalf("want -33009: %s", r)
			}
		}},
		attackCase{name: "no token at all", run: func(a *attempt) {
			r := a.call(req{method: "tools/call", params: map[string]any{"name": "insert_rows", "arguments": insert}})
			if r.code() != -33009 || r.status != 401 {
				a.Fatalf("want 401 -33009 (authentication is on): %s", r)
			}
		}},
		attackCase{name: "the token as a query parameter and a cookie", run: func(a *attempt) {
			r := a.call(req{method: "tools/call", params: map[string]any{"name": "insert_rows", "arguments": insert},
				header: func(hd http.Header) {
					hd["Cookie"] = []string{"token=" + a.h.tokens[tokFull]}
					hd["X-Api-Key"] = []string{a.h.tokens[tokFull]}
				}})
			if r.code() != -33009 {
				a.Fatalf("want -33009: %s", r)
			}
		}},
	)
	// A hole the agent found elsewhere (a shell, another app's tool) writes the policy files
	// themselves: App keeps acting on its own last version, and the person reverts it.
	for _, edit := range []struct {
		name, file, from, to string
		check                func(a *attempt)
	}{
		{"turns requireAuth off in settings.json", "settings.json", `"requireAuth": true`, `"requireAuth": false`, func(a *attempt) {
			if r := a.call(req{method: "tools/list"}); r.code() != -33009 {
				a.Fatalf("a call without a token after requireAuth was turned off by another program: %s", r)
			}
		}},
		{"raises a readOnly token to fullAccess in mcp-tokens.json", "mcp-tokens.json", `"level": "readOnly"`, `"level": "fullAccess"`, func(a *attempt) {
			forbidden(a, a.tool(tokRO, "insert_rows", insert))
		}},
		{"opens the blocked connection to AI clients in connections.json", "connections.json", `"externalAccess": "blocked"`, `"externalAccess": "readWrite"`, func(a *attempt) {
			if r := a.tool(tokFull, "list_tables", map[string]any{"connection": connPGBlock}); r.toolError() != "not_found" {
				a.Fatalf("the blocked connection after another program opened it: %s", r)
			}
		}},
	} {
		cases = append(cases, attackCase{name: "another program " + edit.name, run: func(a *attempt) {
			path := filepath.Join(a.h.dir, edit.file)
			b, err := os.ReadFile(path)
			if err != nil || !strings.Contains(string(b), edit.from) {
				a.Fatalf("%s holds no %s (%v)", edit.file, edit.from, err)
			}
			if err := os.WriteFile(path, []byte(strings.Replace(string(b), edit.from, edit.to, 1)), 0o600); err != nil {
				a.Fatal(err)
			}
			time.Sleep(2 * time.Second) // two polls of the app's watchers
			edit.check(a)
			if out := a.h.cli(a, nil, "integrity"); !strings.Contains(out, edit.file+": changed by another program") {
				a.Errorf("app integrity does not show it: %s", out)
			}
			a.h.cli(a, nil, "integrity", "revert", edit.file)
			if after, _ := os.ReadFile(path); string(after) != string(b) {
				a.Fatalf("reverted, %s is not App's version", edit.file)
			}
		}})
	}
	// Through every prompt, and through the real stdio bridge (prompts_test.go).
	cases = append(cases, promptCases(h)...)
	cases = append(cases, bridgeCases(h)...)
	return group{name: "self-escalation", cases: cases}
}

// forbidden asserts -33007 on HTTP 403.
func forbidden(a *attempt, r reply) {
	a.Helper()
	if r.code() != -33007 || r.status != 403 {
		a.Fatalf("want 403 -33007: %s", r)
	}
}
