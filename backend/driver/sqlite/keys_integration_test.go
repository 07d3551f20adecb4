package sqlite_test

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"app/backend/driver"
	"app/internal/testkit/sqlitecli"
)

// Issue 39, item 2: every shape of key names its rows, and an edit by it lands on that row
// (sqlite3 reads it back): INTEGER PRIMARY KEY (the rowid itself), a composite key, a WITHOUT
// ROWID table, and a table that declares none (keyed by SQLite's rowid, said so). FTS5 and
// vec0 tables are listed as what they are, their shadow tables not at all; a WAL file beside
// the database is read through.
func TestEveryShapeOfKeyNamesItsRows(t *testing.T) {
	sqlitecli.Require(t)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	path := filepath.Join(t.TempDir(), "keys.db")
	if _, err := sqlitecli.Run(ctx, path, `CREATE TABLE ipk (id INTEGER PRIMARY KEY, v TEXT);
CREATE TABLE pair (a TEXT, b INTEGER, v TEXT, PRIMARY KEY (b, a));
CREATE TABLE wr (code TEXT PRIMARY KEY, v TEXT) WITHOUT ROWID;
CREATE TABLE bare (v TEXT);
CREATE VIRTUAL TABLE notes USING fts5(body);
CREATE VIRTUAL TABLE vv USING vec0(e float[2]);
INSERT INTO ipk VALUES (5, 'x'); INSERT INTO pair VALUES ('k', 1, 'x'); INSERT INTO wr VALUES ('c1', 'x'); INSERT INTO bare VALUES ('x');
INSERT INTO notes VALUES ('hello world')`); err != nil {
		t.Fatal(err)
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
		if want := []string{"bare/", "ipk/", "notes/virtual table (fts5)", "pair/", "vv/virtual table (vec0)", "wr/"}; !slices.Equal(names, want) {
			t.Fatalf("boundary %v: the tree lists %v, want %v", boundary, names, want)
		}
		for _, c := range []struct {
			table string
			key   []string
			row   driver.Key
			read  string
		}{
			{"ipk", []string{"id"}, driver.Key{"id": "5"}, "SELECT v FROM ipk WHERE id = 5"},
			{"pair", []string{"b", "a"}, driver.Key{"a": "k", "b": "1"}, "SELECT v FROM pair WHERE a = 'k' AND b = 1"},
			{"wr", []string{"code"}, driver.Key{"code": "c1"}, "SELECT v FROM wr WHERE code = 'c1'"},
			{"bare", []string{"rowid"}, driver.Key{"rowid": "1"}, "SELECT v FROM bare WHERE rowid = 1"},
		} {
			info, err := d.DescribeTable(ctx, c.table)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(info.PrimaryKey, c.key) {
				t.Fatalf("boundary %v: %s keyed by %v, want %v", boundary, c.table, info.PrimaryKey, c.key)
			}
			text := "written " + c.table
			res, err := d.Update(ctx, c.table, []driver.Row{{Key: c.row, Values: map[string]any{"v": text}, Original: map[string]any{"v": "x"}}})
			if err != nil || res[0].Status != driver.RowOK {
				t.Fatalf("boundary %v: %s: %+v %v", boundary, c.table, res, err)
			}
			if got, err := sqlitecli.Run(ctx, path, c.read); err != nil || got != text {
				t.Fatalf("boundary %v: sqlite3 reads %q, %v", boundary, got, err)
			}
			if _, err := sqlitecli.Run(ctx, path, "UPDATE "+c.table+" SET v = 'x'"); err != nil {
				t.Fatal(err)
			}
		}
		bare, _ := d.DescribeTable(ctx, "bare")
		if rowid, _ := bare.Column("rowid"); !rowid.ReadOnly || rowid.Description == "" {
			t.Fatalf("boundary %v: the rowid column %+v does not say what it is", boundary, rowid)
		}
	}
	// A WAL file beside the database, held by another program that wrote and has not
	// checkpointed: what it holds is read, read-only.
	wal := filepath.Join(t.TempDir(), "wal.db")
	holdOpen(ctx, t, wal, "PRAGMA journal_mode = WAL; PRAGMA wal_autocheckpoint = 0; CREATE TABLE t (x); INSERT INTO t VALUES (1), (2); SELECT 'written'", "written")
	if fi, err := os.Stat(wal + "-wal"); err != nil || fi.Size() == 0 {
		t.Fatalf("no WAL file beside the database: %v", err)
	}
	d := open(ctx, t, driver.Settings{Values: map[string]string{"path": wal, "access": "read-only"}}, false)
	if n, err := d.Count(ctx, "t", nil); err != nil || n != 2 {
		t.Fatalf("the database with its WAL counts %d, %v", n, err)
	}
}
