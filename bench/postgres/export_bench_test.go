package postgres_bench

import (
	"bytes"
	"context"
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"app/backend/driver"
	"app/backend/transfer"
)

// exportRows is the size of issue 38's export: 100,000 rows of vector(768).
const exportRows = 100000

// exportTable holds exportRows rows shaped as emb, each vector its own (sin(i·j)), added to
// the vector fixture's server the first time an export is measured.
const exportTable = "emb_export"

func (f *vectorFixture) seedExport(ctx context.Context, b *testing.B) {
	b.Helper()
	if f.exportSeeded {
		return
	}
	start := time.Now()
	if _, err := f.n.Psql(ctx, "", fmt.Sprintf(`CREATE TABLE %s (id int PRIMARY KEY, title text, v vector(768));
INSERT INTO %[1]s SELECT i, 'row ' || i, (SELECT array_agg(sin(i * j))::vector(768) FROM generate_series(1, 768) j) FROM generate_series(1, %d) i`, exportTable, exportRows)); err != nil {
		b.Fatal(err)
	}
	if _, err := f.n.Psql(ctx, "", "VACUUM ANALYZE "+exportTable); err != nil {
		b.Fatal(err)
	}
	f.exportSeeded = true
	b.Logf("%d rows x vector(768) loaded into PGlite in %.0f s", exportRows, time.Since(start).Seconds())
}

// lineCounter is the bare walk's sink: it counts COPY's rows (one line each; a newline
// inside a value is written as \n) and keeps nothing.
type lineCounter struct{ n int }

func (c *lineCounter) Write(p []byte) (int, error) {
	c.n += bytes.Count(p, []byte{'\n'})
	return len(p), nil
}

// BenchmarkExportToParquet exports the 100,000 x 768 table to Parquet with its vectors through
// the plugin (transfer.Export, as the app's Export… runs it: the driver's keyset walk across
// the plugin protocol, the file written on the host's side) against a bare COPY (SELECT …)
// TO STDOUT of the same rows in the same order read with pgx, and reports the ratio (target
// at most 1.25x) and the export's rows a second (target at least 10,000). Each iteration
// also walks the table through the plugin without writing a file, which splits the export's
// cost between the walk and the file. Run it with -benchtime=2x: one round warms up, two are
// reported.
func BenchmarkExportToParquet(b *testing.B) {
	ctx, cancel := context.WithTimeout(context.Background(), 40*time.Minute)
	defer cancel()
	f := setUpVectors(ctx, b)
	f.seedExport(ctx, b)
	sc, ok := f.d.(driver.Scanner)
	if !ok {
		b.Fatal("the driver across the plugin protocol cannot walk a table")
	}
	file := filepath.Join(b.TempDir(), exportTable+".parquet")
	var bare, walk, export time.Duration
	for i := 0; i < b.N; i++ {
		t0 := time.Now()
		var lines lineCounter
		if _, err := f.bare.PgConn().CopyTo(ctx, &lines, "COPY (SELECT id, title, v FROM "+exportTable+" ORDER BY id) TO STDOUT"); err != nil {
			b.Fatal(err)
		}
		if lines.n != exportRows {
			b.Fatalf("the bare walk read %d rows", lines.n)
		}
		t1 := time.Now()
		walked, after := 0, ""
		for {
			p, err := sc.Scan(ctx, exportTable, driver.ScanRequest{After: after, Vectors: true})
			if err != nil {
				b.Fatal(err)
			}
			walked += len(p.Rows)
			if p.Next == "" {
				break
			}
			after = p.Next
		}
		if walked != exportRows {
			b.Fatalf("the walk through the plugin read %d rows", walked)
		}
		t2 := time.Now()
		sum, err := transfer.Export(ctx, f.d, transfer.ExportRequest{Table: exportTable, Vectors: true, Format: transfer.Parquet, Path: file}, nil)
		if err != nil {
			b.Fatal(err)
		}
		if sum.Rows != exportRows {
			b.Fatalf("the export wrote %d rows", sum.Rows)
		}
		t3 := time.Now()
		bare, walk, export = bare+t1.Sub(t0), walk+t2.Sub(t1), export+t3.Sub(t2)
	}
	b.ReportMetric(float64(export)/float64(bare), "export/bare")
	b.ReportMetric(float64(exportRows*b.N)/export.Seconds(), "export-rows/s")
	b.ReportMetric(float64(walk)/float64(bare), "walk/bare")
	b.ReportMetric(bare.Seconds()/float64(b.N), "bare-s/op")
	b.ReportMetric(walk.Seconds()/float64(b.N), "walk-s/op")
	b.ReportMetric(export.Seconds()/float64(b.N), "export-s/op")
}
