package weaviate_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"reflect"
	"slices"
	"strings"
	"testing"

	"app/backend/driver"
	"app/backend/driver/weaviate"
	"app/internal/testkit/fixtures"
	"app/internal/testkit/weaviatenode"
)

func colIndex(t testing.TB, g *driver.Grid, name string) int {
	t.Helper()
	for i, c := range g.Columns {
		if c.Name == name {
			return i
		}
	}
	t.Fatalf("no column %q in %v", name, g.Columns)
	return -1
}

// titles returns the sorted title cells of a grid.
func titles(t testing.TB, g *driver.Grid) []string {
	i := colIndex(t, g, "title")
	out := []string{}
	for _, r := range g.Rows {
		s, _ := r[i].(string)
		out = append(out, s)
	}
	slices.Sort(out)
	return out
}

func TestTablesAndColumns(t *testing.T) {
	d := open(t, sharedNode(t, weaviatenode.Anonymous), nil)
	ctx := ctxT(t)
	tables, err := d.ListTables(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tb := range tables {
		names = append(names, tb.Name)
	}
	for _, want := range []string{fixtures.Person, fixtures.Typed, fixtures.Unindexed, fixtures.NamedVectors, fixtures.Tenanted, fixtures.Big} {
		if !slices.Contains(names, want) {
			t.Errorf("collection %s missing from %v", want, names)
		}
	}
	t.Run("tables are listed by name, the same on every read", func(t *testing.T) {
		if !slices.IsSorted(names) {
			t.Fatalf("tables not sorted by name: %v", names)
		}
		for i := 0; i < 5; i++ {
			again, err := d.ListTables(ctx)
			if err != nil {
				t.Fatal(err)
			}
			if len(again) != len(tables) {
				t.Fatalf("read %d: %d tables, first read %d", i, len(again), len(tables))
			}
			for j := range again {
				if again[j].Name != names[j] {
					t.Fatalf("read %d: order %v, first read %v", i, again, names)
				}
			}
		}
	})
	t.Run("uuid first, properties in schema order, vector last", func(t *testing.T) {
		info, err := d.DescribeTable(ctx, fixtures.Typed)
		if err != nil {
			t.Fatal(err)
		}
		var cols []string
		for _, c := range info.Columns {
			cols = append(cols, c.Name+":"+c.Type)
		}
		want := "uuid:uuid title:text body:text count:int price:number active:boolean published:date tags:text[] scores:int[] externalId:uuid location:geoCoordinates phone:phoneNumber details:object writtenBy:Person vector:vector"
		if got := strings.Join(cols, " "); got != want {
			t.Errorf("columns\n%s\nwant\n%s", got, want)
		}
		if !info.Columns[0].PrimaryKey || !info.Columns[0].ReadOnly || !info.Columns[len(info.Columns)-1].ReadOnly || strings.Join(info.PrimaryKey, ",") != "uuid" {
			t.Errorf("uuid/vector flags: %+v %+v", info.Columns[0], info.Columns[len(info.Columns)-1])
		}
		if !info.Settings.IndexNullState || !info.Settings.IndexPropertyLength || len(info.Definition) == 0 {
			t.Errorf("settings %+v", info.Settings)
		}
	})
	t.Run("settings that gate filters are reported", func(t *testing.T) {
		info, _ := d.DescribeTable(ctx, fixtures.Unindexed)
		if info.Settings.IndexNullState || info.Settings.IndexPropertyLength {
			t.Errorf("settings %+v", info.Settings)
		}
		ten, _ := d.DescribeTable(ctx, fixtures.Tenanted)
		if !ten.Settings.MultiTenancy {
			t.Error("Tenanted not multi-tenant")
		}
		nv, _ := d.DescribeTable(ctx, fixtures.NamedVectors)
		if !slices.Equal(nv.Settings.NamedVectors, []string{"body_vec", "title_vec"}) {
			t.Errorf("named vectors %v", nv.Settings.NamedVectors)
		}
	})
	t.Run("an unknown collection is not found", func(t *testing.T) {
		_, err := d.DescribeTable(ctx, "NoSuchCollection")
		if driver.KindOf(err) != driver.KindNotFound {
			t.Errorf("%v", err)
		}
		_, err = d.Browse(ctx, "NoSuchCollection", driver.Page{}, nil, nil)
		if driver.KindOf(err) != driver.KindNotFound {
			t.Errorf("%v", err)
		}
	})
}

func TestUnfilteredPageRendersCells(t *testing.T) {
	d := open(t, sharedNode(t, weaviatenode.Anonymous), nil)
	ctx := ctxT(t)
	g, err := d.Browse(ctx, fixtures.Typed, driver.Page{Limit: 10}, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(g.Rows) != 5 || g.HasMore {
		t.Fatalf("%d rows hasMore=%v", len(g.Rows), g.HasMore)
	}
	var alpha []any
	for _, r := range g.Rows {
		if r[0] == fixtures.TypedAlphaID {
			alpha = r
		}
	}
	if alpha == nil {
		t.Fatal("Alpha missing")
	}
	want := map[string]any{
		"uuid": fixtures.TypedAlphaID, "title": "Alpha", "count": json.Number("10"), "price": json.Number("9.99"),
		"active": true, "published": "2024-01-15T10:30:00Z", "tags": `["red","green"]`, "scores": `[1,2,3]`,
		"externalId": "aaaaaaaa-0000-4000-8000-000000000001",
		"location":   `{"latitude":52.3676,"longitude":4.9041}`,
		"details":    `{"color":"blue","size":3}`,
		"writtenBy":  `[{"beacon":"weaviate://localhost/Person/00000001-0000-4000-8000-000000000001","href":"/v1/objects/Person/00000001-0000-4000-8000-000000000001"}]`,
		"vector":     `[0.1,0.2,0.3]`,
	}
	for name, w := range want {
		if got := alpha[colIndex(t, g, name)]; got != w {
			t.Errorf("%s = %#v, want %#v", name, got, w)
		}
	}
	// Nulls: every property but title is null.
	for _, r := range g.Rows {
		if r[0] == fixtures.TypedNullsID && r[colIndex(t, g, "count")] != nil {
			t.Errorf("null count rendered as %#v", r[colIndex(t, g, "count")])
		}
	}
	// The grid is JSON-friendly as a whole.
	if _, err := json.Marshal(g); err != nil {
		t.Fatal(err)
	}
	t.Run("named vectors are one JSON object of arrays", func(t *testing.T) {
		g, err := d.Browse(ctx, fixtures.NamedVectors, driver.Page{}, nil, nil)
		if err != nil {
			t.Fatal(err)
		}
		v := colIndex(t, g, "vector")
		for _, r := range g.Rows {
			if r[0] == fixtures.ID(fixtures.NamedVectors, 1) && r[v] != `{"body_vec":[0,1,0,1],"title_vec":[1,0,1]}` {
				t.Errorf("vector cell %#v", r[v])
			}
		}
		// The GraphQL path (a sort) renders the same cell.
		gs, err := d.Browse(ctx, fixtures.NamedVectors, driver.Page{}, nil, []driver.Sort{{Column: "title"}})
		if err != nil {
			t.Fatal(err)
		}
		if titles(t, gs)[0] != "East" || gs.Rows[0][v] != `{"body_vec":[0,2,0,0.5],"title_vec":[2,0,0.5]}` {
			t.Errorf("sorted first row %#v", gs.Rows[0])
		}
	})
	t.Run("a filtered page renders the same cells as the REST page", func(t *testing.T) {
		gf, err := d.Browse(ctx, fixtures.Typed, driver.Page{}, []driver.Filter{{Column: "title", Operator: driver.OpEquals, Value: "Alpha"}}, nil)
		if err != nil {
			t.Fatal(err)
		}
		if len(gf.Rows) != 1 {
			t.Fatalf("%d rows", len(gf.Rows))
		}
		for name, w := range want {
			if got := gf.Rows[0][colIndex(t, gf, name)]; got != w {
				t.Errorf("%s = %#v, want %#v", name, got, w)
			}
		}
	})
}

func TestCountComesFromAggregate(t *testing.T) {
	d := open(t, sharedNode(t, weaviatenode.Anonymous), nil)
	ctx := ctxT(t)
	for _, tt := range []struct {
		table   string
		filters []driver.Filter
		want    int64
	}{
		{fixtures.Typed, nil, 5},
		{fixtures.Big, nil, fixtures.BigCount},
		{fixtures.Big, []driver.Filter{{Column: "n", Operator: driver.OpLess, Value: "100"}}, 100},
		{fixtures.Typed, []driver.Filter{{Column: "active", Operator: driver.OpEquals, Value: "true"}}, 2},
	} {
		n, err := d.Count(ctx, tt.table, tt.filters)
		if err != nil || n != tt.want {
			t.Errorf("Count(%s, %v) = %d, %v; want %d", tt.table, tt.filters, n, err, tt.want)
		}
	}
}

func TestPagingStopsAtRow10000(t *testing.T) {
	d := open(t, sharedNode(t, weaviatenode.Anonymous), nil)
	ctx := ctxT(t)
	t.Run("a page inside the limit has more", func(t *testing.T) {
		g, err := d.Browse(ctx, fixtures.Big, driver.Page{Offset: 9000, Limit: 500}, nil, nil)
		if err != nil || len(g.Rows) != 500 || !g.HasMore || g.Notice != "" {
			t.Fatalf("rows=%d more=%v notice=%q err=%v", len(g.Rows), g.HasMore, g.Notice, err)
		}
	})
	t.Run("a page crossing row 10,000 is cut there and says why", func(t *testing.T) {
		g, err := d.Browse(ctx, fixtures.Big, driver.Page{Offset: 9950, Limit: 100}, nil, nil)
		if err != nil {
			t.Fatal(err)
		}
		if len(g.Rows) != 50 || g.HasMore || !strings.Contains(g.Notice, "10,000") || !strings.Contains(g.Notice, "QUERY_MAXIMUM_RESULTS") {
			t.Fatalf("rows=%d more=%v notice=%q", len(g.Rows), g.HasMore, g.Notice)
		}
	})
	t.Run("the page ending exactly at row 10,000 has no next page", func(t *testing.T) {
		g, err := d.Browse(ctx, fixtures.Big, driver.Page{Offset: 9900, Limit: 100}, nil, nil)
		if err != nil || len(g.Rows) != 100 || g.HasMore || g.Notice == "" {
			t.Fatalf("rows=%d more=%v notice=%q err=%v", len(g.Rows), g.HasMore, g.Notice, err)
		}
	})
	t.Run("a page starting at row 10,000 is refused before the database is asked", func(t *testing.T) {
		_, err := d.Browse(ctx, fixtures.Big, driver.Page{Offset: 10000, Limit: 100}, nil, nil)
		if driver.KindOf(err) != driver.KindUnsupported || !strings.Contains(err.Error(), "10,000") {
			t.Fatalf("%v", err)
		}
	})
	t.Run("the same limit holds for a sorted page", func(t *testing.T) {
		g, err := d.Browse(ctx, fixtures.Big, driver.Page{Offset: 9990, Limit: 100}, nil, []driver.Sort{{Column: "n", Descending: true}})
		if err != nil || len(g.Rows) != 10 || g.HasMore || g.Notice == "" {
			t.Fatalf("rows=%d more=%v notice=%q err=%v", len(g.Rows), g.HasMore, g.Notice, err)
		}
		if g.Rows[0][colIndex(t, g, "n")] != json.Number("59") {
			t.Errorf("row 9990 of n desc = %v", g.Rows[0][colIndex(t, g, "n")])
		}
	})
	// Issue 25, item 11: the page reads one row more than it shows, so a last page that is
	// exactly full offers no Next onto an empty page; on both read paths.
	for _, v := range readPaths {
		dv := open(t, sharedNode(t, v), nil)
		all := []driver.Filter{{Column: "uuid", Operator: driver.OpNotIn, Value: "ffffffff-ffff-4fff-bfff-ffffffffffff"}}
		for name, filters := range map[string][]driver.Filter{"plain": nil, "filtered": all} {
			t.Run(v.String()+", "+name+": a last page that is exactly full has no next page; one row short of the end has", func(t *testing.T) {
				g, err := dv.Browse(ctx, fixtures.Typed, driver.Page{Limit: 5}, filters, nil)
				if err != nil || len(g.Rows) != 5 || g.HasMore {
					t.Fatalf("limit 5 of 5: rows=%d more=%v err=%v", len(g.Rows), g.HasMore, err)
				}
				g, err = dv.Browse(ctx, fixtures.Typed, driver.Page{Offset: 1, Limit: 4}, filters, nil)
				if err != nil || len(g.Rows) != 4 || g.HasMore {
					t.Fatalf("rows 2-5 of 5: rows=%d more=%v err=%v", len(g.Rows), g.HasMore, err)
				}
				g, err = dv.Browse(ctx, fixtures.Typed, driver.Page{Limit: 4}, filters, nil)
				if err != nil || len(g.Rows) != 4 || !g.HasMore {
					t.Fatalf("limit 4 of 5: rows=%d more=%v err=%v", len(g.Rows), g.HasMore, err)
				}
			})
		}
	}
	t.Run("a multi-tenant collection is refused with how to name the tenant", func(t *testing.T) {
		_, err := d.Browse(ctx, fixtures.Tenanted, driver.Page{}, nil, nil)
		if driver.KindOf(err) != driver.KindUnsupported || !strings.Contains(err.Error(), "tenant") {
			t.Fatalf("%v", err)
		}
	})
}

// readPaths are the two servers every filtered read is proven on (issue 19): GraphQL on
// (the spec's path) and GraphQL off (new cloud clusters; the driver reads over gRPC).
var readPaths = []weaviatenode.Variant{weaviatenode.Anonymous, weaviatenode.NoGraphQL}

// Every operator of the spec's table on every type it applies to, checked
// against the rows the real server returns, on both read paths.
func TestFilterOperatorsOnTheRealServer(t *testing.T) {
	for _, v := range readPaths {
		t.Run(v.String(), func(t *testing.T) { filterOperators(t, v) })
	}
}

func filterOperators(t *testing.T, v weaviatenode.Variant) {
	d := open(t, sharedNode(t, v), nil)
	ctx := ctxT(t)
	f := func(col string, op driver.Operator, v ...string) driver.Filter {
		fl := driver.Filter{Column: col, Operator: op}
		if len(v) > 0 {
			fl.Value = v[0]
		}
		if len(v) > 1 {
			fl.Value2 = v[1]
		}
		return fl
	}
	tests := []struct {
		name    string
		filters []driver.Filter
		want    []string
	}{
		// text
		{"text equals", []driver.Filter{f("title", driver.OpEquals, "Alpha")}, []string{"Alpha"}},
		{"text not equals", []driver.Filter{f("title", driver.OpNotEquals, "Alpha")}, []string{"Beta", "Empty", "Gamma", "Nulls"}},
		{"text contains", []driver.Filter{f("title", driver.OpContains, "lph")}, []string{"Alpha"}},
		{"text not contains", []driver.Filter{f("title", driver.OpNotContains, "a")}, []string{"Empty", "Nulls"}},
		{"text starts with", []driver.Filter{f("title", driver.OpStartsWith, "Ga")}, []string{"Gamma"}},
		{"text ends with", []driver.Filter{f("title", driver.OpEndsWith, "ta")}, []string{"Beta"}},
		{"text in list", []driver.Filter{f("title", driver.OpIn, "Alpha, Gamma")}, []string{"Alpha", "Gamma"}},
		{"text not in list", []driver.Filter{f("title", driver.OpNotIn, "Alpha,Gamma")}, []string{"Beta", "Empty", "Nulls"}},
		{"text is null (Weaviate counts \"\" as null)", []driver.Filter{f("body", driver.OpIsNull)}, []string{"Empty", "Nulls"}},
		{"text is not null", []driver.Filter{f("body", driver.OpIsNotNull)}, []string{"Alpha", "Beta", "Gamma"}},
		{"text is empty (len 0; a null counts as 0)", []driver.Filter{f("body", driver.OpIsEmpty)}, []string{"Empty", "Nulls"}},
		// Issue 19, item 5: multi-word values under word tokenization (what FilterNotes say).
		{"text equals several words matches rows holding every word, in any order and case", []driver.Filter{f("body", driver.OpEquals, "Row FIRST")}, []string{"Alpha"}},
		{"text not equals several words leaves out every row holding any of them", []driver.Filter{f("body", driver.OpNotEquals, "first row")}, []string{"Empty", "Nulls"}},
		{"text contains with a space matches word by word", []driver.Filter{f("body", driver.OpContains, "first fix")}, []string{"Alpha"}},
		{"text is not empty", []driver.Filter{f("body", driver.OpIsNotEmpty)}, []string{"Alpha", "Beta", "Gamma"}},
		// int
		{"int equals", []driver.Filter{f("count", driver.OpEquals, "10")}, []string{"Alpha"}},
		{"int not equals (nulls included)", []driver.Filter{f("count", driver.OpNotEquals, "10")}, []string{"Beta", "Empty", "Gamma", "Nulls"}},
		{"int greater than", []driver.Filter{f("count", driver.OpGreater, "0")}, []string{"Alpha", "Beta"}},
		{"int greater or equal", []driver.Filter{f("count", driver.OpGreaterEq, "0")}, []string{"Alpha", "Beta", "Empty"}},
		{"int less than", []driver.Filter{f("count", driver.OpLess, "0")}, []string{"Gamma"}},
		{"int less or equal", []driver.Filter{f("count", driver.OpLessEq, "0")}, []string{"Empty", "Gamma"}},
		{"int between is inclusive", []driver.Filter{f("count", driver.OpBetween, "0", "10")}, []string{"Alpha", "Empty"}},
		{"int in list", []driver.Filter{f("count", driver.OpIn, "10, 20")}, []string{"Alpha", "Beta"}},
		{"int not in list", []driver.Filter{f("count", driver.OpNotIn, "10, 20")}, []string{"Empty", "Gamma", "Nulls"}},
		{"int is null", []driver.Filter{f("count", driver.OpIsNull)}, []string{"Nulls"}},
		{"int is not null", []driver.Filter{f("count", driver.OpIsNotNull)}, []string{"Alpha", "Beta", "Empty", "Gamma"}},
		// number
		{"number equals", []driver.Filter{f("price", driver.OpEquals, "0")}, []string{"Gamma"}},
		{"number not equals", []driver.Filter{f("price", driver.OpNotEquals, "9.99")}, []string{"Beta", "Empty", "Gamma", "Nulls"}},
		{"number greater than", []driver.Filter{f("price", driver.OpGreater, "9.99")}, []string{"Beta"}},
		{"number greater or equal", []driver.Filter{f("price", driver.OpGreaterEq, "9.99")}, []string{"Alpha", "Beta"}},
		{"number less than", []driver.Filter{f("price", driver.OpLess, "9.99")}, []string{"Gamma"}},
		{"number less or equal", []driver.Filter{f("price", driver.OpLessEq, "9.99")}, []string{"Alpha", "Gamma"}},
		{"number between is inclusive", []driver.Filter{f("price", driver.OpBetween, "0", "9.99")}, []string{"Alpha", "Gamma"}},
		{"number in list", []driver.Filter{f("price", driver.OpIn, "9.99, 19.5")}, []string{"Alpha", "Beta"}},
		{"number not in list", []driver.Filter{f("price", driver.OpNotIn, "9.99")}, []string{"Beta", "Empty", "Gamma", "Nulls"}},
		{"number is null", []driver.Filter{f("price", driver.OpIsNull)}, []string{"Empty", "Nulls"}},
		{"number is not null", []driver.Filter{f("price", driver.OpIsNotNull)}, []string{"Alpha", "Beta", "Gamma"}},
		// boolean
		{"boolean equals", []driver.Filter{f("active", driver.OpEquals, "true")}, []string{"Alpha", "Gamma"}},
		{"boolean not equals", []driver.Filter{f("active", driver.OpNotEquals, "true")}, []string{"Beta", "Empty", "Nulls"}},
		{"boolean in list", []driver.Filter{f("active", driver.OpIn, "false")}, []string{"Beta"}},
		{"boolean not in list", []driver.Filter{f("active", driver.OpNotIn, "false")}, []string{"Alpha", "Empty", "Gamma", "Nulls"}},
		{"boolean is null", []driver.Filter{f("active", driver.OpIsNull)}, []string{"Empty", "Nulls"}},
		{"boolean is not null", []driver.Filter{f("active", driver.OpIsNotNull)}, []string{"Alpha", "Beta", "Gamma"}},
		// date
		{"date equals", []driver.Filter{f("published", driver.OpEquals, "2024-01-15T10:30:00Z")}, []string{"Alpha"}},
		{"date not equals", []driver.Filter{f("published", driver.OpNotEquals, "2024-01-15T10:30:00Z")}, []string{"Beta", "Empty", "Gamma", "Nulls"}},
		{"date greater than", []driver.Filter{f("published", driver.OpGreater, "2024-01-15T10:30:00Z")}, []string{"Beta"}},
		{"date greater or equal", []driver.Filter{f("published", driver.OpGreaterEq, "2024-01-15T10:30:00Z")}, []string{"Alpha", "Beta"}},
		{"date less than", []driver.Filter{f("published", driver.OpLess, "2024-01-01T00:00:00Z")}, []string{"Gamma"}},
		{"date less or equal with an offset", []driver.Filter{f("published", driver.OpLessEq, "2024-01-15T11:30:00+01:00")}, []string{"Alpha", "Gamma"}},
		{"date between is inclusive", []driver.Filter{f("published", driver.OpBetween, "2024-01-15T10:30:00Z", "2024-06-01T00:00:00Z")}, []string{"Alpha", "Beta"}},
		{"date in list", []driver.Filter{f("published", driver.OpIn, "2024-06-01T00:00:00Z, 2023-12-31T23:59:59Z")}, []string{"Beta", "Gamma"}},
		{"date not in list", []driver.Filter{f("published", driver.OpNotIn, "2024-06-01T00:00:00Z")}, []string{"Alpha", "Empty", "Gamma", "Nulls"}},
		{"date is null", []driver.Filter{f("published", driver.OpIsNull)}, []string{"Empty", "Nulls"}},
		{"date is not null", []driver.Filter{f("published", driver.OpIsNotNull)}, []string{"Alpha", "Beta", "Gamma"}},
		// uuid property and the uuid column
		{"uuid property equals", []driver.Filter{f("externalId", driver.OpEquals, "AAAAAAAA-0000-4000-8000-000000000001")}, []string{"Alpha"}},
		{"uuid property not equals", []driver.Filter{f("externalId", driver.OpNotEquals, "aaaaaaaa-0000-4000-8000-000000000001")}, []string{"Beta", "Empty", "Gamma", "Nulls"}},
		{"uuid property in list", []driver.Filter{f("externalId", driver.OpIn, "aaaaaaaa-0000-4000-8000-000000000001,cccccccc-0000-4000-8000-000000000003")}, []string{"Alpha", "Gamma"}},
		{"uuid property not in list", []driver.Filter{f("externalId", driver.OpNotIn, "aaaaaaaa-0000-4000-8000-000000000001")}, []string{"Beta", "Empty", "Gamma", "Nulls"}},
		{"uuid property is null", []driver.Filter{f("externalId", driver.OpIsNull)}, []string{"Empty", "Nulls"}},
		{"uuid column equals", []driver.Filter{f("uuid", driver.OpEquals, fixtures.TypedBetaID)}, []string{"Beta"}},
		{"uuid column not equals", []driver.Filter{f("uuid", driver.OpNotEquals, fixtures.TypedBetaID)}, []string{"Alpha", "Empty", "Gamma", "Nulls"}},
		{"uuid column in list", []driver.Filter{f("uuid", driver.OpIn, fixtures.TypedAlphaID+", "+fixtures.TypedGammaID)}, []string{"Alpha", "Gamma"}},
		{"uuid column not in list", []driver.Filter{f("uuid", driver.OpNotIn, fixtures.TypedAlphaID)}, []string{"Beta", "Empty", "Gamma", "Nulls"}},
		// text[]: one element matches
		{"text[] equals one element", []driver.Filter{f("tags", driver.OpEquals, "red")}, []string{"Alpha", "Gamma"}},
		{"text[] not equals", []driver.Filter{f("tags", driver.OpNotEquals, "red")}, []string{"Beta", "Empty", "Nulls"}},
		{"text[] contains", []driver.Filter{f("tags", driver.OpContains, "lu")}, []string{"Beta", "Gamma"}},
		{"text[] not contains", []driver.Filter{f("tags", driver.OpNotContains, "lu")}, []string{"Alpha", "Empty", "Nulls"}},
		{"text[] starts with", []driver.Filter{f("tags", driver.OpStartsWith, "gr")}, []string{"Alpha", "Gamma"}},
		{"text[] ends with", []driver.Filter{f("tags", driver.OpEndsWith, "ed")}, []string{"Alpha", "Gamma"}},
		{"text[] in list", []driver.Filter{f("tags", driver.OpIn, "blue,green")}, []string{"Alpha", "Beta", "Gamma"}},
		{"text[] not in list", []driver.Filter{f("tags", driver.OpNotIn, "red")}, []string{"Beta", "Empty", "Nulls"}},
		{"text[] is null (Weaviate counts [] as null)", []driver.Filter{f("tags", driver.OpIsNull)}, []string{"Empty", "Nulls"}},
		{"text[] is empty", []driver.Filter{f("tags", driver.OpIsEmpty)}, []string{"Empty", "Nulls"}},
		{"text[] is not empty", []driver.Filter{f("tags", driver.OpIsNotEmpty)}, []string{"Alpha", "Beta", "Gamma"}},
		// int[]
		{"int[] equals one element", []driver.Filter{f("scores", driver.OpEquals, "4")}, []string{"Beta"}},
		{"int[] greater than", []driver.Filter{f("scores", driver.OpGreater, "5")}, []string{"Gamma"}},
		{"int[] less or equal", []driver.Filter{f("scores", driver.OpLessEq, "1")}, []string{"Alpha"}},
		{"int[] between", []driver.Filter{f("scores", driver.OpBetween, "3", "4")}, []string{"Alpha", "Beta"}},
		{"int[] in list", []driver.Filter{f("scores", driver.OpIn, "1, 10")}, []string{"Alpha", "Gamma"}},
		{"int[] not in list", []driver.Filter{f("scores", driver.OpNotIn, "1, 10")}, []string{"Beta", "Empty", "Nulls"}},
		{"int[] is empty", []driver.Filter{f("scores", driver.OpIsEmpty)}, []string{"Empty", "Nulls"}},
		{"int[] is not empty", []driver.Filter{f("scores", driver.OpIsNotEmpty)}, []string{"Alpha", "Beta", "Gamma"}},
		// several filters combined (AND)
		{"two filters are ANDed", []driver.Filter{f("count", driver.OpGreaterEq, "0"), f("active", driver.OpEquals, "true")}, []string{"Alpha"}},
		{"three filters on three types", []driver.Filter{f("tags", driver.OpEquals, "red"), f("title", driver.OpStartsWith, "G"), f("published", driver.OpLess, "2024-01-01T00:00:00Z")}, []string{"Gamma"}},
		{"no match is an empty grid", []driver.Filter{f("title", driver.OpEquals, "Alpha"), f("count", driver.OpEquals, "20")}, []string{}},
	}
	covered := map[driver.Operator]bool{}
	for _, tt := range tests {
		for _, fl := range tt.filters {
			covered[fl.Operator] = true
		}
		t.Run(tt.name, func(t *testing.T) {
			g, err := d.Browse(ctx, fixtures.Typed, driver.Page{Limit: 50}, tt.filters, nil)
			if err != nil {
				t.Fatal(err)
			}
			if got := titles(t, g); !slices.Equal(got, tt.want) {
				t.Errorf("got %v, want %v", got, tt.want)
			}
			n, err := d.Count(ctx, fixtures.Typed, tt.filters)
			if err != nil || n != int64(len(tt.want)) {
				t.Errorf("Count = %d, %v; want %d", n, err, len(tt.want))
			}
		})
	}
	t.Run("a sort with a filter orders the rows", func(t *testing.T) {
		g, err := d.Browse(ctx, fixtures.Typed, driver.Page{}, []driver.Filter{f("count", driver.OpIsNotNull)}, []driver.Sort{{Column: "count", Descending: true}})
		if err != nil {
			t.Fatal(err)
		}
		var order []string
		for _, r := range g.Rows {
			order = append(order, r[colIndex(t, g, "title")].(string))
		}
		if !slices.Equal(order, []string{"Beta", "Alpha", "Empty", "Gamma"}) {
			t.Errorf("order %v", order)
		}
	})
	for _, op := range driver.Operators() {
		if op != driver.OpRegex && !covered[op] {
			t.Errorf("operator %s not exercised", op)
		}
	}
}

// A filter that cannot run is refused with the reason; no rows come back.
func TestRefusedFiltersNeverReturnTheCollection(t *testing.T) {
	d := open(t, sharedNode(t, weaviatenode.Anonymous), nil)
	ctx := ctxT(t)
	tests := []struct {
		name  string
		table string
		f     driver.Filter
		want  string
	}{
		{"REGEX", fixtures.Typed, driver.Filter{Column: "title", Operator: driver.OpRegex, Value: "^A.*"}, "no regular-expression filter"},
		{"IsNull without indexNullState", fixtures.Unindexed, driver.Filter{Column: "title", Operator: driver.OpIsNull}, "indexNullState"},
		{"is not null without indexNullState", fixtures.Unindexed, driver.Filter{Column: "count", Operator: driver.OpIsNotNull}, "indexNullState"},
		{"is empty without indexPropertyLength", fixtures.Unindexed, driver.Filter{Column: "tags", Operator: driver.OpIsEmpty}, "indexPropertyLength"},
		{"is not empty without indexPropertyLength", fixtures.Unindexed, driver.Filter{Column: "body", Operator: driver.OpIsNotEmpty}, "indexPropertyLength"},
		{"an int that does not parse", fixtures.Typed, driver.Filter{Column: "count", Operator: driver.OpEquals, Value: "10.5"}, "not an integer"},
		{"a number that does not parse", fixtures.Typed, driver.Filter{Column: "price", Operator: driver.OpLess, Value: "cheap"}, "not a number"},
		{"a date that is not full RFC 3339", fixtures.Typed, driver.Filter{Column: "published", Operator: driver.OpGreater, Value: "2024-01-01"}, "RFC 3339"},
		{"a boolean that does not parse", fixtures.Typed, driver.Filter{Column: "active", Operator: driver.OpEquals, Value: "1"}, "not a boolean"},
		{"a uuid that does not parse", fixtures.Typed, driver.Filter{Column: "externalId", Operator: driver.OpEquals, Value: "aaaa"}, "not a UUID"},
		{"a pattern on an int", fixtures.Typed, driver.Filter{Column: "count", Operator: driver.OpStartsWith, Value: "1"}, "text properties only"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g, err := d.Browse(ctx, tt.table, driver.Page{}, []driver.Filter{tt.f}, nil)
			if g != nil || driver.KindOf(err) != driver.KindRefusedFilter || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("grid=%v err=%v", g, err)
			}
			if _, err := d.Count(ctx, tt.table, []driver.Filter{tt.f}); driver.KindOf(err) != driver.KindRefusedFilter {
				t.Errorf("Count: %v", err)
			}
		})
	}
}

// Issue 19: the harness's GraphQL-off server refuses /v1/graphql, so the tests of the gRPC
// path cannot silently run on GraphQL.
func TestTheGraphQLOffServerRefusesGraphQL(t *testing.T) {
	n := sharedNode(t, weaviatenode.NoGraphQL)
	err := n.DoJSON(ctxT(t), "POST", "/v1/graphql", map[string]string{"query": "{ __typename }"}, nil)
	var st *weaviatenode.StatusError
	if !errors.As(err, &st) || st.Code != 422 || !strings.Contains(strings.ToLower(st.Body), "graphql api is disabled") {
		t.Fatalf("POST /v1/graphql on the GraphQL-off node answered %v, want 422 graphql api is disabled", err)
	}
}

// Issue 19, "two read paths, one behaviour": every collection's rows, read through a filter
// that matches them all (so the GraphQL or the gRPC path runs), are the REST page's rows cell
// for cell on both servers, with the same counts; and a sorted page has the same order.
func TestBothReadPathsGiveTheRESTRows(t *testing.T) {
	ctx := ctxT(t)
	on := open(t, sharedNode(t, weaviatenode.Anonymous), nil)
	off := open(t, sharedNode(t, weaviatenode.NoGraphQL), nil)
	all := []driver.Filter{{Column: "uuid", Operator: driver.OpNotIn, Value: "ffffffff-ffff-4fff-bfff-ffffffffffff"}}
	byID := func(g *driver.Grid) map[string][]any {
		out := map[string][]any{}
		for _, r := range g.Rows {
			out[r[0].(string)] = r
		}
		return out
	}
	for _, table := range []string{fixtures.Typed, fixtures.Person, fixtures.NamedVectors, fixtures.Unindexed} {
		t.Run(table, func(t *testing.T) {
			rest, err := on.Browse(ctx, table, driver.Page{Limit: 100}, nil, nil)
			if err != nil {
				t.Fatal(err)
			}
			want := byID(rest)
			for name, d := range map[string]*weaviate.Driver{"graphql": on, "grpc": off} {
				g, err := d.Browse(ctx, table, driver.Page{Limit: 100}, all, nil)
				if err != nil {
					t.Fatalf("%s: %v", name, err)
				}
				got := byID(g)
				if len(got) != len(want) {
					t.Fatalf("%s: %d rows, REST %d", name, len(got), len(want))
				}
				for id, w := range want {
					for i, c := range g.Columns {
						if got[id][i] != w[i] {
							t.Errorf("%s: row %s column %s = %#v, REST %#v", name, id, c.Name, got[id][i], w[i])
						}
					}
				}
				n, err := d.Count(ctx, table, all)
				if err != nil || n != int64(len(want)) {
					t.Errorf("%s: Count = %d, %v; want %d", name, n, err, len(want))
				}
				// Previews (the grid's page) are the REST page's vectors cut the same way,
				// whether cut from JSON text or, over gRPC, from the packed floats.
				pg, err := d.Browse(ctx, table, driver.Page{Limit: 100, Vectors: driver.VectorsPreview}, all, nil)
				if err != nil {
					t.Fatalf("%s previews: %v", name, err)
				}
				restPreview := *rest
				restPreview.Columns = append([]driver.Column(nil), rest.Columns...)
				restPreview.Rows = make([][]any, len(rest.Rows))
				for i, r := range rest.Rows {
					restPreview.Rows[i] = append([]any(nil), r...)
				}
				driver.PreviewVectors(&restPreview)
				wantPreview, gotPreview := byID(&restPreview), byID(pg)
				last := len(pg.Columns) - 1
				if !pg.Columns[last].Preview {
					t.Errorf("%s: the vector column is not marked a preview", name)
				}
				for id, w := range wantPreview {
					if gotPreview[id][last] != w[last] {
						t.Errorf("%s: row %s preview %#v, REST cut %#v", name, id, gotPreview[id][last], w[last])
					}
				}
			}
		})
	}
	t.Run("a sorted page has the same order on both paths", func(t *testing.T) {
		sorts := []driver.Sort{{Column: "published", Descending: true}, {Column: "title"}}
		a, err := on.Browse(ctx, fixtures.Typed, driver.Page{}, nil, sorts)
		if err != nil {
			t.Fatal(err)
		}
		b, err := off.Browse(ctx, fixtures.Typed, driver.Page{}, nil, sorts)
		if err != nil {
			t.Fatal(err)
		}
		if ta, tb := titles(t, a), titles(t, b); len(a.Rows) != 5 || !slices.Equal(ta, tb) {
			t.Fatalf("graphql %v, grpc %v", ta, tb)
		}
		for i := range a.Rows {
			if a.Rows[i][0] != b.Rows[i][0] {
				t.Fatalf("row %d: graphql %v, grpc %v", i, a.Rows[i][0], b.Rows[i][0])
			}
		}
	})
}

// Issue 19, item 5: a text column says its tokenization and what each text operator will
// match under it; other columns say nothing.
func TestTextColumnsSayWhatTheirFiltersMatch(t *testing.T) {
	d := open(t, sharedNode(t, weaviatenode.Anonymous), nil)
	info, err := d.DescribeTable(ctxT(t), fixtures.Typed)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range info.Columns {
		switch c.Name {
		case "body":
			if c.Tokenization != "word" || !strings.Contains(c.FilterNotes[driver.OpEquals], "every word of the value, in any order") ||
				!strings.Contains(c.FilterNotes[driver.OpNotEquals], "any word of the value") || !strings.Contains(c.FilterNotes[driver.OpContains], "word by word") {
				t.Fatalf("body: %q %v", c.Tokenization, c.FilterNotes)
			}
		case "count", "uuid", "vector":
			if c.Tokenization != "" || len(c.FilterNotes) != 0 {
				t.Fatalf("%s: %q %v", c.Name, c.Tokenization, c.FilterNotes)
			}
		}
	}
}

// Weaviate's GraphQL Int is 32 bits: an int property past ±2,147,483,647 comes back null from
// a GraphQL Get, with no error (an int[] gets a null element). A page read through GraphQL
// (sorted, filtered, a search) reads those cells again over gRPC, so every path shows what
// REST shows; without a reachable gRPC port they stay as GraphQL gave them.
func TestIntsPast32BitsSurviveAGraphQLPage(t *testing.T) {
	ctx := ctxT(t)
	node := sharedNode(t, weaviatenode.Anonymous)
	const class = "WideInts"
	_ = node.DoJSON(ctx, http.MethodDelete, "/v1/schema/"+class, nil, nil)
	if err := node.DoJSON(ctx, http.MethodPost, "/v1/schema", map[string]any{"class": class, "vectorizer": "none",
		"properties": []any{
			map[string]any{"name": "title", "dataType": []string{"text"}},
			map[string]any{"name": "n", "dataType": []string{"int"}},
			map[string]any{"name": "ns", "dataType": []string{"int[]"}},
		}}, nil); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = node.DoJSON(context.Background(), http.MethodDelete, "/v1/schema/"+class, nil, nil) })
	objs := []any{
		map[string]any{"class": class, "id": "00000022-0000-4000-8000-000000000001", "vector": []float32{1, 0},
			"properties": map[string]any{"title": "wide", "n": 3000000000, "ns": []int64{1, -5000000000}}},
		map[string]any{"class": class, "id": "00000022-0000-4000-8000-000000000002", "vector": []float32{0.9, 0.1},
			"properties": map[string]any{"title": "narrow", "n": 7, "ns": []int64{2}}},
		map[string]any{"class": class, "id": "00000022-0000-4000-8000-000000000003", "vector": []float32{0, 1},
			"properties": map[string]any{"title": "none"}},
	}
	if err := node.DoJSON(ctx, http.MethodPost, "/v1/batch/objects", map[string]any{"objects": objs}, nil); err != nil {
		t.Fatal(err)
	}
	d := open(t, node, nil)
	rest, err := d.Browse(ctx, class, driver.Page{Limit: 10}, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	cells := func(g *driver.Grid) map[string][2]any {
		n, ns := slices.IndexFunc(g.Columns, func(c driver.Column) bool { return c.Name == "n" }), slices.IndexFunc(g.Columns, func(c driver.Column) bool { return c.Name == "ns" })
		out := map[string][2]any{}
		for _, r := range g.Rows {
			out[r[0].(string)] = [2]any{r[n], r[ns]}
		}
		return out
	}
	want := cells(rest)
	if w := want["00000022-0000-4000-8000-000000000001"]; fmt.Sprint(w[0]) != "3000000000" || w[1] != "[1,-5000000000]" {
		t.Fatalf("REST gives %v for the wide row", w)
	}
	t.Run("a sorted page shows every int as REST does", func(t *testing.T) {
		g, err := d.Browse(ctx, class, driver.Page{Limit: 10}, nil, []driver.Sort{{Column: "title"}})
		if err != nil {
			t.Fatal(err)
		}
		if got := cells(g); !reflect.DeepEqual(got, want) {
			t.Fatalf("sorted %v, REST %v", got, want)
		}
	})
	t.Run("a filtered page too", func(t *testing.T) {
		g, err := d.Browse(ctx, class, driver.Page{Limit: 10}, []driver.Filter{{Column: "title", Operator: driver.OpEquals, Value: "wide"}}, nil)
		if err != nil {
			t.Fatal(err)
		}
		if got := cells(g); len(got) != 1 || got["00000022-0000-4000-8000-000000000001"] != want["00000022-0000-4000-8000-000000000001"] {
			t.Fatalf("filtered %v, REST %v", got, want)
		}
	})
	t.Run("a filter on a value past 32 bits finds its row", func(t *testing.T) {
		for _, f := range []driver.Filter{{Column: "n", Operator: driver.OpEquals, Value: "3000000000"}, {Column: "n", Operator: driver.OpGreater, Value: "2147483648"}} {
			g, err := d.Browse(ctx, class, driver.Page{Limit: 10}, []driver.Filter{f}, nil)
			if err != nil {
				t.Fatalf("%v: %v", f, err)
			}
			if got := cells(g); len(got) != 1 || got["00000022-0000-4000-8000-000000000001"] != want["00000022-0000-4000-8000-000000000001"] {
				t.Fatalf("%v: %v, REST %v", f, got, want)
			}
		}
	})
	t.Run("a search too", func(t *testing.T) {
		g, err := d.Search(ctx, class, driver.SearchRequest{Vector: []float64{1, 0}}, 10)
		if err != nil {
			t.Fatal(err)
		}
		if got := cells(g); !reflect.DeepEqual(got, want) {
			t.Fatalf("search %v, REST %v", got, want)
		}
	})
	t.Run("without a reachable gRPC port the page is answered, only those cells empty (from 1.38.3 filled over gRPC-Web), and no cut claimed", func(t *testing.T) {
		web := servesGRPCWeb(t, node)
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		closed := ln.Addr().(*net.TCPAddr).Port
		ln.Close()
		nogrpc := open(t, node, func(s *driver.Settings) { s.GRPCPort = closed })
		for range 2 { // the second page does not ask gRPC again
			g, err := nogrpc.Browse(ctx, class, driver.Page{Limit: 10}, nil, []driver.Sort{{Column: "title"}})
			if err != nil {
				t.Fatal(err)
			}
			got := cells(g)
			if web {
				// gRPC-Web on the REST port reads the cells GraphQL dropped, as gRPC would.
				if g.Notice != "" || !reflect.DeepEqual(got, want) {
					t.Fatalf("over gRPC-Web: notice %q, cells %v, REST %v", g.Notice, got, want)
				}
				continue
			}
			if g.Notice != "" || got["00000022-0000-4000-8000-000000000002"] != want["00000022-0000-4000-8000-000000000002"] || got["00000022-0000-4000-8000-000000000001"][0] != nil {
				t.Fatalf("notice %q, cells %v", g.Notice, got)
			}
		}
	})
}
