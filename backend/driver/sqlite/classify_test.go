package sqlite

import (
	"app/backend/driver"
	"testing"
)

// The classifier reads SQL as SQLite's tokenizer does: keywords inside comments, strings and
// quoted names are not keywords; a query holding a write is no read; pragmas read only
// without a value (or with a table's name, for those that take one).
func TestAStatementIsAReadOnlyWhenNothingInItWrites(t *testing.T) {
	cases := []struct {
		sql         string
		write       bool
		destructive bool
	}{
		{"SELECT * FROM t", false, false},
		{"select 1", false, false},
		{"VALUES (1), (2)", false, false},
		{"WITH x AS (SELECT 1) SELECT * FROM x", false, false},
		{"WITH RECURSIVE r(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM r WHERE i < 3) SELECT i FROM r", false, false},
		{"EXPLAIN QUERY PLAN SELECT * FROM t", false, false},
		{"EXPLAIN DELETE FROM t", false, false},
		{"SELECT 'DELETE FROM t' AS s, \"UPDATE\" FROM t", false, false},
		{"SELECT 1 -- ; DROP TABLE t", false, false},
		{"SELECT 1 /* ; DELETE FROM t */", false, false},
		{"SELECT replace(name, 'a', 'b') FROM t", false, false},
		{"SELECT [delete] FROM t", false, false},
		{"PRAGMA table_info(t)", false, false},
		{"PRAGMA main.table_xinfo('t')", false, false},
		{"PRAGMA user_version", false, false},
		{"PRAGMA integrity_check", false, false},
		{"SELECT 1; SELECT 2", false, false},
		{"PRAGMA user_version = 7", true, false},
		{"PRAGMA user_version(7)", true, false},
		{"PRAGMA optimize", true, false},
		{"PRAGMA journal_mode = WAL", true, false},
		{"INSERT INTO t VALUES (1)", true, false},
		{"REPLACE INTO t VALUES (1)", true, false},
		{"UPDATE t SET x = 1 WHERE id = 2", true, false},
		{"UPDATE t SET x = 1", true, true},
		{"DELETE FROM t WHERE id = 1", true, false},
		{"DELETE FROM t", true, true},
		{"DELETE FROM t WHERE id IN (SELECT id FROM u)", true, false},
		{"DELETE FROM t -- WHERE id = 1", true, true},
		{"WITH d AS (SELECT 1) DELETE FROM t", true, true},
		{"WITH d AS (DELETE FROM t RETURNING *) SELECT * FROM d", true, false},
		{"SELECT 1; DROP TABLE t", true, true},
		{"DROP TABLE IF EXISTS t", true, true},
		{"CREATE TABLE u (x)", true, false},
		{"CREATE TEMP TRIGGER tr AFTER INSERT ON t BEGIN SELECT 1; DELETE FROM u; END", true, false},
		{"VACUUM", true, false},
		{"BEGIN; COMMIT", true, false},
		{"ANALYZE", true, false},
		{"REINDEX", true, false},
		{"SAVEPOINT a", true, false},
		{"SELECT 1 FROM t WHERE x = 'it''s'; INSERT INTO t VALUES ('a;b')", true, false},
	}
	for _, c := range cases {
		got, err := Classify(c.sql)
		if err != nil {
			t.Errorf("%q: %v", c.sql, err)
			continue
		}
		if got.Write() != c.write || got.Destructive != c.destructive {
			t.Errorf("%q: %+v, want write %v, destructive %v", c.sql, got, c.write, c.destructive)
		}
	}
	// What no approval lets run is refused by Classify, so nobody is asked about it.
	for _, sql := range []string{"ATTACH 'x.db' AS x", "DETACH x", "VACUUM INTO 'x.db'", "SELECT load_extension('x')", "select 1; attach database 'y' as y"} {
		if got, err := Classify(sql); !driver.IsKind(err, driver.KindNotPermitted) || !got.Write() {
			t.Errorf("%q: %+v %v, want refused as a write", sql, got, err)
		}
	}
	if _, err := Classify("  -- nothing\n"); err == nil {
		t.Error("a text of no statement classified")
	}
}

// Whatever the text, the classifier answers (never panics), and a text it calls a read has
// no word that writes rows outside strings, comments and quoted names.
func FuzzClassify(f *testing.F) {
	for _, s := range []string{"SELECT 1", "DELETE FROM t", "SELECT 'a''b' -- c\n; /* d */ INSERT", "[x", "'open", "x'0A'", "CREATE TRIGGER a BEGIN END; SELECT"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, sql string) {
		c, err := Classify(sql)
		if err != nil || c.Write() {
			return
		}
		for _, st := range statements(tokens(sql)) {
			if writesInside(st) {
				t.Fatalf("%q read as a read, holding a write", sql)
			}
		}
	})
}
