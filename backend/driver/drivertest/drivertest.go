// Package drivertest is the conformance suite of the driver contract (issue 37, item 7), in
// the manner of gocloud's drivertest: a driver's tests give it a Harness over a real database,
// and Run checks each rule of backend/driver against it, every answer held to what the suite
// seeded with the database's own tools (never through the driver under test):
//
//   - DescribeTable names every seeded column with its portable kind, and the key;
//   - paging covers every row exactly once, and Count counts them;
//   - every filter operator a column lists selects exactly the rows its meaning selects (a NULL
//     under a negative operator is the database's to place), and Count agrees;
//   - an operator a column does not list is refused as a refused filter naming the filter,
//     never answered with the table;
//   - a sort orders the rows and keeps the NULLs together at one end;
//   - a write of several rows reports each row's outcome, one failure among them leaving the
//     others written, or, where the driver declares transactions, nothing written;
//   - paging stops at the driver's limit with a notice, a page beyond it is refused, and a
//     scan walks every row of a bigger table exactly once;
//   - a scan naming one vector reads only it, and every vector when it names none (where the
//     harness seeds vectors, Vectors);
//   - reads and writes of the editor's language are classified as such;
//   - a cancelled call returns promptly, cancelled;
//   - a wrong secret is refused as an authentication failure that never quotes the secret;
//   - CreateTable (where the capability is declared) makes a table that describes as asked and
//     takes a row.
//
// A rule a driver cannot meet is the driver's to fix: the suite has no options to turn one off.
package drivertest

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"app/backend/driver"
)

// Harness is a real database for the suite.
type Harness interface {
	// Open connects a new driver to the database (Connect already done); the suite closes it.
	Open(ctx context.Context, t *testing.T) driver.Driver
	// Seed creates table with cols (besides the key, which the database makes) and rows,
	// with the database's own tools, and drops it when t ends. A nil value is NULL.
	Seed(ctx context.Context, t *testing.T, table string, cols []driver.ColumnSpec, rows []map[string]any)
	// Drop removes a table the suite made through the driver, with the database's own tools.
	Drop(ctx context.Context, t *testing.T, table string)
	// Table is a fresh table name the database takes, unique to name.
	Table(name string) string
	// Statements are texts of the editor's language on table: reads and writes.
	Statements(table string) (reads, writes []string)
	// WrongSecret opens a driver whose credential the database refuses, and says the secret.
	WrongSecret(ctx context.Context, t *testing.T) (d driver.Driver, secret string)
	// Big is a table with more rows than the driver's paging limit (Capabilities.MaxResults;
	// any table of a few thousand rows for a driver without one), made with the database's
	// own tools, and how many rows it holds.
	Big(ctx context.Context, t *testing.T) (table string, rows int)
}

// Kinds is what a harness implements whose database holds only some of the seeded kinds
// (SQLite has no arrays, dates or uuids of its own): the seeded table, and the table
// CreateTable makes, then have only the columns of those kinds.
type Kinds interface {
	Kinds() []driver.ColumnKind
}

// Credentialless is what a harness implements whose database takes no credential (a file):
// there is no secret to refuse, and the rule of a wrong one is skipped, saying so.
type Credentialless interface {
	Credentialless()
}

// Vectors is what a harness implements whose database holds vectors: SeedVectors makes table
// with a text column "word" and a vector of each of names (a vector column, or a named
// vector), holding rows (each row's word and its vectors by name), with the database's own
// tools, and drops it when t ends. It answers false where the database at hand has no vector
// type: the rules of vectors are then skipped, saying so.
type Vectors interface {
	SeedVectors(ctx context.Context, t *testing.T, table string, names []string, rows []VectorRow) bool
}

// VectorRow is one row SeedVectors writes.
type VectorRow struct {
	Word    string
	Vectors map[string][]float32
}

// vectorRows are the rows of the rule of named vectors: each vector's numbers tell its row
// and its name apart, and a float32 holds them exactly.
func vectorRows(names []string) []VectorRow {
	rows := make([]VectorRow, 6)
	for i := range rows {
		rows[i] = VectorRow{Word: words[i], Vectors: map[string][]float32{}}
		for k, n := range names {
			rows[i].Vectors[n] = []float32{float32(i) + 0.5, float32(k+1) * 10, -float32(i*k) - 0.25}
		}
	}
	return rows
}

// columnsOf are the seeded columns h's database holds.
func columnsOf(h Harness) []driver.ColumnSpec {
	k, ok := h.(Kinds)
	if !ok {
		return seedColumns
	}
	kinds := k.Kinds()
	var out []driver.ColumnSpec
	for _, c := range seedColumns {
		if slices.Contains(kinds, c.Kind) {
			out = append(out, c)
		}
	}
	return out
}

// The seeded table: one row per word, with numbers, a flag, tags and some NULLs.
var (
	seedColumns = []driver.ColumnSpec{
		{Name: "word", Kind: driver.ColumnText},
		{Name: "n", Kind: driver.ColumnInteger},
		{Name: "x", Kind: driver.ColumnNumber},
		{Name: "flag", Kind: driver.ColumnBoolean},
		{Name: "tags", Kind: driver.ColumnArray, Of: driver.ColumnText},
		{Name: "at", Kind: driver.ColumnDateTime},
		{Name: "ref", Kind: driver.ColumnUUID},
	}
	words = []string{"alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf", "hotel", "india", "juliet", "kilo", "lima"}
)

// seedRows are the rows: n is the word's index, NULL every fourth; x is n/2; flag is even n;
// at is noon UTC on day i+1 of January 2026, NULL every fifth; ref is a uuid ending in i.
func seedRows() []map[string]any {
	rows := make([]map[string]any, len(words))
	for i, w := range words {
		r := map[string]any{"word": w, "n": int64(i), "x": float64(i) / 2, "flag": i%2 == 0, "tags": []any{w[:1], "all"},
			"at": seedTime(i), "ref": seedUUID(i)}
		if i%4 == 3 {
			r["n"] = nil
		}
		if i%5 == 4 {
			r["at"] = nil
		}
		rows[i] = r
	}
	return rows
}

// seedTime is row i's at: noon UTC on day i+1 of January 2026, in RFC 3339.
func seedTime(i int) string { return fmt.Sprintf("2026-01-%02dT12:00:00Z", i+1) }

// seedUUID is row i's ref.
func seedUUID(i int) string { return fmt.Sprintf("0a1b2c3d-0000-4000-8000-%012d", i) }

// Run runs every rule against h.
func Run(t *testing.T, h Harness) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	d := h.Open(ctx, t)
	t.Cleanup(func() { d.Close() })
	table := h.Table("Conform")
	cols := columnsOf(h)
	h.Seed(ctx, t, table, cols, seedRows())
	info, err := d.DescribeTable(ctx, table)
	if err != nil {
		t.Fatalf("DescribeTable %s: %v", table, err)
	}

	t.Run("DescribeTable names every seeded column with its kind, and the key", func(t *testing.T) {
		for _, want := range cols {
			c, ok := info.Column(want.Name)
			if !ok || c.Kind != want.Kind || c.Of != want.Of {
				t.Errorf("%s: %+v, want kind %s of %q", want.Name, c, want.Kind, want.Of)
			}
		}
		if len(info.PrimaryKey) == 0 {
			t.Fatal("the table has no key: a seeded table's rows must be named one by one")
		}
		for _, name := range info.PrimaryKey {
			if k, ok := info.Column(name); !ok || !k.PrimaryKey {
				t.Errorf("the key column %q is not a primary-key column of the table", name)
			}
		}
		for _, c := range info.Columns {
			if c.PrimaryKey && !slices.Contains(info.PrimaryKey, c.Name) {
				t.Errorf("column %q is marked a key column but the key is %v", c.Name, info.PrimaryKey)
			}
		}
	})

	t.Run("a row read is found again, edited and deleted by its key, and a malformed key is refused", func(t *testing.T) {
		g, err := d.Browse(ctx, table, driver.Page{Limit: 1}, []driver.Filter{{Column: "word", Operator: driver.OpEquals, Value: "kilo"}}, nil)
		if err != nil || len(g.Rows) != 1 {
			t.Fatalf("kilo: %v rows, %v", rowsOf(g), err)
		}
		key := driver.KeyOf(g.Columns, info.PrimaryKey, g.Rows[0])
		if key == nil {
			t.Fatalf("the row read has no key in %v", info.PrimaryKey)
		}
		again, err := d.Browse(ctx, table, driver.Page{Limit: 5}, driver.KeyFilters(info.PrimaryKey, key), nil)
		if err != nil || len(again.Rows) != 1 || column(t, again, "word")[0] != "kilo" {
			t.Fatalf("the row by its key %s: %v rows, %v", key.Text(info.PrimaryKey...), rowsOf(again), err)
		}
		res, err := d.Update(ctx, table, []driver.Row{{Key: key, Values: map[string]any{"n": "510"}}})
		if err != nil || len(res) != 1 || res[0].Status != driver.RowOK || !driver.SameKey(res[0].Key, key) {
			t.Fatalf("update by key: %+v %v", res, err)
		}
		after, err := d.Browse(ctx, table, driver.Page{Limit: 5}, driver.KeyFilters(info.PrimaryKey, key), nil)
		if err != nil || len(after.Rows) != 1 || column(t, after, "n")[0] != "510" {
			t.Fatalf("the row after the update: %v, %v", after, err)
		}
		wrong := driver.Key{"word": "kilo"}
		if slices.Contains(info.PrimaryKey, "word") {
			wrong = driver.Key{"n": "1"}
		}
		res, err = d.Update(ctx, table, []driver.Row{{Key: wrong, Values: map[string]any{"n": "1"}}, {Values: map[string]any{"n": "2"}}})
		if err != nil || len(res) != 2 || res[0].Status != driver.RowFailed || res[0].Kind != driver.KindInvalidArgument || res[1].Status != driver.RowSkipped {
			t.Fatalf("a key of other columns must fail its row, a row without a key be skipped: %+v %v", res, err)
		}
		if n, err := d.Count(ctx, table, []driver.Filter{{Column: "n", Operator: driver.OpEquals, Value: "1"}}); err != nil || n != 1 {
			t.Fatalf("rows with n = 1 after the refused updates: %d, %v", n, err)
		}
		res, err = d.Update(ctx, table, []driver.Row{{Key: key, Values: map[string]any{"n": "10"}}})
		if err != nil || len(res) != 1 || res[0].Status != driver.RowOK {
			t.Fatalf("the update back: %+v %v", res, err)
		}
	})

	t.Run("pages cover every row exactly once, and Count counts them", func(t *testing.T) {
		var got []string
		for off := 0; off < len(words)+5; off += 5 {
			g, err := d.Browse(ctx, table, driver.Page{Offset: off, Limit: 5}, nil, []driver.Sort{{Column: "word"}})
			if err != nil {
				t.Fatal(err)
			}
			got = append(got, column(t, g, "word")...)
		}
		if !slices.Equal(got, words) {
			t.Fatalf("pages gave %v", got)
		}
		if n, err := d.Count(ctx, table, nil); err != nil || n != int64(len(words)) {
			t.Fatalf("Count = %d, %v", n, err)
		}
	})

	t.Run("every listed filter operator selects the rows its meaning selects, and Count agrees", func(t *testing.T) {
		tested := 0
		for _, col := range []string{"n", "word", "x", "flag", "at", "ref", "tags"} {
			c, _ := info.Column(col)
			for _, op := range c.Filterable {
				f, match, ok := filterFor(col, op)
				if !ok {
					continue
				}
				tested++
				g, err := d.Browse(ctx, table, driver.Page{Limit: 100}, []driver.Filter{f}, []driver.Sort{{Column: "word"}})
				if err != nil {
					t.Errorf("%s %s: %v", col, op, err)
					continue
				}
				got := column(t, g, "word")
				checkMatches(t, fmt.Sprintf("%s %s %q", col, op, f.Value), got, match, negative(op))
				if n, err := d.Count(ctx, table, []driver.Filter{f}); err != nil || n != int64(len(got)) {
					t.Errorf("%s %s: Count %d (%v), Browse %d rows", col, op, n, err, len(got))
				}
			}
		}
		if tested < 16 {
			t.Fatalf("only %d operators tested: the columns list too few", tested)
		}
	})

	t.Run("an operator a column does not list is refused naming the filter, never answered with the table", func(t *testing.T) {
		c, _ := info.Column("n")
		var op driver.Operator
		for _, o := range driver.Operators() {
			if !slices.Contains(c.Filterable, o) {
				op = o
				break
			}
		}
		if op == "" {
			op = "no_such_operator"
		}
		f := driver.Filter{Column: "n", Operator: op, Value: "1", Value2: "2"}
		g, err := d.Browse(ctx, table, driver.Page{}, []driver.Filter{f}, nil)
		var de *driver.Error
		if g != nil || !errors.As(err, &de) || (de.Kind != driver.KindRefusedFilter && de.Kind != driver.KindInvalidArgument) {
			t.Fatalf("%s: grid %v, error %v", op, g != nil, err)
		}
		if de.Kind == driver.KindRefusedFilter && (de.Column != "n" || de.Operator != op) {
			t.Fatalf("the refusal names %q %q", de.Column, de.Operator)
		}
	})

	t.Run("a sort orders the rows and keeps the NULLs together at one end", func(t *testing.T) {
		for _, desc := range []bool{false, true} {
			g, err := d.Browse(ctx, table, driver.Page{Limit: 100}, nil, []driver.Sort{{Column: "n", Descending: desc}})
			if err != nil {
				t.Fatal(err)
			}
			ns := column(t, g, "n")
			var vals []int
			nullRuns, inNull := 0, false
			for _, s := range ns {
				if s == "" {
					if !inNull {
						nullRuns++
					}
					inNull = true
					continue
				}
				inNull = false
				v, _ := strconv.Atoi(s)
				vals = append(vals, v)
			}
			sorted := slices.IsSorted(vals)
			if desc {
				r := slices.Clone(vals)
				slices.Reverse(r)
				sorted = slices.IsSorted(r)
			}
			if !sorted || nullRuns != 1 || (ns[0] != "" && ns[len(ns)-1] != "") || len(ns) != len(words) {
				t.Fatalf("descending %v: %v", desc, ns)
			}
		}
	})

	t.Run("a write reports each row's outcome, and one failed row leaves the others written", func(t *testing.T) {
		res, err := d.Insert(ctx, table, []driver.Row{
			{Values: map[string]any{"word": "mike", "n": "100"}},
			{Values: map[string]any{"word": "november", "n": "not a number"}},
			{Values: map[string]any{"word": "oscar", "n": "101"}},
		})
		if err != nil {
			t.Fatal(err)
		}
		if d.Capabilities().Transactions {
			// Atomic: the failure fails the whole write, and nothing of it is there.
			for _, r := range res {
				if r.Status == driver.RowOK {
					t.Fatalf("a transactional write applied a row despite a failure: %+v", res)
				}
			}
			if n, err := d.Count(ctx, table, nil); err != nil || n != int64(len(words)) {
				t.Fatalf("Count after the failed transaction = %d, %v", n, err)
			}
			return
		}
		want := []driver.RowStatus{driver.RowOK, driver.RowFailed, driver.RowOK}
		for i, r := range res {
			if r.Index != i || r.Status != want[i] {
				t.Errorf("row %d: %+v", i, r)
			}
		}
		if len(res) != 3 || res[1].Kind != driver.KindInvalidArgument {
			t.Fatalf("%+v", res)
		}
		if n, err := d.Count(ctx, table, nil); err != nil || n != int64(len(words)+2) {
			t.Fatalf("Count after the write = %d, %v", n, err)
		}
		for _, i := range []int{0, 2} {
			if driver.CheckKey(info.PrimaryKey, res[i].Key, "the key of an inserted row") != nil {
				t.Fatalf("inserted row %d reports no key of %v: %+v", i, info.PrimaryKey, res[i])
			}
		}
		del, err := d.Delete(ctx, table, []driver.Row{{Key: res[0].Key}, {Key: res[2].Key}})
		if err != nil || len(del) != 2 || del[0].Status != driver.RowOK || del[1].Status != driver.RowOK {
			t.Fatalf("delete: %+v %v", del, err)
		}
		if n, err := d.Count(ctx, table, nil); err != nil || n != int64(len(words)) {
			t.Fatalf("Count after the delete by key = %d, %v", n, err)
		}
	})

	t.Run("paging stops at the limit with a notice, a page beyond it is refused, and a scan walks every row once", func(t *testing.T) {
		big, rows := h.Big(ctx, t)
		limit := d.Capabilities().MaxResults
		if limit > 0 {
			if rows <= limit {
				t.Fatalf("the harness's big table has %d rows, not more than the limit %d", rows, limit)
			}
			g, err := d.Browse(ctx, big, driver.Page{Offset: limit - 5, Limit: 10}, nil, nil)
			if err != nil || len(g.Rows) != 5 || g.Notice == "" {
				t.Fatalf("the page across the limit: %v rows, notice %q, %v", rowsOf(g), noticeOf(g), err)
			}
			if g, err := d.Browse(ctx, big, driver.Page{Offset: limit, Limit: 10}, nil, nil); g != nil || !driver.IsKind(err, driver.KindUnsupported) {
				t.Fatalf("the page beyond the limit: %v rows, %v", rowsOf(g), err)
			}
		}
		sc, ok := d.(driver.Scanner)
		if caps := driver.Offered(d); !caps.Offers(caps.Scan) {
			ok = false // a plugin's client answers Scan; the plugin declared it has none
		}
		if !ok {
			if limit > 0 {
				t.Fatal("a driver with a paging limit must scan past it (driver.Scanner)")
			}
			// Without a limit, pages reach every row, each once.
			seen := make(map[string]bool, rows)
			for off := 0; off <= rows; off += 1000 {
				g, err := d.Browse(ctx, big, driver.Page{Offset: off, Limit: 1000}, nil, nil)
				if err != nil {
					t.Fatal(err)
				}
				for _, r := range g.Rows {
					key := fmt.Sprint(r[0])
					if seen[key] {
						t.Fatalf("paging read %s twice", key)
					}
					seen[key] = true
				}
				if !g.HasMore {
					break
				}
			}
			if len(seen) != rows {
				t.Fatalf("paging reached %d of %d rows", len(seen), rows)
			}
			return
		}
		seen := make(map[string]bool, rows)
		after := ""
		for steps := 0; ; steps++ {
			if steps > rows {
				t.Fatal("the scan does not end")
			}
			p, err := sc.Scan(ctx, big, driver.ScanRequest{After: after, Limit: 2000})
			if err != nil {
				t.Fatal(err)
			}
			for _, r := range p.Rows {
				key := fmt.Sprint(r[0])
				if seen[key] {
					t.Fatalf("the scan read %s twice", key)
				}
				seen[key] = true
			}
			if p.Next == "" {
				break
			}
			after = p.Next
		}
		if len(seen) != rows {
			t.Fatalf("the scan read %d rows of %d", len(seen), rows)
		}
	})

	t.Run("a scan naming one vector reads only it, and every vector when it names none", func(t *testing.T) {
		vh, ok := h.(Vectors)
		if !ok {
			t.Skip("the database holds no vectors")
		}
		sc, ok := d.(driver.Scanner)
		if caps := driver.Offered(d); !ok || !caps.Offers(caps.Scan) {
			t.Skip("the driver does not scan")
		}
		vt := h.Table("Vecs")
		names := []string{"alpha_v", "beta_v"}
		rows := vectorRows(names)
		if !vh.SeedVectors(ctx, t, vt, names, rows) {
			t.Skip("this database has no vector type")
		}
		byWord := make(map[string]VectorRow, len(rows))
		for _, r := range rows {
			byWord[r.Word] = r
		}
		walk := func(ask []string) (names []string, got map[string][][]float32, err error) {
			got = map[string][][]float32{}
			after := ""
			for steps := 0; steps <= len(rows); steps++ {
				p, err := sc.Scan(ctx, vt, driver.ScanRequest{After: after, Limit: 4, Vectors: true, VectorNames: ask})
				if err != nil {
					return nil, nil, err
				}
				at := slices.IndexFunc(p.Columns, func(c driver.Column) bool { return c.Name == "word" })
				if at < 0 || len(p.Vectors) != len(p.Rows) {
					t.Fatalf("the page has columns %v and %d rows of vectors for %d rows", p.Columns, len(p.Vectors), len(p.Rows))
				}
				names = p.VectorNames
				for i, r := range p.Rows {
					got[fmt.Sprint(r[at])] = p.Vectors[i]
				}
				if p.Next == "" {
					return names, got, nil
				}
				after = p.Next
			}
			t.Fatal("the scan does not end")
			return nil, nil, nil
		}
		for _, c := range []struct {
			ask, want []string
		}{{[]string{"beta_v"}, []string{"beta_v"}}, {[]string{"alpha_v"}, []string{"alpha_v"}}, {nil, names}} {
			gotNames, got, err := walk(c.ask)
			if err != nil {
				t.Fatalf("asking %q: %v", c.ask, err)
			}
			if !slices.Equal(gotNames, c.want) {
				t.Fatalf("asking %q, the page names %q, want %q", c.ask, gotNames, c.want)
			}
			if len(got) != len(rows) {
				t.Fatalf("asking %q, the scan read %d rows of %d", c.ask, len(got), len(rows))
			}
			for word, vs := range got {
				if len(vs) != len(c.want) {
					t.Fatalf("asking %q, row %s has %d vectors", c.ask, word, len(vs))
				}
				for k, n := range c.want {
					if want := byWord[word].Vectors[n]; !slices.Equal(vs[k], want) {
						t.Errorf("asking %q, row %s's %s is %v, the database holds %v", c.ask, word, n, vs[k], want)
					}
				}
			}
		}
		for _, ask := range [][]string{{"gamma_v"}, {""}} {
			if _, _, err := walk(ask); !driver.IsKind(err, driver.KindInvalidArgument) {
				t.Errorf("asking %q of a table of vectors %q: %v, want a refusal (invalid argument)", ask, names, err)
			}
		}
	})

	t.Run("the editor's reads are reads and its writes are writes", func(t *testing.T) {
		reads, writes := h.Statements(table)
		if len(reads) == 0 || len(writes) == 0 {
			t.Fatal("the harness names no statements")
		}
		for _, s := range reads {
			if c, err := d.Classify(s); err != nil || c.Write() {
				t.Errorf("%q: %+v %v, want a read", s, c, err)
			}
		}
		for _, s := range writes {
			if c, _ := d.Classify(s); !c.Write() {
				t.Errorf("%q: %+v, want a write", s, c)
			}
		}
	})

	t.Run("a cancelled call returns promptly, cancelled", func(t *testing.T) {
		cctx, cancel := context.WithCancel(ctx)
		cancel()
		start := time.Now()
		_, err := d.Browse(cctx, table, driver.Page{}, nil, nil)
		if !driver.IsKind(err, driver.KindCancelled) || time.Since(start) > 2*time.Second {
			t.Fatalf("%v after %v", err, time.Since(start))
		}
	})

	t.Run("a wrong secret is an authentication failure that never quotes it", func(t *testing.T) {
		if _, ok := h.(Credentialless); ok {
			t.Skip("the database takes no credential")
		}
		wd, secret := h.WrongSecret(ctx, t)
		defer wd.Close()
		err := wd.Connect(ctx)
		if !driver.IsKind(err, driver.KindAuth) || !strings.HasPrefix(err.Error(), driver.AuthPrefix) || strings.Contains(err.Error(), secret) {
			t.Fatalf("%v", err)
		}
	})

	t.Run("CreateTable makes a table that describes as asked and takes a row", func(t *testing.T) {
		tc, ok := d.(driver.TableCreator)
		if !d.Capabilities().CreateTable {
			if ok {
				t.Fatal("the driver creates tables but does not declare it")
			}
			return // declared not to: nothing to hold it to
		}
		if !ok {
			t.Fatal("CreateTable is declared but not offered")
		}
		name := h.Table("Created")
		spec := driver.TableSpec{Name: name, Columns: cols}
		made, err := tc.CreateTable(ctx, spec)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { h.Drop(context.Background(), t, name) })
		for _, want := range cols {
			if c, ok := made.Column(want.Name); !ok || c.Kind != want.Kind || c.Of != want.Of {
				t.Errorf("%s: %+v", want.Name, c)
			}
		}
		res, err := d.Insert(ctx, made.Name, []driver.Row{{Values: map[string]any{"word": "papa", "n": "7"}}})
		if err != nil || len(res) != 1 || res[0].Status != driver.RowOK {
			t.Fatalf("%+v %v", res, err)
		}
		g, err := d.Browse(ctx, made.Name, driver.Page{}, nil, nil)
		if err != nil || !slices.Equal(column(t, g, "n"), []string{"7"}) {
			t.Fatalf("%v %v", g, err)
		}
	})
}

func rowsOf(g *driver.Grid) int {
	if g == nil {
		return -1
	}
	return len(g.Rows)
}

func noticeOf(g *driver.Grid) string {
	if g == nil {
		return ""
	}
	return g.Notice
}

// filterFor is a filter on col with op and the predicate it means on the seeded rows (by
// index); ok is false for an operator the suite has no meaning for on col.
func filterFor(col string, op driver.Operator) (driver.Filter, func(i int) (match, known bool), bool) {
	f := driver.Filter{Column: col, Operator: op}
	if col == "n" {
		val := func(i int) (int, bool) { return i, i%4 != 3 }
		cmp := func(test func(v int) bool) func(int) (bool, bool) {
			return func(i int) (bool, bool) {
				v, ok := val(i)
				return ok && test(v), ok
			}
		}
		switch op {
		case driver.OpEquals:
			f.Value = "5"
			return f, cmp(func(v int) bool { return v == 5 }), true
		case driver.OpNotEquals:
			f.Value = "5"
			return f, cmp(func(v int) bool { return v != 5 }), true
		case driver.OpGreater:
			f.Value = "5"
			return f, cmp(func(v int) bool { return v > 5 }), true
		case driver.OpGreaterEq:
			f.Value = "5"
			return f, cmp(func(v int) bool { return v >= 5 }), true
		case driver.OpLess:
			f.Value = "5"
			return f, cmp(func(v int) bool { return v < 5 }), true
		case driver.OpLessEq:
			f.Value = "5"
			return f, cmp(func(v int) bool { return v <= 5 }), true
		case driver.OpBetween:
			f.Value, f.Value2 = "2", "6"
			return f, cmp(func(v int) bool { return v >= 2 && v <= 6 }), true
		case driver.OpIn:
			f.Value = "1, 4, 8"
			return f, cmp(func(v int) bool { return v == 1 || v == 4 || v == 8 }), true
		case driver.OpNotIn:
			f.Value = "1, 4, 8"
			return f, cmp(func(v int) bool { return v != 1 && v != 4 && v != 8 }), true
		case driver.OpIsNull:
			return f, func(i int) (bool, bool) { _, ok := val(i); return !ok, true }, true
		case driver.OpIsNotNull:
			return f, func(i int) (bool, bool) { _, ok := val(i); return ok, true }, true
		}
		return f, nil, false
	}
	if col == "x" {
		// x is i/2 on every row: a number column without NULLs.
		num := func(test func(v float64) bool) func(int) (bool, bool) {
			return func(i int) (bool, bool) { return test(float64(i) / 2), true }
		}
		switch op {
		case driver.OpEquals:
			f.Value = "2.5"
			return f, num(func(v float64) bool { return v == 2.5 }), true
		case driver.OpNotEquals:
			f.Value = "2.5"
			return f, num(func(v float64) bool { return v != 2.5 }), true
		case driver.OpGreater:
			f.Value = "3"
			return f, num(func(v float64) bool { return v > 3 }), true
		case driver.OpGreaterEq:
			f.Value = "3"
			return f, num(func(v float64) bool { return v >= 3 }), true
		case driver.OpLess:
			f.Value = "1.5"
			return f, num(func(v float64) bool { return v < 1.5 }), true
		case driver.OpLessEq:
			f.Value = "1.5"
			return f, num(func(v float64) bool { return v <= 1.5 }), true
		case driver.OpBetween:
			f.Value, f.Value2 = "1", "2.5"
			return f, num(func(v float64) bool { return v >= 1 && v <= 2.5 }), true
		case driver.OpIn:
			f.Value = "0.5, 4"
			return f, num(func(v float64) bool { return v == 0.5 || v == 4 }), true
		case driver.OpNotIn:
			f.Value = "0.5, 4"
			return f, num(func(v float64) bool { return v != 0.5 && v != 4 }), true
		case driver.OpIsNull:
			return f, num(func(float64) bool { return false }), true
		case driver.OpIsNotNull:
			return f, num(func(float64) bool { return true }), true
		}
		return f, nil, false
	}
	if col == "at" {
		// at is day i+1, NULL where i%5 == 4.
		day := func(test func(d int) bool) func(int) (bool, bool) {
			return func(i int) (bool, bool) {
				if i%5 == 4 {
					return false, false
				}
				return test(i + 1), true
			}
		}
		switch op {
		case driver.OpEquals:
			f.Value = seedTime(5)
			return f, day(func(d int) bool { return d == 6 }), true
		case driver.OpNotEquals:
			f.Value = seedTime(5)
			return f, day(func(d int) bool { return d != 6 }), true
		case driver.OpGreater:
			f.Value = seedTime(5)
			return f, day(func(d int) bool { return d > 6 }), true
		case driver.OpGreaterEq:
			f.Value = seedTime(5)
			return f, day(func(d int) bool { return d >= 6 }), true
		case driver.OpLess:
			f.Value = seedTime(2)
			return f, day(func(d int) bool { return d < 3 }), true
		case driver.OpLessEq:
			f.Value = seedTime(2)
			return f, day(func(d int) bool { return d <= 3 }), true
		case driver.OpBetween:
			f.Value, f.Value2 = seedTime(1), seedTime(7)
			return f, day(func(d int) bool { return d >= 2 && d <= 8 }), true
		case driver.OpIsNull:
			return f, func(i int) (bool, bool) { return i%5 == 4, true }, true
		case driver.OpIsNotNull:
			return f, func(i int) (bool, bool) { return i%5 != 4, true }, true
		}
		return f, nil, false
	}
	if col == "ref" {
		is := func(test func(i int) bool) func(int) (bool, bool) {
			return func(i int) (bool, bool) { return test(i), true }
		}
		switch op {
		case driver.OpEquals:
			f.Value = seedUUID(3)
			return f, is(func(i int) bool { return i == 3 }), true
		case driver.OpNotEquals:
			f.Value = seedUUID(3)
			return f, is(func(i int) bool { return i != 3 }), true
		case driver.OpIn:
			f.Value = seedUUID(1) + ", " + seedUUID(9)
			return f, is(func(i int) bool { return i == 1 || i == 9 }), true
		case driver.OpNotIn:
			f.Value = seedUUID(1) + ", " + seedUUID(9)
			return f, is(func(i int) bool { return i != 1 && i != 9 }), true
		case driver.OpIsNull:
			return f, is(func(int) bool { return false }), true
		case driver.OpIsNotNull:
			return f, is(func(int) bool { return true }), true
		}
		return f, nil, false
	}
	if col == "tags" {
		return arrayFilter(f)
	}
	if col == "flag" {
		// flag is true on the even rows.
		even := func(want bool) func(int) (bool, bool) {
			return func(i int) (bool, bool) { return (i%2 == 0) == want, true }
		}
		switch op {
		case driver.OpEquals:
			f.Value = "true"
			return f, even(true), true
		case driver.OpNotEquals:
			f.Value = "true"
			return f, even(false), true
		case driver.OpIsNull:
			return f, func(int) (bool, bool) { return false, true }, true
		case driver.OpIsNotNull:
			return f, func(int) (bool, bool) { return true, true }, true
		}
		return f, nil, false
	}
	text := func(test func(w string) bool) func(int) (bool, bool) {
		return func(i int) (bool, bool) { return test(words[i]), true }
	}
	switch op {
	case driver.OpIsEmpty:
		return f, text(func(w string) bool { return w == "" }), true
	case driver.OpIsNotEmpty:
		return f, text(func(w string) bool { return w != "" }), true
	case driver.OpEquals:
		f.Value = "delta"
		return f, text(func(w string) bool { return w == "delta" }), true
	case driver.OpNotEquals:
		f.Value = "delta"
		return f, text(func(w string) bool { return w != "delta" }), true
	case driver.OpContains:
		f.Value = "li"
		return f, text(func(w string) bool { return strings.Contains(w, "li") }), true
	case driver.OpNotContains:
		f.Value = "li"
		return f, text(func(w string) bool { return !strings.Contains(w, "li") }), true
	case driver.OpStartsWith:
		f.Value = "ch"
		return f, text(func(w string) bool { return strings.HasPrefix(w, "ch") }), true
	case driver.OpEndsWith:
		f.Value = "a"
		return f, text(func(w string) bool { return strings.HasSuffix(w, "a") }), true
	case driver.OpIn:
		f.Value = "alpha, kilo"
		return f, text(func(w string) bool { return w == "alpha" || w == "kilo" }), true
	case driver.OpNotIn:
		f.Value = "alpha, kilo"
		return f, text(func(w string) bool { return w != "alpha" && w != "kilo" }), true
	case driver.OpIsNotNull:
		return f, text(func(string) bool { return true }), true
	case driver.OpIsNull:
		return f, text(func(string) bool { return false }), true
	}
	return f, nil, false
}

// arrayFilter is f on tags, whose row i holds its word's first letter and "all". On an array
// the contract reads an operator element by element: a positive operator holds where any
// element meets it, a negative one (not equals, not contains, not in) where none meets its
// positive; is_empty holds for an array without elements, is_null for none at all.
func arrayFilter(f driver.Filter) (driver.Filter, func(i int) (match, known bool), bool) {
	elements := func(i int) []string { return []string{words[i][:1], "all"} }
	anyOf := func(test func(e string) bool) func(int) (bool, bool) {
		return func(i int) (bool, bool) { return slices.ContainsFunc(elements(i), test), true }
	}
	noneOf := func(test func(e string) bool) func(int) (bool, bool) {
		return func(i int) (bool, bool) { return !slices.ContainsFunc(elements(i), test), true }
	}
	switch f.Operator {
	case driver.OpEquals:
		f.Value = "c"
		return f, anyOf(func(e string) bool { return e == "c" }), true
	case driver.OpNotEquals:
		f.Value = "c"
		return f, noneOf(func(e string) bool { return e == "c" }), true
	case driver.OpContains:
		f.Value = "d"
		return f, anyOf(func(e string) bool { return strings.Contains(e, "d") }), true
	case driver.OpNotContains:
		f.Value = "d"
		return f, noneOf(func(e string) bool { return strings.Contains(e, "d") }), true
	case driver.OpStartsWith:
		f.Value = "e"
		return f, anyOf(func(e string) bool { return strings.HasPrefix(e, "e") }), true
	case driver.OpEndsWith:
		f.Value = "f"
		return f, anyOf(func(e string) bool { return strings.HasSuffix(e, "f") }), true
	case driver.OpIn:
		f.Value = "b, g, z"
		return f, anyOf(func(e string) bool { return e == "b" || e == "g" || e == "z" }), true
	case driver.OpNotIn:
		f.Value = "b, g"
		return f, noneOf(func(e string) bool { return e == "b" || e == "g" }), true
	case driver.OpIsNull, driver.OpIsEmpty:
		return f, func(int) (bool, bool) { return false, true }, true
	case driver.OpIsNotNull, driver.OpIsNotEmpty:
		return f, func(int) (bool, bool) { return true, true }, true
	}
	return f, nil, false
}

// negative tells the operators under which a NULL's place is the database's to define.
func negative(op driver.Operator) bool {
	return op == driver.OpNotEquals || op == driver.OpNotIn || op == driver.OpNotContains
}

// checkMatches holds the words a filter returned to the rows its predicate selects; a row the
// predicate cannot judge (a NULL) may be either way under a negative operator.
func checkMatches(t *testing.T, what string, got []string, match func(int) (bool, bool), neg bool) {
	t.Helper()
	for i, w := range words {
		m, known := match(i)
		in := slices.Contains(got, w)
		switch {
		case !known && neg:
		case m != in:
			t.Errorf("%s: %s returned %v, want %v (got %v)", what, w, in, m, got)
		}
	}
	for _, w := range got {
		if !slices.Contains(words, w) {
			t.Errorf("%s: returned a row not seeded: %q", what, w)
		}
	}
}

// column is the cells of the named column as text ("" for NULL).
func column(t *testing.T, g *driver.Grid, name string) []string {
	t.Helper()
	j := -1
	for i, c := range g.Columns {
		if c.Name == name {
			j = i
		}
	}
	if j < 0 {
		t.Fatalf("no column %s in %v", name, g.Columns)
	}
	out := make([]string, 0, len(g.Rows))
	for _, r := range g.Rows {
		switch v := r[j].(type) {
		case nil:
			out = append(out, "")
		case string:
			out = append(out, v)
		case json.Number:
			out = append(out, v.String())
		default:
			out = append(out, fmt.Sprint(v))
		}
	}
	return out
}
