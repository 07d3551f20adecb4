package postgres_test

// Issue 38, item 10: a relation without a key (a view, a materialized view, a table or a
// partitioned table without a primary key) is read whole through a server-side cursor, every
// row once; the walk gives back what it holds when it ends, is given up or the driver closes;
// and with a pool of one (PGlite) a walk holds no connection between its steps.

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"app/backend/driver"
	"app/backend/driver/postgres"
	"app/internal/testkit/pgnode"
	"app/internal/testkit/pgtest"
)

// keyless are relations without a key, made with psql on n, dropped when the test ends.
type keyless struct {
	table, view, matview, parted, keyed string
}

func makeKeyless(ctx context.Context, t *testing.T, h *harness) keyless {
	t.Helper()
	k := keyless{table: h.Table("heap"), view: h.Table("view"), matview: h.Table("matview"), parted: h.Table("parted"), keyed: h.Table("keyed")}
	sql := fmt.Sprintf(`
CREATE TABLE %[1]s (n int, word text);
INSERT INTO %[1]s SELECT i %% 300, CASE WHEN i %% 97 = 0 THEN NULL ELSE 'w' || (i %% 7) END FROM generate_series(1, 2500) i;
CREATE TABLE %[2]s (id int PRIMARY KEY, grp int, word text);
INSERT INTO %[2]s SELECT i, i %% 5, 'b' || (i %% 13) FROM generate_series(1, 1200) i;
CREATE VIEW %[3]s AS SELECT grp, word, id FROM %[2]s WHERE grp <> 2;
CREATE MATERIALIZED VIEW %[4]s AS SELECT n, word FROM %[1]s WHERE n < 200;
CREATE TABLE %[5]s (n int, word text) PARTITION BY RANGE (n);
CREATE TABLE %[5]s_low PARTITION OF %[5]s FOR VALUES FROM (MINVALUE) TO (150);
CREATE TABLE %[5]s_high PARTITION OF %[5]s FOR VALUES FROM (150) TO (MAXVALUE);
INSERT INTO %[5]s SELECT n, word FROM %[1]s;`, k.table, k.keyed, k.view, k.matview, k.parted)
	if _, err := h.node.Psql(ctx, "", sql); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if _, err := h.node.Psql(context.Background(), "", fmt.Sprintf("DROP VIEW %s; DROP MATERIALIZED VIEW %s; DROP TABLE %s, %s, %s",
			k.view, k.matview, k.table, k.keyed, k.parted)); err != nil {
			t.Log(err)
		}
	})
	return k
}

// walkAll reads rel from after ("" for the start) to its end, limit rows a step, each row's
// cells as text joined by "|" (NULL for a null), and says how many steps it took.
func walkAll(ctx context.Context, t *testing.T, sc driver.Scanner, rel, after string, filters []driver.Filter, limit int) ([]string, int) {
	t.Helper()
	var rows []string
	for steps := 1; ; steps++ {
		p, err := sc.Scan(ctx, rel, driver.ScanRequest{After: after, Limit: limit, Filters: filters})
		if err != nil {
			t.Fatalf("%s, step %d: %v", rel, steps, err)
		}
		if len(p.Rows) > limit {
			t.Fatalf("%s, step %d: %d rows, asked for %d", rel, steps, len(p.Rows), limit)
		}
		for _, r := range p.Rows {
			rows = append(rows, rowText(r))
		}
		if p.Next == "" {
			return rows, steps
		}
		after = p.Next
	}
}

func rowText(r []any) string {
	parts := make([]string, len(r))
	for i, c := range r {
		parts[i] = "NULL"
		if c != nil {
			parts[i] = fmt.Sprint(c)
		}
	}
	return strings.Join(parts, "|")
}

// psqlRows are the rows psql reads of cols from rel where where holds, as walkAll gives them.
func psqlRows(ctx context.Context, t *testing.T, n *pgnode.Node, rel string, cols []string, where string) []string {
	t.Helper()
	parts := make([]string, len(cols))
	for i, c := range cols {
		parts[i] = "coalesce(" + c + "::text, 'NULL')"
	}
	if where != "" {
		where = " WHERE " + where
	}
	out, err := n.Psql(ctx, "", "SELECT "+strings.Join(parts, " || '|' || ")+" FROM "+rel+where)
	if err != nil {
		t.Fatal(err)
	}
	if out == "" {
		return nil
	}
	return strings.Split(out, "\n")
}

// sameRows compares two multisets of rows.
func sameRows(t *testing.T, what string, got, want []string) {
	t.Helper()
	got, want = slices.Sorted(slices.Values(got)), slices.Sorted(slices.Values(want))
	if slices.Equal(got, want) {
		return
	}
	count := func(rows []string) map[string]int {
		m := map[string]int{}
		for _, r := range rows {
			m[r]++
		}
		return m
	}
	g, w := count(got), count(want)
	var diff []string
	for r, c := range w {
		if g[r] != c {
			diff = append(diff, fmt.Sprintf("%q: walked %d, psql %d", r, g[r], c))
		}
	}
	for r, c := range g {
		if _, ok := w[r]; !ok {
			diff = append(diff, fmt.Sprintf("%q: walked %d, psql 0", r, c))
		}
	}
	slices.Sort(diff)
	t.Fatalf("%s: %d rows walked, psql reads %d; first differences:\n%s", what, len(got), len(want), strings.Join(diff[:min(len(diff), 10)], "\n"))
}

// Every row of a view, a materialized view, a table and a partitioned table without a key is
// read once, duplicates as many times as they are there, filtered or not, page by page (past
// one page, a step of 100 rows), held to what psql reads; in the process and across the plugin
// protocol (whose read-ahead reads a step before it is asked for), on PostgreSQL 15 and on
// PGlite's pool of one. A table with a key is still walked by its key.
func TestAViewAndAKeylessTableExportEveryRowOnce(t *testing.T) {
	for _, server := range []struct {
		name string
		node func(*testing.T) *pgnode.Node
	}{{"PostgreSQL 15", sharedNode}, {"PGlite", sharedPGlite}} {
		t.Run(server.name, func(t *testing.T) {
			n := server.node(t)
			ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
			defer cancel()
			k := makeKeyless(ctx, t, &harness{node: n})
			cases := []struct {
				name, rel string
				cols      []string
				filters   []driver.Filter
				where     string
			}{
				{"a table without a key, rows repeated", k.table, []string{"n", "word"}, nil, ""},
				{"a view over a keyed table, with a WHERE", k.view, []string{"grp", "word", "id"}, nil, ""},
				{"a materialized view", k.matview, []string{"n", "word"}, nil, ""},
				{"a partitioned table without a key, two partitions", k.parted, []string{"n", "word"}, nil, ""},
				{"a table without a key, filtered", k.table, []string{"n", "word"},
					[]driver.Filter{{Column: "n", Operator: driver.OpGreaterEq, Value: "100"}, {Column: "word", Operator: driver.OpIn, Value: "w3,w5"}},
					"n >= 100 AND word IN ('w3', 'w5')"},
				{"a view, filtered", k.view, []string{"grp", "word", "id"},
					[]driver.Filter{{Column: "grp", Operator: driver.OpEquals, Value: "1"}}, "grp = 1"},
				{"a partitioned table, filtered across its partitions", k.parted, []string{"n", "word"},
					[]driver.Filter{{Column: "n", Operator: driver.OpBetween, Value: "120", Value2: "180"}, {Column: "word", Operator: driver.OpIsNotNull}},
					"n BETWEEN 120 AND 180 AND word IS NOT NULL"},
			}
			for _, boundary := range []bool{false, true} {
				where := "in process"
				if boundary {
					where = "across the plugin protocol"
				}
				h := &harness{node: n, boundary: boundary}
				d := h.Open(ctx, t)
				sc := d.(driver.Scanner)
				for _, c := range cases {
					t.Run(where+"/"+c.name, func(t *testing.T) {
						want := psqlRows(ctx, t, n, c.rel, c.cols, c.where)
						got, steps := walkAll(ctx, t, sc, c.rel, "", c.filters, 100)
						if steps < 2 {
							t.Fatalf("%d rows in %d step: the walk must go past one page", len(got), steps)
						}
						sameRows(t, c.rel, got, want)
					})
				}
				t.Run(where+"/a keyed table is still walked by its key", func(t *testing.T) {
					p, err := sc.Scan(ctx, k.keyed, driver.ScanRequest{Limit: 100})
					if err != nil || !strings.HasPrefix(p.Next, "[") {
						t.Fatalf("next %q, %v: want the last key read", p.Next, err)
					}
				})
				d.Close()
			}
			t.Run("rows moved in the middle of a walk are read once, as they were when it began", func(t *testing.T) {
				d := (&harness{node: n}).Open(ctx, t)
				defer d.Close()
				sc := d.(driver.Scanner)
				want := psqlRows(ctx, t, n, k.parted, []string{"n", "word"}, "")
				first, err := sc.Scan(ctx, k.parted, driver.ScanRequest{Limit: 100})
				if err != nil || first.Next == "" {
					t.Fatalf("%v: want a first page of many", err)
				}
				// Every row gets a new place, most of them in the other partition.
				if _, err := n.Psql(ctx, "", "UPDATE "+k.parted+" SET n = 299 - n"); err != nil {
					t.Fatal(err)
				}
				got, _ := walkAll(ctx, t, sc, k.parted, first.Next, nil, 100)
				for _, r := range first.Rows {
					got = append(got, rowText(r))
				}
				sameRows(t, k.parted, got, want)
			})
		})
	}
}

// openWalker is the driver in the process on n, its connections named app (so psql can find
// them), its walks released after idle.
func openWalker(ctx context.Context, t *testing.T, n *pgnode.Node, app string, idle time.Duration) *postgres.Driver {
	t.Helper()
	s := pgtest.Settings(n)
	if err := s.SetValue(postgres.KeyOptions, "application_name="+app); err != nil {
		t.Fatal(err)
	}
	d, err := postgres.New(s)
	if err != nil {
		t.Fatal(err)
	}
	postgres.SetWalkIdle(d, idle)
	if err := d.Connect(ctx); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { d.Close() })
	return d
}

// eventually polls psql's answer to sql until it is want.
func eventually(ctx context.Context, t *testing.T, n *pgnode.Node, what, sql, want string, within time.Duration) {
	t.Helper()
	var got string
	for end := time.Now().Add(within); ; time.Sleep(100 * time.Millisecond) {
		var err error
		if got, err = n.Psql(ctx, "", sql); err != nil {
			t.Fatal(err)
		}
		if got == want || time.Now().After(end) {
			break
		}
	}
	if got != want {
		t.Fatalf("%s: psql reads %s, want %s", what, got, want)
	}
}

// A walk given up halfway gives back its connection and transaction after it waited the idle
// time for its next step; one whose step is cancelled at once; all of them when the driver
// closes. Walks holding connections leave one of the pool's for everything else: past that
// a walk is refused, saying why, while other calls go on.
func TestAWalkGivenUpIsReleased(t *testing.T) {
	n := sharedNode(t)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	h := &harness{node: n}
	k := makeKeyless(ctx, t, h)
	app := h.Table("walker")
	d := openWalker(ctx, t, n, app, time.Second)
	inTx := "SELECT count(*) FROM pg_stat_activity WHERE application_name = '" + app + "' AND state = 'idle in transaction'"
	open := func() string {
		t.Helper()
		p, err := d.Scan(ctx, k.view, driver.ScanRequest{Limit: 100})
		if err != nil || p.Next == "" {
			t.Fatalf("%v: want a first page of many", err)
		}
		return p.Next
	}

	next := open()
	eventually(ctx, t, n, "a walk between its steps", inTx, "1", 5*time.Second)
	eventually(ctx, t, n, "a walk given up, after the idle time", inTx, "0", 10*time.Second)
	if _, err := d.Scan(ctx, k.view, driver.ScanRequest{After: next, Limit: 100}); !driver.IsKind(err, driver.KindInvalidArgument) || !strings.Contains(err.Error(), "not open") {
		t.Fatalf("a step of a released walk: %v", err)
	}

	postgres.SetWalkIdle(d, time.Hour)
	next = open()
	cctx, stop := context.WithCancel(ctx)
	stop()
	if _, err := d.Scan(cctx, k.view, driver.ScanRequest{After: next, Limit: 100}); !driver.IsKind(err, driver.KindCancelled) {
		t.Fatalf("a cancelled step: %v", err)
	}
	eventually(ctx, t, n, "a walk whose step was cancelled", inTx, "0", 5*time.Second)

	// The pool is 4: three walks hold a connection each, and the fourth is refused.
	for range 3 {
		open()
	}
	if _, err := d.Scan(ctx, k.table, driver.ScanRequest{Limit: 100}); !driver.IsKind(err, driver.KindUnsupported) || !strings.Contains(err.Error(), "Connections") {
		t.Fatalf("a fourth walk on a pool of 4: %v", err)
	}
	quick, done := context.WithTimeout(ctx, 10*time.Second)
	defer done()
	if c, err := d.Count(quick, k.table, nil); err != nil || c != 2500 {
		t.Fatalf("a count while three walks hold connections: %d, %v", c, err)
	}
	if p, err := d.Scan(quick, k.keyed, driver.ScanRequest{Limit: 10}); err != nil || len(p.Rows) != 10 {
		t.Fatalf("a keyed walk while three walks hold connections: %v", err)
	}
	eventually(ctx, t, n, "three walks between their steps", inTx, "3", 5*time.Second)
	if err := d.Close(); err != nil {
		t.Fatal(err)
	}
	eventually(ctx, t, n, "the driver closed", "SELECT count(*) FROM pg_stat_activity WHERE application_name = '"+app+"'", "0", 10*time.Second)
}

// On a pool of one (PGlite's wire server, which runs no other client's statement while a
// transaction is open), a walk holds no connection between its steps: counts, pages, another
// walk and psql all answer in the middle of it, and it still reads every row once. Its cursor
// is closed on the server when it is given up and when the driver closes.
func TestAWalkOnAPoolOfOneHoldsNoConnection(t *testing.T) {
	n := sharedPGlite(t)
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	h := &harness{node: n}
	k := makeKeyless(ctx, t, h)
	d := openWalker(ctx, t, n, h.Table("walker"), time.Second)
	cursors := "SELECT count(*) FROM pg_cursors WHERE name LIKE 'app_walk_%'"

	first, err := d.Scan(ctx, k.table, driver.ScanRequest{Limit: 100})
	if err != nil || first.Next == "" {
		t.Fatalf("%v: want a first page of many", err)
	}
	quick, done := context.WithTimeout(ctx, 30*time.Second)
	defer done()
	if c, err := d.Count(quick, k.view, nil); err != nil || c != 960 {
		t.Fatalf("a count in the middle of a walk: %d, %v", c, err)
	}
	if g, err := d.Browse(quick, k.keyed, driver.Page{Limit: 10}, nil, nil); err != nil || len(g.Rows) != 10 {
		t.Fatalf("a page in the middle of a walk: %v", err)
	}
	view, _ := walkAll(quick, t, d, k.view, "", nil, 100)
	sameRows(t, "a second walk in the middle of the first", view, psqlRows(ctx, t, n, k.view, []string{"grp", "word", "id"}, ""))
	if _, err := n.Psql(quick, "", "SELECT 1"); err != nil {
		t.Fatalf("psql in the middle of a walk: %v", err)
	}
	rows := make([]string, 0, 2500)
	for _, r := range first.Rows {
		rows = append(rows, rowText(r))
	}
	rest, _ := walkAll(ctx, t, d, k.table, first.Next, nil, 100)
	sameRows(t, "the first walk, after the others", append(rows, rest...), psqlRows(ctx, t, n, k.table, []string{"n", "word"}, ""))
	eventually(ctx, t, n, "walks read to their end", cursors, "0", 5*time.Second)

	// A view's vectors come as numbers, as the map reads them.
	vecs, vview := h.Table("vecs"), h.Table("vview")
	if _, err := n.Psql(ctx, "", "CREATE TABLE "+vecs+" (id int PRIMARY KEY, body vector(3)); "+
		"INSERT INTO "+vecs+" SELECT i, CASE WHEN i % 10 <> 0 THEN ('['||i||','||(i % 7)||',0.5]')::vector END FROM generate_series(1, 250) i; "+
		"CREATE VIEW "+vview+" AS SELECT id, body FROM "+vecs); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _, _ = n.Psql(context.Background(), "", "DROP VIEW "+vview+"; DROP TABLE "+vecs) })
	var withVectors []string
	for after := ""; ; {
		p, err := d.Scan(ctx, vview, driver.ScanRequest{After: after, Limit: 100, Vectors: true})
		if err != nil || len(p.Vectors) != len(p.Rows) || !slices.Equal(p.VectorNames, []string{""}) {
			t.Fatalf("a view's vectors: %+v, %v", p, err)
		}
		for i, r := range p.Rows {
			v := "NULL"
			if p.Vectors[i][0] != nil {
				b, _ := json.Marshal(p.Vectors[i][0])
				v = string(b)
			}
			withVectors = append(withVectors, rowText(r)+"|"+v)
		}
		if after = p.Next; after == "" {
			break
		}
	}
	sameRows(t, "a view's vectors", withVectors, psqlRows(ctx, t, n, vview, []string{"id", "body"}, ""))

	if p, err := d.Scan(ctx, k.matview, driver.ScanRequest{Limit: 100}); err != nil || p.Next == "" {
		t.Fatalf("%v: want a first page of many", err)
	}
	eventually(ctx, t, n, "a walk between its steps", cursors, "1", 5*time.Second)
	eventually(ctx, t, n, "a walk given up, after the idle time", cursors, "0", 10*time.Second)

	postgres.SetWalkIdle(d, time.Hour)
	if p, err := d.Scan(ctx, k.parted, driver.ScanRequest{Limit: 100}); err != nil || p.Next == "" {
		t.Fatalf("%v: want a first page of many", err)
	}
	eventually(ctx, t, n, "a walk between its steps", cursors, "1", 5*time.Second)
	if err := d.Close(); err != nil {
		t.Fatal(err)
	}
	eventually(ctx, t, n, "the driver closed", cursors, "0", 10*time.Second)
}
