package tools

import (
	"slices"
	"strings"
	"testing"

	"app/backend/mcp"
	"app/internal/testkit/fixtures"
)

// issue 12: list_tables lists a connection's tables (Weaviate collections) with their
// descriptions, through the AI policy and the token's allowlist.
func TestListTables(t *testing.T) {
	e := newEnv(t, envOptions{})
	r := e.ok(t, NameListTables, map[string]any{"connection": "Node"})
	tables := map[string]string{}
	for _, tb := range structured(t, r)["tables"].([]any) {
		m := tb.(map[string]any)
		d, _ := m["description"].(string)
		tables[m["name"].(string)] = d
	}
	t.Run("every fixture collection is listed with its description", func(t *testing.T) {
		for _, name := range []string{fixtures.Person, fixtures.Typed, fixtures.Unindexed, fixtures.NamedVectors, fixtures.Tenanted, fixtures.Big} {
			if _, ok := tables[name]; !ok {
				t.Errorf("%s not listed in %v", name, tables)
			}
		}
		if tables[fixtures.Person] != "Cross-reference target." {
			t.Fatalf("Person description %q", tables[fixtures.Person])
		}
	})
	t.Run("the text names each table on its own line with its description", func(t *testing.T) {
		lines := strings.Split(r.Text(), "\n")
		if !strings.HasSuffix(lines[0], " tables in Node") || !slices.Contains(lines, "Person -- Cross-reference target.") {
			t.Fatalf("%q", r.Text())
		}
	})
	for _, c := range []struct{ rule, conn, code string }{
		{"an unknown connection is not_found", "Nope", "not_found"},
		{"a blocked connection is not_found", "Blocked", "not_found"},
		{"a rejected key is not_connected", "BadKey", "not_connected"},
		{"on an alwaysAsk connection with nobody to approve the read is denied", "Ask", "denied"},
	} {
		t.Run(c.rule, func(t *testing.T) {
			e.fails(t, NameListTables, map[string]any{"connection": c.conn}, c.code)
		})
	}
}

// SPEC.md B "Authentication" 3: a connection outside the token's allowlist is -33007 for every
// read tool; an allowlisted one works.
func TestReadToolsHonourTheTokenAllowlist(t *testing.T) {
	e := newEnv(t, envOptions{auth: func(e *env) mcp.Authenticator { return tokenLimitedTo([]string{e.id("Node")}) }})
	args := map[string]map[string]any{
		NameSearchSchema:  {"query": "title"},
		NameDescribeTable: {"table": fixtures.Typed},
		NameBrowseTable:   {"table": fixtures.Typed},
		NameCountRows:     {"table": fixtures.Typed},
		NameVectorSearch:  {"table": fixtures.Typed, "vector": []float64{1, 0, 0}},
	}
	for _, tool := range readTools(e.deps) {
		with := func(conn string) map[string]any {
			a := map[string]any{"connection": conn}
			for k, v := range args[tool.Name] {
				a[k] = v
			}
			return a
		}
		t.Run(tool.Name+" on a connection outside the allowlist is -33007", func(t *testing.T) {
			r := e.srv.Call(t, "tools/call", map[string]any{"name": tool.Name, "arguments": with(e.id("BadKey"))})
			if r.Code() != mcp.CodeForbidden {
				t.Fatalf("%d %v", r.Code(), r.Result)
			}
		})
		t.Run(tool.Name+" on the allowlisted connection runs", func(t *testing.T) {
			e.ok(t, tool.Name, with(e.id("Node")))
		})
	}
}
