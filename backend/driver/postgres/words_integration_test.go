package postgres_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"app/backend/driver"
)

// Issue 38, item 6: keyword search where a table holds a tsvector column, and hybrid (reciprocal
// rank fusion of the keyword and the vector rankings) where it holds a vector column too — the
// driver declares exactly those modes, and each ranks as PostgreSQL's own query does (psql).
func TestKeywordAndHybridSearchOnPostgres(t *testing.T) {
	n := sharedPGlite(t)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	h := &harness{node: n}
	table := h.Table("docs")
	words := []string{"red apple pie", "green apple", "red car", "blue sky", "apple tree and apple pie", "red red rose", "car wash", "sky blue car"}
	var rows []string
	for i, w := range words {
		rows = append(rows, fmt.Sprintf("(%d, '%s', '[%d,%d]')", i+1, w, i%3, (i*2)%5))
	}
	if _, err := n.Psql(ctx, "", "CREATE TABLE "+table+" (id int PRIMARY KEY, body text, doc tsvector GENERATED ALWAYS AS (to_tsvector('english', body)) STORED, emb vector(2));"+
		"INSERT INTO "+table+" (id, body, emb) VALUES "+strings.Join(rows, ", ")); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { h.Drop(context.Background(), t, table) })
	plain := h.Table("plain")
	if _, err := n.Psql(ctx, "", "CREATE TABLE "+plain+" (id int PRIMARY KEY, body text)"); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { h.Drop(context.Background(), t, plain) })
	d := h.Open(ctx, t)
	defer d.Close()
	info, err := d.DescribeTable(ctx, table)
	if err != nil {
		t.Fatal(err)
	}
	if len(info.Searches) != 2 || info.Searches[0].Name != "keyword" || info.Searches[1].Name != "hybrid" {
		t.Fatalf("modes: %+v", info.Searches)
	}
	if pi, err := d.DescribeTable(ctx, plain); err != nil || len(pi.Searches) != 0 {
		t.Fatalf("a table without a tsvector column has no search by words: %+v %v", pi.Searches, err)
	}
	ids := func(g *driver.Grid) string {
		var out []string
		for _, r := range g.Rows {
			out = append(out, fmt.Sprint(r[0]))
		}
		return strings.Join(out, ",")
	}
	q := "apple pie"
	g, err := d.Search(ctx, table, driver.SearchRequest{Query: &q, Mode: "keyword"}, 5)
	if err != nil {
		t.Fatal(err)
	}
	want, err := n.Psql(ctx, "", "SELECT string_agg(id::text, ',' ORDER BY r DESC, id) FROM (SELECT id, ts_rank(doc, websearch_to_tsquery('apple pie')) r FROM "+table+" WHERE doc @@ websearch_to_tsquery('apple pie')) x")
	if err != nil {
		t.Fatal(err)
	}
	if got := ids(g); got != want || g.Columns[len(g.Columns)-1].Name != "score" {
		t.Fatalf("keyword: %s, psql ranks %s", got, want)
	}
	red := "red"
	g, err = d.Search(ctx, table, driver.SearchRequest{Query: &red, Mode: "hybrid", Vector: []float64{2, 4}, Params: map[string]string{"k": "10"}}, 4)
	if err != nil {
		t.Fatal(err)
	}
	want, err = n.Psql(ctx, "", `WITH kw AS (SELECT id, row_number() OVER (ORDER BY ts_rank(doc, websearch_to_tsquery('red')) DESC) r FROM `+table+` WHERE doc @@ websearch_to_tsquery('red')),
vs AS (SELECT id, row_number() OVER (ORDER BY emb <-> '[2,4]') r FROM `+table+`),
f AS (SELECT id, sum(1.0 / (10 + r)) s FROM (SELECT * FROM kw UNION ALL SELECT * FROM vs) x GROUP BY id)
SELECT string_agg(id::text, ',' ORDER BY s DESC, id) FROM (SELECT id, s FROM f ORDER BY s DESC, id LIMIT 4) y`)
	if err != nil {
		t.Fatal(err)
	}
	if got := ids(g); got != want {
		t.Fatalf("hybrid: %s, psql fuses %s", got, want)
	}
	if _, err := d.Search(ctx, table, driver.SearchRequest{Query: &red, Mode: "hybrid"}, 4); !driver.IsKind(err, driver.KindInvalidArgument) {
		t.Fatalf("hybrid without a vector: %v", err)
	}
	if _, err := d.Search(ctx, plain, driver.SearchRequest{Query: &red}, 4); !driver.IsKind(err, driver.KindUnsupported) {
		t.Fatalf("words on a table without a tsvector column: %v", err)
	}
}
