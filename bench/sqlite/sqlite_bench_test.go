// Package sqlite_bench measures issue 39's targets for the SQLite driver (make bench): a page of
// float[768] rows through the plugin against the same query in the process, page 5,000
// against page 1, and an export of 100,000 rows to Parquet.
package sqlite_bench

import (
	"context"
	"encoding/binary"
	"math"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/ncruces/go-sqlite3"
	"github.com/sirupsen/logrus"

	"app/backend/driver"
	"app/backend/driver/sqlite"
	"app/backend/plugins/grpcdriver"
	"app/backend/transfer"
	"app/internal/testkit/plugintest"
)

// fixture is a file of rows of float[768] (each vector its own, sin(i·j)) and a big table of
// plain rows, the driver across the plugin protocol and in the process.
type fixture struct {
	path       string
	plugin, in driver.Driver
	stop       func()
}

var fx *fixture

// benchDir holds the fixture's file for the whole run.
var benchDir string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "sqlite-bench-")
	if err != nil {
		panic(err)
	}
	benchDir = dir
	code := m.Run()
	if fx != nil {
		fx.stop()
		_ = fx.in.Close()
	}
	_ = os.RemoveAll(dir)
	os.Exit(code)
}

const (
	vectorRows = 100_000 // the export's size; the page reads the first 1,000
	pagedRows  = 500_000
)

func setUp(ctx context.Context, b *testing.B) *fixture {
	b.Helper()
	if fx != nil {
		return fx
	}
	start := time.Now()
	// The file outlives each benchmark's own temporary directory: the fixture serves them all
	// (TestMain removes it).
	path := filepath.Join(benchDir, "bench.db")
	// Made with SQLite itself (ncruces, the driver's build): sqlite3's shell would take longer
	// to parse 100,000 literal vectors than the rows take to write.
	c, err := sqlite3.Open(path)
	if err != nil {
		b.Fatal(err)
	}
	if err := c.Exec("PRAGMA journal_mode = WAL; CREATE TABLE emb (id INTEGER PRIMARY KEY, title TEXT, v float[768]);" +
		"CREATE TABLE big (id INTEGER PRIMARY KEY, word TEXT, n INTEGER)"); err != nil {
		b.Fatal(err)
	}
	if err := c.Exec("BEGIN"); err != nil {
		b.Fatal(err)
	}
	ins, _, err := c.Prepare("INSERT INTO emb VALUES (?, ?, ?)")
	if err != nil {
		b.Fatal(err)
	}
	blob := make([]byte, 768*4)
	for i := 1; i <= vectorRows; i++ {
		for j := 0; j < 768; j++ {
			binary.LittleEndian.PutUint32(blob[4*j:], math.Float32bits(float32(math.Sin(float64(i*(j+1))))))
		}
		_ = ins.BindInt64(1, int64(i))
		_ = ins.BindText(2, "row")
		_ = ins.BindBlob(3, blob)
		if err := ins.Exec(); err != nil {
			b.Fatal(err)
		}
	}
	ins.Close()
	if err := c.Exec("WITH RECURSIVE r(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM r WHERE i < 500000) INSERT INTO big SELECT i, 'row ' || i, i % 97 FROM r; COMMIT"); err != nil {
		b.Fatal(err)
	}
	c.Close()
	s := driver.Settings{Values: map[string]string{sqlite.KeyPath: path, sqlite.KeyAccess: "read-write"}}
	k, stop, err := plugintest.Loopback(ctx, grpcdriver.Config{
		Info: grpcdriver.Info{Name: "sqlite", Version: "bench", Types: []string{sqlite.Type}},
		Open: func(s driver.Settings, log logrus.FieldLogger) (driver.Driver, error) {
			return sqlite.New(s, sqlite.WithLogger(log))
		},
		Classify: sqlite.Classify,
	}, s)
	if err != nil {
		b.Fatal(err)
	}
	if err := k.Connect(ctx); err != nil {
		b.Fatal(err)
	}
	in, err := sqlite.New(s)
	if err != nil {
		b.Fatal(err)
	}
	if err := in.Connect(ctx); err != nil {
		b.Fatal(err)
	}
	fx = &fixture{path: path, plugin: k, in: in, stop: stop}
	b.Logf("%d rows x float[768] and %d plain rows written in %.0f s", vectorRows, pagedRows, time.Since(start).Seconds())
	return fx
}

// BenchmarkVectorPageThroughThePlugin reads the first 1,000 rows of float[768] through the
// plugin and with the same driver in the process, in turn each iteration, and reports the
// ratio (target at most 1.3x).
func BenchmarkVectorPageThroughThePlugin(b *testing.B) {
	ctx := context.Background()
	f := setUp(ctx, b)
	var plugin, in time.Duration
	for i := 0; i < b.N; i++ {
		t0 := time.Now()
		g, err := f.plugin.Browse(ctx, "emb", driver.Page{Limit: 1000}, nil, nil)
		if err != nil || len(g.Rows) != 1000 {
			b.Fatal(err)
		}
		t1 := time.Now()
		g, err = f.in.Browse(ctx, "emb", driver.Page{Limit: 1000}, nil, nil)
		if err != nil || len(g.Rows) != 1000 {
			b.Fatal(err)
		}
		t2 := time.Now()
		plugin, in = plugin+t1.Sub(t0), in+t2.Sub(t1)
	}
	b.ReportMetric(float64(plugin)/float64(in), "plugin/in-process")
	b.ReportMetric(float64(plugin.Microseconds())/1000/float64(b.N), "plugin-ms/op")
	b.ReportMetric(float64(in.Microseconds())/1000/float64(b.N), "in-process-ms/op")
}

// BenchmarkPage5000AgainstPage1 reads the 500,000-row table page by page (100 rows) through the
// plugin to page 5,000 (keyset), then page 1 and page 5,000 in every iteration, and reports the
// ratio (target at most 1.5x).
func BenchmarkPage5000AgainstPage1(b *testing.B) {
	ctx := context.Background()
	f := setUp(ctx, b)
	const size = 100
	for p := 0; p < 5000; p++ {
		if _, err := f.plugin.Browse(ctx, "big", driver.Page{Offset: p * size, Limit: size}, nil, nil); err != nil {
			b.Fatal(err)
		}
	}
	var first, far time.Duration
	for i := 0; i < b.N; i++ {
		t0 := time.Now()
		if _, err := f.plugin.Browse(ctx, "big", driver.Page{Limit: size}, nil, nil); err != nil {
			b.Fatal(err)
		}
		t1 := time.Now()
		g, err := f.plugin.Browse(ctx, "big", driver.Page{Offset: 4999 * size, Limit: size}, nil, nil)
		if err != nil || len(g.Rows) != size {
			b.Fatal(err)
		}
		t2 := time.Now()
		first, far = first+t1.Sub(t0), far+t2.Sub(t1)
	}
	b.ReportMetric(float64(far)/float64(first), "page5000/page1")
	b.ReportMetric(float64(first.Microseconds())/float64(b.N), "page1-µs/op")
	b.ReportMetric(float64(far.Microseconds())/float64(b.N), "page5000-µs/op")
}

// BenchmarkExportToParquet exports the 100,000 x float[768] table to Parquet with its vectors
// through the plugin, as the app's Export… runs it, and reports its rows a second (target at
// least 10,000). Run it with -benchtime=2x: one round warms up.
func BenchmarkExportToParquet(b *testing.B) {
	ctx := context.Background()
	f := setUp(ctx, b)
	file := filepath.Join(b.TempDir(), "emb.parquet")
	var export time.Duration
	for i := 0; i < b.N; i++ {
		t0 := time.Now()
		sum, err := transfer.Export(ctx, f.plugin, transfer.ExportRequest{Table: "emb", Vectors: true, Format: transfer.Parquet, Path: file}, nil)
		if err != nil || sum.Rows != vectorRows {
			b.Fatalf("%+v %v", sum, err)
		}
		export += time.Since(t0)
	}
	b.ReportMetric(float64(vectorRows)*float64(b.N)/export.Seconds(), "export-rows/s")
	b.ReportMetric(export.Seconds()/float64(b.N), "export-s/op")
}
