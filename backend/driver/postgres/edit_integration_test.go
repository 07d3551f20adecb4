package postgres_test

import (
	"context"
	"testing"
	"time"

	"app/backend/driver"
)

// Issue 38, item 5: a commit writes all its rows or none, and an edited row that changed on
// the server since it was read is reported as a conflict and not overwritten (the cells as
// read are in the WHERE); each outcome is read back with psql, in process and across the
// plugin protocol.
func TestAnEditedRowChangedSinceItWasReadIsAConflict(t *testing.T) {
	n := sharedNode(t)
	for _, boundary := range []bool{false, true} {
		name := "in process"
		if boundary {
			name = "across the plugin protocol"
		}
		t.Run(name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			h := &harness{node: n, boundary: boundary}
			table := h.Table("edits")
			if _, err := n.Psql(ctx, "", "CREATE TABLE "+table+` (id int PRIMARY KEY, title text, price numeric(12,2), n int);
INSERT INTO `+table+` VALUES (1, 'a', 1.50, 5), (2, 'b', 2.00, NULL)`); err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { h.Drop(context.Background(), t, table) })
			d := h.Open(ctx, t)
			defer d.Close()
			read := func() string {
				out, err := n.Psql(ctx, "", "SELECT string_agg(id || ':' || title || ':' || price || ':' || coalesce(n::text, 'null'), ' ' ORDER BY id) FROM "+table)
				if err != nil {
					t.Fatal(err)
				}
				return out
			}
			one, two := driver.Key{"id": "1"}, driver.Key{"id": "2"}

			res, err := d.Update(ctx, table, []driver.Row{{Key: one, Values: map[string]any{"title": "a2", "price": "3"}, Original: map[string]any{"title": "a", "price": "1.50"}}})
			if err != nil || res[0].Status != driver.RowOK || read() != "1:a2:3.00:5 2:b:2.00:null" {
				t.Fatalf("an update whose cells still hold is written: %+v %v; psql reads %s", res, err, read())
			}
			if _, err := n.Psql(ctx, "", "UPDATE "+table+" SET title = 'by another' WHERE id = 1"); err != nil {
				t.Fatal(err)
			}
			res, err = d.Update(ctx, table, []driver.Row{
				{Key: two, Values: map[string]any{"title": "b2"}, Original: map[string]any{"title": "b"}},
				{Key: one, Values: map[string]any{"title": "mine"}, Original: map[string]any{"title": "a2"}},
			})
			if err != nil || res[1].Status != driver.RowFailed || res[1].Kind != driver.KindConflict || res[0].Status != driver.RowFailed {
				t.Fatalf("a row changed since it was read is a conflict, and its commit writes nothing: %+v %v", res, err)
			}
			if got := read(); got != "1:by another:3.00:5 2:b:2.00:null" {
				t.Fatalf("psql reads %s: a conflicting commit overwrote something", got)
			}
			res, err = d.Update(ctx, table, []driver.Row{{Key: two, Values: map[string]any{"n": "7"}, Original: map[string]any{"n": nil}}})
			if err != nil || res[0].Status != driver.RowOK || read() != "1:by another:3.00:5 2:b:2.00:7" {
				t.Fatalf("a NULL read is held as NULL: %+v %v; psql reads %s", res, err, read())
			}
			res, err = d.Update(ctx, table, []driver.Row{{Key: two, Values: map[string]any{"n": "8"}, Original: map[string]any{"n": nil}}})
			if err != nil || res[0].Kind != driver.KindConflict || read() != "1:by another:3.00:5 2:b:2.00:7" {
				t.Fatalf("a cell read NULL that holds a value since is a conflict: %+v %v; psql reads %s", res, err, read())
			}
			res, err = d.Update(ctx, table, []driver.Row{{Key: driver.Key{"id": "9"}, Values: map[string]any{"n": "1"}, Original: map[string]any{"n": "1"}}})
			if err != nil || res[0].Kind != driver.KindNotFound {
				t.Fatalf("a row that is gone is not found, not a conflict: %+v %v", res, err)
			}
		})
	}
}
