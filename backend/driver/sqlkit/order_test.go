package sqlkit

import (
	"strconv"
	"testing"

	"app/backend/driver"
)

func bindQ(args *[]any, v any, _ string) string {
	*args = append(*args, v)
	return "?" + strconv.Itoa(len(*args))
}

// A page after a row starts where the order puts that row: a row comparison where no term can
// hold NULL and all go one way (which an index answers from the position), else term by term,
// each term's NULLs where its direction puts them (ascending last, descending first).
func TestAPageStartsAfterItsRowByTheOrdersOwnRule(t *testing.T) {
	cases := []struct {
		name string
		o    Order
		at   []any
		want string
		args int
	}{
		{"the key alone: a row comparison", Order{{Expr: "id", NotNull: true}}, []any{int64(5)}, "(id) > (?1)", 1},
		{"a descending key", Order{{Expr: "id", NotNull: true, Desc: true}}, []any{int64(5)}, "(id) < (?1)", 1},
		{"a sort that may hold NULL, then the key", Order{{Expr: "n"}, {Expr: "id", NotNull: true}}, []any{int64(3), int64(7)},
			"(((n > ?1 OR n IS NULL)) OR (n = ?2 AND id > ?3))", 3},
		{"after a NULL ascending: only the rows of that NULL after the key", Order{{Expr: "n"}, {Expr: "id", NotNull: true}}, []any{nil, int64(7)},
			"((n IS NULL AND id > ?1))", 1},
		{"after a NULL descending: every value, then the rest of the NULLs", Order{{Expr: "n", Desc: true}, {Expr: "id", NotNull: true}}, []any{nil, int64(7)},
			"((n IS NOT NULL) OR (n IS NULL AND id > ?1))", 1},
		{"two directions: term by term", Order{{Expr: "a", NotNull: true, Desc: true}, {Expr: "id", NotNull: true}}, []any{"x", int64(1)},
			"((a < ?1) OR (a = ?2 AND id > ?3))", 3},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var args []any
			if got := c.o.After(c.at, &args, bindQ); got != c.want || len(args) != c.args {
				t.Fatalf("got %s with %d values, want %s with %d", got, len(args), c.want, c.args)
			}
		})
	}
}

// A page plan starts after the row the page before it ended on only where the order is unique
// and that page was read through the same marks; any other page skips by OFFSET. A negative
// offset is refused.
func TestAPagePlanUsesAMarkOnlyWhereOneServes(t *testing.T) {
	var m Marks
	ord := Order{{Expr: "id", NotNull: true}}
	plan := func(offset int, keyset bool) Plan {
		var args []any
		p, err := m.PlanPage("t", "", &args, ord, keyset, driver.Page{Offset: offset, Limit: 10}, 100, bindQ)
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	first := plan(0, true)
	if first.Where != "" || first.Tail != " ORDER BY id ASC NULLS LAST LIMIT 11 OFFSET 0" {
		t.Fatalf("page 1: %+v", first)
	}
	if p := plan(10, true); p.Where != "" || p.Tail != " ORDER BY id ASC NULLS LAST LIMIT 11 OFFSET 10" {
		t.Fatalf("page 2 before page 1 was read: %+v", p)
	}
	m.Read(first, 0, 10, []any{int64(10)})
	if p := plan(10, true); p.Where != " WHERE (id) > (?1)" || p.Tail != " ORDER BY id ASC NULLS LAST LIMIT 11" {
		t.Fatalf("page 2 after page 1: %+v", p)
	}
	if p := plan(10, false); p.Where != "" {
		t.Fatalf("an order that is not unique started after a row: %+v", p)
	}
	var args []any
	if _, err := m.PlanPage("t", "", &args, ord, true, driver.Page{Offset: -1}, 100, bindQ); !driver.IsKind(err, driver.KindInvalidArgument) {
		t.Fatalf("a negative offset: %v", err)
	}
	m.Clear()
	if p := plan(10, true); p.Where != "" {
		t.Fatalf("a mark outlived Clear: %+v", p)
	}
}
