package postgres_bench

import (
	"context"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/sirupsen/logrus"

	"app/backend/driver"
	"app/backend/driver/postgres"
	"app/backend/plugins/grpcdriver"
	"app/internal/testkit/pgnode"
	"app/internal/testkit/pgtest"
	"app/internal/testkit/plugintest"
)

// vectorFixture is PostgreSQL 18 with pgvector (PGlite's wire server) holding 1,000 rows of
// vector(768), the driver across the plugin protocol (its gRPC server and the host's client
// over loopback, the boundary the app runs), and a bare pgx connection.
type vectorFixture struct {
	n    *pgnode.Node
	d    driver.Driver
	bare *pgx.Conn
	stop func()
	// exportSeeded: exportTable was made (export_bench_test.go).
	exportSeeded bool
}

var vfx *vectorFixture

func setUpVectors(ctx context.Context, b *testing.B) *vectorFixture {
	b.Helper()
	if vfx != nil {
		return vfx
	}
	n, err := pgnode.StartPGlite(ctx)
	if err != nil {
		b.Fatal(err)
	}
	if _, err := n.Psql(ctx, "", `CREATE TABLE emb (id int PRIMARY KEY, title text, v vector(768));
INSERT INTO emb SELECT i, 'row ' || i, (SELECT array_agg(sin(i * j))::vector(768) FROM generate_series(1, 768) j) FROM generate_series(1, 1000) i`); err != nil {
		b.Fatal(err)
	}
	k, stop, err := plugintest.Loopback(ctx, grpcdriver.Config{
		Info: grpcdriver.Info{Name: "postgres", Version: "bench", Types: []string{postgres.Type}},
		Open: func(s driver.Settings, log logrus.FieldLogger) (driver.Driver, error) {
			return postgres.New(s, postgres.WithLogger(log))
		},
		Classify: postgres.Classify,
	}, pgtest.Settings(n))
	if err != nil {
		b.Fatal(err)
	}
	if err := k.Connect(ctx); err != nil {
		b.Fatal(err)
	}
	// Connect starts compiling the statement parser (WebAssembly, over a second of CPU) in the
	// background of this process, which serves the plugin: measured beside that compile, which
	// a plugin does once, the first pages would share the two cores with it.
	if _, err := postgres.Classify("SELECT 1"); err != nil {
		b.Fatal(err)
	}
	cfg, err := pgx.ParseConfig(n.URL() + "?sslmode=disable")
	if err != nil {
		b.Fatal(err)
	}
	cfg.Password = n.Password
	cfg.DefaultQueryExecMode = pgx.QueryExecModeCacheDescribe
	bare, err := pgx.ConnectConfig(ctx, cfg)
	if err != nil {
		b.Fatal(err)
	}
	vfx = &vectorFixture{n: n, d: k, bare: bare, stop: stop}
	return vfx
}

// BenchmarkVectorPageThroughThePlugin reads the 1,000-row page of vector(768) rows through
// the plugin and with a bare pgx query and decode of the same rows (the vectors as their text,
// as a client shows them), in turn each iteration, and reports the ratio (target at most 1.2x).
func BenchmarkVectorPageThroughThePlugin(b *testing.B) {
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Minute)
	defer cancel()
	f := setUpVectors(ctx, b)
	var plugin, bare time.Duration
	for i := 0; i < b.N; i++ {
		t0 := time.Now()
		g, err := f.d.Browse(ctx, "emb", driver.Page{Limit: 1000}, nil, nil)
		if err != nil || len(g.Rows) != 1000 {
			b.Fatal(err)
		}
		t1 := time.Now()
		rows, err := f.bare.Query(ctx, "SELECT id, title, v::text FROM emb ORDER BY id LIMIT 1001")
		if err != nil {
			b.Fatal(err)
		}
		count := 0
		for rows.Next() {
			var id int
			var title, v string
			if err := rows.Scan(&id, &title, &v); err != nil {
				b.Fatal(err)
			}
			count++
		}
		rows.Close()
		t2 := time.Now()
		plugin, bare = plugin+t1.Sub(t0), bare+t2.Sub(t1)
	}
	b.ReportMetric(float64(plugin)/float64(bare), "plugin/bare")
	b.ReportMetric(float64(plugin.Milliseconds())/float64(b.N), "plugin-ms/op")
	b.ReportMetric(float64(bare.Milliseconds())/float64(b.N), "bare-ms/op")
}

// BenchmarkTop10SearchThroughThePlugin runs the top-10 search near one vector through the
// plugin and as the bare query, in turn, and reports the ratio (target at most 1.2x).
func BenchmarkTop10SearchThroughThePlugin(b *testing.B) {
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Minute)
	defer cancel()
	f := setUpVectors(ctx, b)
	near := make([]float64, 768)
	text := "["
	for j := range near {
		near[j] = float64(j%7) / 7
		if j > 0 {
			text += ","
		}
		text += driver.KeyValueText(near[j])
	}
	text += "]"
	var plugin, bare time.Duration
	for i := 0; i < b.N; i++ {
		t0 := time.Now()
		g, err := f.d.Search(ctx, "emb", driver.SearchRequest{Vector: near}, 10)
		if err != nil || len(g.Rows) != 10 {
			b.Fatal(err)
		}
		t1 := time.Now()
		rows, err := f.bare.Query(ctx, "SELECT id, title, (v <-> $1::vector)::float8 AS d FROM emb ORDER BY v <-> $1::vector LIMIT 10", text)
		if err != nil {
			b.Fatal(err)
		}
		for rows.Next() {
			var id int
			var title string
			var d float64
			if err := rows.Scan(&id, &title, &d); err != nil {
				b.Fatal(err)
			}
		}
		rows.Close()
		t2 := time.Now()
		plugin, bare = plugin+t1.Sub(t0), bare+t2.Sub(t1)
	}
	b.ReportMetric(float64(plugin)/float64(bare), "plugin/bare")
	b.ReportMetric(float64(plugin.Microseconds())/float64(b.N), "plugin-µs/op")
	b.ReportMetric(float64(bare.Microseconds())/float64(b.N), "bare-µs/op")
}
