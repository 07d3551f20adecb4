package app

import (
	"context"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"app/app/dto"
	"app/backend/driver"
	"app/internal/testkit/fixtures"
	"app/internal/testkit/weaviatenode"
	"app/internal/testkit/weaviatetest"
)

// issue 23, item 1: the tree lists a multi-tenant table's tenants, a tenant opens as a table,
// and changing a tenant's status asks natively first; against a real weaviate-server that
// serves GraphQL and one that does not (read over gRPC).
func TestExplorerTenants(t *testing.T) {
	for _, v := range []weaviatenode.Variant{weaviatenode.Anonymous, weaviatenode.NoGraphQL} {
		t.Run(v.String(), func(t *testing.T) { explorerTenants(t, v) })
	}
}

func explorerTenants(t *testing.T, v weaviatenode.Variant) {
	node := weaviatetest.Start(t, v)
	ctx := context.Background()
	class := map[string]any{"class": "Shop", "vectorizer": "none", "multiTenancyConfig": map[string]any{"enabled": true},
		"properties": []any{map[string]any{"name": "title", "dataType": []string{"text"}}}}
	if err := node.DoJSON(ctx, http.MethodPost, "/v1/schema", class, nil); err != nil {
		t.Fatal(err)
	}
	if err := node.DoJSON(ctx, http.MethodPost, "/v1/schema/Shop/tenants", []map[string]string{{"name": "north"}, {"name": "south"}, {"name": "west", "activityStatus": "COLD"}}, nil); err != nil {
		t.Fatal(err)
	}
	if err := fixtures.Batch(ctx, node, []fixtures.Object{
		{Class: "Shop", ID: "00000023-0000-4000-8000-000000000001", Tenant: "north", Properties: map[string]any{"title": "n1"}, Vector: []float32{1, 0, 0}},
		{Class: "Shop", ID: "00000023-0000-4000-8000-000000000002", Tenant: "south", Properties: map[string]any{"title": "s1"}, Vector: []float32{0, 1, 0}},
		{Class: "Shop", ID: "00000023-0000-4000-8000-000000000003", Tenant: "south", Properties: map[string]any{"title": "s2"}, Vector: []float32{0, 1, 1}},
	}); err != nil {
		t.Fatal(err)
	}
	api, id := connected(t, node)
	dialog := &answering{}
	api.start(env{emit: &eventRecorder{}, confirm: dialog, name: func(string) string { return "Node" }})

	t.Run("the table is marked multi-tenant and counts its tenants", func(t *testing.T) {
		tables, err := api.ListTables(id)
		if err != nil || len(tables) != 1 || !tables[0].MultiTenant {
			t.Fatalf("%+v %v", tables, err)
		}
		counts, err := api.TableCounts(id)
		if err != nil || counts[0].Tenants == nil || *counts[0].Tenants != 3 || counts[0].Count != nil {
			t.Fatalf("%+v %v", counts, err)
		}
	})
	list := func(t *testing.T) []dto.TenantDTO {
		t.Helper()
		p, err := api.ListTenants(id, "Shop", "", 0, 0, true)
		if err != nil {
			t.Fatal(err)
		}
		return p.Tenants
	}
	t.Run("the tenants are listed by name with their status and the table that opens each", func(t *testing.T) {
		want := []dto.TenantDTO{{Name: "north", Table: "Shop@north", Status: driver.TenantActive}, {Name: "south", Table: "Shop@south", Status: driver.TenantActive}, {Name: "west", Table: "Shop@west", Status: driver.TenantInactive}}
		if got := list(t); !slices.Equal(got, want) {
			t.Fatalf("ListTenants = %+v, want %+v", got, want)
		}
	})
	t.Run("the tree's count keeps its listing: the list opens from it and says so, a fresh read does not", func(t *testing.T) {
		if _, err := api.TableCounts(id); err != nil {
			t.Fatal(err)
		}
		p, err := api.ListTenants(id, "Shop", "", 0, 10, false)
		if err != nil || !p.Kept || p.Total != 3 {
			t.Fatalf("%+v %v", p, err)
		}
		if p, err = api.ListTenants(id, "Shop", "", 0, 10, true); err != nil || p.Kept {
			t.Fatalf("fresh: %+v %v", p, err)
		}
	})
	t.Run("a window of the tenants, filtered by name, comes from the last listing", func(t *testing.T) {
		p, err := api.ListTenants(id, "Shop", "OUTH", 0, 10, false)
		if err != nil || p.Total != 3 || p.Matched != 1 || len(p.Tenants) != 1 || p.Tenants[0].Name != "south" {
			t.Fatalf("%+v %v", p, err)
		}
		p, err = api.ListTenants(id, "Shop", "", 1, 1, false)
		if err != nil || p.Matched != 3 || p.Offset != 1 || len(p.Tenants) != 1 || p.Tenants[0].Name != "south" {
			t.Fatalf("%+v %v", p, err)
		}
		p, err = api.ListTenants(id, "Shop", "", 5, 10, false)
		if err != nil || p.Matched != 3 || len(p.Tenants) != 0 {
			t.Fatalf("past the end: %+v %v", p, err)
		}
		if _, err := api.ListTenants(id, "Shop", "", -1, 10, false); err == nil {
			t.Fatal("a negative offset was answered")
		}
	})
	t.Run("a tenant opens as a table: browse and count read its rows only", func(t *testing.T) {
		g, err := api.Browse(id, "Shop@south", dto.BrowseRequestDTO{})
		if err != nil || len(g.Rows) != 2 {
			t.Fatalf("%+v %v", g, err)
		}
		c, err := api.Count(id, "Shop@south", nil)
		if err != nil || c.Count == nil || *c.Count != 2 {
			t.Fatalf("%+v %v", c, err)
		}
	})
	t.Run("a filter, its count and a sort on a tenant are the server's rows of that tenant", func(t *testing.T) {
		var held struct {
			Objects []struct {
				ID         string         `json:"id"`
				Properties map[string]any `json:"properties"`
			} `json:"objects"`
		}
		if err := node.DoJSON(ctx, http.MethodGet, "/v1/objects?class=Shop&tenant=south&limit=100", nil, &held); err != nil {
			t.Fatal(err)
		}
		var want []string
		for _, o := range held.Objects {
			if o.Properties["title"] == "s2" {
				want = append(want, o.ID)
			}
		}
		filter := []dto.FilterDTO{{Column: "title", Operator: "equals", Value: "s2"}}
		g, err := api.Browse(id, "Shop@south", dto.BrowseRequestDTO{Filters: filter})
		if err != nil || len(want) != 1 || len(g.Rows) != 1 || *g.Rows[0][0] != want[0] {
			t.Fatalf("filtered %+v (%v), the server holds %v", g.Rows, err, want)
		}
		if c, err := api.Count(id, "Shop@south", filter); err != nil || c.Count == nil || *c.Count != 1 {
			t.Fatalf("count %+v %v", c, err)
		}
		sorted, err := api.Browse(id, "Shop@south", dto.BrowseRequestDTO{Sort: []dto.SortDTO{{Column: "title", Descending: true}}})
		if err != nil || len(sorted.Rows) != 2 || *sorted.Rows[0][0] != "00000023-0000-4000-8000-000000000003" {
			t.Fatalf("sorted %+v %v", sorted.Rows, err)
		}
	})
	t.Run("an edit on a tenant is written to its object alone, read back from the server", func(t *testing.T) {
		res, err := api.Commit(id, "Shop@south", dto.CommitRequestDTO{Updates: []dto.RowChangeDTO{
			{Ref: "r", Key: map[string]any{"uuid": "00000023-0000-4000-8000-000000000002"}, Values: map[string]any{"title": "s1, edited"}},
		}})
		if err != nil || res.Declined || len(res.Outcomes) != 1 || res.Outcomes[0].Status != "ok" {
			t.Fatalf("%+v %v", res, err)
		}
		var got struct{ Properties map[string]any }
		if err := node.DoJSON(ctx, http.MethodGet, "/v1/objects/Shop/00000023-0000-4000-8000-000000000002?tenant=south", nil, &got); err != nil || got.Properties["title"] != "s1, edited" {
			t.Fatalf("south's object reads %v (%v)", got.Properties, err)
		}
		if err := node.DoJSON(ctx, http.MethodGet, "/v1/objects/Shop/00000023-0000-4000-8000-000000000002?tenant=north", nil, &got); err == nil {
			t.Fatal("north holds south's object after the edit")
		}
		if res, err := api.Commit(id, "Shop@south", dto.CommitRequestDTO{Updates: []dto.RowChangeDTO{
			{Ref: "r", Key: map[string]any{"uuid": "00000023-0000-4000-8000-000000000002"}, Values: map[string]any{"title": "s1"}},
		}}); err != nil || res.Outcomes[0].Status != "ok" {
			t.Fatalf("put back: %+v %v", res, err)
		}
	})
	t.Run("a tenant's map holds its rows only, laid out to the last frame", func(t *testing.T) {
		rec := &eventRecorder{}
		api.start(env{emit: rec, confirm: dialog, name: func(string) string { return "Node" }})
		m, err := api.OpenMap("tenant-map", id, "Shop@south", dto.MapRequestDTO{})
		if err != nil {
			t.Fatal(err)
		}
		var ids []string
		for _, k := range m.Keys {
			ids = append(ids, k[0].(string))
		}
		got := slices.Sorted(slices.Values(ids))
		if want := []string{"00000023-0000-4000-8000-000000000002", "00000023-0000-4000-8000-000000000003"}; !slices.Equal(got, want) || m.Dims != 3 || !slices.Equal(m.KeyColumns, []string{"uuid"}) {
			t.Fatalf("points %v (%d dims), south holds %v", got, m.Dims, want)
		}
		if fs := frames(t, rec, "tenant-map", time.Minute); len(fs[len(fs)-1].XY) != 8*len(m.Keys) {
			t.Fatalf("the last frame holds %d bytes for %d points", len(fs[len(fs)-1].XY), len(m.Keys))
		}
	})
	t.Run("an inactive tenant's page says it is not active", func(t *testing.T) {
		_, err := api.Browse(id, "Shop@west", dto.BrowseRequestDTO{})
		if err == nil || !strings.Contains(err.Error(), "not active") {
			t.Fatalf("%v", err)
		}
	})
	t.Run("a No leaves the status as it was", func(t *testing.T) {
		dialog.yes = false
		yes, err := api.SetTenantStatus(id, "Shop", "west", "active")
		if err != nil || yes {
			t.Fatalf("%v %v", yes, err)
		}
		q := dialog.questions[len(dialog.questions)-1]
		if !strings.Contains(q, "Set tenant west to active") || !strings.Contains(q, "“west” of Shop on Node") || dialog.timed[len(dialog.timed)-1] {
			t.Fatalf("asked %q (under a deadline: %v)", q, dialog.timed)
		}
		if got := list(t); got[2].Status != driver.TenantInactive {
			t.Fatalf("west is %s after a No", got[2].Status)
		}
	})
	t.Run("a Yes activates the tenant, and its rows read", func(t *testing.T) {
		dialog.yes = true
		if yes, err := api.SetTenantStatus(id, "Shop", "west", "active"); err != nil || !yes {
			t.Fatalf("%v %v", yes, err)
		}
		if p, _ := api.ListTenants(id, "Shop", "west", 0, 1, false); p.Tenants[0].Status != driver.TenantActive {
			t.Fatalf("the kept listing says west is %s after a Yes", p.Tenants[0].Status)
		}
		if got := list(t); got[2].Status != driver.TenantActive {
			t.Fatalf("west is %s after a Yes", got[2].Status)
		}
		if g, err := api.Browse(id, "Shop@west", dto.BrowseRequestDTO{}); err != nil || len(g.Rows) != 0 {
			t.Fatalf("%+v %v", g, err)
		}
	})
	t.Run("the connection's nodes: one here, holding Shop's three tenants as shards", func(t *testing.T) {
		nodes, err := api.Nodes(id)
		if err != nil || len(nodes) != 1 || nodes[0].Status != "HEALTHY" || nodes[0].Shards != 3 {
			t.Fatalf("%+v %v", nodes, err)
		}
		if tb := nodes[0].Tables; len(tb) != 1 || tb[0].Table != "Shop" || tb[0].Shards != 3 {
			t.Fatalf("tables %+v", tb)
		}
	})
	t.Run("a status that is none is refused without asking", func(t *testing.T) {
		n := len(dialog.questions)
		if _, err := api.SetTenantStatus(id, "Shop", "west", "warm"); err == nil || len(dialog.questions) != n {
			t.Fatalf("%v, %d questions", err, len(dialog.questions)-n)
		}
	})
}
