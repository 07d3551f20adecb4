package tools

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"app/backend/approval"
	"app/backend/auth"
	"app/backend/connections"
	"app/backend/driver"
	"app/backend/driver/sqlite"
	"app/internal/testkit/sqlitecli"
)

// Issue 39, items 4 and 5: every tool works on a SQLite connection through the contract alone
// — plain table names, describe_table with the key (the rowid where none is declared), browse
// and count with filter groups, vector_search on a vec0 table, execute_query in SQLite's SQL
// (a read runs unasked on the read-only connection, a write waits for the person), rows
// written by key with the same approvals; and statements that write while looking like
// reads, through execute_query, change nothing without the person's Yes (ATTACH and VACUUM
// INTO not even with it). Every outcome is read back with sqlite3.
func TestToolsOnASQLiteConnection(t *testing.T) {
	sqlitecli.Require(t)
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	dir := t.TempDir()
	path := filepath.Join(dir, "shop.db")
	if _, err := sqlitecli.Run(ctx, path, `CREATE TABLE items (id INTEGER PRIMARY KEY, title TEXT, n INTEGER);
INSERT INTO items VALUES (1, 'one', 10), (2, 'two', 20), (3, 'three', NULL);
CREATE TABLE notes (body TEXT);
INSERT INTO notes VALUES ('a'), ('b');
CREATE VIRTUAL TABLE vecs USING vec0(e float[3], +label text);
INSERT INTO vecs(rowid, e, label) VALUES (1, '[1,0,0]', 'x'), (2, '[0,1,0]', 'y'), (3, '[0.9,0.1,0]', 'z')`); err != nil {
		t.Fatal(err)
	}
	s := driver.Settings{Values: map[string]string{sqlite.KeyPath: path, sqlite.KeyAccess: "read-write"}}
	r := newRig(t, rigOptions{}, connections.Connection{Type: sqlite.Type, Name: "shop", Settings: s, ExternalAccess: connections.AccessReadWrite},
		func(_ context.Context, c connections.Connection) (driver.Driver, error) {
			return sqlite.New(c.Settings)
		})
	state := func() string {
		out, err := sqlitecli.Run(ctx, path, "SELECT group_concat(id || ':' || title || ':' || coalesce(n, '-'), ' ') FROM (SELECT * FROM items ORDER BY id); SELECT count(*) FROM notes; PRAGMA user_version; SELECT group_concat(name) FROM (SELECT name FROM sqlite_schema ORDER BY name)")
		if err != nil {
			t.Fatal(err)
		}
		return out
	}
	call := func(level, tool string, args map[string]any) flowReply {
		t.Helper()
		args["connection"] = "shop"
		return r.call(t, ctx, flowCall{level: level, tool: tool, args: args})
	}
	ok := func(t *testing.T, rep flowReply) {
		t.Helper()
		if rep.code != 0 || rep.result["isError"] != false {
			t.Fatalf("want success, got %d %q %v", rep.code, rep.message, rep.result)
		}
	}
	structured := func(rep flowReply) map[string]any {
		m, _ := rep.result["structuredContent"].(map[string]any)
		return m
	}

	t.Run("list_tables names the file's tables, the vec0 table as one", func(t *testing.T) {
		rep := call(auth.LevelReadOnly, NameListTables, map[string]any{})
		ok(t, rep)
		if text := rep.text(); !strings.Contains(text, "items") || !strings.Contains(text, "vecs") || strings.Contains(text, "vecs_chunks") {
			t.Fatalf("%s", text)
		}
	})
	t.Run("describe_table gives the declared key, or the rowid", func(t *testing.T) {
		rep := call(auth.LevelReadOnly, NameDescribeTable, map[string]any{"table": "items"})
		ok(t, rep)
		if pk, _ := structured(rep)["primaryKey"].([]any); len(pk) != 1 || pk[0] != "id" {
			t.Fatalf("%v", structured(rep)["primaryKey"])
		}
		rep = call(auth.LevelReadOnly, NameDescribeTable, map[string]any{"table": "notes"})
		ok(t, rep)
		if pk, _ := structured(rep)["primaryKey"].([]any); len(pk) != 1 || pk[0] != "rowid" {
			t.Fatalf("%v", structured(rep)["primaryKey"])
		}
	})
	t.Run("browse_table and count_rows filter with ORed groups", func(t *testing.T) {
		filters := []any{map[string]any{"column": "n", "operator": "greater_than", "value": "15", "group": 1},
			map[string]any{"column": "n", "operator": "is_null", "group": 1}}
		rep := call(auth.LevelReadOnly, NameBrowseTable, map[string]any{"table": "items", "filters": filters})
		ok(t, rep)
		if rows, _ := structured(rep)["rows"].([]any); len(rows) != 2 {
			t.Fatalf("%d rows: %s", len(rows), rep.text())
		}
		rep = call(auth.LevelReadOnly, NameCountRows, map[string]any{"table": "items", "filters": filters})
		ok(t, rep)
		if c, _ := structured(rep)["count"].(float64); c != 2 {
			t.Fatalf("%v", structured(rep))
		}
	})
	t.Run("vector_search finds the nearest rows of a vec0 table", func(t *testing.T) {
		rep := call(auth.LevelReadOnly, NameVectorSearch, map[string]any{"table": "vecs", "vector": []any{1, 0, 0}, "limit": 2})
		ok(t, rep)
		rows, _ := structured(rep)["rows"].([]any)
		got := fmt.Sprint(rows)
		if len(rows) != 2 || !strings.Contains(got, "x") || !strings.Contains(got, "z") || strings.Contains(got, "y") {
			t.Fatalf("%s", got)
		}
	})
	t.Run("execute_query: a SELECT runs without asking anyone", func(t *testing.T) {
		r.person.will()
		rep := call(auth.LevelReadOnly, NameExecuteQuery, map[string]any{"query": "SELECT title FROM items WHERE id = 2"})
		ok(t, rep)
		if !strings.Contains(rep.text(), "two") || len(r.person.questions()) != 0 {
			t.Fatalf("%s; asked %v", rep.text(), r.person.questions())
		}
	})
	before := state()
	for _, stmt := range []string{
		"PRAGMA user_version = 7",
		"PRAGMA writable_schema = 1",
		"PRAGMA journal_mode = DELETE",
		"WITH d AS (SELECT 1) DELETE FROM items",
		"SELECT 1; DROP TABLE items",
		"INSERT INTO items (title) VALUES ('four') RETURNING id",
		"REPLACE INTO items (id, title) VALUES (1, 'uno')",
		"INSERT INTO items (id, title) VALUES (1, 'uno') ON CONFLICT (id) DO UPDATE SET title = excluded.title",
		"CREATE TEMP TRIGGER tr AFTER INSERT ON notes BEGIN DELETE FROM items; END",
		"/* SELECT */ DELETE FROM items WHERE title = 'SELECT'",
		"UPDATE items SET title = 'x'",
	} {
		t.Run("execute_query asks before it runs, and No changes nothing: "+stmt, func(t *testing.T) {
			r.person.will(approval.Deny)
			rep := call(auth.LevelFullAccess, NameExecuteQuery, map[string]any{"query": stmt})
			asked := len(r.person.questions())
			switch {
			case rep.result["isError"] != true:
				t.Fatalf("not gated: %d %v", rep.code, rep.result)
			case asked == 0:
				if !strings.Contains(rep.text(), NameConfirmDestructive) {
					t.Fatalf("refused unasked, without saying where to go: %s", rep.text())
				}
				r.person.will(approval.Deny)
				rep = call(auth.LevelFullAccess, NameConfirmDestructive, map[string]any{"query": stmt})
				if rep.result["isError"] != true || len(r.person.questions()) != 1 {
					t.Fatalf("confirm_destructive_operation ran it unasked: %v; asked %v", rep.result, r.person.questions())
				}
			case asked != 1:
				t.Fatalf("asked %d times", asked)
			}
			if after := state(); after != before {
				t.Fatalf("sqlite3 reads %q, was %q", after, before)
			}
		})
	}
	for _, stmt := range []string{"ATTACH DATABASE '" + filepath.Join(dir, "other.db") + "' AS other", "DETACH DATABASE main", "VACUUM INTO '" + filepath.Join(dir, "copy.db") + "'", "SELECT load_extension('x')"} {
		t.Run("execute_query refuses, even approved: "+stmt, func(t *testing.T) {
			r.person.will(approval.Approve)
			rep := call(auth.LevelFullAccess, NameExecuteQuery, map[string]any{"query": stmt})
			if rep.result["isError"] != true || !strings.Contains(rep.text(), "refused") {
				t.Fatalf("%v", rep.result)
			}
			if after := state(); after != before {
				t.Fatalf("sqlite3 reads %q, was %q", after, before)
			}
		})
	}
	// Issue 44: a statement longer than an approval shows could hide what runs past the cut,
	// so nobody is asked to approve it; one that fits is asked as usual.
	t.Run("execute_query refuses, unasked, a statement longer than an approval shows", func(t *testing.T) {
		r.person.will(approval.Approve)
		stmt := "UPDATE items SET n = 11 WHERE id = 1;" + strings.Repeat(" ", approval.MaxStatementChars) + "DELETE FROM notes WHERE rowid = 1"
		rep := call(auth.LevelReadWrite, NameExecuteQuery, map[string]any{"query": stmt})
		if rep.result["isError"] != true || !strings.HasPrefix(rep.text(), "invalid_argument") || len(r.person.questions()) != 0 {
			t.Fatalf("%v; asked %v", rep.result, r.person.questions())
		}
		if after := state(); after != before {
			t.Fatalf("sqlite3 reads %q, was %q", after, before)
		}
	})
	t.Run("execute_query: an approved UPDATE is written", func(t *testing.T) {
		r.person.will(approval.Approve)
		ok(t, call(auth.LevelReadWrite, NameExecuteQuery, map[string]any{"query": "UPDATE items SET n = 11 WHERE id = 1"}))
		if got := state(); !strings.HasPrefix(got, "1:one:11 ") {
			t.Fatalf("sqlite3 reads %s", got)
		}
	})
	t.Run("insert_rows, update_rows and delete_rows by key, each approved", func(t *testing.T) {
		r.person.will(approval.Approve)
		ok(t, call(auth.LevelReadWrite, NameInsertRows, map[string]any{"table": "items", "rows": []any{map[string]any{"values": map[string]any{"id": 4, "title": "four"}}}}))
		r.person.will(approval.Approve)
		ok(t, call(auth.LevelReadWrite, NameUpdateRows, map[string]any{"table": "items", "rows": []any{map[string]any{"key": map[string]any{"id": 4}, "values": map[string]any{"n": 40}}}}))
		if got := state(); !strings.Contains(got, "4:four:40") {
			t.Fatalf("sqlite3 reads %s", got)
		}
		r.person.will(approval.Deny)
		call(auth.LevelReadWrite, NameDeleteRows, map[string]any{"table": "items", "keys": []any{map[string]any{"id": 4}}})
		if got := state(); !strings.Contains(got, "4:four:40") {
			t.Fatalf("a denied delete removed the row: %s", got)
		}
		r.person.will(approval.Approve)
		ok(t, call(auth.LevelReadWrite, NameDeleteRows, map[string]any{"table": "items", "keys": []any{map[string]any{"id": 4}}}))
		if got := state(); strings.Contains(got, "4:") {
			t.Fatalf("sqlite3 reads %s", got)
		}
	})
}
