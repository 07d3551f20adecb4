package activity

import (
	"bytes"
	"context"
	"encoding/csv"
	"strings"
	"testing"
	"time"

	"app/backend/mcp"
)

// Issue 11, Settings panel: the activity log filters by client, token, connection, outcome,
// time range and text, pages with limit and offset, and exports CSV.
func TestListFilters(t *testing.T) {
	ctx := context.Background()
	l := openLog(t, Options{})
	recs := []mcp.Record{
		call("execute_query", map[string]any{"connection": "c1", "query": "{Get{Article{title}}}"}, t0),
		call("execute_query", map[string]any{"connection": "c2", "query": "{Get{Author{name}}}"}, t0.Add(time.Minute)),
		{Start: t0.Add(2 * time.Minute), Method: "tools/list", ErrorCode: -33007, Client: &mcp.ClientInfo{Name: "cursor", Version: "1"},
			Principal: mcp.Principal{ID: "token:t2", Name: "ci", Level: "readWrite"}},
		func() mcp.Record {
			r := call("execute_query", map[string]any{"connection": "c1", "query": "100%_done"}, t0.Add(3*time.Minute))
			r.ToolError = "query_failed"
			return r
		}(),
	}
	for _, r := range recs {
		l.Observe(r)
	}
	flush(t, l)
	cases := []struct {
		rule string
		f    Filter
		want []int64 // ids, newest first
	}{
		{"no filter lists everything newest first", Filter{}, []int64{4, 3, 2, 1}},
		{"client", Filter{Client: "cursor"}, []int64{3}},
		{"token by name", Filter{Token: "laptop"}, []int64{4, 2, 1}},
		{"token by principal id", Filter{Token: "token:t2"}, []int64{3}},
		{"connection", Filter{Connection: "c1"}, []int64{4, 1}},
		{"outcome ok", Filter{Outcome: "ok"}, []int64{2, 1}},
		{"outcome tool error code", Filter{Outcome: "query_failed"}, []int64{4}},
		{"outcome protocol error code", Filter{Outcome: "-33007"}, []int64{3}},
		{"outcome error means every failure", Filter{Outcome: OutcomeError}, []int64{4, 3}},
		{"time range is since <= time < until", Filter{Since: t0.Add(time.Minute), Until: t0.Add(3 * time.Minute)}, []int64{3, 2}},
		{"search in the statement", Filter{Search: "author"}, []int64{2}},
		{"search in the method", Filter{Search: "tools/list"}, []int64{3}},
		{"search treats % and _ literally", Filter{Search: "%_d"}, []int64{4}},
		{"limit", Filter{Limit: 2}, []int64{4, 3}},
		{"limit and offset", Filter{Limit: 2, Offset: 1}, []int64{3, 2}},
		{"offset alone", Filter{Offset: 3}, []int64{1}},
		{"filters combine", Filter{Connection: "c1", Outcome: "ok"}, []int64{1}},
	}
	for _, c := range cases {
		t.Run(c.rule, func(t *testing.T) {
			got, err := l.List(ctx, c.f)
			if err != nil {
				t.Fatal(err)
			}
			var ids []int64
			for _, e := range got {
				ids = append(ids, e.ID)
			}
			if !equalIDs(ids, c.want) {
				t.Fatalf("ids %v, want %v", ids, c.want)
			}
			n, err := l.Count(ctx, Filter{Client: c.f.Client, Token: c.f.Token, Connection: c.f.Connection, Outcome: c.f.Outcome,
				Since: c.f.Since, Until: c.f.Until, Search: c.f.Search})
			if err != nil || (c.f.Limit == 0 && c.f.Offset == 0 && n != len(c.want)) {
				t.Fatalf("count %d, %v", n, err)
			}
		})
	}
}

func equalIDs(a, b []int64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// CSV export: RFC 4180 quoting (commas, quotes, new lines survive a round trip), oldest
// first, and cells a spreadsheet would run as formulas are defused.
func TestWriteCSV(t *testing.T) {
	ctx := context.Background()
	l := openLog(t, Options{})
	statements := []string{
		"plain",
		`with "quotes", commas and` + "\nnew lines",
		"=HYPERLINK(\"http://127.0.0.1\")",
		"-1+2",
		"@SUM(A1)",
		"+cmd",
	}
	for i, s := range statements {
		l.Observe(call("execute_query", map[string]any{"connection": "c1", "query": s}, t0.Add(time.Duration(i)*time.Second)))
	}
	r := call("x", nil, t0.Add(time.Hour))
	r.ErrorCode = -33007
	l.Observe(r)
	flush(t, l)
	var buf bytes.Buffer
	if err := l.WriteCSV(ctx, &buf, Filter{}); err != nil {
		t.Fatal(err)
	}
	rows, err := csv.NewReader(&buf).ReadAll()
	if err != nil {
		t.Fatalf("not CSV: %v\n%s", err, buf.String())
	}
	if strings.Join(rows[0], ",") != strings.Join(CSVHeader, ",") || len(rows) != len(statements)+2 {
		t.Fatalf("header %v, %d rows", rows[0], len(rows))
	}
	col := func(name string) int {
		for i, h := range CSVHeader {
			if h == name {
				return i
			}
		}
		t.Fatalf("no column %s", name)
		return -1
	}
	want := []string{"plain", statements[1], "'" + statements[2], "'-1+2", "'@SUM(A1)", "'+cmd"}
	for i, w := range want {
		t.Run("row "+rows[i+1][col("id")], func(t *testing.T) {
			if got := rows[i+1][col("statement")]; got != w {
				t.Fatalf("statement %q, want %q", got, w)
			}
		})
	}
	t.Run("a negative number (a protocol error code) is kept as is", func(t *testing.T) {
		if got := rows[len(rows)-1][col("outcome")]; got != "-33007" {
			t.Fatalf("outcome %q", got)
		}
	})
	t.Run("rows are oldest first with their hashes", func(t *testing.T) {
		if rows[1][col("id")] != "1" || len(rows[1][col("hash")]) != 64 || rows[1][col("prev_hash")] != GenesisHash {
			t.Fatalf("first row %v", rows[1])
		}
	})
}

// BenchmarkCountFiltered is what decoding costs a filtered count per entry: every block
// decoded and matched in Go (100,000 entries in blocks of 1,000), the filter index switched
// off, as a filter the index cannot narrow (a text search) pays it
// (BenchmarkFilteredCountOverAMillionEntries measures the index).
func BenchmarkCountFiltered(b *testing.B) {
	l, err := Open(Path(b.TempDir()), Options{})
	if err != nil {
		b.Fatal(err)
	}
	defer l.Close(context.Background())
	l.noIndex = true
	if err := l.Flush(context.Background()); err != nil {
		b.Fatal(err)
	}
	for i := range 100 {
		batch := make([]*Entry, 1000)
		for j := range batch {
			e := FromRecord(call("execute_query", map[string]any{"connection": "c1", "query": "{Get{Article(limit:10){title}}}"}, t0.Add(time.Duration(i*1000+j)*time.Second)))
			batch[j] = &e
		}
		if err := l.insert(batch); err != nil {
			b.Fatal(err)
		}
	}
	b.ResetTimer()
	for b.Loop() {
		if n, err := l.Count(context.Background(), Filter{Client: "cursor"}); err != nil || n != 0 {
			b.Fatal(n, err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/100000, "ns/entry")
}
