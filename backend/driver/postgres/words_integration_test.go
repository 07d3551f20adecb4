package postgres_test

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"testing"
	"time"

	"app/backend/driver"
	"app/backend/driver/postgres"
	"app/internal/testkit/pgnode"
	"app/internal/testkit/pgtest"
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

// Issue 38, item 6: a text column with a full-text index (no tsvector column) is searched by
// keyword too, each index under the column(s) it reads, by the index's own expression and
// configuration: the ranking is PostgreSQL's own over that expression (psql), and the index
// answers it (PostgreSQL 15 counts the scan; sequential scans are off on the driver's side).
func TestKeywordSearchUsesATextColumnsFullTextIndex(t *testing.T) {
	for _, server := range []struct {
		name string
		node func(*testing.T) *pgnode.Node
	}{{"PostgreSQL 15", sharedNode}, {"PostgreSQL 18 with pgvector (PGlite)", sharedPGlite}} {
		t.Run(server.name, func(t *testing.T) {
			n := server.node(t)
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
			defer cancel()
			h := &harness{node: n}
			table := h.Table("articles")
			emb, vec := "", ""
			if n.PGlite() {
				emb, vec = ", emb vector(2)", ", emb"
			}
			var rows []string
			for i := 1; i <= 400; i++ {
				body := fmt.Sprintf("note %d about nothing", i)
				switch i % 40 {
				case 3:
					body = "apple pie and apples, apple everywhere"
				case 7:
					body = "an apple a day"
				case 11:
					body = "pies of every kind, apple among them"
				case 13:
					body = "running shoes"
				}
				v := ""
				if n.PGlite() {
					v = fmt.Sprintf(", '[%d,%d]'", i%7, i%5)
				}
				rows = append(rows, fmt.Sprintf("(%d, 'title %d', '%s'%s)", i, i%9, body, v))
			}
			if _, err := n.Psql(ctx, "", "CREATE TABLE "+table+" (id int PRIMARY KEY, title text, body text"+emb+");"+
				"INSERT INTO "+table+" (id, title, body"+vec+") VALUES "+strings.Join(rows, ", ")+";"+
				"CREATE INDEX "+table+"_body ON "+table+" USING gin (to_tsvector('english', body));"+
				"CREATE INDEX "+table+"_both ON "+table+" USING gist (to_tsvector('simple', title || ' ' || body));"+
				"ANALYZE "+table); err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { h.Drop(context.Background(), t, table) })
			d := h.Open(ctx, t)
			defer d.Close()

			info, err := d.DescribeTable(ctx, table)
			if err != nil {
				t.Fatal(err)
			}
			wantModes := []string{"keyword"}
			if n.PGlite() {
				wantModes = append(wantModes, "hybrid")
			}
			var modes []string
			for _, m := range info.Searches {
				modes = append(modes, m.Name)
				if strings.Join(m.TextColumns, ",") != "body,title + body" || !m.Columns {
					t.Fatalf("mode %s picks %q (columns %v), want body and title + body", m.Name, m.TextColumns, m.Columns)
				}
			}
			if strings.Join(modes, ",") != strings.Join(wantModes, ",") {
				t.Fatalf("modes %v, want %v", modes, wantModes)
			}

			ranked := func(g *driver.Grid) string {
				var out []string
				for _, r := range g.Rows {
					score, err := strconv.ParseFloat(fmt.Sprint(r[len(r)-1]), 64)
					if err != nil {
						t.Fatalf("score %v: %v", r[len(r)-1], err)
					}
					out = append(out, fmt.Sprintf("%v:%.6f", r[0], score))
				}
				return strings.Join(out, ",")
			}
			psqlRanks := func(doc, query string) string {
				t.Helper()
				out, err := n.Psql(ctx, "", "SELECT string_agg(id || ':' || to_char(r, 'FM0.000000'), ',' ORDER BY r DESC, id) FROM (SELECT id, ts_rank("+doc+", "+query+")::float8 r FROM "+table+" WHERE "+doc+" @@ "+query+" ORDER BY r DESC, id LIMIT 8) x")
				if err != nil {
					t.Fatal(err)
				}
				return out
			}
			q := "apple pies"
			if !n.PGlite() {
				// First, as psql's own queries below scan the index too.
				scans := func() string {
					t.Helper()
					out, err := n.Psql(ctx, "", "SELECT idx_scan FROM pg_stat_user_indexes WHERE indexrelname = '"+table+"_body'")
					if err != nil {
						t.Fatal(err)
					}
					return out
				}
				before := scans()
				s := pgtest.Settings(n)
				_ = s.SetValue(postgres.KeyOptions, "enable_seqscan=off")
				seq := h.open(ctx, t, s, true)
				if _, err := seq.Search(ctx, table, driver.SearchRequest{Query: &q, Mode: "keyword", SearchColumns: []string{"body"}}, 8); err != nil {
					t.Fatal(err)
				}
				_ = seq.Close() // its session ends, and the server counts its scans
				deadline := time.Now().Add(10 * time.Second)
				for scans() == before {
					if time.Now().After(deadline) {
						t.Fatalf("the search never scanned %s_body (still %s scans)", table, before)
					}
					time.Sleep(100 * time.Millisecond)
				}
			}

			g, err := d.Search(ctx, table, driver.SearchRequest{Query: &q, Mode: "keyword", SearchColumns: []string{"body"}}, 8)
			if err != nil {
				t.Fatal(err)
			}
			want := psqlRanks("to_tsvector('english', body)", "websearch_to_tsquery('english', 'apple pies')")
			if got := ranked(g); got != want || want == "" {
				t.Fatalf("keyword in body: %s, psql ranks %s", got, want)
			}

			// The simple configuration keeps "running" whole, where the server's English one
			// would make it "run": the words are read with the index's configuration.
			run := "running"
			g, err = d.Search(ctx, table, driver.SearchRequest{Query: &run, Mode: "keyword", SearchColumns: []string{"title + body"}}, 8)
			if err != nil {
				t.Fatal(err)
			}
			want = psqlRanks("to_tsvector('simple', title || ' ' || body)", "websearch_to_tsquery('simple', 'running')")
			if got := ranked(g); got != want || want == "" {
				t.Fatalf("keyword in title + body: %s, psql ranks %s", got, want)
			}

			if n.PGlite() {
				// Its fusion is TestKeywordAndHybridSearchOnPostgres's: here, that it runs over the index.
				g, err = d.Search(ctx, table, driver.SearchRequest{Query: &q, Mode: "hybrid", SearchColumns: []string{"body"}, Vector: []float64{3, 1}}, 4)
				if err != nil || len(g.Rows) != 4 {
					t.Fatalf("hybrid in body: %v %v", g, err)
				}
			}
		})
	}
}
