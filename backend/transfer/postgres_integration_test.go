package transfer_test

// Issue 38, items 3 and 10: a PostgreSQL table's numbers go out to every format and come back
// in with every digit, held to what psql prints, on a real PostgreSQL server, in the process
// and across the plugin protocol (the app runs the driver as a plugin).

import (
	"context"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"math/big"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/parquet-go/parquet-go"

	"app/backend/driver"
	"app/backend/transfer"
	"app/internal/testkit/pgnode"
	"app/internal/testkit/pgtest"
)

// digitsTable holds numbers a float64 rounds: numeric(40,10) at its 30 digits before the
// point, unconstrained numeric past them and with NaN and -Infinity, int8 at 2^53+1 and its
// minimum, and a double (its NaN and infinities too).
const digitsTable = `(id int8 PRIMARY KEY, fixed numeric(40,10), free numeric, big int8, ratio double precision)`

const digitsRows = `INSERT INTO %s VALUES
  (1, 123456789012345678901234567890.123456789, 98765432109876543210.98765432109876543210123456789, 9007199254740993, 0.1),
  (2, -0.0000000001, 'NaN', -9223372036854775808, 1e300),
  (3, 0, '-Infinity', 9223372036854775807, 'Infinity'),
  (4, NULL, 1e-40, NULL, 'NaN'),
  (5, NULL, NULL, NULL, NULL)`

// digitsColumns are the table's columns in the file's order.
var digitsColumns = []string{"id", "fixed", "free", "big", "ratio"}

// startPostgres starts a PostgreSQL server for this test, stopped when it ends.
func startPostgres(t *testing.T) *pgnode.Node {
	t.Helper()
	if testing.Short() {
		t.Skip("starts a PostgreSQL server: left to make test")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	n, err := pgnode.Start(ctx)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(n.Stop)
	return n
}

// openPostgres opens the PostgreSQL driver on n, in the process or across the plugin protocol.
func openPostgres(t *testing.T, n *pgnode.Node, boundary bool) driver.Driver {
	return pgtest.Open(t, n, boundary)
}

// psqlRows are table's rows as psql prints them, by id: each column's text, nil for NULL.
func psqlRows(t *testing.T, n *pgnode.Node, table string) map[string][]*string {
	t.Helper()
	cols := make([]string, len(digitsColumns))
	for i, c := range digitsColumns {
		cols[i] = fmt.Sprintf("coalesce(%s::text, '<null>')", c)
	}
	out, err := n.Psql(context.Background(), "", "SELECT "+strings.Join(cols, ", ")+" FROM "+table+" ORDER BY id")
	if err != nil {
		t.Fatal(err)
	}
	rows := map[string][]*string{}
	for line := range strings.SplitSeq(out, "\n") {
		var row []*string
		for f := range strings.SplitSeq(line, "|") {
			if f == "<null>" {
				row = append(row, nil)
			} else {
				row = append(row, &f)
			}
		}
		rows[*row[0]] = row
	}
	return rows
}

// fileRows reads an exported file back as each column's text by id, nil for a null, with the
// parquet library and the standard library only: CSV's fields, JSON Lines' numbers by their
// literal text (a string where JSON has no number), Parquet's integers and doubles formatted
// as psql formats them, its DECIMALs as their digits.
func fileRows(t *testing.T, path string) map[string][]*string {
	t.Helper()
	rows := map[string][]*string{}
	add := func(vals []*string) { rows[*vals[0]] = vals }
	switch transfer.FormatOf(path) {
	case transfer.CSV:
		f, err := os.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		recs, err := csv.NewReader(f).ReadAll()
		if err != nil {
			t.Fatal(err)
		}
		if strings.Join(recs[0], ",") != strings.Join(digitsColumns, ",") {
			t.Fatalf("CSV header %v", recs[0])
		}
		for _, r := range recs[1:] {
			vals := make([]*string, len(r))
			for i := range r {
				if r[i] != "" {
					vals[i] = &r[i]
				}
			}
			add(vals)
		}
	case transfer.JSONL:
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		for line := range strings.SplitSeq(strings.TrimSuffix(string(b), "\n"), "\n") {
			var m map[string]json.RawMessage
			if err := json.Unmarshal([]byte(line), &m); err != nil {
				t.Fatalf("%s: %v", line, err)
			}
			vals := make([]*string, len(digitsColumns))
			for i, c := range digitsColumns {
				raw := string(m[c])
				var s string
				switch {
				case raw == "null":
					continue
				case json.Unmarshal(m[c], &s) == nil: // NaN, an infinity
				default:
					s = raw
				}
				vals[i] = &s
			}
			add(vals)
		}
	case transfer.Parquet:
		pf := transfer.OpenParquet(t, path)
		types := transfer.ParquetTypes(pf)
		want := map[string]string{"id": "INT(64,true)", "fixed": "DECIMAL(40,10)", "free": "STRING", "big": "INT(64,true)", "ratio": "DOUBLE"}
		for c, w := range want {
			if types[c] != w {
				t.Errorf("Parquet column %s is %s, want %s", c, types[c], w)
			}
		}
		r := parquet.NewReader(pf)
		defer r.Close()
		for {
			m := map[string]any{}
			if err := r.Read(&m); err != nil {
				break
			}
			vals := make([]*string, len(digitsColumns))
			for i, c := range digitsColumns {
				var s string
				switch x := m[c].(type) {
				case nil:
					continue
				case int64:
					s = strconv.FormatInt(x, 10)
				case string:
					s = x
				case *big.Float: // the library's DECIMAL, with bits to spare for its 40 digits
					s = x.Text('f', 10)
				case float64:
					s = pgFloat(x)
				default:
					t.Fatalf("column %s: a %T", c, x)
				}
				vals[i] = &s
			}
			add(vals)
		}
	}
	return rows
}

// pgFloat is a double as PostgreSQL prints it (shortest exact digits, its own exponent form
// and names).
func pgFloat(f float64) string {
	switch s := strconv.FormatFloat(f, 'g', -1, 64); s {
	case "NaN":
		return "NaN"
	case "+Inf":
		return "Infinity"
	case "-Inf":
		return "-Infinity"
	default:
		return s
	}
}

func sameRows(t *testing.T, what string, got, want map[string][]*string) {
	t.Helper()
	text := func(r []*string) string {
		parts := make([]string, len(r))
		for i, p := range r {
			parts[i] = "NULL"
			if p != nil {
				parts[i] = *p
			}
		}
		return strings.Join(parts, " | ")
	}
	if len(got) != len(want) {
		t.Errorf("%s: %d rows, psql prints %d", what, len(got), len(want))
	}
	for id, w := range want {
		if g := text(got[id]); g != text(w) {
			t.Errorf("%s, row %s:\n  got  %s\n  psql %s", what, id, g, text(w))
		}
	}
}

// Every number of a PostgreSQL table is exported with every digit: numeric(40,10) as a Parquet
// DECIMAL(40,10), unconstrained numeric as its text (NaN and the infinities too), int8 as
// INT64, a double as DOUBLE; CSV and JSON Lines write each number's digits as psql prints
// them (JSON Lines a string where JSON has no number).
func TestExportKeepsEveryDigitOfNumeric(t *testing.T) {
	n := startPostgres(t)
	ctx := context.Background()
	if _, err := n.Psql(ctx, "", "CREATE TABLE public.digits "+digitsTable+"; "+fmt.Sprintf(digitsRows, "public.digits")); err != nil {
		t.Fatal(err)
	}
	want := psqlRows(t, n, "public.digits")
	for _, boundary := range []bool{false, true} {
		where := "in process"
		if boundary {
			where = "across the plugin protocol"
		}
		d := openPostgres(t, n, boundary)
		for _, f := range transfer.Formats() {
			t.Run(where+"/"+string(f), func(t *testing.T) {
				path := filepath.Join(t.TempDir(), "digits."+string(f))
				if _, err := transfer.Export(ctx, d, transfer.ExportRequest{Table: "public.digits", Path: path}, nil); err != nil {
					t.Fatal(err)
				}
				sameRows(t, string(f), fileRows(t, path), want)
			})
		}
	}
}

// A file's numbers are imported into a numeric column with every digit: each export of the
// table imports into a copy that psql prints as it prints the table.
func TestImportKeepsEveryDigitOfNumeric(t *testing.T) {
	n := startPostgres(t)
	ctx := context.Background()
	if _, err := n.Psql(ctx, "", "CREATE TABLE public.digits "+digitsTable+"; "+fmt.Sprintf(digitsRows, "public.digits")); err != nil {
		t.Fatal(err)
	}
	want := psqlRows(t, n, "public.digits")
	d := openPostgres(t, n, true)
	for _, f := range transfer.Formats() {
		t.Run(string(f), func(t *testing.T) {
			table := "public.digits_" + string(f)
			if _, err := n.Psql(ctx, "", "CREATE TABLE "+table+" "+digitsTable); err != nil {
				t.Fatal(err)
			}
			path := filepath.Join(t.TempDir(), "digits."+string(f))
			if _, err := transfer.Export(ctx, d, transfer.ExportRequest{Table: "public.digits", Path: path}, nil); err != nil {
				t.Fatal(err)
			}
			sum, err := transfer.Import(ctx, d, transfer.ImportRequest{Table: table, Path: path}, nil)
			if err != nil || sum.Written != int64(len(want)) {
				t.Fatalf("import: %+v, %v", sum, err)
			}
			sameRows(t, "imported from "+string(f), psqlRows(t, n, table), want)
		})
	}
}

// Issue 38, item 10: a view and a table without a key export every row once (the driver walks
// them by a server-side cursor), duplicates as often as they are there, past several of the
// export's pages, held to what psql reads.
func TestExportOfAViewHoldsEveryRowOnce(t *testing.T) {
	n := startPostgres(t)
	ctx := context.Background()
	if _, err := n.Psql(ctx, "", `CREATE TABLE public.people (id int PRIMARY KEY, grp int, name text);
INSERT INTO public.people SELECT i, i % 4, 'p' || (i % 17) FROM generate_series(1, 4500) i;
CREATE VIEW public.some_people AS SELECT grp, name FROM public.people WHERE grp <> 3;
CREATE TABLE public.visits AS SELECT i % 50 AS n, CASE WHEN i % 9 = 0 THEN NULL ELSE 'v' || (i % 4) END AS word FROM generate_series(1, 3200) i`); err != nil {
		t.Fatal(err)
	}
	for _, rel := range []struct {
		name string
		cols []string
	}{{"public.some_people", []string{"grp", "name"}}, {"public.visits", []string{"n", "word"}}} {
		texts := make([]string, len(rel.cols))
		for i, c := range rel.cols {
			texts[i] = "coalesce(" + c + "::text, '')" // CSV writes a null as an empty field
		}
		out, err := n.Psql(ctx, "", "SELECT "+strings.Join(texts, " || ',' || ")+" FROM "+rel.name)
		if err != nil {
			t.Fatal(err)
		}
		want := slices.Sorted(strings.SplitSeq(out, "\n"))
		for _, boundary := range []bool{false, true} {
			where := "in process"
			if boundary {
				where = "across the plugin protocol"
			}
			d := openPostgres(t, n, boundary)
			t.Run(where+"/"+rel.name, func(t *testing.T) {
				path := filepath.Join(t.TempDir(), "rows.csv")
				sum, err := transfer.Export(ctx, d, transfer.ExportRequest{Table: rel.name, Path: path}, nil)
				if err != nil {
					t.Fatal(err)
				}
				f, err := os.Open(path)
				if err != nil {
					t.Fatal(err)
				}
				defer f.Close()
				recs, err := csv.NewReader(f).ReadAll()
				if err != nil {
					t.Fatal(err)
				}
				if !slices.Equal(recs[0], rel.cols) {
					t.Fatalf("header %v", recs[0])
				}
				var got []string
				for _, r := range recs[1:] {
					got = append(got, strings.Join(r, ","))
				}
				slices.Sort(got)
				if sum.Rows != int64(len(want)) || !slices.Equal(got, want) {
					t.Fatalf("%d rows exported (%d in the file), psql reads %d, or they differ", sum.Rows, len(got), len(want))
				}
			})
		}
	}
}

// kindsTable holds a column of every common PostgreSQL type, arrays with NULL items among
// them, and kindsRows a row of values and a row of NULLs and empty arrays.
const kindsTable = `(id int PRIMARY KEY, ints int[], texts text[], nums numeric(6,2)[], floats float8[],
  bools bool[], days date[], m money, iv interval, ts timestamptz, plain timestamp, d date, tm time,
  b bytea, j jsonb, u uuid, e mood, pt point, addr inet)`

const kindsRows = `INSERT INTO %s VALUES
  (1, '{1,NULL,3}', '{a,NULL,"b c",""}', '{1.50,NULL,-2}', '{1e300,NULL,NaN}', '{t,NULL,f}', '{2026-12-07,NULL,1970-01-01}',
   12.34, '1 day 02:03:04.5', '2026-01-02 03:04:05.123456+02', '1999-12-31 23:59:59', '1969-07-20', '10:11:12',
   '\xdeadbeef', '{"a": [1, null]}', 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11', 'ok', '(1,2)', '10.0.0.1/8'),
  (2, '{}', '{}', '{}', '{}', '{}', '{}', NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL)`

// Issue 38, items 3 and 10: a table of every common type, arrays with NULL items among them,
// goes out to each format and back into a copy of the table, across the plugin protocol, and
// psql finds the copy holding exactly the table's rows (a calendar date a Parquet DATE, a
// timestamp without a zone its wall clock, money as the server prints it).
func TestEveryCommonTypeGoesOutAndBackInExactly(t *testing.T) {
	n := startPostgres(t)
	ctx := context.Background()
	if _, err := n.Psql(ctx, "", "CREATE TYPE mood AS ENUM ('sad', 'ok'); CREATE TABLE public.kinds "+kindsTable+"; "+fmt.Sprintf(kindsRows, "public.kinds")); err != nil {
		t.Fatal(err)
	}
	d := openPostgres(t, n, true)
	for _, f := range transfer.Formats() {
		t.Run(string(f), func(t *testing.T) {
			table := "public.kinds_" + string(f)
			if _, err := n.Psql(ctx, "", "CREATE TABLE "+table+" "+kindsTable); err != nil {
				t.Fatal(err)
			}
			path := filepath.Join(t.TempDir(), "kinds."+string(f))
			if _, err := transfer.Export(ctx, d, transfer.ExportRequest{Table: "public.kinds", Path: path}, nil); err != nil {
				t.Fatal(err)
			}
			if f == transfer.Parquet {
				if types := transfer.ParquetTypes(transfer.OpenParquet(t, path)); types["d"] != "DATE" || types["days"] != "LIST" {
					t.Errorf("Parquet types: d %s, days %s", types["d"], types["days"])
				}
			}
			sum, err := transfer.Import(ctx, d, transfer.ImportRequest{Table: table, Path: path}, nil)
			if err != nil || sum.Written != 2 {
				t.Fatalf("import: %+v, %v", sum, err)
			}
			// Compared as psql prints them (text: point has no equality).
			diff, err := n.Psql(ctx, "", "SELECT k::text FROM public.kinds k EXCEPT SELECT c::text FROM "+table+" c")
			if err != nil {
				t.Fatal(err)
			}
			back, err := n.Psql(ctx, "", "SELECT c::text FROM "+table+" c EXCEPT SELECT k::text FROM public.kinds k")
			if err != nil {
				t.Fatal(err)
			}
			if diff != "" || back != "" {
				t.Fatalf("after %s, the table's rows not in the copy:\n%s\nand the copy's not in the table:\n%s", f, diff, back)
			}
		})
	}
}

// Issue 38, item 10: a query's result exports as a table does: a numeric of declared digits is a
// Parquet DECIMAL with every digit, a timestamptz in PostgreSQL's own text (an editor result's
// cells are the server's text) the same instant, a timestamp its wall clock, a date a DATE,
// an array with a NULL item its items; held to what psql prints for the same query.
func TestAQueryResultExportsEveryDigitAndInstant(t *testing.T) {
	n := startPostgres(t)
	ctx := context.Background()
	const query = `SELECT 123456789012345678901234567890.123456789::numeric(40,10) AS fixed,
  '2026-01-02 03:04:05.5+02'::timestamptz AS ts, '2026-01-02 03:04:05+05:30'::timestamptz AS half,
  '1999-12-31 23:59:59'::timestamp AS plain, '2026-12-07'::date AS d`
	want, err := n.Psql(ctx, "", "SET TimeZone = 'UTC'; SELECT fixed::text, to_char(ts, 'YYYY-MM-DD\"T\"HH24:MI:SS.MS\"Z\"'), to_char(half, 'YYYY-MM-DD\"T\"HH24:MI:SS\"Z\"'), plain::text, d::text FROM ("+query+") q")
	if err != nil {
		t.Fatal(err)
	}
	d := openPostgres(t, n, true)
	r, err := d.Execute(ctx, query, driver.ExecOptions{})
	if err != nil || r.Grid == nil {
		t.Fatalf("%+v, %v", r, err)
	}
	path := filepath.Join(t.TempDir(), "result.parquet")
	if _, err := transfer.ExportGrid(ctx, r.Grid, transfer.Parquet, path); err != nil {
		t.Fatal(err)
	}
	pf := transfer.OpenParquet(t, path)
	if types := transfer.ParquetTypes(pf); types["fixed"] != "DECIMAL(40,10)" || types["d"] != "DATE" {
		t.Errorf("Parquet types: fixed %s, d %s", types["fixed"], types["d"])
	}
	rows := parquet.NewReader(pf)
	defer rows.Close()
	m := map[string]any{}
	if err := rows.Read(&m); err != nil {
		t.Fatal(err)
	}
	fixed, ok := m["fixed"].(*big.Float)
	if !ok {
		t.Fatalf("fixed reads as a %T", m["fixed"])
	}
	stamp := func(v any) time.Time {
		us, _ := v.(int64)
		return time.UnixMicro(us).UTC()
	}
	got := strings.Join([]string{fixed.Text('f', 10), stamp(m["ts"]).Format("2006-01-02T15:04:05.000Z"), stamp(m["half"]).Format("2006-01-02T15:04:05Z"),
		stamp(m["plain"]).Format(time.DateTime), time.Unix(int64(m["d"].(int32))*86400, 0).UTC().Format(time.DateOnly)}, "|")
	if got != want {
		t.Fatalf("the result's file reads\n  %s\npsql prints\n  %s", got, want)
	}
}

// Issue 38, item 10: an import that creates its table makes a column of numbers with more
// digits than a double keeps (or a Parquet DECIMAL) exact, PostgreSQL's numeric, so the
// digits land as they were: each export of the digits table imports into a new table whose
// numbers psql prints as it prints the table's.
func TestImportWithCreateKeepsEveryDigit(t *testing.T) {
	n := startPostgres(t)
	ctx := context.Background()
	if _, err := n.Psql(ctx, "", "CREATE TABLE public.digits "+digitsTable+"; "+fmt.Sprintf(digitsRows, "public.digits")); err != nil {
		t.Fatal(err)
	}
	want, err := n.Psql(ctx, "", "SELECT fixed::numeric::text, free::text FROM public.digits ORDER BY id")
	if err != nil {
		t.Fatal(err)
	}
	d := openPostgres(t, n, true)
	for _, f := range transfer.Formats() {
		t.Run(string(f), func(t *testing.T) {
			table := "public.made_" + string(f)
			path := filepath.Join(t.TempDir(), "digits."+string(f))
			if _, err := transfer.Export(ctx, d, transfer.ExportRequest{Table: "public.digits", Path: path}, nil); err != nil {
				t.Fatal(err)
			}
			sum, err := transfer.Import(ctx, d, transfer.ImportRequest{Table: table, Path: path, Create: true}, nil)
			if err != nil || sum.Written != 5 {
				t.Fatalf("import: %+v, %v", sum, err)
			}
			types, err := n.Psql(ctx, "", "SELECT format_type(atttypid, atttypmod) FROM pg_attribute WHERE attrelid = '"+table+"'::regclass AND attname IN ('fixed', 'free') ORDER BY attname")
			if err != nil {
				t.Fatal(err)
			}
			// Parquet holds a numeric of no declared digits as its text (STRING): a text column.
			wantTypes := "numeric\nnumeric"
			if f == transfer.Parquet {
				wantTypes = "numeric\ntext"
			}
			if types != wantTypes {
				t.Errorf("the made columns are %q, want %q", types, wantTypes)
			}
			got, err := n.Psql(ctx, "", "SELECT fixed::text, free::text FROM "+table+" ORDER BY id")
			if err != nil {
				t.Fatal(err)
			}
			if got != want {
				t.Fatalf("the made table holds\n%s\npsql prints the table's\n%s", got, want)
			}
		})
	}
}

// An import that creates its table makes a calendar date a date: a CSV's YYYY-MM-DD text and
// a Parquet DATE (as an export of a date column writes it); psql reads the dates back.
func TestImportWithCreateMakesADateADate(t *testing.T) {
	n := startPostgres(t)
	ctx := context.Background()
	if _, err := n.Psql(ctx, "", "CREATE TABLE public.days (id int PRIMARY KEY, d date); INSERT INTO public.days VALUES (1, '2026-12-07'), (2, '1969-07-20'), (3, NULL)"); err != nil {
		t.Fatal(err)
	}
	d := openPostgres(t, n, true)
	for _, f := range []transfer.Format{transfer.CSV, transfer.Parquet} {
		t.Run(string(f), func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "days."+string(f))
			if _, err := transfer.Export(ctx, d, transfer.ExportRequest{Table: "public.days", Path: path}, nil); err != nil {
				t.Fatal(err)
			}
			table := "public.days_" + string(f)
			if sum, err := transfer.Import(ctx, d, transfer.ImportRequest{Table: table, Path: path, Create: true}, nil); err != nil || sum.Written != 3 {
				t.Fatalf("import: %+v, %v", sum, err)
			}
			got, err := n.Psql(ctx, "", "SELECT format_type(atttypid, atttypmod) FROM pg_attribute WHERE attrelid = '"+table+"'::regclass AND attname = 'd'; SELECT string_agg(coalesce(d::text, 'NULL'), ',' ORDER BY d NULLS LAST) FROM "+table)
			if err != nil {
				t.Fatal(err)
			}
			if got != "date\n1969-07-20,2026-12-07,NULL" {
				t.Fatalf("psql reads %q", got)
			}
		})
	}
}
