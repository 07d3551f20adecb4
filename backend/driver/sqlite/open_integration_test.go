package sqlite_test

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"app/backend/driver"
	"app/backend/driver/sqlite"
	"app/internal/testkit/sqlitecli"
)

// Issue 39, item 1: a file that is not there, not a database, locked by another program, or
// deleted while open is named in words, and nothing is written to it.
func TestAFileThatCannotBeUsedIsNamedInWordsAndLeftAsItWas(t *testing.T) {
	sqlitecli.Require(t)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	dir := t.TempDir()
	connect := func(s driver.Settings) error {
		d, err := sqlite.New(s)
		if err != nil {
			return err
		}
		defer d.Close()
		return d.Connect(ctx)
	}
	s := func(path, access, create string) driver.Settings {
		return driver.Settings{Values: map[string]string{sqlite.KeyPath: path, sqlite.KeyAccess: access, sqlite.KeyCreate: create}}
	}

	t.Run("a file that is not there, and not to be created", func(t *testing.T) {
		path := filepath.Join(dir, "missing.db")
		err := connect(s(path, "read-write", "false"))
		if !driver.IsKind(err, driver.KindConnection) || !strings.Contains(err.Error(), "there is no file") {
			t.Fatalf("%v", err)
		}
		if _, err := os.Stat(path); !os.IsNotExist(err) {
			t.Fatal("the missing file was made")
		}
	})
	t.Run("a file to be created is created, empty", func(t *testing.T) {
		path := filepath.Join(dir, "made.db")
		if err := connect(s(path, "read-write", "true")); err != nil {
			t.Fatal(err)
		}
		if out, err := sqlitecli.Run(ctx, path, "SELECT count(*) FROM sqlite_schema"); err != nil || out != "0" {
			t.Fatalf("sqlite3 reads %q, %v", out, err)
		}
	})
	t.Run("a file that is not a database", func(t *testing.T) {
		path := filepath.Join(dir, "notes.txt")
		body := []byte("these are notes, not a database\n")
		if err := os.WriteFile(path, body, 0o600); err != nil {
			t.Fatal(err)
		}
		for _, access := range []string{"read-write", "read-only"} {
			err := connect(s(path, access, "false"))
			if !driver.IsKind(err, driver.KindConnection) || !strings.Contains(err.Error(), "is not a SQLite database") {
				t.Fatalf("%s: %v", access, err)
			}
		}
		if got, _ := os.ReadFile(path); !bytes.Equal(got, body) {
			t.Fatalf("the file now holds %q", got)
		}
		if entries, _ := os.ReadDir(dir); len(entries) > 2 {
			for _, e := range entries {
				if strings.HasPrefix(e.Name(), "notes.txt-") {
					t.Fatalf("a journal was left beside it: %s", e.Name())
				}
			}
		}
	})
	t.Run("a file another program holds locked", func(t *testing.T) {
		path := filepath.Join(dir, "locked.db")
		if _, err := sqlitecli.Run(ctx, path, "CREATE TABLE t (x); INSERT INTO t VALUES (1)"); err != nil {
			t.Fatal(err)
		}
		d, err := sqlite.New(s(path, "read-write", "false"))
		if err != nil {
			t.Fatal(err)
		}
		defer d.Close()
		if err := d.Connect(ctx); err != nil {
			t.Fatal(err)
		}
		// Another sqlite3 holds an exclusive transaction until the subtest ends.
		stop := holdOpen(ctx, t, path, "BEGIN EXCLUSIVE; INSERT INTO t VALUES (2); SELECT 'held'", "held")
		short, cancelShort := context.WithTimeout(ctx, 20*time.Second)
		_, err = d.Browse(short, "t", driver.Page{}, nil, nil)
		cancelShort()
		stop() // sqlite3 exits without committing its transaction
		if !driver.IsKind(err, driver.KindConnection) || !strings.Contains(err.Error(), "locked by another program") {
			t.Fatalf("%v", err)
		}
		if got, err := sqlitecli.Run(ctx, path, "SELECT group_concat(x) FROM t"); err != nil || got != "1" {
			t.Fatalf("sqlite3 reads %q, %v", got, err)
		}
	})
	t.Run("a file deleted while open", func(t *testing.T) {
		path := filepath.Join(dir, "deleted.db")
		if _, err := sqlitecli.Run(ctx, path, "CREATE TABLE t (x); INSERT INTO t VALUES (1)"); err != nil {
			t.Fatal(err)
		}
		d, err := sqlite.New(s(path, "read-write", "false"))
		if err != nil {
			t.Fatal(err)
		}
		defer d.Close()
		if err := d.Connect(ctx); err != nil {
			t.Fatal(err)
		}
		if err := os.Remove(path); err != nil {
			t.Fatal(err)
		}
		if _, err := d.Browse(ctx, "t", driver.Page{}, nil, nil); !driver.IsKind(err, driver.KindConnection) || !strings.Contains(err.Error(), "is gone") {
			t.Fatalf("a read: %v", err)
		}
		if _, err := d.Insert(ctx, "t", []driver.Row{{Values: map[string]any{"x": "2"}}}); !driver.IsKind(err, driver.KindConnection) {
			t.Fatalf("a write: %v", err)
		}
		if _, err := os.Stat(path); !os.IsNotExist(err) {
			t.Fatal("the deleted file came back")
		}
	})
}
