package postgres_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"app/backend/driver"
)

// Issue 38, item 4: pages read one after another start after the last row read (keyset), and
// give exactly the rows, in exactly the order, that PostgreSQL's own ORDER BY gives (psql),
// whatever the sort's direction and however many NULLs and ties it has; a page reached by a
// jump reads by offset and agrees.
func TestPagesReadOnAreTheServersOrder(t *testing.T) {
	n := sharedNode(t)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	h := &harness{node: n}
	table := h.Table("pages")
	if _, err := n.Psql(ctx, "", "CREATE TABLE "+table+` (id int PRIMARY KEY, grp int, word text);
INSERT INTO `+table+` SELECT i, CASE WHEN i % 7 = 0 THEN NULL ELSE i % 5 END, 'w' || (i % 11) FROM generate_series(1, 523) i`); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { h.Drop(context.Background(), t, table) })
	d := h.Open(ctx, t)
	defer d.Close()
	for _, c := range []struct {
		sorts []driver.Sort
		sql   string
	}{
		{nil, "id"},
		{[]driver.Sort{{Column: "grp"}}, "grp ASC NULLS LAST, id"},
		{[]driver.Sort{{Column: "grp", Descending: true}}, "grp DESC NULLS FIRST, id"},
		{[]driver.Sort{{Column: "grp"}, {Column: "word", Descending: true}}, "grp ASC NULLS LAST, word DESC NULLS FIRST, id"},
		{[]driver.Sort{{Column: "word"}, {Column: "id", Descending: true}}, "word ASC NULLS LAST, id DESC NULLS FIRST"},
	} {
		t.Run(c.sql, func(t *testing.T) {
			want, err := n.Psql(ctx, "", "SELECT string_agg(id::text, ',' ORDER BY "+c.sql+") FROM "+table+" WHERE id % 3 <> 0")
			if err != nil {
				t.Fatal(err)
			}
			filters := []driver.Filter{{Column: "id", Operator: driver.OpNotIn, Value: threes(523)}}
			var got []string
			for off := 0; ; off += 50 {
				g, err := d.Browse(ctx, table, driver.Page{Offset: off, Limit: 50}, filters, c.sorts)
				if err != nil {
					t.Fatal(err)
				}
				for _, r := range g.Rows {
					got = append(got, fmt.Sprint(r[0]))
				}
				if !g.HasMore {
					break
				}
			}
			if strings.Join(got, ",") != want {
				t.Fatalf("pages read on give\n%s\npsql orders\n%s", strings.Join(got, ","), want)
			}
			// A jump to a page no page before ended at reads by offset, the same rows.
			g, err := d.Browse(ctx, table, driver.Page{Offset: 137, Limit: 20}, filters, c.sorts)
			if err != nil {
				t.Fatal(err)
			}
			var jumped []string
			for _, r := range g.Rows {
				jumped = append(jumped, fmt.Sprint(r[0]))
			}
			if strings.Join(jumped, ",") != strings.Join(got[137:157], ",") {
				t.Fatalf("a jump to offset 137 gives %v, want %v", jumped, got[137:157])
			}
		})
	}
}

// A page read on starts after the last row read, not after as many rows: a row added before
// it meanwhile (by another program) neither repeats a row nor hides one, as OFFSET would.
func TestAPageReadOnStartsAfterTheLastRowRead(t *testing.T) {
	n := sharedNode(t)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	h := &harness{node: n}
	table := h.Table("keyset")
	if _, err := n.Psql(ctx, "", "CREATE TABLE "+table+" (id int PRIMARY KEY); INSERT INTO "+table+" SELECT generate_series(1, 100)"); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { h.Drop(context.Background(), t, table) })
	d := h.Open(ctx, t)
	defer d.Close()
	first, err := d.Browse(ctx, table, driver.Page{Offset: 0, Limit: 10}, nil, nil)
	if err != nil || fmt.Sprint(first.Rows[9][0]) != "10" {
		t.Fatalf("%v %v", first, err)
	}
	if _, err := n.Psql(ctx, "", "INSERT INTO "+table+" VALUES (-1)"); err != nil {
		t.Fatal(err)
	}
	next, err := d.Browse(ctx, table, driver.Page{Offset: 10, Limit: 10}, nil, nil)
	if err != nil || fmt.Sprint(next.Rows[0][0]) != "11" {
		t.Fatalf("the page after rows 1-10 starts at %v (%v): it must start after row 10 whatever was added before it", next.Rows[0][0], err)
	}
}

// threes lists the multiples of 3 up to n, an IN list.
func threes(n int) string {
	var parts []string
	for i := 3; i <= n; i += 3 {
		parts = append(parts, fmt.Sprint(i))
	}
	return strings.Join(parts, ",")
}

// A filter value its column's type does not read is refused naming that filter, in a page, a
// count and a search alike, and the others of the same request are not blamed.
func TestAValueItsColumnDoesNotReadIsARefusedFilter(t *testing.T) {
	n := sharedNode(t)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	h := &harness{node: n}
	table := h.Table("values")
	if _, err := n.Psql(ctx, "", "CREATE TABLE "+table+" (id int PRIMARY KEY, at date, word text); INSERT INTO "+table+" VALUES (1, '2026-01-01', 'a')"); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { h.Drop(context.Background(), t, table) })
	d := h.Open(ctx, t)
	defer d.Close()
	filters := []driver.Filter{{Column: "id", Operator: driver.OpGreater, Value: "0"}, {Column: "at", Operator: driver.OpEquals, Value: "not a date"}}
	_, browseErr := d.Browse(ctx, table, driver.Page{Limit: 5}, filters, nil)
	_, countErr := d.Count(ctx, table, filters)
	_, scanErr := d.(driver.Scanner).Scan(ctx, table, driver.ScanRequest{Filters: filters})
	for _, err := range []error{browseErr, countErr, scanErr} {
		var de *driver.Error
		if !errors.As(err, &de) || de.Kind != driver.KindRefusedFilter || de.Column != "at" || de.Operator != driver.OpEquals {
			t.Fatalf("%v, want the at filter refused", err)
		}
	}
	if g, err := d.Browse(ctx, table, driver.Page{Limit: 5}, filters[:1], nil); err != nil || len(g.Rows) != 1 {
		t.Fatalf("the good filter alone: %v %v", g, err)
	}
}
