package postgres

import (
	"context"
	"os"
	"strings"
	"testing"
	"time"

	"app/backend/driver"
	"app/internal/testkit/pgnode"
)

// Issue 38, item 8: statements that write while looking like reads. Each is classified a
// write (so it needs the person's approval before it runs), and run through the read path
// anyway (a READ ONLY transaction) the server refuses whatever writes data, so nothing the
// person did not approve changes: the table, the sequence and the function's target are read
// back with psql afterwards.
func TestStatementsThatWriteWhileLookingLikeReads(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a PostgreSQL server: left to make test")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	n, err := pgnode.Start(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer n.Stop()
	setup := `CREATE TABLE t (id int PRIMARY KEY, v text);
INSERT INTO t VALUES (1, 'a'), (2, 'b'), (3, 'c');
CREATE SEQUENCE s;
CREATE TABLE log (x text);
CREATE FUNCTION f() RETURNS int LANGUAGE sql AS $$ INSERT INTO log VALUES ('f ran') RETURNING 1 $$;
CREATE PROCEDURE p() LANGUAGE sql AS $$ INSERT INTO log VALUES ('p ran') $$;`
	if _, err := n.Psql(ctx, "", setup); err != nil {
		t.Fatal(err)
	}
	state := func() string {
		out, err := n.Psql(ctx, "", "SELECT (SELECT string_agg(id || v, ',' ORDER BY id) FROM t) || ' ' || (SELECT last_value || ' ' || is_called FROM s) || ' ' || (SELECT count(*) FROM log) || ' ' || (SELECT count(*) FROM pg_class WHERE relname = 'tmp_made')")
		if err != nil {
			t.Fatal(err)
		}
		return out
	}
	before := state()
	s := driver.Settings{Host: n.Host, Port: n.Port}
	for k, v := range map[string]string{KeyDatabase: n.Database, KeyUser: n.User, KeySSLMode: "disable"} {
		_ = s.SetValue(k, v)
	}
	s.SetSecret(KeyPassword, n.Password)
	d, err := New(s)
	if err != nil {
		t.Fatal(err)
	}
	if err := d.Connect(ctx); err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	tmp := t.TempDir()
	_ = os.Chmod(tmp, 0o777)
	for _, stmt := range []string{
		"WITH d AS (DELETE FROM t RETURNING *) SELECT * FROM d",
		"SELECT nextval('s')",
		"SELECT setval('s', 42)",
		"SELECT pg_terminate_backend(pg_backend_pid() + 100000)",
		"SELECT pg_cancel_backend(pg_backend_pid() + 100000)",
		"SELECT set_config('search_path', 'nowhere', false)",
		"EXPLAIN ANALYZE DELETE FROM t",
		"SELECT * FROM t FOR UPDATE",
		"SELECT f()",
		"COPY t TO PROGRAM 'true'",
		"COPY t FROM '" + tmp + "/none.csv'",
		"SELECT 1; DROP TABLE t",
		"SELECT /* DELETE */ 1; DELETE FROM t",
		"SELECT $$ harmless $$, 1; UPDATE t SET v = 'x'",
		`SELECT 1 AS "DELETE"; TRUNCATE t`,
		"DO $$ BEGIN DELETE FROM t; END $$",
		"CALL p()",
		"PREPARE q AS DELETE FROM t; EXECUTE q",
		"SET ROLE app",
		"LOCK TABLE t",
		"VACUUM t",
		"LISTEN ch",
		"NOTIFY ch",
		"SELECT lo_unlink(1)",
		"CREATE TEMP TABLE tmp_made (x int)",
		"SELECT * INTO tmp_made FROM t",
		"select\tNEXTVAL('s')",
		"SELECT pg_sleep(0) FROM t; delete from t",
		"BEGIN; DELETE FROM t; COMMIT",
		"END",
		// A string the classifier must read as PostgreSQL does: ELSE'\' is no escape string,
		// so the quote ends at the second ' and the rest is SQL.
		`SELECT CASE WHEN true THEN 'a' ELSE'\' END, pg_terminate_backend(12345) --'`,
		`SELECT 'x'; COMMIT; DELETE FROM t; --'`,
	} {
		t.Run(stmt, func(t *testing.T) {
			c, err := Classify(stmt)
			refused := strings.HasPrefix(stmt, "COPY") // a server file or program: refused outright (issue 44)
			if refused && (!driver.IsKind(err, driver.KindNotPermitted) || !c.Write()) {
				t.Errorf("classified %+v %v: COPY with a server file or program must be refused, approval or not", c, err)
			}
			if !refused && (err != nil || !c.Write()) {
				t.Errorf("classified %+v %v: a statement that writes or acts must need approval", c, err)
			}
			// The backstop: run as a read anyway, the server refuses what writes data, and a
			// COMMIT inside cannot end the read-only transaction (one statement a message).
			stmts, perr := parse(stmt)
			_, _ = d.execRead(ctx, stmts, perr, driver.ExecOptions{MaxRows: 10})
			if after := state(); after != before {
				t.Fatalf("the database changed without approval: %q, was %q", after, before)
			}
		})
	}
	for _, stmt := range []string{
		"SELECT id, v FROM t WHERE v <> 'DELETE' ORDER BY id",
		"SELECT count(*), max(id), string_agg(v, ',') FROM t",
		"WITH x AS (SELECT id FROM t) SELECT * FROM x",
		"-- DROP TABLE t\nSELECT 1",
		"SELECT 'INSERT INTO t VALUES (9)' AS text",
		"EXPLAIN SELECT * FROM t",
		"VALUES (1), (2)",
		"SHOW search_path",
		"SELECT (1 + 2) * (3 - 1), -(4), id / (id + 1) FROM t",
		"SELECT CASE WHEN id > 1 THEN 'many' ELSE 'one' END AS n FROM t",
	} {
		t.Run("a read: "+stmt, func(t *testing.T) {
			c, err := Classify(stmt)
			if err != nil || c.Write() {
				t.Fatalf("classified %+v %v, want a read", c, err)
			}
			res, err := d.Execute(ctx, stmt, driver.ExecOptions{MaxRows: 10})
			answered := err == nil && (res.Kind == driver.ResultGrid && len(res.Grid.Rows) > 0 || res.Kind == driver.ResultText && res.Text != "") // a plan is text
			if !answered {
				t.Fatalf("%+v %v", res, err)
			}
		})
	}
	t.Run("a read is capped by fetching and says it was cut", func(t *testing.T) {
		res, err := d.Execute(ctx, "SELECT i FROM generate_series(1, 50) i", driver.ExecOptions{MaxRows: 7})
		if err != nil || len(res.Grid.Rows) != 7 || !res.Truncated || !strings.Contains(res.Notice, "first 7 rows") {
			t.Fatalf("%+v %v", res, err)
		}
	})
	t.Run("a capped read fetches only what it shows: the server computes no row past the cap", func(t *testing.T) {
		// Row 101 would fail: a read that drained the rest to throw them away would meet it.
		res, err := d.Execute(ctx, "SELECT CASE WHEN i > 100 THEN 1 / (i - i) ELSE i END AS v FROM generate_series(1, 1000) i", driver.ExecOptions{MaxRows: 10})
		if err != nil || len(res.Grid.Rows) != 10 || !res.Truncated {
			t.Fatalf("%+v %v", res, err)
		}
		if _, err := d.Execute(ctx, "SELECT CASE WHEN i > 100 THEN 1 / (i - i) ELSE i END AS v FROM generate_series(1, 1000) i", driver.ExecOptions{MaxRows: 500}); !driver.IsKind(err, driver.KindInvalidArgument) {
			t.Fatalf("a cap past the failing row meets it: %v (%s)", err, driver.KindOf(err))
		}
	})
	t.Run("the read path runs no statement that is not a read, nor two in one message", func(t *testing.T) {
		// Called directly, as a read the classifier misjudged would be: the COMMIT that would end
		// the read-only transaction is refused before anything runs, and text the server reads
		// as several statements in one piece is refused by the server.
		for _, text := range []string{"SELECT 1; COMMIT; DROP TABLE t", "SELECT $x$ 1 $x$; COMMIT; DROP TABLE t"} {
			stmts, perr := parse(text)
			_, _ = d.execRead(ctx, stmts, perr, driver.ExecOptions{})
			if after := state(); after != before {
				t.Fatalf("%q changed the database: %q", text, after)
			}
		}
	})
	t.Run("an approved write that answers rows shows them, and leaves no session change behind", func(t *testing.T) {
		res, err := d.Execute(ctx, "SET search_path TO nowhere; INSERT INTO public.log VALUES ('approved') RETURNING x, length(x) AS n", driver.ExecOptions{})
		if err != nil || res.Kind != driver.ResultGrid || len(res.Grid.Rows) != 1 || res.Grid.Rows[0][0] != "approved" ||
			res.Tag != "INSERT 0 1" || len(res.Before) != 1 || res.Before[0].Tag != "SET" {
			t.Fatalf("%+v %v", res, err)
		}
		if _, err := n.Psql(ctx, "", "DELETE FROM log WHERE x = 'approved'"); err != nil {
			t.Fatal(err)
		}
		before = state()
		for i := 0; i < 4; i++ { // every pooled connection: none kept the search_path
			if _, err := d.Execute(ctx, "SELECT count(*) FROM t", driver.ExecOptions{}); err != nil {
				t.Fatalf("a read after the write met its session change: %v", err)
			}
		}
		if _, err := d.Execute(ctx, "BEGIN; DELETE FROM t WHERE id = 1", driver.ExecOptions{}); err == nil || !strings.Contains(err.Error(), "left a transaction open") {
			t.Fatalf("a write that leaves its transaction open: %v", err)
		}
		if after := state(); after != before {
			t.Fatalf("the open transaction's delete stayed: %q, was %q", after, before)
		}
	})
	t.Run("destructive: DROP, TRUNCATE, DELETE or UPDATE without WHERE", func(t *testing.T) {
		for stmt, want := range map[string]bool{"DROP TABLE t": true, "TRUNCATE t": true, "DELETE FROM t": true,
			"UPDATE t SET v = 'x'": true, "DELETE FROM t WHERE id = 1": false, "INSERT INTO t VALUES (4, 'd')": false} {
			if c, _ := Classify(stmt); c.Destructive != want {
				t.Errorf("%s: destructive %v, want %v", stmt, c.Destructive, want)
			}
		}
	})
}
