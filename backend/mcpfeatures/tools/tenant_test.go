package tools

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	pb "github.com/weaviate/weaviate/grpc/generated/protocol/v1"

	"app/backend/approval"
	"app/backend/auth"
	"app/backend/driver"
	"app/backend/mcp"
	"app/internal/testkit/fixtures"
	"app/internal/testkit/mcptest"
	"app/internal/testkit/weaviatenode"
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

// issue 23, item 1, done when: on a real weaviate-server, and on one with GraphQL off, the MCP
// tools with a tenant browse, filter (OR groups too), count and search that tenant exactly as
// the server itself answers for it, and none of another tenant's rows. Every expected answer is
// read from the server by this test, not through the app: the rows over REST
// (GET /v1/objects?class=&tenant=) with the filters applied here in Go, the count also by
// GraphQL Aggregate where GraphQL is on, and the ranked matches by the server's own search
// (a GraphQL nearVector / nearObject where GraphQL is on, a raw gRPC Search where it is off).
func TestTenantReadsAreTheServersAnswerForThatTenant(t *testing.T) {
	e := newEnv(t, envOptions{})
	filterCases := []struct {
		name    string
		filters []any
		match   func(serverRow) bool
	}{
		{"no filter", nil, func(serverRow) bool { return true }},
		{"a filter", []any{map[string]any{"column": "n", "operator": "greater_than", "value": 2}},
			func(r serverRow) bool { return r.N > 2 }},
		{"an OR group", []any{
			map[string]any{"column": "tag", "operator": "equals", "value": "red", "group": 1},
			map[string]any{"column": "n", "operator": "equals", "value": 2, "group": 1},
			map[string]any{"column": "n", "operator": "less_than", "value": 5},
		}, func(r serverRow) bool { return (r.Tag == "red" || r.N == 2) && r.N < 5 }},
	}
	type rule struct {
		rule string
		run  func(t *testing.T, n servedNode, c tenantClass, tenant string)
	}
	var rules []rule
	for _, fc := range filterCases {
		rules = append(rules, rule{"browse_table with tenant and " + fc.name + " returns exactly the server's rows of that tenant, none of the other's",
			func(t *testing.T, n servedNode, c tenantClass, tenant string) {
				all := serverRows(t, n.node, c.name, tenant)
				want := matching(t, all, fc.match, fc.filters != nil)
				r := e.ok(t, NameBrowseTable, c.args(n, tenant, map[string]any{"filters": fc.filters, "limit": 100}))
				got := browsed(t, r)
				if !slices.Equal(got, want) {
					t.Fatalf("browse_table of %s:\n got %v\nwant %v (the server's)", tenant, got, want)
				}
				for _, other := range serverRows(t, n.node, c.name, c.other(tenant)) {
					if slices.Contains(got, other.String()) {
						t.Fatalf("browse_table of %s read %s's row %v", tenant, c.other(tenant), other)
					}
				}
			}})
		rules = append(rules, rule{"count_rows with tenant and " + fc.name + " equals the server's count for that tenant",
			func(t *testing.T, n servedNode, c tenantClass, tenant string) {
				want := len(matching(t, serverRows(t, n.node, c.name, tenant), fc.match, fc.filters != nil))
				if n.graphQL && fc.filters == nil {
					agg, err := n.node.Count(context.Background(), c.name, tenant)
					if err != nil || agg != want {
						t.Fatalf("the server's Aggregate counts %d (%v), its REST listing %d", agg, err, want)
					}
				}
				s := structured(t, e.ok(t, NameCountRows, c.args(n, tenant, map[string]any{"filters": fc.filters})))
				if s["count"] != float64(want) || s["filtered"] != (fc.filters != nil) || s["table"] != driver.TenantTable(c.name, tenant) {
					t.Fatalf("count_rows of %s: %v, the server counts %d", tenant, s, want)
				}
			}})
	}
	query := []float32{1, 2, 0}
	rules = append(rules,
		rule{"vector_search nearVector with tenant returns the server's own matches for that tenant, in its order",
			func(t *testing.T, n servedNode, c tenantClass, tenant string) {
				want := nearest(t, n, c.name, tenant, query, "", 3)
				r := e.ok(t, NameVectorSearch, c.args(n, tenant, map[string]any{"vector": query, "limit": 3}))
				if got := uuids(t, r); !slices.Equal(got, want) {
					t.Fatalf("vector_search of %s: %v, the server's answer %v", tenant, got, want)
				}
			}},
		rule{"vector_search similarTo with tenant searches from that tenant's object of a uuid both tenants hold",
			func(t *testing.T, n servedNode, c tenantClass, tenant string) {
				want := nearest(t, n, c.name, tenant, nil, c.shared, 3)
				r := e.ok(t, NameVectorSearch, c.args(n, tenant, map[string]any{"similarTo": map[string]any{"uuid": c.shared}, "limit": 3}))
				if got := uuids(t, r); !slices.Equal(got, want) {
					t.Fatalf("vector_search of %s similar to %s: %v, the server's answer %v", tenant, c.shared, got, want)
				}
			}},
	)
	for _, n := range e.bothNodes(t) {
		t.Run(n.name, func(t *testing.T) {
			c := newTenantClass(t, n.node)
			// The two tenants answer differently to the same search (their vectors differ),
			// so a search that reached the wrong one, or both, shows.
			if slices.Equal(nearest(t, n, c.name, tenantAlpha, query, "", 3), nearest(t, n, c.name, tenantBeta, query, "", 3)) {
				t.Fatal("the fixture's tenants answer the same search alike: nothing to tell them apart")
			}
			for _, tenant := range []string{tenantAlpha, tenantBeta} {
				t.Run(tenant, func(t *testing.T) {
					for _, r := range rules {
						t.Run(r.rule, func(t *testing.T) { r.run(t, n, c, tenant) })
					}
				})
			}
		})
	}
}

// issue 23, item 1, done when: insert_rows, update_rows and delete_rows with a tenant write
// that tenant's object, read back over REST with ?tenant=, after the user approved the
// statement that names the tenant, and leave the other tenant's objects as they were (the
// object of the same uuid too); on the node with GraphQL on and the one with it off.
func TestTenantWritesChangeThatTenantOnly(t *testing.T) {
	p := &person{}
	e := newEnv(t, envOptions{dialog: p, auth: fullAccess, tools: All})
	added := "23230000-0000-4000-8000-0000000000a1"
	rules := []struct {
		rule string
		tool string
		args map[string]any
		// want is the tenant's rows after the write, given those before.
		want func(c tenantClass, before []serverRow) []serverRow
	}{
		{"insert_rows with tenant writes into that tenant only", NameInsertRows,
			map[string]any{"rows": []any{map[string]any{"key": map[string]any{"uuid": added}, "values": map[string]any{"title": "alpha added", "n": 9, "tag": "new"}}}},
			func(_ tenantClass, before []serverRow) []serverRow {
				return sortedRows(append(slices.Clone(before), serverRow{ID: added, Title: "alpha added", N: 9, Tag: "new"}))
			}},
		{"update_rows with tenant changes that tenant's object, not the other tenant's of the same uuid", NameUpdateRows,
			map[string]any{"rows": []any{map[string]any{"key": map[string]any{"uuid": sharedUUID}, "values": map[string]any{"title": "alpha changed"}}}},
			func(c tenantClass, before []serverRow) []serverRow {
				out := slices.Clone(before)
				for i := range out {
					if out[i].ID == c.shared {
						out[i].Title = "alpha changed"
					}
				}
				return out
			}},
		{"delete_rows with tenant deletes that tenant's object, not the other tenant's of the same uuid", NameDeleteRows,
			map[string]any{"keys": []any{map[string]any{"uuid": sharedUUID}}},
			func(c tenantClass, before []serverRow) []serverRow {
				return slices.DeleteFunc(slices.Clone(before), func(r serverRow) bool { return r.ID == c.shared })
			}},
	}
	for _, n := range e.bothNodes(t) {
		t.Run(n.name, func(t *testing.T) {
			c := newTenantClass(t, n.node)
			for _, r := range rules {
				t.Run(r.rule, func(t *testing.T) {
					before, otherBefore := serverRows(t, n.node, c.name, tenantAlpha), serverRows(t, n.node, c.name, tenantBeta)
					p.will(approval.Approve)
					s := structured(t, e.ok(t, r.tool, c.args(n, tenantAlpha, r.args)))
					if s["ok"] != float64(1) || s["failed"] != float64(0) {
						t.Fatalf("%s: %v", r.tool, s)
					}
					if q := p.questions(); len(q) != 1 || !strings.Contains(q[0].Statement, driver.TenantTable(c.name, tenantAlpha)) {
						t.Fatalf("the user was asked %+v", q)
					}
					if got, want := serverRows(t, n.node, c.name, tenantAlpha), r.want(c, before); !slices.Equal(got, want) {
						t.Fatalf("%s's rows on the server:\n got %v\nwant %v", tenantAlpha, got, want)
					}
					if got := serverRows(t, n.node, c.name, tenantBeta); !slices.Equal(got, otherBefore) {
						t.Fatalf("%s's rows changed:\n got %v\nwere %v", tenantBeta, got, otherBefore)
					}
				})
			}
		})
	}
}

// issue 23, item 1, done when: a cold (INACTIVE) tenant is explained by every table tool that
// names it, with the statement that activates it, and that statement, run through MCP, asks
// the user first; on the node with GraphQL on and the one with it off.
func TestAnInactiveTenantIsExplained(t *testing.T) {
	p := &person{}
	e := newEnv(t, envOptions{dialog: p, auth: fullAccess, tools: All})
	for _, n := range e.bothNodes(t) {
		t.Run(n.name, func(t *testing.T) {
			c := newTenantClass(t, n.node)
			activate := fmt.Sprintf(`PUT /v1/schema/%s/tenants [{"name":%q,"activityStatus":"ACTIVE"}]`, c.name, tenantCold)
			// explained: the text says the tenant is not active, and how to activate it: the
			// statement run below, through the tool that asks the user first.
			explained := func(t *testing.T, text string) {
				t.Helper()
				for _, says := range []string{"the tenant is not active", "to activate tenant " + tenantCold, NameConfirmDestructive + " with the query " + activate} {
					if !strings.Contains(text, says) {
						t.Fatalf("the explanation does not say %q: %q", says, text)
					}
				}
			}
			cold := serverRowsActive(t, n.node, c.name, tenantCold)
			for _, tc := range []struct {
				rule, tool string
				args       map[string]any
			}{
				{"browse_table of an INACTIVE tenant says it is not active and how to activate it", NameBrowseTable, nil},
				{"browse_table with a filter of an INACTIVE tenant says so too", NameBrowseTable,
					map[string]any{"filters": []any{map[string]any{"column": "n", "operator": "greater_than", "value": 0}}}},
				{"count_rows of an INACTIVE tenant says so too", NameCountRows, nil},
				{"count_rows with a filter of an INACTIVE tenant says so too", NameCountRows,
					map[string]any{"filters": []any{map[string]any{"column": "n", "operator": "greater_than", "value": 0}}}},
				{"vector_search of an INACTIVE tenant says so too", NameVectorSearch, map[string]any{"vector": []float32{1, 2, 0}}},
			} {
				t.Run(tc.rule, func(t *testing.T) {
					explained(t, e.fails(t, tc.tool, c.args(n, tenantCold, tc.args), mcp.ToolErrUnsupported))
				})
			}
			for _, tc := range []struct {
				rule, tool string
				args       map[string]any
			}{
				{"insert_rows into an INACTIVE tenant fails with the explanation", NameInsertRows,
					map[string]any{"rows": []any{map[string]any{"values": map[string]any{"title": "x"}}}}},
				{"update_rows of an INACTIVE tenant fails the row with the explanation", NameUpdateRows,
					map[string]any{"rows": []any{map[string]any{"key": map[string]any{"uuid": coldUUID}, "values": map[string]any{"title": "x"}}}}},
				{"delete_rows of an INACTIVE tenant fails the row with the explanation", NameDeleteRows,
					map[string]any{"keys": []any{map[string]any{"uuid": coldUUID}}}},
			} {
				t.Run(tc.rule, func(t *testing.T) {
					p.will(approval.Approve)
					r := e.call(t, tc.tool, c.args(n, tenantCold, tc.args))
					if r.Result["isError"] == false {
						if s := structured(t, r); s["ok"] != float64(0) || s["failed"] != float64(1) {
							t.Fatalf("%v", s)
						}
					}
					explained(t, r.Text())
				})
			}
			t.Run("activating it asks the user first: denied, the tenant stays INACTIVE", func(t *testing.T) {
				p.will(approval.Deny)
				r := e.call(t, NameConfirmDestructive, map[string]any{"connection": n.conn, "query": activate})
				if r.Result["isError"] != true || !strings.HasPrefix(r.Text(), "denied: ") {
					t.Fatalf("%v", r.Result)
				}
				if q := p.questions(); len(q) != 1 || !q[0].Destructive || !strings.Contains(q[0].Statement, activate) {
					t.Fatalf("the user was asked %+v", q)
				}
				if st := tenantStatus(t, n.node, c.name, tenantCold); st != "INACTIVE" && st != "COLD" {
					t.Fatalf("status %q after a denied activation", st)
				}
			})
			t.Run("activating it asks the user first: approved, the tenant is ACTIVE, untouched by the writes above, and reads as the server holds it", func(t *testing.T) {
				p.will(approval.Approve)
				e.ok(t, NameConfirmDestructive, map[string]any{"connection": n.conn, "query": activate})
				if q := p.questions(); len(q) != 1 || !q[0].Destructive {
					t.Fatalf("the user was asked %+v", q)
				}
				if st := tenantStatus(t, n.node, c.name, tenantCold); st != "ACTIVE" && st != "HOT" {
					t.Fatalf("status %q after the activation", st)
				}
				now := serverRows(t, n.node, c.name, tenantCold)
				if !slices.Equal(now, cold) {
					t.Fatalf("the INACTIVE tenant's rows changed: %v, were %v", now, cold)
				}
				want := matching(t, now, func(serverRow) bool { return true }, false)
				if got := browsed(t, e.ok(t, NameBrowseTable, c.args(n, tenantCold, nil))); !slices.Equal(got, want) {
					t.Fatalf("browse_table: %v, the server's rows %v", got, want)
				}
			})
		})
	}
}

// serverRowsActive are tenant's rows as the server lists them, read with the tenant activated
// for the moment and deactivated again (the server reads no INACTIVE tenant).
func serverRowsActive(t *testing.T, n *weaviatenode.Node, class, tenant string) []serverRow {
	t.Helper()
	set := func(status string) {
		if err := n.DoJSON(context.Background(), http.MethodPut, "/v1/schema/"+class+"/tenants", []map[string]string{{"name": tenant, "activityStatus": status}}, nil); err != nil {
			t.Fatalf("set %s %s: %v", tenant, status, err)
		}
	}
	set("ACTIVE")
	rows := serverRows(t, n, class, tenant)
	set("INACTIVE")
	if len(rows) == 0 {
		t.Fatalf("tenant %s holds no rows", tenant)
	}
	return rows
}

// fullAccess is the server's Authenticator for the tests that write: every caller holds a
// fullAccess token (confirm_destructive_operation is admin only).
func fullAccess(*env) mcp.Authenticator {
	return mcp.AuthenticatorFunc(func(*http.Request) (mcp.Principal, error) {
		return mcp.Principal{ID: "token:full", Name: "full", Level: auth.LevelFullAccess, Scopes: auth.Scopes(auth.LevelFullAccess)}, nil
	})
}

// The tenants of a tenantClass, and the uuids it holds in more than one place or INACTIVE.
const (
	tenantAlpha = "alpha"
	tenantBeta  = "beta"
	tenantCold  = "gamma"
	sharedUUID  = "23230000-0000-4000-8000-000000000099"
	coldUUID    = "23230000-0000-4000-8000-000000000020"
)

// tenantClass is a multi-tenant collection one test makes of its own on one node, so that the
// shared fixtures stay as the other tests read them: tenants alpha (5 rows) and beta (4 rows)
// ACTIVE, and gamma (1 row) INACTIVE. Both alpha and beta hold an object of uuid shared, each
// with its own title, values and vector, so a read or write that reached the wrong tenant
// shows. Every vector is distinct, so the order of a search has no ties.
type tenantClass struct {
	name   string
	shared string
}

func newTenantClass(t *testing.T, n *weaviatenode.Node) tenantClass {
	t.Helper()
	ctx := context.Background()
	c := tenantClass{name: "McpTenancy" + strconv.FormatInt(time.Now().UnixNano(), 36), shared: sharedUUID}
	class := map[string]any{"class": c.name, "vectorizer": "none", "multiTenancyConfig": map[string]any{"enabled": true},
		"properties": []any{
			map[string]any{"name": "title", "dataType": []string{"text"}, "tokenization": "field"},
			map[string]any{"name": "n", "dataType": []string{"int"}},
			map[string]any{"name": "tag", "dataType": []string{"text"}, "tokenization": "field"},
		}}
	if err := n.DoJSON(ctx, http.MethodPost, "/v1/schema", class, nil); err != nil {
		t.Fatalf("create %s: %v", c.name, err)
	}
	t.Cleanup(func() { _ = n.DoJSON(context.Background(), http.MethodDelete, "/v1/schema/"+c.name, nil, nil) })
	tenants := []map[string]string{{"name": tenantAlpha}, {"name": tenantBeta}, {"name": tenantCold}}
	if err := n.DoJSON(ctx, http.MethodPost, "/v1/schema/"+c.name+"/tenants", tenants, nil); err != nil {
		t.Fatalf("the tenants of %s: %v", c.name, err)
	}
	id := func(k int) string { return fmt.Sprintf("23230000-0000-4000-8000-%012d", k) }
	rows := []struct {
		tenant, id, title string
		n                 int
		tag               string
		x                 float32 // the vector is (x, 1, 0)
	}{
		{tenantAlpha, id(1), "alpha 1", 1, "red", 3},
		{tenantAlpha, id(2), "alpha 2", 2, "blue", 1},
		{tenantAlpha, id(3), "alpha 3", 3, "red", 4},
		{tenantAlpha, id(4), "alpha 4", 4, "green", 2},
		{tenantAlpha, sharedUUID, "alpha shared", 5, "blue", 6},
		{tenantBeta, id(11), "beta 1", 1, "red", 5},
		{tenantBeta, id(12), "beta 2", 2, "green", 1.5},
		{tenantBeta, id(13), "beta 3", 3, "blue", 7},
		{tenantBeta, sharedUUID, "beta shared", 5, "red", 2.5},
		{tenantCold, coldUUID, "gamma 1", 1, "red", 1},
	}
	var objs []fixtures.Object
	for _, r := range rows {
		objs = append(objs, fixtures.Object{Class: c.name, ID: r.id, Tenant: r.tenant, Vector: []float32{r.x, 1, 0},
			Properties: map[string]any{"title": r.title, "n": r.n, "tag": r.tag}})
	}
	if err := fixtures.Batch(ctx, n, objs); err != nil {
		t.Fatal(err)
	}
	if err := n.DoJSON(ctx, http.MethodPut, "/v1/schema/"+c.name+"/tenants", []map[string]string{{"name": tenantCold, "activityStatus": "INACTIVE"}}, nil); err != nil {
		t.Fatalf("deactivate %s: %v", tenantCold, err)
	}
	return c
}

// args are a table tool's arguments for tenant of c on n, with extra (nil filters left out).
func (c tenantClass) args(n servedNode, tenant string, extra map[string]any) map[string]any {
	a := map[string]any{"connection": n.conn, "table": c.name, "tenant": tenant}
	for k, v := range extra {
		if f, ok := v.([]any); !ok || f != nil {
			a[k] = v
		}
	}
	return a
}

// other is the other active tenant.
func (c tenantClass) other(tenant string) string {
	if tenant == tenantAlpha {
		return tenantBeta
	}
	return tenantAlpha
}

// serverRow is one object of a tenant as the server lists it.
type serverRow struct {
	ID, Title, Tag string
	N              int
}

// String is the row as browsed compares it: uuid, title, n and tag.
func (r serverRow) String() string { return fmt.Sprintf("%s|%s|%d|%s", r.ID, r.Title, r.N, r.Tag) }

// serverRows are tenant's objects of class as the server lists them over REST
// (GET /v1/objects?class=&tenant=), sorted by uuid.
func serverRows(t *testing.T, n *weaviatenode.Node, class, tenant string) []serverRow {
	t.Helper()
	var list struct {
		Objects []struct {
			ID         string `json:"id"`
			Properties struct {
				Title string  `json:"title"`
				N     float64 `json:"n"`
				Tag   string  `json:"tag"`
			} `json:"properties"`
		} `json:"objects"`
	}
	q := url.Values{"class": {class}, "tenant": {tenant}, "limit": {"100"}}
	if err := n.DoJSON(context.Background(), http.MethodGet, "/v1/objects?"+q.Encode(), nil, &list); err != nil {
		t.Fatalf("the server's rows of %s: %v", tenant, err)
	}
	out := make([]serverRow, 0, len(list.Objects))
	for _, o := range list.Objects {
		out = append(out, serverRow{ID: o.ID, Title: o.Properties.Title, N: int(o.Properties.N), Tag: o.Properties.Tag})
	}
	return sortedRows(out)
}

func sortedRows(rows []serverRow) []serverRow {
	slices.SortFunc(rows, func(a, b serverRow) int { return strings.Compare(a.String(), b.String()) })
	return rows
}

// matching are the rows that match, as browsed compares them. A filtered expectation that holds
// no row, or every row, proves nothing about the filter: the fixture is wrong then.
func matching(t *testing.T, rows []serverRow, match func(serverRow) bool, filtered bool) []string {
	t.Helper()
	var out []string
	for _, r := range rows {
		if match(r) {
			out = append(out, r.String())
		}
	}
	if len(out) == 0 || (filtered && len(out) == len(rows)) {
		t.Fatalf("the filter keeps %d of %d rows: nothing to compare", len(out), len(rows))
	}
	return out
}

// browsed are the rows of a browse_table answer as serverRow.String writes them, sorted.
func browsed(t *testing.T, r mcptest.Reply) []string {
	t.Helper()
	ids, titles, ns, tags := column(t, r, "uuid"), column(t, r, "title"), column(t, r, "n"), column(t, r, "tag")
	out := make([]string, len(ids))
	for i := range ids {
		out[i] = fmt.Sprintf("%v|%v|%v|%v", ids[i], titles[i], ns[i], tags[i])
	}
	slices.Sort(out)
	return out
}

// uuids are the uuid column of an answer, in its order.
func uuids(t *testing.T, r mcptest.Reply) []string {
	t.Helper()
	var out []string
	for _, id := range column(t, r, "uuid") {
		out = append(out, fmt.Sprint(id))
	}
	return out
}

// nearest is the server's own answer to a search of tenant of class (nearVector vec, or
// nearObject id when vec is nil), best first: by GraphQL where the node serves it, else by a
// gRPC Search this test builds itself with Weaviate's stubs.
func nearest(t *testing.T, n servedNode, class, tenant string, vec []float32, id string, limit int) []string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	var out []string
	var err error
	if n.graphQL {
		near := fmt.Sprintf("nearObject: {id: %q}", id)
		if vec != nil {
			parts := make([]string, len(vec))
			for i, f := range vec {
				parts[i] = strconv.FormatFloat(float64(f), 'f', -1, 32)
			}
			near = "nearVector: {vector: [" + strings.Join(parts, ", ") + "]}"
		}
		out, err = n.node.GetIDs(ctx, fmt.Sprintf("{ Get { %s(tenant: %q, %s, limit: %d) { _additional { id } } } }", class, tenant, near, limit))
	} else {
		req := &pb.SearchRequest{Collection: class, Tenant: tenant, Limit: uint32(limit)}
		if vec != nil {
			req.NearVector = &pb.NearVector{Vectors: []*pb.Vectors{{VectorBytes: driver.PackFloats(vec), Type: pb.Vectors_VECTOR_TYPE_SINGLE_FP32}}}
		} else {
			req.NearObject = &pb.NearObject{Id: id}
		}
		out, err = n.node.SearchIDs(ctx, req)
	}
	if err != nil {
		t.Fatalf("the server's search: %v", err)
	}
	if len(out) != limit {
		t.Fatalf("the server's search found %d of %d: nothing to compare", len(out), limit)
	}
	return out
}

// tenantStatus is the tenant's activity status as the server lists it.
func tenantStatus(t *testing.T, n *weaviatenode.Node, class, tenant string) string {
	t.Helper()
	var list []struct {
		Name           string `json:"name"`
		ActivityStatus string `json:"activityStatus"`
	}
	if err := n.DoJSON(context.Background(), http.MethodGet, "/v1/schema/"+class+"/tenants", nil, &list); err != nil {
		t.Fatal(err)
	}
	for _, tn := range list {
		if tn.Name == tenant {
			return tn.ActivityStatus
		}
	}
	t.Fatalf("no tenant %s", tenant)
	return ""
}
