package tools

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"app/backend/approval"
	"app/backend/auth"
	"app/backend/connections"
	"app/backend/driver"
	"app/backend/driver/postgres"
	"app/internal/testkit/pgnode"
	"app/internal/testkit/pgtest"
)

// Issue 38, item 9: every tool works on a PostgreSQL connection through the contract alone —
// tables named schema.table, describe_table with the key, browse and count with filter
// groups, execute_query in SQL (a read runs unasked in a read-only transaction, a write waits
// for the person), and rows inserted, updated and deleted by key with the same approvals;
// and item 8's statements that write while looking like reads, through execute_query, change
// nothing without the person's Yes. Every outcome is read back with psql.
func TestToolsOnAPostgresConnection(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a PostgreSQL server: left to make test")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
	defer cancel()
	n, err := pgnode.Start(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer n.Stop()
	if _, err := n.Psql(ctx, "", `CREATE TABLE public.items (id int PRIMARY KEY, title text, n int, tags text[]);
INSERT INTO public.items VALUES (1, 'one', 10, '{a}'), (2, 'two', 20, '{b}'), (3, 'three', NULL, '{a,b}');
CREATE SEQUENCE s;`); err != nil {
		t.Fatal(err)
	}
	s := pgtest.Settings(n)
	r := newRig(t, rigOptions{}, connections.Connection{Type: postgres.Type, Name: "shop", Settings: s, ExternalAccess: connections.AccessReadWrite},
		func(_ context.Context, c connections.Connection) (driver.Driver, error) {
			return postgres.New(c.Settings)
		})
	state := func() string {
		out, err := n.Psql(ctx, "", "SELECT string_agg(id || ':' || title || ':' || coalesce(n::text, '-'), ' ' ORDER BY id) || ' seq ' || (SELECT last_value || is_called::text FROM s) FROM public.items")
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

	t.Run("list_tables names schema.table", func(t *testing.T) {
		rep := call(auth.LevelReadOnly, NameListTables, map[string]any{})
		ok(t, rep)
		if !strings.Contains(rep.text(), "public.items") {
			t.Fatalf("%s", rep.text())
		}
	})
	t.Run("describe_table gives the key and the columns' kinds", func(t *testing.T) {
		rep := call(auth.LevelReadOnly, NameDescribeTable, map[string]any{"table": "public.items"})
		ok(t, rep)
		sc := structured(rep)
		if pk, _ := sc["primaryKey"].([]any); len(pk) != 1 || pk[0] != "id" || !strings.Contains(rep.text(), "primary key: id") {
			t.Fatalf("%v\n%s", sc["primaryKey"], rep.text())
		}
	})
	t.Run("browse_table and count_rows filter with ORed groups, by the server", func(t *testing.T) {
		filters := []any{map[string]any{"column": "n", "operator": "greater_than", "value": "15", "group": 1},
			map[string]any{"column": "n", "operator": "is_null", "group": 1}}
		rep := call(auth.LevelReadOnly, NameBrowseTable, map[string]any{"table": "public.items", "filters": filters})
		ok(t, rep)
		rows, _ := structured(rep)["rows"].([]any)
		if len(rows) != 2 {
			t.Fatalf("%d rows: %s", len(rows), rep.text())
		}
		rep = call(auth.LevelReadOnly, NameCountRows, map[string]any{"table": "public.items", "filters": filters})
		ok(t, rep)
		if c, _ := structured(rep)["count"].(float64); c != 2 {
			t.Fatalf("%v", structured(rep))
		}
	})
	t.Run("execute_query: a SELECT runs without asking anyone", func(t *testing.T) {
		r.person.will()
		rep := call(auth.LevelReadOnly, NameExecuteQuery, map[string]any{"query": "SELECT title FROM public.items WHERE id = 2"})
		ok(t, rep)
		if !strings.Contains(rep.text(), "two") || len(r.person.questions()) != 0 {
			t.Fatalf("%s; asked %v", rep.text(), r.person.questions())
		}
	})
	t.Run("execute_query: an EXPLAIN runs unasked and answers the plan as text", func(t *testing.T) {
		r.person.will()
		rep := call(auth.LevelReadOnly, NameExecuteQuery, map[string]any{"query": "EXPLAIN (COSTS OFF) SELECT title FROM public.items WHERE id = 2"})
		ok(t, rep)
		st := structured(rep)
		if st["kind"] != "text" || !strings.Contains(fmt.Sprint(st["text"]), "items") || !strings.HasPrefix(rep.text(), "plan:\n") || len(r.person.questions()) != 0 {
			t.Fatalf("%s %v; asked %v", rep.text(), st, r.person.questions())
		}
	})
	before := state()
	for _, stmt := range []string{
		"WITH d AS (DELETE FROM public.items RETURNING *) SELECT * FROM d",
		"SELECT nextval('s')",
		"SELECT setval('s', 42)",
		"SELECT pg_terminate_backend(pg_backend_pid())",
		"EXPLAIN ANALYZE DELETE FROM public.items",
		"SELECT * FROM public.items FOR UPDATE",
		"SELECT 1; DROP TABLE public.items",
		"SELECT /* harmless */ 1; DELETE FROM public.items",
		"DO $$ BEGIN DELETE FROM public.items; END $$",
		"UPDATE public.items SET title = 'x'",
	} {
		t.Run("execute_query asks before it runs, and No changes nothing: "+stmt, func(t *testing.T) {
			r.person.will(approval.Deny)
			rep := call(auth.LevelFullAccess, NameExecuteQuery, map[string]any{"query": stmt})
			asked := len(r.person.questions())
			switch {
			case rep.result["isError"] != true:
				t.Fatalf("not gated: %d %v", rep.code, rep.result)
			case asked == 0:
				// Destructive: execute_query sends it to confirm_destructive_operation, which asks.
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
				t.Fatalf("psql reads %q, was %q", after, before)
			}
		})
	}
	t.Run("execute_query: an approved UPDATE is written", func(t *testing.T) {
		r.person.will(approval.Approve)
		ok(t, call(auth.LevelReadWrite, NameExecuteQuery, map[string]any{"query": "UPDATE public.items SET n = 11 WHERE id = 1"}))
		if got := state(); !strings.HasPrefix(got, "1:one:11 ") {
			t.Fatalf("psql reads %s", got)
		}
	})
	t.Run("insert_rows, update_rows and delete_rows by key, each approved", func(t *testing.T) {
		r.person.will(approval.Approve)
		rep := call(auth.LevelReadWrite, NameInsertRows, map[string]any{"table": "public.items", "rows": []any{map[string]any{"values": map[string]any{"id": 4, "title": "four", "tags": []any{"c"}}}}})
		ok(t, rep)
		r.person.will(approval.Approve)
		ok(t, call(auth.LevelReadWrite, NameUpdateRows, map[string]any{"table": "public.items", "rows": []any{map[string]any{"key": map[string]any{"id": 4}, "values": map[string]any{"n": 40}}}}))
		if got := state(); !strings.Contains(got, "4:four:40") {
			t.Fatalf("psql reads %s", got)
		}
		r.person.will(approval.Deny)
		call(auth.LevelReadWrite, NameDeleteRows, map[string]any{"table": "public.items", "keys": []any{map[string]any{"id": 4}}})
		if got := state(); !strings.Contains(got, "4:four:40") {
			t.Fatalf("a denied delete removed the row: %s", got)
		}
		r.person.will(approval.Approve)
		ok(t, call(auth.LevelReadWrite, NameDeleteRows, map[string]any{"table": "public.items", "keys": []any{map[string]any{"id": 4}}}))
		if got := state(); strings.Contains(got, "4:") {
			t.Fatalf("psql reads %s", got)
		}
	})
	t.Run("update_rows with a key of another column fails that row, naming the key", func(t *testing.T) {
		r.person.will(approval.Approve)
		rep := call(auth.LevelReadWrite, NameUpdateRows, map[string]any{"table": "public.items", "rows": []any{map[string]any{"key": map[string]any{"title": "one"}, "values": map[string]any{"n": 1}}}})
		if !strings.Contains(rep.text(), `"title", which is not a key column`) || !strings.HasPrefix(state(), "1:one:11 ") {
			t.Fatalf("%s; psql reads %s", rep.text(), state())
		}
	})
}
