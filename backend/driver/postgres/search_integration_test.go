package postgres_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"app/backend/driver"
)

// Issue 38, item 6: the nearest rows to a vector or a row over a pgvector column, with the
// operator of the column's index (cosine here, HNSW), else L2 by an exact scan said so;
// narrowed by the grid's filters; a table with two vector columns names the one searched.
// The order is the server's own: psql runs the same ORDER BY.
func TestVectorSearchOnPgvector(t *testing.T) {
	n := sharedPGlite(t)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	for _, boundary := range []bool{false, true} {
		h := &harness{node: n, boundary: boundary}
		table := h.Table("vecs")
		var rows []string
		for i := 1; i <= 40; i++ {
			rows = append(rows, fmt.Sprintf("(%d, 'row %d', %d, '[%d,%d,%d]', '[%d,%d]')", i, i, i%4, i%7, (i*3)%5, i%3+1, i%5, i%2))
		}
		if _, err := n.Psql(ctx, "", "CREATE TABLE "+table+" (id int PRIMARY KEY, title text, grp int, body vector(3), tag vector(2));"+
			"INSERT INTO "+table+" VALUES "+strings.Join(rows, ", ")+";"+
			"CREATE INDEX ON "+table+" USING hnsw (body vector_cosine_ops)"); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { h.Drop(context.Background(), t, table) })
		d := h.Open(ctx, t)
		// The matches' distances in order (rows at one distance may come in any order).
		ids := func(g *driver.Grid) string {
			var out []string
			for _, r := range g.Rows {
				out = append(out, fmt.Sprint(r[len(r)-1]))
			}
			return strings.Join(out, ",")
		}
		psql := func(order, where string) string {
			if where != "" {
				where = " WHERE " + where
			}
			out, err := n.Psql(ctx, "", "SELECT string_agg(d::text, ',' ORDER BY d) FROM (SELECT ("+order+")::float8 AS d FROM "+table+where+" ORDER BY "+order+" LIMIT 5) x")
			if err != nil {
				t.Fatal(err)
			}
			return out
		}
		g, err := d.Search(ctx, table, driver.SearchRequest{Vector: []float64{1, 2, 3}, TargetVector: "body"}, 5)
		if err != nil {
			t.Fatal(err)
		}
		if got, want := ids(g), psql("body <=> '[1,2,3]'", ""); got != want || g.Notice != "" || g.Columns[len(g.Columns)-1].Name != driver.DistanceColumn {
			t.Fatalf("near a vector by the index's cosine: %s (notice %q), psql orders %s", got, g.Notice, want)
		}
		g, err = d.Search(ctx, table, driver.SearchRequest{SimilarTo: driver.Key{"id": "7"}, TargetVector: "body",
			Filters: []driver.Filter{{Column: "grp", Operator: driver.OpEquals, Value: "1"}}}, 5)
		if err != nil {
			t.Fatal(err)
		}
		if got, want := ids(g), psql("body <=> (SELECT body FROM "+table+" WHERE id = 7)", "grp = 1"); got != want {
			t.Fatalf("near a row, filtered: %s, psql orders %s", got, want)
		}
		g, err = d.Search(ctx, table, driver.SearchRequest{Vector: []float64{1, 0}, TargetVector: "tag"}, 5)
		if err != nil || !strings.Contains(g.Notice, "exact") {
			t.Fatalf("a column without an index is searched exactly, said so: %v %v", g, err)
		}
		if got, want := ids(g), psql("tag <-> '[1,0]'", ""); got != want {
			t.Fatalf("exact L2: %s, psql orders %s", got, want)
		}
		if _, err := d.Search(ctx, table, driver.SearchRequest{Vector: []float64{1, 2, 3}}, 5); !driver.IsKind(err, driver.KindInvalidArgument) || !strings.Contains(err.Error(), "body, tag") {
			t.Fatalf("two vector columns and none named: %v", err)
		}
		if _, err := d.Search(ctx, table, driver.SearchRequest{Vector: []float64{1, 2}, TargetVector: "body"}, 5); !driver.IsKind(err, driver.KindInvalidArgument) {
			t.Fatalf("a vector of the wrong length: %v", err)
		}
		info, err := d.DescribeTable(ctx, table)
		if err != nil || strings.Join(info.Settings.NamedVectors, ",") != "body,tag" {
			t.Fatalf("the table names its vectors: %+v %v", info.Settings, err)
		}
		if c, _ := info.Column("body"); c.Kind != driver.ColumnVector || c.Dimension != 3 {
			t.Fatalf("body: %+v", c)
		}
		sc := d.(driver.Scanner)
		page, err := sc.Scan(ctx, table, driver.ScanRequest{Vectors: true, Limit: 100})
		if err != nil || len(page.Rows) != 40 || strings.Join(page.VectorNames, ",") != "body,tag" || len(page.Vectors[0][0]) != 3 {
			t.Fatalf("a walk reads the vectors as numbers: %v", err)
		}
		d.Close()
	}
}

// The grid's page of previews: each vector cut to its length and first numbers, the rest of
// the page as it is (issue 38, the grid on vector(n) columns).
func TestAPageOfPreviewsCarriesEachVectorsLengthAndHead(t *testing.T) {
	n := sharedPGlite(t)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	h := &harness{node: n}
	table := h.Table("preview")
	if _, err := n.Psql(ctx, "", "CREATE TABLE "+table+" (id int PRIMARY KEY, v vector(6)); INSERT INTO "+table+" VALUES (1, '[1,2,3,4,5,6]')"); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { h.Drop(context.Background(), t, table) })
	d := h.Open(ctx, t)
	defer d.Close()
	g, err := d.Browse(ctx, table, driver.Page{Limit: 5, Vectors: driver.VectorsPreview}, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !g.Columns[1].Preview || fmt.Sprint(g.Rows[0][1]) != `{"dimensions":6,"head":[1,2,3,4]}` {
		t.Fatalf("%+v %v", g.Columns[1], g.Rows[0][1])
	}
}
