package postgres_test

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"app/backend/driver"
)

// Issue 38, item 7: EXPLAIN is shown as the server wrote it — text line by line as psql prints
// it, FORMAT JSON as a document — whether it only plans (a read) or runs (ANALYZE, an approved
// write); and the server's notices of a statement come back with its result.
func TestTheEditorShowsPlansAsTextAndTheServersNotices(t *testing.T) {
	n := sharedNode(t)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	h := &harness{node: n}
	table := h.Table("planned")
	setup := "CREATE TABLE " + table + " (id int PRIMARY KEY, v text); INSERT INTO " + table + " SELECT i, 'v' || i FROM generate_series(1, 50) i;" +
		"CREATE FUNCTION " + table + "_shout() RETURNS int LANGUAGE plpgsql AS $$ BEGIN RAISE NOTICE 'shouted %', 42; RETURN 1; END $$;" +
		"CREATE VIEW " + table + "_loud AS SELECT " + table + "_shout() AS s"
	if _, err := n.Psql(ctx, "", setup); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_, _ = n.Psql(context.Background(), "", "DROP VIEW "+table+"_loud; DROP FUNCTION "+table+"_shout(); DROP TABLE "+table)
	})
	d := h.Open(ctx, t)
	defer d.Close()

	t.Run("EXPLAIN is text, the lines psql prints", func(t *testing.T) {
		stmt := "EXPLAIN (COSTS OFF) SELECT * FROM " + table + " WHERE id > 10 ORDER BY v"
		res, err := d.Execute(ctx, stmt, driver.ExecOptions{MaxRows: 100})
		if err != nil {
			t.Fatal(err)
		}
		want, err := n.Psql(ctx, "", stmt)
		if err != nil {
			t.Fatal(err)
		}
		if res.Kind != driver.ResultText || res.Text != want || !strings.Contains(res.Text, "\n") {
			t.Fatalf("%s %q, psql prints %q", res.Kind, res.Text, want)
		}
	})
	t.Run("EXPLAIN in JSON is a JSON document", func(t *testing.T) {
		res, err := d.Execute(ctx, "EXPLAIN (FORMAT JSON, COSTS OFF) SELECT * FROM "+table, driver.ExecOptions{MaxRows: 100})
		if err != nil {
			t.Fatal(err)
		}
		var plan []struct {
			Plan map[string]any `json:"Plan"`
		}
		if res.Kind != driver.ResultJSON || json.Unmarshal(res.JSON, &plan) != nil || len(plan) != 1 || plan[0].Plan["Node Type"] != "Seq Scan" {
			t.Fatalf("%s %s", res.Kind, res.JSON)
		}
	})
	t.Run("EXPLAIN ANALYZE of a delete is an approved write, its plan text, and it ran", func(t *testing.T) {
		stmt := "EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF) DELETE FROM " + table + " WHERE id = 50"
		if c, err := d.Classify(stmt); err != nil || !c.Write() {
			t.Fatalf("%+v %v", c, err)
		}
		res, err := d.Execute(ctx, stmt, driver.ExecOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if res.Kind != driver.ResultText || !strings.HasPrefix(res.Text, "Delete on ") || !strings.Contains(res.Text, "actual rows=") {
			t.Fatalf("%s %q", res.Kind, res.Text)
		}
		if left, err := n.Psql(ctx, "", "SELECT count(*) FROM "+table); err != nil || left != "49" {
			t.Fatalf("rows left %s %v", left, err)
		}
	})
	t.Run("a run of several statements answers each, in order, with the server's tag", func(t *testing.T) {
		res, err := d.Execute(ctx, "SELECT count(*) AS n FROM "+table+"; VALUES (1), (2), (3)", driver.ExecOptions{MaxRows: 100})
		if err != nil {
			t.Fatal(err)
		}
		want, err := n.Psql(ctx, "", "SELECT count(*) FROM "+table)
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Before) != 1 || res.Before[0].Tag != "SELECT 1" || fmt.Sprint(res.Before[0].Grid.Rows[0][0]) != want ||
			res.Tag != "SELECT 3" || len(res.Grid.Rows) != 3 {
			t.Fatalf("%+v", res)
		}
		res, err = d.Execute(ctx, "CREATE TEMP TABLE "+table+"_t (i int); INSERT INTO "+table+"_t VALUES (1), (2) RETURNING i", driver.ExecOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Before) != 1 || res.Before[0].Tag != "CREATE TABLE" || res.Tag != "INSERT 0 2" || len(res.Grid.Rows) != 2 {
			t.Fatalf("%+v", res)
		}
	})
	t.Run("a write's notices come back with its result", func(t *testing.T) {
		res, err := d.Execute(ctx, "DO $$ BEGIN RAISE NOTICE 'one'; RAISE WARNING 'two'; END $$", driver.ExecOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(res.Notice, "NOTICE: one\nWARNING: two") {
			t.Fatalf("notice %q", res.Notice)
		}
	})
	t.Run("a read's notices come back with its rows, and no other run's", func(t *testing.T) {
		res, err := d.Execute(ctx, "SELECT * FROM "+table+"_loud", driver.ExecOptions{MaxRows: 10})
		if err != nil {
			t.Fatal(err)
		}
		if res.Kind != driver.ResultGrid || res.Notice != "NOTICE: shouted 42" {
			t.Fatalf("%s notice %q", res.Kind, res.Notice)
		}
		res, err = d.Execute(ctx, "SELECT count(*) FROM "+table, driver.ExecOptions{MaxRows: 10})
		if err != nil || res.Notice != "" {
			t.Fatalf("a quiet read heard %q (%v)", res.Notice, err)
		}
	})
}

// Issue 38, item 7: the editor completes from the live catalog — every column of a table in
// its order (the key among them: SQL names it like any column) and the functions a statement
// can call, the user's own included — as psql reads the catalog.
func TestTheEditorCompletesTheLiveCatalog(t *testing.T) {
	n := sharedNode(t)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	h := &harness{node: n}
	table := h.Table("completed")
	if _, err := n.Psql(ctx, "", "CREATE TABLE "+table+" (id int PRIMARY KEY, title text, price numeric); ALTER TABLE "+table+" DROP COLUMN price;"+
		"ALTER TABLE "+table+" ADD COLUMN seen date; CREATE FUNCTION "+table+"_score(int) RETURNS int LANGUAGE sql AS 'SELECT $1'"); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_, _ = n.Psql(context.Background(), "", "DROP FUNCTION "+table+"_score(int); DROP TABLE "+table)
	})
	d := h.Open(ctx, t)
	defer d.Close()
	c, ok := d.(driver.Completer)
	if !ok || !driver.Offered(d).Completions {
		t.Fatal("the PostgreSQL driver names its editor's words")
	}
	words, err := c.Completions(ctx)
	if err != nil {
		t.Fatal(err)
	}
	want, err := n.Psql(ctx, "", "SELECT string_agg(attname, ',' ORDER BY attnum) FROM pg_attribute WHERE attrelid = 'public."+table+"'::regclass AND attnum > 0 AND NOT attisdropped")
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(words.Tables["public."+table], ","); got != want {
		t.Fatalf("columns %q, psql reads %q", got, want)
	}
	for _, f := range []string{"lower", "count", "now", "pg_size_pretty", table + "_score"} {
		if !slices.Contains(words.Functions, f) {
			t.Errorf("no function %s among %d", f, len(words.Functions))
		}
	}
	for _, f := range []string{"int4in", "array_send"} {
		if slices.Contains(words.Functions, f) {
			t.Errorf("the catalog's plumbing %s is offered", f)
		}
	}
}
