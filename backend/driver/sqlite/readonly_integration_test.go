package sqlite

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ncruces/go-sqlite3"

	"app/backend/driver"
	"app/internal/testkit/sqlitecli"
)

// Issue 39, item 5: statements that write while looking like reads. Each is classified a write
// (or refused whatever the approval), and each, run on the read connection as if the
// classifier had called it a read, fails in SQLite itself; sqlite3 then reads the file as it
// was. ATTACH, DETACH and VACUUM INTO are refused on the write connection too.
func TestAWriteThatLooksLikeAReadFailsInSQLiteItself(t *testing.T) {
	sqlitecli.Require(t)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	dir := t.TempDir()
	path := filepath.Join(dir, "shop.db")
	const seed = `CREATE TABLE t (id INTEGER PRIMARY KEY, name TEXT); INSERT INTO t VALUES (1, 'one'), (2, 'two');
CREATE TABLE log (x TEXT)`
	if _, err := sqlitecli.Run(ctx, path, seed); err != nil {
		t.Fatal(err)
	}
	state := func() string {
		out, err := sqlitecli.Run(ctx, path, "SELECT group_concat(id || ':' || name, ',') FROM t; SELECT count(*) FROM log; PRAGMA user_version; PRAGMA journal_mode; SELECT group_concat(name) FROM sqlite_schema")
		if err != nil {
			t.Fatal(err)
		}
		return out
	}
	before := state()
	d, err := New(driver.Settings{Values: map[string]string{KeyPath: path, KeyAccess: accessReadWrite}})
	if err != nil {
		t.Fatal(err)
	}
	if err := d.Connect(ctx); err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	other := filepath.Join(dir, "other.db")
	cases := []struct {
		sql     string
		refused bool // refused whatever the approval
	}{
		{"ATTACH DATABASE '" + other + "' AS other", true},
		{"DETACH DATABASE main", true},
		{"VACUUM INTO '" + filepath.Join(dir, "copy.db") + "'", true},
		{"SELECT load_extension('vec0')", true},
		{"PRAGMA writable_schema = 1", false},
		{"PRAGMA journal_mode = DELETE", false},
		{"PRAGMA user_version = 7", false},
		{"PRAGMA query_only = 0", false},
		{"WITH d AS (DELETE FROM t RETURNING *) SELECT * FROM d", false},
		{"SELECT 1; DROP TABLE t", false},
		{"INSERT INTO t (name) VALUES ('three') RETURNING id", false},
		{"REPLACE INTO t (id, name) VALUES (1, 'uno')", false},
		{"INSERT INTO t (id, name) VALUES (1, 'uno') ON CONFLICT (id) DO UPDATE SET name = excluded.name", false},
		{"CREATE TEMP TRIGGER tr AFTER INSERT ON log BEGIN DELETE FROM t; END", false},
		{"/* SELECT */ DELETE FROM t WHERE name = 'SELECT'", false},
		{"DELETE FROM t -- SELECT * FROM t", false},
		{"UPDATE t SET name = 'x'", false},
	}
	for _, c := range cases {
		cl, err := Classify(c.sql)
		if err == nil && !cl.Write() {
			t.Errorf("%q classified a read", c.sql)
		}
		if c.refused && !driver.IsKind(err, driver.KindNotPermitted) {
			t.Errorf("%q: Classify said %v, want it refused before anyone is asked", c.sql, err)
		}
		if c.refused {
			if _, err := d.Execute(ctx, c.sql, driver.ExecOptions{}); !driver.IsKind(err, driver.KindNotPermitted) {
				t.Errorf("%q as an approved write: %v, want refused", c.sql, err)
			}
		}
		// As if the classifier had let it pass: the read connection, statement by statement.
		err = d.read(ctx, func(conn *sqlite3.Conn) error {
			rest := c.sql
			for strings.TrimSpace(rest) != "" {
				s, tail, err := conn.Prepare(rest)
				if err != nil {
					return err
				}
				if s == nil {
					break
				}
				if err := s.Exec(); err != nil {
					s.Close()
					return err
				}
				s.Close()
				rest = tail
			}
			return nil
		})
		if err == nil {
			t.Errorf("%q ran on the read connection", c.sql)
		}
	}
	// The read connection still refuses a plain write afterwards (query_only was not turned off).
	if err := d.read(ctx, func(conn *sqlite3.Conn) error { return conn.Exec("INSERT INTO log VALUES ('after')") }); err == nil {
		t.Error("a write ran on the read connection after the attempts")
	}
	if after := state(); after != before {
		t.Fatalf("the file changed:\nbefore %s\nafter  %s", before, after)
	}
}
