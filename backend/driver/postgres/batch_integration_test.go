package postgres_test

import (
	"context"
	"testing"
	"time"

	"app/backend/driver"
)

// Issue 38, item 10: an import's batch writes many rows a statement, each created or replaced
// by its key; a row the server refuses fails alone with its reason and the others are
// written; a vector goes to the table's vector column. Read back with psql.
func TestAnImportBatchWritesEveryRowThatFits(t *testing.T) {
	n := sharedNode(t)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	for _, boundary := range []bool{false, true} {
		h := &harness{node: n, boundary: boundary}
		table := h.Table("batch")
		if _, err := n.Psql(ctx, "", "CREATE TABLE "+table+" (id int GENERATED ALWAYS AS IDENTITY PRIMARY KEY, title text NOT NULL, n int, tags text[]); INSERT INTO "+table+" (title, n) VALUES ('kept', 1)"); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { h.Drop(context.Background(), t, table) })
		d := h.Open(ctx, t)
		bw, ok := d.(driver.BatchWriter)
		if !ok || !driver.Offered(d).BatchWrite {
			t.Fatal("the driver does not offer batch writes")
		}
		res, err := bw.WriteBatch(ctx, table, []driver.Row{
			{Values: map[string]any{"id": "1", "title": "replaced", "n": "10"}},
			{Values: map[string]any{"id": "2", "title": "new", "tags": `["a","b"]`}},
			{Values: map[string]any{"id": "3", "title": nil}},
			{Values: map[string]any{"id": "4", "title": "four", "n": "not a number"}},
			{Values: map[string]any{"title": "made its own key"}},
		})
		if err != nil {
			t.Fatal(err)
		}
		want := []driver.RowStatus{driver.RowOK, driver.RowOK, driver.RowFailed, driver.RowFailed, driver.RowOK}
		for i, r := range res {
			if r.Status != want[i] {
				t.Errorf("row %d: %+v, want %s", i, r, want[i])
			}
		}
		if res[0].Key.Text() != "1" || res[4].Key.Text() == "" || res[2].Kind != driver.KindInvalidArgument {
			t.Errorf("keys and reasons: %+v", res)
		}
		got, err := n.Psql(ctx, "", "SELECT string_agg(id || ':' || title || ':' || coalesce(n::text, '-') || ':' || coalesce(array_to_string(tags, '+'), '-'), ' ' ORDER BY id) FROM "+table)
		if err != nil {
			t.Fatal(err)
		}
		if got != "1:replaced:10:- 2:new:-:a+b 3:made its own key:-:-" {
			t.Fatalf("psql reads %s", got)
		}
		d.Close()
	}
}
