package tools

import (
	"slices"
	"strings"
	"testing"

	"app/backend/driver"
	"app/internal/fixtures"
)

// issue 23, item 1: the tools that take a table take an optional tenant, and list_tables says
// which tables need one; describe_table lists a multi-tenant table's tenants.
func TestTheTableToolsTakeATenant(t *testing.T) {
	e := newEnv(t, envOptions{})
	tenantB := map[string]any{"connection": "Node", "table": fixtures.Tenanted, "tenant": fixtures.TenantB}
	with := func(extra map[string]any) map[string]any {
		out := map[string]any{}
		for k, v := range tenantB {
			out[k] = v
		}
		for k, v := range extra {
			out[k] = v
		}
		return out
	}
	t.Run("list_tables marks a multi-tenant table in its text and its structuredContent", func(t *testing.T) {
		r := e.ok(t, NameListTables, map[string]any{"connection": "Node"})
		if !strings.Contains(r.Text(), fixtures.Tenanted+" (multi-tenant: pass tenant)") || strings.Contains(r.Text(), fixtures.Typed+" (multi-tenant") {
			t.Fatalf("%q", r.Text())
		}
		var marked []string
		for _, tb := range structured(t, r)["tables"].([]any) {
			if m := tb.(map[string]any); m["multiTenant"] == true {
				marked = append(marked, m["name"].(string))
			}
		}
		if !slices.Equal(marked, []string{fixtures.Tenanted}) {
			t.Fatalf("marked %v", marked)
		}
	})
	t.Run("describe_table of a multi-tenant table lists its tenants", func(t *testing.T) {
		r := e.ok(t, NameDescribeTable, map[string]any{"connection": "Node", "table": fixtures.Tenanted})
		s := structured(t, r)
		if s["tenantCount"] != float64(2) || len(s["tenants"].([]any)) != 2 || !strings.Contains(r.Text(), "its 2 tenants; pass one as tenant: "+fixtures.TenantA+", "+fixtures.TenantB) {
			t.Fatalf("%v %q", s, r.Text())
		}
	})
	t.Run("describe_table with a tenant names it", func(t *testing.T) {
		r := e.ok(t, NameDescribeTable, with(nil))
		if s := structured(t, r); s["name"] != driver.TenantTable(fixtures.Tenanted, fixtures.TenantB) || s["tenants"] != nil || !strings.Contains(r.Text(), "tenant "+fixtures.TenantB+" of a multi-tenant table") {
			t.Fatalf("%v %q", s, r.Text())
		}
	})
	t.Run("browse_table reads the tenant's rows", func(t *testing.T) {
		r := e.ok(t, NameBrowseTable, with(nil))
		if rows := rowsOf(t, r); len(rows) != fixtures.TenantBCount {
			t.Fatalf("%d rows: %v", len(rows), rows)
		}
	})
	t.Run("count_rows counts the tenant's rows, filtered too", func(t *testing.T) {
		r := e.ok(t, NameCountRows, with(nil))
		if s := structured(t, r); s["count"] != float64(fixtures.TenantBCount) {
			t.Fatalf("%v", s)
		}
		r = e.ok(t, NameCountRows, with(map[string]any{"filters": []any{map[string]any{"column": "count", "operator": "greater_than", "value": -1}}}))
		if s := structured(t, r); s["count"] != float64(fixtures.TenantBCount) || s["filtered"] != true {
			t.Fatalf("%v", s)
		}
	})
	t.Run("vector_search searches within the tenant", func(t *testing.T) {
		r := e.ok(t, NameVectorSearch, with(map[string]any{"query": "tenant", "limit": 10}))
		for _, id := range column(t, r, "uuid") {
			if !slices.Contains(tenantIDs(fixtures.TenantB), id.(string)) {
				t.Fatalf("uuid %v is not one of %s's rows", id, fixtures.TenantB)
			}
		}
	})
	t.Run("a tenant of a table without tenants is refused with the reason", func(t *testing.T) {
		text := e.fails(t, NameCountRows, map[string]any{"connection": "Node", "table": fixtures.Typed, "tenant": "x"}, "invalid_argument")
		if !strings.Contains(text, "no tenants") {
			t.Fatalf("%q", text)
		}
	})
	t.Run("a tenant that does not exist is the server's refusal", func(t *testing.T) {
		text := e.fails(t, NameCountRows, with(map[string]any{"tenant": "nobody"}), "query_failed")
		if !strings.Contains(text, "nobody") {
			t.Fatalf("%q", text)
		}
	})
}

// tenantIDs are the uuids of tenant's rows in the Tenanted fixture.
func tenantIDs(tenant string) []string {
	var out []string
	for _, o := range fixtures.TenantedObjects() {
		if o.Tenant == tenant {
			out = append(out, o.ID)
		}
	}
	return out
}
