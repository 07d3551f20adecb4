// Package postgres_bench measures the PostgreSQL driver on real servers (issue 38's targets),
// run by `make bench`: page 5,000 of a table read on against page 1 (keyset paging: at most
// 1.5x), beside the peer, page 5,000 by OFFSET as a plain client reads it; and on PostgreSQL 18
// with pgvector, a 1,000-row page of vector(768) rows and a top-10 search through the plugin
// protocol against the bare pgx query (each at most 1.2x), and the export of 100,000 rows of
// vector(768) to Parquet through the plugin against a bare COPY … TO STDOUT of the same rows
// (at most 1.25x, at least 10,000 rows a second).
package postgres_bench

import (
	"context"
	"os"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"app/backend/driver"
	"app/backend/driver/postgres"
	"app/internal/testkit/pgnode"
	"app/internal/testkit/pgtest"
)

const (
	pageRows = 100
	pages    = 5000
)

// fixture is the server, the driver scrolled to page 5,000 and a bare connection, made once
// for the benchmark's runs (the testing package runs it with one iteration first).
type fixture struct {
	n    *pgnode.Node
	d    *postgres.Driver
	bare *pgx.Conn
}

var fx *fixture

func TestMain(m *testing.M) {
	code := m.Run()
	if fx != nil {
		fx.bare.Close(context.Background())
		fx.d.Close()
		fx.n.Stop()
	}
	if vfx != nil {
		vfx.bare.Close(context.Background())
		vfx.stop()
		vfx.n.Stop()
	}
	os.Exit(code)
}

func setUp(ctx context.Context, b *testing.B) *fixture {
	b.Helper()
	if fx != nil {
		return fx
	}
	n, err := pgnode.Start(ctx)
	if err != nil {
		b.Fatal(err)
	}
	f := &fixture{n: n}
	if _, err := n.Psql(ctx, "", `CREATE TABLE items (id int PRIMARY KEY, title text, n int);
INSERT INTO items SELECT i, 'item number ' || i, i % 97 FROM generate_series(1, 500100) i`); err != nil {
		b.Fatal(err)
	}
	if _, err := n.Psql(ctx, "", "VACUUM ANALYZE items"); err != nil {
		b.Fatal(err)
	}
	if f.d, err = postgres.New(pgtest.Settings(n)); err != nil {
		b.Fatal(err)
	}
	if err := f.d.Connect(ctx); err != nil {
		b.Fatal(err)
	}
	for p := 0; p < pages; p++ {
		if _, err := f.d.Browse(ctx, "items", driver.Page{Offset: p * pageRows, Limit: pageRows}, nil, nil); err != nil {
			b.Fatal(err)
		}
	}
	cfg, err := pgx.ParseConfig(n.URL() + "?sslmode=disable")
	if err != nil {
		b.Fatal(err)
	}
	cfg.Password = n.Password
	if f.bare, err = pgx.ConnectConfig(ctx, cfg); err != nil {
		b.Fatal(err)
	}
	fx = f
	return f
}

// BenchmarkPage5000AgainstPage1 reads page 1 and page 5,000 of a 500,000-row table through the
// driver in every iteration (the grid scrolled there page by page first, as a person does),
// and the same page 5,000 by OFFSET with a bare pgx query, and reports the ratios.
func BenchmarkPage5000AgainstPage1(b *testing.B) {
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Minute)
	defer cancel()
	f := setUp(ctx, b)
	d, bare := f.d, f.bare
	far := (pages - 1) * pageRows
	var first, last, offset time.Duration
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		t0 := time.Now()
		if _, err := d.Browse(ctx, "items", driver.Page{Offset: 0, Limit: pageRows}, nil, nil); err != nil {
			b.Fatal(err)
		}
		t1 := time.Now()
		g, err := d.Browse(ctx, "items", driver.Page{Offset: far, Limit: pageRows}, nil, nil)
		if err != nil || len(g.Rows) != pageRows {
			b.Fatal(err)
		}
		t2 := time.Now()
		rows, err := bare.Query(ctx, "SELECT id, title, n FROM items ORDER BY id LIMIT $1 OFFSET $2", pageRows+1, far)
		if err != nil {
			b.Fatal(err)
		}
		count := 0
		for rows.Next() {
			count++
		}
		rows.Close()
		t3 := time.Now()
		first, last, offset = first+t1.Sub(t0), last+t2.Sub(t1), offset+t3.Sub(t2)
	}
	b.ReportMetric(float64(last)/float64(first), "page5000/page1")
	b.ReportMetric(float64(offset)/float64(first), "offset-page5000/page1")
	b.ReportMetric(float64(first.Microseconds())/float64(b.N), "page1-µs/op")
	b.ReportMetric(float64(last.Microseconds())/float64(b.N), "page5000-µs/op")
}
