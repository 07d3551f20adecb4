package weaviate_test

import (
	"context"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"

	"app/backend/driver"
	"app/backend/driver/weaviate"
	"app/internal/testkit/fixtures"
	"app/internal/testkit/weaviatenode"
)

// tenantCollection creates a multi-tenant collection of this test's own on n: tenants t1 (3
// rows), t2 (2 rows) and t3 (1 row, then made INACTIVE), every row with a vector. It returns
// the uuids of each tenant's rows and drops the collection at the end.
func tenantCollection(t *testing.T, n *weaviatenode.Node, name string) map[string][]string {
	t.Helper()
	ctx := context.Background()
	_ = n.DoJSON(ctx, http.MethodDelete, "/v1/schema/"+name, nil, nil)
	class := map[string]any{
		"class": name, "vectorizer": "none",
		"multiTenancyConfig": map[string]any{"enabled": true},
		"properties": []any{
			map[string]any{"name": "title", "dataType": []string{"text"}, "tokenization": "field"},
			map[string]any{"name": "n", "dataType": []string{"int"}},
		},
	}
	if err := n.DoJSON(ctx, http.MethodPost, "/v1/schema", class, nil); err != nil {
		t.Fatalf("create %s: %v", name, err)
	}
	t.Cleanup(func() { _ = n.DoJSON(context.Background(), http.MethodDelete, "/v1/schema/"+name, nil, nil) })
	if err := n.DoJSON(ctx, http.MethodPost, "/v1/schema/"+name+"/tenants", []map[string]string{{"name": "t1"}, {"name": "t2"}, {"name": "t3"}}, nil); err != nil {
		t.Fatalf("tenants: %v", err)
	}
	ids := map[string][]string{}
	var objs []fixtures.Object
	k := 0
	for _, tc := range []struct {
		tenant string
		rows   int
	}{{"t1", 3}, {"t2", 2}, {"t3", 1}} {
		for i := range tc.rows {
			k++
			id := fmt.Sprintf("00000023-0000-4000-8000-%012d", k)
			ids[tc.tenant] = append(ids[tc.tenant], id)
			objs = append(objs, fixtures.Object{Class: name, ID: id, Tenant: tc.tenant,
				Properties: map[string]any{"title": fmt.Sprintf("%s row %d", tc.tenant, i+1), "n": int64(10*k + i)},
				Vector:     []float32{float32(k), 1, 0}})
		}
	}
	if err := fixtures.Batch(ctx, n, objs); err != nil {
		t.Fatal(err)
	}
	if err := n.DoJSON(ctx, http.MethodPut, "/v1/schema/"+name+"/tenants", []map[string]string{{"name": "t3", "activityStatus": "INACTIVE"}}, nil); err != nil {
		t.Fatalf("deactivate t3: %v", err)
	}
	return ids
}

// tenantHas reads object id of tenant back from the server itself.
func tenantHas(t *testing.T, n *weaviatenode.Node, class, tenant, id string) (stored, bool) {
	t.Helper()
	var o stored
	err := n.DoJSON(context.Background(), http.MethodGet, "/v1/objects/"+class+"/"+id+"?tenant="+tenant, nil, &o)
	if se, ok := err.(*weaviatenode.StatusError); ok && se.Code == http.StatusNotFound {
		return o, false
	}
	if err != nil {
		t.Fatalf("read back %s of %s: %v", id, tenant, err)
	}
	return o, true
}

func uuidsOf(t *testing.T, g *driver.Grid) []string {
	t.Helper()
	out := []string{}
	for _, r := range g.Rows {
		out = append(out, r[0].(string))
	}
	slices.Sort(out)
	return out
}

// Issue 23, item 1: a tenant opens as a table ("Collection@tenant") and browse, filters, sort,
// count, edits, Find similar and the export's walk work on it exactly as on a collection, each
// read back from the server for that tenant only; on both read paths.
func TestATenantOpensAsATable(t *testing.T) {
	for _, v := range readPaths {
		t.Run(v.String(), func(t *testing.T) {
			n := sharedNode(t, v)
			name := fmt.Sprintf("TenantWork%d", int(v))
			ids := tenantCollection(t, n, name)
			d := open(t, n, nil)
			ctx := ctxT(t)
			t1, t2, t3 := driver.TenantTable(name, "t1"), driver.TenantTable(name, "t2"), driver.TenantTable(name, "t3")

			t.Run("the collection lists its tenants by name with their status and table", func(t *testing.T) {
				got, err := d.ListTenants(ctx, name)
				if err != nil {
					t.Fatal(err)
				}
				want := []driver.Tenant{{Name: "t1", Table: t1, Status: "ACTIVE"}, {Name: "t2", Table: t2, Status: "ACTIVE"}, {Name: "t3", Table: t3, Status: "INACTIVE"}}
				if !slices.Equal(got, want) {
					t.Fatalf("ListTenants = %+v, want %+v", got, want)
				}
			})
			t.Run("a tenant's table describes the collection and names the tenant", func(t *testing.T) {
				info, err := d.DescribeTable(ctx, t1)
				if err != nil {
					t.Fatal(err)
				}
				if info.Name != t1 || info.Settings.Tenant != "t1" || !info.Settings.MultiTenancy || info.Columns[0].Name != "uuid" || !info.Columns[len(info.Columns)-1].IsVector() {
					t.Fatalf("info = %+v", info)
				}
			})
			t.Run("browse reads only the tenant's rows", func(t *testing.T) {
				g, err := d.Browse(ctx, t1, driver.Page{}, nil, nil)
				if err != nil {
					t.Fatal(err)
				}
				if got := uuidsOf(t, g); !slices.Equal(got, ids["t1"]) {
					t.Fatalf("t1 rows %v, want %v", got, ids["t1"])
				}
			})
			t.Run("a filter and a sort run within the tenant", func(t *testing.T) {
				g, err := d.Browse(ctx, t1, driver.Page{}, []driver.Filter{{Column: "title", Operator: driver.OpNotEquals, Value: "t1 row 2"}},
					[]driver.Sort{{Column: "n", Descending: true}})
				if err != nil {
					t.Fatal(err)
				}
				got := []string{}
				for _, r := range g.Rows {
					got = append(got, r[0].(string))
				}
				if want := []string{ids["t1"][2], ids["t1"][0]}; !slices.Equal(got, want) {
					t.Fatalf("filtered, sorted t1 rows %v, want %v", got, want)
				}
			})
			t.Run("count counts the tenant's rows", func(t *testing.T) {
				for table, want := range map[string]int64{t1: 3, t2: 2} {
					if c, err := d.Count(ctx, table, nil); err != nil || c != want {
						t.Fatalf("Count(%s) = %d, %v; want %d", table, c, err, want)
					}
				}
				c, err := d.Count(ctx, t1, []driver.Filter{{Column: "title", Operator: driver.OpEquals, Value: "t1 row 1"}})
				if err != nil || c != 1 {
					t.Fatalf("filtered count = %d, %v", c, err)
				}
			})
			t.Run("find similar searches within the tenant", func(t *testing.T) {
				g, err := d.Search(ctx, t2, driver.SearchRequest{SimilarTo: driver.Key{"uuid": ids["t2"][0]}}, 10)
				if err != nil {
					t.Fatal(err)
				}
				if got := uuidsOf(t, g); !slices.Equal(got, ids["t2"]) {
					t.Fatalf("similar in t2 %v, want %v", got, ids["t2"])
				}
			})
			t.Run("the export's walk reads the tenant's rows and vectors", func(t *testing.T) {
				p, err := d.Scan(ctx, t1, driver.ScanRequest{Vectors: true})
				if err != nil {
					t.Fatal(err)
				}
				got := []string{}
				for i, r := range p.Rows {
					got = append(got, r[0].(string))
					if len(p.Vectors[i][0]) != 3 {
						t.Fatalf("row %d vector %v", i, p.Vectors[i])
					}
				}
				if !slices.Equal(got, ids["t1"]) {
					t.Fatalf("walk of t1 %v, want %v", got, ids["t1"])
				}
			})
			t.Run("insert, update and delete write to the tenant only, read back from the server", func(t *testing.T) {
				id := "00000023-0000-4000-8000-000000000099"
				res, err := d.Insert(ctx, t2, []driver.Row{{Key: driver.Key{"uuid": id}, Values: map[string]any{"title": "new", "n": "7"}}})
				if err != nil || res[0].Status != driver.RowOK {
					t.Fatalf("insert: %+v %v", res, err)
				}
				if o, ok := tenantHas(t, n, name, "t2", id); !ok || o.Properties["title"] != "new" {
					t.Fatalf("t2 holds %+v, %v", o, ok)
				}
				if _, ok := tenantHas(t, n, name, "t1", id); ok {
					t.Fatal("the insert into t2 landed in t1 too")
				}
				res, err = d.Update(ctx, t2, []driver.Row{{Key: driver.Key{"uuid": id}, Values: map[string]any{"title": "changed"}}})
				if err != nil || res[0].Status != driver.RowOK {
					t.Fatalf("update: %+v %v", res, err)
				}
				if o, _ := tenantHas(t, n, name, "t2", id); o.Properties["title"] != "changed" {
					t.Fatalf("after update t2 holds %+v", o)
				}
				res, err = d.Delete(ctx, t2, []driver.Row{{Key: driver.Key{"uuid": id}}})
				if err != nil || res[0].Status != driver.RowOK {
					t.Fatalf("delete: %+v %v", res, err)
				}
				if _, ok := tenantHas(t, n, name, "t2", id); ok {
					t.Fatal("the deleted row is still in t2")
				}
			})
			t.Run("an import's batch writes to the tenant", func(t *testing.T) {
				id := "00000023-0000-4000-8000-000000000098"
				res, err := d.WriteBatch(ctx, t1, []driver.Row{{Key: driver.Key{"uuid": id}, Values: map[string]any{"title": "batched"}, Vectors: map[string][]float32{"": {9, 9, 9}}}})
				if err != nil || res[0].Status != driver.RowOK {
					t.Fatalf("batch: %+v %v", res, err)
				}
				if o, ok := tenantHas(t, n, name, "t1", id); !ok || o.Properties["title"] != "batched" {
					t.Fatalf("t1 holds %+v, %v", o, ok)
				}
			})
			t.Run("an inactive tenant is explained, and reads once activated", func(t *testing.T) {
				_, err := d.Browse(ctx, t3, driver.Page{}, []driver.Filter{{Column: "n", Operator: driver.OpGreater, Value: "0"}}, nil)
				if driver.KindOf(err) != driver.KindInactiveTenant || !strings.Contains(err.Error(), "not active") || !strings.Contains(err.Error(), "activated") {
					t.Fatalf("filtered browse of inactive t3: %v", err)
				}
				if _, err := d.Count(ctx, t3, nil); driver.KindOf(err) != driver.KindInactiveTenant || !strings.Contains(err.Error(), "not active") {
					t.Fatalf("count of inactive t3: %v", err)
				}
				if err := d.SetTenantStatus(ctx, name, "t3", driver.TenantActive); err != nil {
					t.Fatal(err)
				}
				g, err := d.Browse(ctx, t3, driver.Page{}, nil, nil)
				if err != nil {
					t.Fatal(err)
				}
				if got := uuidsOf(t, g); !slices.Equal(got, ids["t3"]) {
					t.Fatalf("t3 rows %v, want %v", got, ids["t3"])
				}
			})
			t.Run("the collection itself reads no rows and says how to open a tenant", func(t *testing.T) {
				_, err := d.Browse(ctx, name, driver.Page{}, nil, nil)
				if driver.KindOf(err) != driver.KindUnsupported || !strings.Contains(err.Error(), name+"@<tenant>") {
					t.Fatalf("%v", err)
				}
			})
			t.Run("bad tenant names are refused before anything is sent", func(t *testing.T) {
				for table, want := range map[string]string{
					driver.TenantTable(fixtures.Typed, "t1"): "no tenants",
					name + "@bad name":                       "not a tenant name",
					name + "@":                               "not a tenant name",
				} {
					_, err := d.Browse(ctx, table, driver.Page{}, nil, nil)
					if driver.KindOf(err) != driver.KindInvalidArgument || !strings.Contains(err.Error(), want) {
						t.Errorf("%s: %v", table, err)
					}
				}
				if err := d.SetTenantStatus(ctx, name, "t1", "WARM"); driver.KindOf(err) != driver.KindInvalidArgument {
					t.Errorf("status WARM: %v", err)
				}
			})
		})
	}
}

// The driver offers the Tenants interface.
var _ driver.Tenants = (*weaviate.Driver)(nil)
