// Package sqlkit is the SQL work the SQL driver plugins share (issue 39): a page's order and
// keyset positions, the marks where pages end, and filters as a WHERE. Each driver brings its
// dialect (how a value is bound, how text is searched, how an array's elements are read);
// the shapes of the statements are written once, here.
package sqlkit

import (
	"fmt"
	"strconv"
	"strings"
	"sync"

	"app/backend/driver"
)

// Bind binds value (nil for NULL) as a parameter compared with a term of type typ, appending
// it to args, and returns the parameter's SQL: PostgreSQL's "$3::int8", SQLite's "?".
type Bind func(args *[]any, value any, typ string) string

// Term is one term of a page's order: the expression, the type its values are bound as, and
// its direction (ascending is NULLS LAST, descending NULLS FIRST).
type Term struct {
	Expr, Type string
	Desc       bool
	// NotNull: the expression holds no NULL, so no term of the order need place one (which
	// lets the database walk an index from the position instead of filtering from the start).
	NotNull bool
}

// Order is a page's whole order: the sorts, then whatever makes it total (the key's columns,
// a row's place), so that every page has one order.
type Order []Term

// SQL is the order's ORDER BY, "" for no order.
func (o Order) SQL() string {
	if len(o) == 0 {
		return ""
	}
	parts := make([]string, len(o))
	for i, e := range o {
		parts[i] = e.Expr + " ASC NULLS LAST"
		if e.Desc {
			parts[i] = e.Expr + " DESC NULLS FIRST"
		}
	}
	return " ORDER BY " + strings.Join(parts, ", ")
}

// After is the condition that holds for the rows the order puts after a row whose order
// values are at (nil for NULL): the first term after it, or equal there and the next after,
// and so on, each term's NULLs where its direction puts them.
func (o Order) After(at []any, args *[]any, bind Bind) string {
	param := func(e Term, v any) string { return bind(args, v, e.Type) }
	// Every term without NULLs and one direction: a row comparison, which an index on the
	// order's columns answers from the position on.
	if o.plain(at) {
		exprs, params := make([]string, len(o)), make([]string, len(o))
		for i, e := range o {
			exprs[i], params[i] = e.Expr, param(e, at[i])
		}
		cmp := " > "
		if o[0].Desc {
			cmp = " < "
		}
		return "(" + strings.Join(exprs, ", ") + ")" + cmp + "(" + strings.Join(params, ", ") + ")"
	}
	var ors []string
	for i, e := range o {
		var ands []string
		for j := 0; j < i; j++ {
			if at[j] == nil {
				ands = append(ands, o[j].Expr+" IS NULL")
			} else {
				ands = append(ands, o[j].Expr+" = "+param(o[j], at[j]))
			}
		}
		switch {
		case !e.Desc && at[i] == nil:
			continue // nothing sorts after NULL ascending, NULLs last
		case !e.Desc && e.NotNull:
			ands = append(ands, e.Expr+" > "+param(e, at[i]))
		case !e.Desc:
			ands = append(ands, "("+e.Expr+" > "+param(e, at[i])+" OR "+e.Expr+" IS NULL)")
		case at[i] == nil:
			ands = append(ands, e.Expr+" IS NOT NULL")
		default:
			ands = append(ands, e.Expr+" < "+param(e, at[i]))
		}
		ors = append(ors, "("+strings.Join(ands, " AND ")+")")
	}
	if len(ors) == 0 {
		return "1 = 0"
	}
	return "(" + strings.Join(ors, " OR ") + ")"
}

// plain tells an order whose terms hold no NULL (nor does the position) and go one way.
func (o Order) plain(at []any) bool {
	for i, e := range o {
		if !e.NotNull || at[i] == nil || e.Desc != o[0].Desc {
			return false
		}
	}
	return true
}

// Marks remember, per page query, where the pages read end: the order values of the last row
// before an offset, so the page at that offset starts after it (keyset paging). A write
// through the driver forgets them (the rows before an offset may have changed).
type Marks struct {
	mu  sync.Mutex
	by  map[string]map[int][]any
	all int
}

// maxMarks bounds what Marks keep (a grid scrolled far keeps a bookmark a page).
const maxMarks = 20000

// At is the position before offset in the pages of query, if a page read ended there.
func (m *Marks) At(query string, offset int) ([]any, bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	v, ok := m.by[query][offset]
	return v, ok
}

// Put remembers that the page of query before offset ended at at.
func (m *Marks) Put(query string, offset int, at []any) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.by == nil || m.all >= maxMarks {
		m.by, m.all = map[string]map[int][]any{}, 0
	}
	if m.by[query] == nil {
		m.by[query] = map[int][]any{}
	}
	m.by[query][offset] = at
	m.all++
}

// Clear forgets every position.
func (m *Marks) Clear() {
	m.mu.Lock()
	m.by, m.all = nil, 0
	m.mu.Unlock()
}

// Plan is one page's statement parts: its WHERE (the filters', and where the page follows one
// a connection read, the condition that starts after that page's last row), the LIMIT (one
// row more than the page, which tells whether more follow) and the OFFSET where no mark serves.
type Plan struct {
	Where, Tail string
	Limit       int
	// query names the page's rows in the marks (the table, its WHERE and values, the order);
	// keyset: the order ends in something unique, so a page may start after a row.
	query  string
	keyset bool
}

// PlanPage plans page of table, whose filters make where with args, in order ord (keyset where
// that order is unique), with defaultLimit for a page that names none. A page after one the
// marks remember starts after its last row, its values bound by bind; any other skips by OFFSET.
func (m *Marks) PlanPage(table, where string, args *[]any, ord Order, keyset bool, page driver.Page, defaultLimit int, bind Bind) (Plan, error) {
	if page.Offset < 0 {
		return Plan{}, driver.Errorf(driver.KindInvalidArgument, "the page offset must not be negative")
	}
	p := Plan{Where: where, Limit: page.Limit, keyset: keyset,
		query: fmt.Sprintf("%s|%s|%#v|%s", table, where, *args, ord.SQL())}
	if p.Limit <= 0 {
		p.Limit = defaultLimit
	}
	skip := " OFFSET " + strconv.Itoa(page.Offset)
	if page.Offset > 0 && keyset {
		if at, ok := m.At(p.query, page.Offset); ok {
			cond := ord.After(at, args, bind)
			if p.Where == "" {
				p.Where = " WHERE " + cond
			} else {
				p.Where += " AND " + cond
			}
			skip = ""
		}
	}
	p.Tail = ord.SQL() + " LIMIT " + strconv.Itoa(p.Limit+1) + skip
	return p, nil
}

// Read remembers where a page of p that starts at offset and read n rows ended (at, its last
// row's order values), so the page after it starts there.
func (m *Marks) Read(p Plan, offset, n int, at []any) {
	if p.keyset && n > 0 {
		m.Put(p.query, offset+n, at)
	}
}
