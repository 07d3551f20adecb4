package sqlite_test

import (
	"context"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"app/backend/driver"
	"app/internal/testkit/sqlitecli"
)

// Issue 39, item 3: vectors in a vec0 table and in a float[N] column of a plain table read as
// the file holds them (sqlite3 prints each blob's hex), walk as numbers, and the nearest rows
// come in the order sqlite-vec itself gives: vec0's KNN with its declared metric, an exact
// scan by L2 for the plain column and wherever a filter narrows the search.
func TestVectorsReadAndRankAsSqliteVecDoes(t *testing.T) {
	sqlitecli.Require(t)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	path := filepath.Join(t.TempDir(), "vec.db")
	r := rand.New(rand.NewPCG(39, 8))
	vec := func() string {
		v := make([]string, 8)
		for i := range v {
			v[i] = fmt.Sprint(float32(r.NormFloat64()))
		}
		return "[" + strings.Join(v, ",") + "]"
	}
	var items, docs []string
	for i := 1; i <= 200; i++ {
		items = append(items, fmt.Sprintf("(%d, '%s', 'topic %d')", i, vec(), i%4))
		docs = append(docs, fmt.Sprintf("(%d, 'doc %d', %d, vec_f32('%s'))", i, i, i%3, vec()))
	}
	seed := "CREATE VIRTUAL TABLE items USING vec0(embedding float[8] distance_metric=cosine, +topic text);" +
		"INSERT INTO items(rowid, embedding, topic) VALUES " + strings.Join(items, ", ") + ";" +
		"CREATE TABLE docs (id INTEGER PRIMARY KEY, title TEXT, grp INTEGER, e float[8]);" +
		"INSERT INTO docs VALUES " + strings.Join(docs, ", ")
	if _, err := sqlitecli.Run(ctx, path, seed); err != nil {
		t.Fatal(err)
	}
	near := vec()
	var nearNums []float64
	_ = json.Unmarshal([]byte(near), &nearNums)
	cli := func(sql string) []string {
		out, err := sqlitecli.Run(ctx, path, sql)
		if err != nil {
			t.Fatal(err)
		}
		return strings.Split(out, "\n")
	}
	floatsOfHex := func(h string) []float32 {
		b, _ := hex.DecodeString(h)
		v := make([]float32, len(b)/4)
		for i := range v {
			v[i] = math.Float32frombits(binary.LittleEndian.Uint32(b[4*i:]))
		}
		return v
	}
	for _, boundary := range []bool{false, true} {
		d := open(ctx, t, settings(path), boundary)
		tables, err := d.ListTables(ctx)
		if err != nil {
			t.Fatal(err)
		}
		var names []string
		for _, tb := range tables {
			names = append(names, tb.Name+"/"+tb.Kind)
		}
		if want := []string{"docs/", "items/virtual table (vec0)"}; !slices.Equal(names, want) {
			t.Fatalf("boundary %v: the tree lists %v, want %v (no shadow tables)", boundary, names, want)
		}
		for _, table := range []struct{ name, key, col string }{{"items", "rowid", "embedding"}, {"docs", "id", "e"}} {
			info, err := d.DescribeTable(ctx, table.name)
			if err != nil {
				t.Fatal(err)
			}
			c, ok := info.Column(table.col)
			if !ok || c.Kind != driver.ColumnVector || c.Dimension != 8 || !slices.Equal(info.PrimaryKey, []string{table.key}) {
				t.Fatalf("boundary %v: %s: %+v, key %v", boundary, table.name, c, info.PrimaryKey)
			}
			// Cells: the numbers the file holds.
			g, err := d.Browse(ctx, table.name, driver.Page{Limit: 300}, nil, nil)
			if err != nil {
				t.Fatal(err)
			}
			held := cli("SELECT hex(" + table.col + ") FROM " + table.name + " ORDER BY " + table.key)
			at := slices.IndexFunc(g.Columns, func(c driver.Column) bool { return c.Name == table.col })
			for i, row := range g.Rows {
				var got []float32
				if err := json.Unmarshal([]byte(row[at].(string)), &got); err != nil || !slices.Equal(got, floatsOfHex(held[i])) {
					t.Fatalf("boundary %v: %s row %d: %v, the file holds %v", boundary, table.name, i+1, row[at], floatsOfHex(held[i]))
				}
			}
			// The walk: the same numbers, every row once.
			sc := d.(driver.Scanner)
			var walked [][]float32
			for after := ""; ; {
				p, err := sc.Scan(ctx, table.name, driver.ScanRequest{After: after, Limit: 64, Vectors: true})
				if err != nil {
					t.Fatal(err)
				}
				for _, vs := range p.Vectors {
					walked = append(walked, vs[0])
				}
				if after = p.Next; after == "" {
					break
				}
			}
			if len(walked) != 200 {
				t.Fatalf("boundary %v: the walk of %s read %d rows", boundary, table.name, len(walked))
			}
			for i := range walked {
				if !slices.Equal(walked[i], floatsOfHex(held[i])) {
					t.Fatalf("boundary %v: %s walk row %d: %v", boundary, table.name, i+1, walked[i])
				}
			}
		}
		ids := func(g *driver.Grid) string {
			var out []string
			for _, row := range g.Rows {
				out = append(out, fmt.Sprint(row[0]))
			}
			return strings.Join(out, ",")
		}
		// vec0's KNN, cosine as declared.
		g, err := d.Search(ctx, "items", driver.SearchRequest{Vector: nearNums}, 10)
		if err != nil {
			t.Fatal(err)
		}
		if want := strings.Join(cli("SELECT rowid FROM items WHERE embedding MATCH '"+near+"' AND k = 10 ORDER BY distance"), ","); ids(g) != want {
			t.Fatalf("boundary %v: items KNN %s, sqlite-vec orders %s", boundary, ids(g), want)
		}
		// A filter narrows it: an exact scan by the column's metric.
		g, err = d.Search(ctx, "items", driver.SearchRequest{Vector: nearNums, Filters: []driver.Filter{{Column: "topic", Operator: driver.OpEquals, Value: "topic 1"}}}, 10)
		if err != nil {
			t.Fatal(err)
		}
		if want := strings.Join(cli("SELECT rowid FROM items WHERE topic = 'topic 1' ORDER BY vec_distance_cosine(embedding, '"+near+"') LIMIT 10"), ","); ids(g) != want || g.Notice == "" {
			t.Fatalf("boundary %v: filtered items %s (notice %q), sqlite-vec orders %s", boundary, ids(g), g.Notice, want)
		}
		// A plain table's column: exact L2, filtered, and near a row of its own.
		g, err = d.Search(ctx, "docs", driver.SearchRequest{Vector: nearNums, Filters: []driver.Filter{{Column: "grp", Operator: driver.OpEquals, Value: "2"}}}, 5)
		if err != nil {
			t.Fatal(err)
		}
		if want := strings.Join(cli("SELECT id FROM docs WHERE grp = 2 ORDER BY vec_distance_l2(e, '"+near+"') LIMIT 5"), ","); ids(g) != want {
			t.Fatalf("boundary %v: docs %s, sqlite-vec orders %s", boundary, ids(g), want)
		}
		g, err = d.Search(ctx, "docs", driver.SearchRequest{SimilarTo: driver.Key{"id": "7"}}, 5)
		if err != nil {
			t.Fatal(err)
		}
		if want := strings.Join(cli("SELECT id FROM docs ORDER BY vec_distance_l2(e, (SELECT e FROM docs WHERE id = 7)) LIMIT 5"), ","); ids(g) != want || !strings.HasPrefix(ids(g), "7,") {
			t.Fatalf("boundary %v: near row 7 %s, sqlite-vec orders %s", boundary, ids(g), want)
		}
	}
}

// Issue 39, item 4: the editor completes the file's own tables and columns, and the functions
// this SQLite has (sqlite-vec's among them), never load_extension.
func TestTheEditorCompletesTheFilesOwnWords(t *testing.T) {
	sqlitecli.Require(t)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	path := filepath.Join(t.TempDir(), "words.db")
	if _, err := sqlitecli.Run(ctx, path, "CREATE TABLE docs (id INTEGER PRIMARY KEY, title TEXT); CREATE VIRTUAL TABLE items USING vec0(embedding float[4])"); err != nil {
		t.Fatal(err)
	}
	for _, boundary := range []bool{false, true} {
		d := open(ctx, t, settings(path), boundary)
		c, ok := d.(driver.Completer)
		if !ok || !driver.Offered(d).Completions {
			t.Fatal("the driver names no words")
		}
		w, err := c.Completions(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(w.Tables["docs"], []string{"id", "title"}) || !slices.Equal(w.Tables["items"], []string{"rowid", "embedding"}) || len(w.Tables) != 2 {
			t.Fatalf("boundary %v: tables %v", boundary, w.Tables)
		}
		for _, f := range []string{"vec_distance_l2", "vec_to_json", "json_extract", "lower", "regexp_like"} {
			if !slices.Contains(w.Functions, f) {
				t.Errorf("boundary %v: no %s among %d functions", boundary, f, len(w.Functions))
			}
		}
		if slices.Contains(w.Functions, "load_extension") {
			t.Errorf("boundary %v: load_extension offered", boundary)
		}
	}
}

// Across the plugin protocol a page's whole vectors travel as their numbers (the driver
// declares Capabilities.VectorNumbers) and arrive as the same text the driver prints in the
// process.
func TestAPageOfVectorsReadsTheSameInTheProcessAndAcrossThePlugin(t *testing.T) {
	sqlitecli.Require(t)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	path := filepath.Join(t.TempDir(), "same.db")
	if _, err := sqlitecli.Run(ctx, path, "CREATE TABLE d (id INTEGER PRIMARY KEY, e float[3]); INSERT INTO d VALUES (1, vec_f32('[0.1,-2.5,16777217]')), (2, NULL), (3, '[1,2,3]')"); err != nil {
		t.Fatal(err)
	}
	in := open(ctx, t, settings(path), false)
	across := open(ctx, t, settings(path), true)
	if !driver.Offered(in).VectorNumbers || !driver.Offered(across).VectorNumbers {
		t.Fatal("the driver does not declare that it carries vectors as numbers")
	}
	a, err := in.Browse(ctx, "d", driver.Page{}, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	b, err := across.Browse(ctx, "d", driver.Page{}, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(a.Rows) != fmt.Sprint(b.Rows) || fmt.Sprint(a.Rows[0][1]) != "[0.1,-2.5,1.6777216e+07]" {
		t.Fatalf("in the process %v, across the plugin %v", a.Rows, b.Rows)
	}
}
